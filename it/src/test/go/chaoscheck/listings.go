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

// keyOps: one key's writes and deletes that may have taken effect, indexed (index) so that each question
// about a listing is a binary search, not a scan: a soak has tens of thousands of listings.
type keyOps struct {
	okWrites, unknownWrites, okDeletes, unknownDeletes []op

	indexed bool
	// okWrites and okDeletes by completion, with the latest invoke among the first i (latestInvoked).
	writesByComplete, deletesByComplete latestInvoked
	// okWrites by invoke, with the latest completion among the first i.
	writesByInvoke   []op
	writeCompleteMax []int64
	// okDeletes by invoke, with the latest completion among the first i.
	deletesByInvoke                                   []op
	deleteCompleteMax                                 []int64
	firstUnknownDelete, firstUnknownWrite, firstWrite int64
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
	k.indexed = false
}

const never = int64(1<<63 - 1)

func (k *keyOps) index() {
	if k.indexed {
		return
	}
	k.writesByComplete = newLatestInvoked(k.okWrites)
	k.deletesByComplete = newLatestInvoked(k.okDeletes)
	k.writesByInvoke, k.writeCompleteMax = byInvoke(k.okWrites)
	k.deletesByInvoke, k.deleteCompleteMax = byInvoke(k.okDeletes)
	k.firstUnknownDelete = firstInvoke(k.unknownDeletes)
	k.firstUnknownWrite = firstInvoke(k.unknownWrites)
	k.firstWrite = min(firstInvoke(k.okWrites), k.firstUnknownWrite)
	k.indexed = true
}

// presentThroughout returns an acknowledged write after which the key held an object throughout listing l.
// The latest-invoked write acknowledged before l began is the one to try: a delete that may follow it may
// follow every earlier one too.
func (k *keyOps) presentThroughout(l op) (op, bool) {
	k.index()
	w, found := k.writesByComplete.before(l.Invoke)
	if !found || k.firstUnknownDelete < l.Complete {
		return op{}, false
	}
	// An acknowledged delete invoked before l ended that completed after w began.
	if latestComplete(k.deletesByInvoke, k.deleteCompleteMax, l.Complete) > w.Invoke {
		return op{}, false
	}
	return w, true
}

// absentThroughout says why the key held no object throughout listing l, if it did not.
func (k *keyOps) absentThroughout(l op) (string, bool) {
	k.index()
	if k.firstWrite >= l.Complete {
		return "nothing that may have written it was invoked before the listing ended", true
	}
	// The latest-invoked delete acknowledged before l began leaves the fewest writes that may follow it.
	d, found := k.deletesByComplete.before(l.Invoke)
	if !found || k.firstUnknownWrite < l.Complete {
		return "", false
	}
	if latestComplete(k.writesByInvoke, k.writeCompleteMax, l.Complete) >= d.Invoke {
		return "", false
	}
	return fmt.Sprintf("client %d's delete at %d-%d followed every write that may have taken effect",
		d.Client, d.Invoke, d.Complete), true
}

// latestInvoked: ops by completion, and for each prefix the op invoked last in it.
type latestInvoked struct {
	byComplete []op
	latest     []op // latest[i]: the op invoked last among byComplete[:i+1]
}

func newLatestInvoked(ops []op) latestInvoked {
	sorted := append([]op(nil), ops...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Complete < sorted[j].Complete })
	latest := make([]op, len(sorted))
	for i, o := range sorted {
		latest[i] = o
		if i > 0 && latest[i-1].Invoke > o.Invoke {
			latest[i] = latest[i-1]
		}
	}
	return latestInvoked{sorted, latest}
}

// before: the op invoked last among those that completed before t.
func (l latestInvoked) before(t int64) (op, bool) {
	n := sort.Search(len(l.byComplete), func(i int) bool { return l.byComplete[i].Complete >= t })
	if n == 0 {
		return op{}, false
	}
	return l.latest[n-1], true
}

// byInvoke: ops by invoke, and for each prefix the latest completion in it.
func byInvoke(ops []op) ([]op, []int64) {
	sorted := append([]op(nil), ops...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Invoke < sorted[j].Invoke })
	maxComplete := make([]int64, len(sorted))
	for i, o := range sorted {
		maxComplete[i] = o.Complete
		if i > 0 && maxComplete[i-1] > o.Complete {
			maxComplete[i] = maxComplete[i-1]
		}
	}
	return sorted, maxComplete
}

// latestComplete: the latest completion among the ops (by invoke) invoked before t; -1 for none.
func latestComplete(sorted []op, maxComplete []int64, t int64) int64 {
	n := sort.Search(len(sorted), func(i int) bool { return sorted[i].Invoke >= t })
	if n == 0 {
		return -1
	}
	return maxComplete[n-1]
}

func firstInvoke(ops []op) int64 {
	first := never
	for _, o := range ops {
		first = min(first, o.Invoke)
	}
	return first
}
