package main

import (
	"fmt"
	"sort"
)

// checkListings checks every acknowledged listing (ListObjectsV2, op "list") against the writes and deletes
// of its bucket's keys, and returns a line per violation. A listing must name every key that an acknowledged
// write (put, conditional put, multipart upload) completed before the listing began, unless a delete may have
// taken effect after that write and before the listing ended: an acknowledged one that completed after the
// write began, or one of unknown outcome invoked before the listing ended (it may take effect at any time
// after its invoke). A listing must not name a key that was absent for its whole interval: never written by
// anything invoked before the listing ended, or deleted by an acknowledged delete that completed before the
// listing began with every write that may have taken effect (acknowledged, or unknown and invoked before the
// listing ended) acknowledged before that delete began. Writes and deletes that definitely failed, and 412s,
// change nothing.
//
// Returns the listings checked, the (listing, key) pairs whose presence the history decided, and violations.
func checkListings(ops []op) (checked, decided int, violations []string) {
	byKey := map[register]*keyOps{}
	keysOf := map[string]map[string]bool{}
	for _, o := range ops {
		if o.Key == "" {
			continue
		}
		r := register{o.Bucket, o.Key}
		k := byKey[r]
		if k == nil {
			k = &keyOps{}
			byKey[r] = k
		}
		k.add(o)
		if keysOf[o.Bucket] == nil {
			keysOf[o.Bucket] = map[string]bool{}
		}
		keysOf[o.Bucket][o.Key] = true
	}
	for _, l := range ops {
		if l.Op != "list" || l.Outcome != "ok" {
			continue
		}
		checked++
		listed := map[string]bool{}
		for _, key := range l.Keys {
			listed[key] = true
		}
		var keys []string
		for key := range keysOf[l.Bucket] {
			keys = append(keys, key)
		}
		for key := range listed {
			if !keysOf[l.Bucket][key] {
				keys = append(keys, key)
			}
		}
		sort.Strings(keys)
		for _, key := range keys {
			k := byKey[register{l.Bucket, key}]
			if k == nil {
				k = &keyOps{}
			}
			w, present := k.presentThroughout(l)
			why, absent := k.absentThroughout(l)
			if present || absent {
				decided++
			}
			if !listed[key] {
				if present {
					violations = append(violations, fmt.Sprintf("listing of %s by client %d at %d-%d lacks %s,"+
						" written by client %d's %s at %d-%d and deleted by nothing that may have taken effect since",
						l.Bucket, l.Client, l.Invoke, l.Complete, key, w.Client, w.Op, w.Invoke, w.Complete))
				}
			} else if absent {
				violations = append(violations, fmt.Sprintf("listing of %s by client %d at %d-%d names %s, absent"+
					" throughout: %s", l.Bucket, l.Client, l.Invoke, l.Complete, key, why))
			}
		}
	}
	return checked, decided, violations
}

// keyOps: one key's writes and deletes that may have taken effect.
type keyOps struct {
	okWrites, unknownWrites, okDeletes, unknownDeletes []op
}

func (k *keyOps) add(o op) {
	write := o.Op == "put" || o.Op == "cput" || o.Op == "mpu"
	if !write && o.Op != "delete" {
		return
	}
	switch {
	case write && o.Outcome == "ok":
		k.okWrites = append(k.okWrites, o)
	case write && o.Outcome == "unknown":
		k.unknownWrites = append(k.unknownWrites, o)
	case o.Outcome == "ok":
		k.okDeletes = append(k.okDeletes, o)
	case o.Outcome == "unknown":
		k.unknownDeletes = append(k.unknownDeletes, o)
	}
}

// presentThroughout returns an acknowledged write after which the key held an object throughout listing l.
// The latest-invoked write acknowledged before l began is the one to try: a delete that may follow it may
// follow every earlier one too.
func (k *keyOps) presentThroughout(l op) (op, bool) {
	w, found := latestInvokedBefore(k.okWrites, l.Invoke)
	if !found {
		return op{}, false
	}
	for _, d := range k.unknownDeletes {
		if d.Invoke < l.Complete {
			return op{}, false
		}
	}
	for _, d := range k.okDeletes {
		if d.Invoke < l.Complete && d.Complete > w.Invoke {
			return op{}, false
		}
	}
	return w, true
}

// absentThroughout says why the key held no object throughout listing l, if it did not.
func (k *keyOps) absentThroughout(l op) (string, bool) {
	var mayHaveWritten []op
	for _, w := range k.okWrites {
		if w.Invoke < l.Complete {
			mayHaveWritten = append(mayHaveWritten, w)
		}
	}
	for _, w := range k.unknownWrites {
		if w.Invoke < l.Complete {
			mayHaveWritten = append(mayHaveWritten, w)
		}
	}
	if len(mayHaveWritten) == 0 {
		return "nothing that may have written it was invoked before the listing ended", true
	}
	// The latest-invoked delete acknowledged before l began leaves the fewest writes that may follow it.
	d, found := latestInvokedBefore(k.okDeletes, l.Invoke)
	if !found {
		return "", false
	}
	for _, w := range mayHaveWritten {
		if w.Outcome != "ok" || w.Complete >= d.Invoke {
			return "", false
		}
	}
	return fmt.Sprintf("client %d's delete at %d-%d followed every write that may have taken effect",
		d.Client, d.Invoke, d.Complete), true
}

// latestInvokedBefore: of ops, the one invoked last among those that completed before t.
func latestInvokedBefore(ops []op, t int64) (op, bool) {
	var latest op
	found := false
	for _, o := range ops {
		if o.Complete < t && (!found || o.Invoke > latest.Invoke) {
			latest, found = o, true
		}
	}
	return latest, found
}
