package main

import (
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
)

func operations(t *testing.T, ops []op) []porcupine.Operation {
	t.Helper()
	var end int64
	for _, o := range ops {
		if o.Complete >= end {
			end = o.Complete + 1
		}
	}
	var history []porcupine.Operation
	for _, o := range ops {
		if p, ok := toOperation(o, end); ok {
			history = append(history, p)
		}
	}
	return history
}

func put(client int, digest string, invoke, complete int64, outcome string) op {
	return op{Client: client, Op: "put", Bucket: "b", Key: "k", Digest: digest, Invoke: invoke, Complete: complete,
		Outcome: outcome, Status: 200}
}

func get(client int, digest string, invoke, complete int64) op {
	return op{Client: client, Op: "get", Bucket: "b", Key: "k", Digest: digest, Invoke: invoke, Complete: complete,
		Outcome: "ok", Status: 200}
}

func del(client int, invoke, complete int64, outcome string) op {
	return op{Client: client, Op: "delete", Bucket: "b", Key: "k", Invoke: invoke, Complete: complete,
		Outcome: outcome, Status: 204}
}

func list(client int, invoke, complete int64, keys ...string) op {
	return op{Client: client, Op: "list", Bucket: "b", Invoke: invoke, Complete: complete, Outcome: "ok",
		Status: 200, Keys: keys}
}

// Thirty deletes of unknown outcome (a coordinator killed under its clients) stay pending to the end of the
// full history, where Porcupine tries every subset of them before each read: none had taken effect by the first
// get, one had by the 404, and the full history is undecided in any sensible time. Pruned, the deletes are
// dropped or bounded by the absence they could explain.
func TestDeletesOfUnknownOutcomeArePruned(t *testing.T) {
	ops := []op{put(0, "v0", 0, 1, "ok")}
	for n := int64(0); n < 30; n++ {
		ops = append(ops, del(10+int(n), 2+n, 2+n, "unknown"))
	}
	ops = append(ops, get(1, "v0", 40, 41), get(1, "", 50, 51))
	for i := int64(1); i <= 10; i++ {
		ops = append(ops, put(2, "v"+string(rune('a'+i)), 100*i, 100*i+1, "ok"),
			get(1, "v"+string(rune('a'+i)), 100*i+2, 100*i+3))
	}
	result, _, how := check(operations(t, ops), 10*time.Second)
	if result != porcupine.Ok || !strings.Contains(how, "after pruning") {
		t.Fatalf("got %v%s, want linearizable after pruning", result, how)
	}
}

// An unknown delete may take effect long after the first absence that follows its call (here the ok delete
// explains that one): bounded by the last absence it is still found.
func TestAnUnknownDeleteMayExplainALaterAbsenceThanTheFirst(t *testing.T) {
	history := operations(t, []op{
		put(0, "v0", 0, 1, "ok"),
		del(1, 2, 2, "unknown"),
		del(2, 3, 4, "ok"),
		get(3, "", 5, 6),
		put(0, "v1", 10, 11, "ok"),
		get(3, "", 20, 21),
	})
	if result, _, how := check(history, 10*time.Second); result != porcupine.Ok {
		t.Fatalf("got %v%s, want linearizable", result, how)
	}
	// Without the delete of unknown outcome the last 404 has no explanation.
	if result, _, _ := check(append(history[:1:1], history[2:]...), 10*time.Second); result != porcupine.Illegal {
		t.Fatalf("got %v without the unknown delete, want not linearizable", result)
	}
}

func TestListingsLackingAnAcknowledgedKeyOrNamingAnAbsentOneAreViolations(t *testing.T) {
	written := put(0, "v0", 0, 10, "ok")
	cases := []struct {
		name      string
		ops       []op
		violation string // "" for none
	}{
		{"lacks a key written before it", []op{written, list(1, 20, 30)}, "lacks k"},
		{"may lack a key written concurrently", []op{put(0, "v0", 0, 25, "ok"), list(1, 20, 30)}, ""},
		{"may lack a key an unknown delete invoked before its end may have removed",
			[]op{written, del(2, 5, 5, "unknown"), list(1, 20, 30)}, ""},
		{"may lack a key an acknowledged delete concurrent with it removed",
			[]op{written, del(2, 25, 35, "ok"), list(1, 20, 30)}, ""},
		{"names a key deleted before it", []op{written, del(2, 12, 15, "ok"), list(1, 20, 30, "k")}, "names k"},
		{"names a key never written", []op{list(1, 20, 30, "k")}, "names k"},
		{"may name a key an unknown write invoked before its end wrote",
			[]op{written, del(2, 12, 15, "ok"), put(3, "v1", 25, 25, "unknown"), list(1, 20, 30, "k")}, ""},
		{"may name a key an acknowledged write concurrent with the delete wrote",
			[]op{put(0, "v0", 0, 13, "ok"), del(2, 12, 15, "ok"), list(1, 20, 30, "k")}, ""},
		{"names the key written before it", []op{written, list(1, 20, 30, "k")}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checked, _, violations := checkListings(c.ops)
			if checked != 1 {
				t.Fatalf("checked %d listings, want 1", checked)
			}
			if c.violation == "" && len(violations) > 0 {
				t.Fatalf("unexpected violations: %v", violations)
			}
			if c.violation != "" && (len(violations) != 1 || !strings.Contains(violations[0], c.violation)) {
				t.Fatalf("violations %v, want one saying %q", violations, c.violation)
			}
		})
	}
}
