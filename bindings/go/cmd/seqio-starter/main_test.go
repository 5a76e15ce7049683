// Starter testee tests: request lines → respond → answer lines, against conformance/protocol.md (hello with kinds,
// one answer per request carrying its id, `skipped` for a kind not written, a protocol error for a malformed line,
// integers of any length and 216-level messages read, validation answered by the binding's validator).
//
// WHY: the starter is what an SDK author copies; its protocol behaviour must hold before any kind is filled in.
package main

import (
	"strings"
	"testing"

	"seq-io-spec.example/seqio"
)

func answerTo(t *testing.T, line string) seqio.Value {
	t.Helper()
	out, ok := respond([]byte(line + "\n"))
	if !ok {
		t.Fatalf("no answer to %.80s", line)
	}
	v, refusals := seqio.ReadMessage(out)
	if len(refusals) > 0 || strings.Contains(string(out), "\n") {
		t.Fatalf("the answer is not one JSON line: %s", out)
	}
	return v
}

func member(t *testing.T, v seqio.Value, keys ...string) seqio.Value {
	t.Helper()
	for _, key := range keys {
		next, ok := v.Get(key)
		if !ok {
			t.Fatalf("no member %s in %s", key, seqio.WriteJSON(&v))
		}
		v = *next
	}
	return v
}

func TestHello(t *testing.T) {
	hello := answerTo(t, `{"type":"hello","protocol":1,"contract_version":"0.5.25"}`)
	if member(t, hello, "type").String != "hello" || member(t, hello, "protocol").Number.Literal() != "1" {
		t.Fatalf("not a hello: %s", seqio.WriteJSON(&hello))
	}
	if member(t, hello, "contract_version").String != seqio.ContractVersion {
		t.Fatalf("the hello names the package's contract version")
	}
	if kinds := member(t, hello, "kinds"); len(kinds.Items) != 5 || kinds.Items[0].String != "validation" {
		t.Fatalf("kinds: %s", seqio.WriteJSON(&kinds))
	}
}

func TestMalformedLineGetsAProtocolError(t *testing.T) {
	for _, line := range []string{`not json`, `{"type":"case","id":"a"}`, `[1]`} {
		a := answerTo(t, line)
		if member(t, a, "type").String != "error" || member(t, a, "rule").String != "protocol.malformed-request" {
			t.Errorf("%s: %s", line, seqio.WriteJSON(&a))
		}
	}
	if _, ok := respond([]byte("\n")); ok {
		t.Fatalf("a blank line is not a request")
	}
}

func TestKindsNotWrittenAreSkipped(t *testing.T) {
	huge := strings.Repeat("9", 5000)
	for _, kind := range []string{"schedule", "envelope", "rows_of", "stream", "future_kind"} {
		a := answerTo(t, `{"type":"case","id":"c1","kind":"`+kind+`","input":{"t":`+huge+`}}`)
		if member(t, a, "type").String != "skipped" || member(t, a, "id").String != "c1" {
			t.Errorf("%s: %s", kind, seqio.WriteJSON(&a))
		}
	}
}

func TestValidationIsWired(t *testing.T) {
	valid := answerTo(t, `{"type":"case","id":"v","kind":"validation","input":{"type_name":"Stream","json":"{\"at\":[0,-1]}"}}`)
	normalized := member(t, valid, "result", "normalized", "at")
	if !member(t, valid, "result", "valid").Bool || normalized.Items[0].Number.Literal() != "-1" {
		t.Fatalf("got %s", seqio.WriteJSON(&valid))
	}
	refused := answerTo(t, `{"type":"case","id":"w","kind":"validation","input":{"type_name":"Stream","json":"{\"at\":[1]}"}}`)
	first := member(t, refused, "result", "errors").Items[0]
	if member(t, first, "path").String != "$.at[0]" || member(t, first, "rule").String != "maximum" {
		t.Fatalf("got %s", seqio.WriteJSON(&refused))
	}
	unknown := answerTo(t, `{"type":"case","id":"u","kind":"validation","input":{"type_name":"Nope","json":"{}"}}`)
	if member(t, unknown, "type").String != "skipped" {
		t.Fatalf("an unknown type name is skipped: %s", seqio.WriteJSON(&unknown))
	}
}

func TestPanicAnswersAnError(t *testing.T) {
	a := safely(func(*seqio.Value) answer { panic("boom") }, &seqio.Value{})
	if a.kind != "error" || a.rule != "testee.internal-error" {
		t.Fatalf("got %+v", a)
	}
}
