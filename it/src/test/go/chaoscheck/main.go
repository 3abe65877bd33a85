// Command chaoscheck decides whether a chaos run's history (issue #23) is linearizable, key by key.
//
// Usage: chaoscheck -history DIR/history.jsonl [-out DIR] [-timeout 60s]
//
// The history is what it/'s ChaosIT records: one JSON object a line per S3 operation (see Op.java). Each
// (bucket, key) is a register holding the digest of its current object, or nothing: a put or a completed
// multipart upload sets it, a delete empties it, a conditional put (If-None-Match: *) sets it only if it is
// empty and otherwise answers 412, a get returns it (404: empty). Listings are not part of the model: each is
// checked against the writes and deletes around it (checkListings). An operation whose outcome is unknown (a timeout, a reset, a 5xx) may
// or may not have taken effect: it returns at the end of the history, so Porcupine may order it anywhere
// after its call, including after everything else, where it changes nothing anyone saw. A definite failure
// (a 4xx other than 412) had no effect and is left out; so is a get without an answer.
//
// Prints a verdict per key. On a violation it writes Porcupine's visualization to OUT/<bucket>-<key>.html,
// prints the smallest failing sub-history it finds (dropping, one at a time, operations that cannot change
// the register: reads and 412s, while the rest stays non-linearizable) and exits 1. Exits 2 when a key could
// not be decided within the timeout or the input is malformed.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/anishathalye/porcupine"
)

// op is one line of history.jsonl; fields the checker does not need are ignored.
type op struct {
	Client    int      `json:"client"`
	Op        string   `json:"op"`
	Bucket    string   `json:"bucket"`
	Key       string   `json:"key"`
	Digest    string   `json:"digest"`
	VersionID string   `json:"versionId"`
	Invoke    int64    `json:"invoke"`
	Complete  int64    `json:"complete"`
	Outcome   string   `json:"outcome"`
	Status    int      `json:"status"`
	Keys      []string `json:"keys"` // a listing's
}

// input is what a client asked; output what it saw.
type input struct {
	Op     string
	Digest string // written; empty for get and delete
}

type output struct {
	Unknown bool
	Refused bool   // a conditional put's 412
	Digest  string // read; empty: no object
}

// registerModel: the state is the current object's digest, "" when there is none.
var registerModel = porcupine.Model{
	Init: func() interface{} { return "" },
	Step: func(state, in, out interface{}) (bool, interface{}) {
		s, i, o := state.(string), in.(input), out.(output)
		switch i.Op {
		case "put", "mpu":
			return true, i.Digest
		case "delete":
			return true, ""
		case "cput":
			if o.Unknown {
				if s == "" {
					return true, i.Digest
				}
				return true, s
			}
			if o.Refused {
				return s != "", s
			}
			return s == "", i.Digest
		case "get":
			return s == o.Digest, s
		}
		panic("unexpected op " + i.Op)
	},
	Equal: func(a, b interface{}) bool { return a.(string) == b.(string) },
	DescribeOperation: func(in, out interface{}) string {
		i, o := in.(input), out.(output)
		switch {
		case o.Unknown:
			return fmt.Sprintf("%s(%s) -> unknown", i.Op, short(i.Digest))
		case o.Refused:
			return fmt.Sprintf("%s(%s) -> 412", i.Op, short(i.Digest))
		case i.Op == "get":
			return fmt.Sprintf("get() -> %s", short(o.Digest))
		}
		return fmt.Sprintf("%s(%s) -> ok", i.Op, short(i.Digest))
	},
	DescribeState: func(state interface{}) string { return short(state.(string)) },
}

func short(digest string) string {
	if digest == "" {
		return "none"
	}
	if len(digest) > 8 {
		return digest[:8]
	}
	return digest
}

// toOperation maps a history line to Porcupine's operation; false for one that cannot inform the model.
func toOperation(o op, end int64) (porcupine.Operation, bool) {
	out := output{}
	switch o.Outcome {
	case "ok":
		if o.Op == "get" {
			out.Digest = o.Digest
		}
	case "unknown":
		if o.Op == "get" {
			return porcupine.Operation{}, false
		}
		out.Unknown = true
	case "fail":
		if o.Op != "cput" || o.Status != 412 {
			return porcupine.Operation{}, false
		}
		out.Refused = true
	default:
		return porcupine.Operation{}, false
	}
	in := input{Op: o.Op}
	if o.Op != "get" && o.Op != "delete" {
		in.Digest = o.Digest
	}
	ret := o.Complete
	if out.Unknown {
		ret = end
	}
	return porcupine.Operation{ClientId: o.Client, Input: in, Call: o.Invoke, Output: out, Return: ret,
		Metadata: o}, true
}

type register struct{ bucket, key string }

func main() {
	historyPath := flag.String("history", "", "history.jsonl of a chaos run")
	outDir := flag.String("out", "", "where visualizations go (default: the history's directory)")
	timeout := flag.Duration("timeout", 60*time.Second, "time allowed per key")
	flag.Parse()
	if *historyPath == "" {
		fmt.Fprintln(os.Stderr, "chaoscheck: -history is required")
		os.Exit(2)
	}
	if *outDir == "" {
		*outDir = filepath.Dir(*historyPath)
	}
	ops, err := read(*historyPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chaoscheck:", err)
		os.Exit(2)
	}
	var end int64
	for _, o := range ops {
		if o.Complete >= end {
			end = o.Complete + 1
		}
	}
	byRegister := map[register][]porcupine.Operation{}
	for _, o := range ops {
		if o.Key == "" || o.Op == "list" || o.Op == "versions" {
			continue
		}
		if p, ok := toOperation(o, end); ok {
			r := register{o.Bucket, o.Key}
			byRegister[r] = append(byRegister[r], p)
		}
	}
	registers := make([]register, 0, len(byRegister))
	for r := range byRegister {
		registers = append(registers, r)
	}
	sort.Slice(registers, func(i, j int) bool {
		if registers[i].bucket != registers[j].bucket {
			return registers[i].bucket < registers[j].bucket
		}
		return registers[i].key < registers[j].key
	})
	exit := 0
	total := 0
	for _, r := range registers {
		history := byRegister[r]
		total += len(history)
		result, info, how := check(history, *timeout)
		fmt.Printf("%s/%s: %s (%d ops%s)\n", r.bucket, r.key, verdict(result), len(history), how)
		switch result {
		case porcupine.Illegal:
			exit = 1
			html := filepath.Join(*outDir, r.bucket+"-"+r.key+".html")
			if err := porcupine.VisualizePath(registerModel, info, html); err != nil {
				fmt.Fprintln(os.Stderr, "chaoscheck: visualization:", err)
			} else {
				fmt.Printf("  visualization: %s\n", html)
			}
			smallest := shrink(history, *timeout)
			fmt.Printf("  smallest failing sub-history (%d of %d ops):\n", len(smallest), len(history))
			for _, p := range smallest {
				line, _ := json.Marshal(p.Metadata)
				fmt.Printf("    %s\n", line)
			}
		case porcupine.Unknown:
			if exit == 0 {
				exit = 2
			}
		}
	}
	registerVerdict := map[int]string{0: "linearizable", 1: "NOT linearizable", 2: "undecided"}[exit]
	listings, decided, violations := checkListings(ops)
	for _, v := range violations {
		fmt.Printf("%s\n", v)
	}
	listingVerdict := "consistent"
	if len(violations) > 0 {
		exit = 1
		listingVerdict = fmt.Sprintf("%d violations", len(violations))
	}
	fmt.Printf("chaoscheck: %d registers, %d ops checked: %s; %d listings, %d keys' presence decided: %s\n",
		len(registers), total, registerVerdict, listings, decided, listingVerdict)
	os.Exit(exit)
}

// check decides a register's history. It first tries the history pruned of what cannot be seen (pruned), with
// its deletes of unknown outcome dropped, then bounded by the first absence seen after them, then by the last
// (prunings): when one is linearizable so is the full history, and the search is far smaller, as every op of
// unknown outcome stays pending to the end. Otherwise it checks the full history, whose verdict stands
// either way.
func check(history []porcupine.Operation, timeout time.Duration) (porcupine.CheckResult, porcupine.LinearizationInfo, string) {
	if hasUnknown(history) {
		p := pruned(history)
		for _, candidate := range prunings(p) {
			// Most prunings decide at once or fail at once; the full history keeps the whole timeout.
			if porcupine.CheckOperationsTimeout(registerModel, candidate, timeout/4) == porcupine.Ok {
				return porcupine.Ok, porcupine.LinearizationInfo{}, fmt.Sprintf("; decided on %d after pruning",
					len(candidate))
			}
		}
	}
	result, info := porcupine.CheckOperationsVerbose(registerModel, history, timeout)
	return result, info, ""
}

// prunings of a history pruned of unread writes, in the order to try them, each changing only its deletes of
// unknown outcome: all dropped; each made to return at the first absence seen (a get's 404, a conditional put
// that took effect) returning after its call, and of those bounded by one absence only the earliest invoked
// kept; each made to return at the last absence seen, the earliest invoked kept, as many as absences return
// after the first one's call. Every one only constrains (a dropped op goes last, where it changes nothing,
// and an earlier return keeps every linearization that respects it), so a linearizable pruning proves the
// history linearizable. The last loses no linearization of the pruned history: a delete that takes effect is
// followed, before the next write, by an absence that needed it (or it changes nothing anyone saw, and can go
// last), so it takes effect before the last absence returns, one delete per absence at most (others with it
// change nothing); and any delete may stand in for one invoked later.
func prunings(history []porcupine.Operation) [][]porcupine.Operation {
	var seen []int64    // the returns of the absences, ascending
	var deletes []int64 // the calls of the unknown deletes, ascending
	for _, p := range history {
		in, out := p.Input.(input), p.Output.(output)
		if (in.Op == "get" && out.Digest == "") || (in.Op == "cput" && !out.Refused) {
			seen = append(seen, p.Return)
		}
		if in.Op == "delete" && out.Unknown {
			deletes = append(deletes, p.Call)
		}
	}
	sort.Slice(seen, func(i, j int) bool { return seen[i] < seen[j] })
	sort.Slice(deletes, func(i, j int) bool { return deletes[i] < deletes[j] })
	after := func(call int64) int { return sort.Search(len(seen), func(i int) bool { return seen[i] > call }) }
	never := func(int64) (int64, bool) { return 0, false }
	bounded := map[int64]bool{}
	firstAfter := func(call int64) (int64, bool) {
		i := after(call)
		if i == len(seen) || bounded[seen[i]] {
			return 0, false
		}
		bounded[seen[i]] = true
		return seen[i], true
	}
	kept := 0
	last := func(call int64) (int64, bool) {
		if len(deletes) == 0 || after(call) == len(seen) || kept >= len(seen)-after(deletes[0]) {
			return 0, false
		}
		kept++
		return seen[len(seen)-1], true
	}
	var out [][]porcupine.Operation
	for _, bound := range []func(int64) (int64, bool){never, firstAfter, last} {
		var pruning []porcupine.Operation
		for _, p := range inCallOrder(history) {
			if p.Input.(input).Op == "delete" && p.Output.(output).Unknown {
				ret, ok := bound(p.Call)
				if !ok {
					continue
				}
				if ret < p.Return {
					p.Return = ret
				}
			}
			pruning = append(pruning, p)
		}
		out = append(out, pruning)
	}
	return out
}

// inCallOrder: the bounds of prunings keep the earliest invoked deletes.
func inCallOrder(history []porcupine.Operation) []porcupine.Operation {
	sorted := append([]porcupine.Operation(nil), history...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Call < sorted[j].Call })
	return sorted
}

func hasUnknown(history []porcupine.Operation) bool {
	for _, p := range history {
		if p.Output.(output).Unknown {
			return true
		}
	}
	return false
}

// pruned drops each write of unknown outcome whose digest no get returned, and makes each one some get did
// return return at the earliest such get's return (it took effect before that get did). Either change only
// constrains: a linearization of the pruned history is one of the full history, with the dropped writes put
// last, where they change nothing anyone saw, and the others where they were. The converse does not hold (a
// dropped write may be what a later 412 saw), so a pruned history that is not linearizable proves nothing.
func pruned(history []porcupine.Operation) []porcupine.Operation {
	firstRead := map[string]int64{}
	for _, p := range history {
		in, out := p.Input.(input), p.Output.(output)
		if in.Op == "get" && out.Digest != "" {
			if t, ok := firstRead[out.Digest]; !ok || p.Return < t {
				firstRead[out.Digest] = p.Return
			}
		}
	}
	var kept []porcupine.Operation
	for _, p := range history {
		in, out := p.Input.(input), p.Output.(output)
		if out.Unknown && in.Op != "delete" {
			t, read := firstRead[in.Digest]
			if !read {
				continue
			}
			if t < p.Return {
				p.Return = t
			}
		}
		kept = append(kept, p)
	}
	return kept
}

func verdict(r porcupine.CheckResult) string {
	switch r {
	case porcupine.Ok:
		return "linearizable"
	case porcupine.Illegal:
		return "NOT LINEARIZABLE"
	}
	return "undecided (timed out)"
}

// shrink drops, latest first, each operation that cannot change the register (a get, a 412) as long as what
// is left is still not linearizable: dropping one only removes a constraint, so the failure that remains is
// one the full history has. Writes and deletes stay: dropping one could make a failure of its own.
func shrink(history []porcupine.Operation, timeout time.Duration) []porcupine.Operation {
	current := append([]porcupine.Operation(nil), history...)
	for i := len(current) - 1; i >= 0; i-- {
		in, out := current[i].Input.(input), current[i].Output.(output)
		if in.Op != "get" && !out.Refused {
			continue
		}
		candidate := append(append([]porcupine.Operation(nil), current[:i]...), current[i+1:]...)
		if porcupine.CheckOperationsTimeout(registerModel, candidate, timeout) == porcupine.Illegal {
			current = candidate
		}
	}
	return current
}

func read(path string) ([]op, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ops []op
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 1<<24)
	line := 0
	for scanner.Scan() {
		line++
		var o op
		if err := json.Unmarshal(scanner.Bytes(), &o); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", path, line, err)
		}
		ops = append(ops, o)
	}
	return ops, scanner.Err()
}
