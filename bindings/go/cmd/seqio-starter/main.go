// The starter testee of conformance/protocol.md: JSON Lines requests on stdin → one answer line each on stdout.
// The hello, the request reading (integers of any length kept exactly, messages 216 levels deep), the protocol
// error for a malformed line and the validation kind (wired to seqio.Validate) are done; the four kinds an SDK
// implements (schedule, envelope, rows_of, stream) each have one function below, marked FILL IN, that answers
// `skipped` until it is written.
//
// WHY it is shaped this way: an SDK author copies this file, runs
// `iospec run --impl "<binary>" --xfail x.json --fix` and starts from a green run; every case of a kind not
// yet written is then one expected-failure entry, and each function filled in turns its cases green. Output goes
// only to stdout as protocol lines; everything else goes to stderr.
package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime/debug"

	"seq-io-spec.example/seqio"
)

const protocolVersion = 1

// kinds are the case kinds this testee answers (a kind answered `skipped` still counts as listed).
var kinds = []string{"validation", "schedule", "envelope", "rows_of", "stream"}

// answer is what one case gets: a result, an error with a rule id, or skipped with a reason.
type answer struct {
	kind   string // "result", "error" or "skipped"
	result seqio.Value
	rule   string
	text   string // the error's message or the skip's reason
}

func skipped(why string) answer { return answer{kind: "skipped", text: why} }

// ---- FILL IN: schedule (spec/schedule.md). input: declaration, rate, t, t_prev. ------------------------------
func schedule(input *seqio.Value) answer {
	return skipped("the schedule kind is not implemented in this testee yet")
}

// ---- FILL IN: envelope (spec/schedule.md). input: picks, frames, own, t. -------------------------------------
func envelope(input *seqio.Value) answer {
	return skipped("the envelope kind is not implemented in this testee yet")
}

// ---- FILL IN: rows_of (spec/schedule.md). input: answer, actions. -------------------------------------------
func rowsOf(input *seqio.Value) answer {
	return skipped("the rows_of kind is not implemented in this testee yet")
}

// ---- FILL IN: stream (spec/stream.md). input: declaration, rate, episode_idle, limits, operations. ----------
func stream(input *seqio.Value) answer {
	return skipped("the stream kind is not implemented in this testee yet")
}

// validation is done: the binding's validator on the instance text.
func validation(input *seqio.Value) answer {
	typeName, okType := input.Get("type_name")
	text, okText := input.Get("json")
	if !okType || !okText || typeName.Kind != seqio.KindString || text.Kind != seqio.KindString {
		return answer{kind: "error", rule: "protocol.malformed-request", text: "a validation input needs type_name and json strings"}
	}
	outcome, err := seqio.Validate(typeName.String, []byte(text.String))
	if err != nil {
		return skipped(err.Error())
	}
	if outcome.Valid {
		return answer{kind: "result", result: object("valid", seqio.BoolValue(true), "normalized", outcome.Normalized)}
	}
	errors := make([]seqio.Value, 0, len(outcome.Refusals))
	for _, r := range outcome.Refusals {
		errors = append(errors, object("path", seqio.StringValue(r.Path), "rule", seqio.StringValue(r.Rule),
			"message", seqio.StringValue(r.Message)))
	}
	return answer{kind: "result", result: object("valid", seqio.BoolValue(false), "errors", seqio.ArrayValue(errors))}
}

var byKind = map[string]func(*seqio.Value) answer{
	"validation": validation, "schedule": schedule, "envelope": envelope, "rows_of": rowsOf, "stream": stream,
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			if reply, ok := respond(line); ok {
				out.Write(append(reply, '\n'))
				out.Flush()
			}
		}
		if err != nil {
			return
		}
	}
}

// respond is the answer line to one request line; ok is false for a blank line.
func respond(line []byte) ([]byte, bool) {
	message, refusals := seqio.ReadMessage(line)
	if len(refusals) > 0 {
		if len(trimSpace(line)) == 0 {
			return nil, false
		}
		return protocolError(seqio.StringValue(""), "the request line is not JSON: "+refusals[0].Error()), true
	}
	kindOf, _ := message.Get("type")
	if kindOf != nil && kindOf.Kind == seqio.KindString && kindOf.String == "hello" {
		return hello(), true
	}
	id, okID := message.Get("id")
	caseKind, okKind := message.Get("kind")
	input, okInput := message.Get("input")
	if !okID || id.Kind != seqio.KindString || !okKind || !okInput || caseKind.Kind != seqio.KindString {
		if !okID || id.Kind != seqio.KindString {
			id = &seqio.Value{Kind: seqio.KindString}
		}
		return protocolError(*id, "a case request needs type, id, kind and input"), true
	}
	handler, known := byKind[caseKind.String]
	if !known {
		return encode(*id, skipped(fmt.Sprintf("the kind %q is not known to this testee", caseKind.String))), true
	}
	return encode(*id, safely(handler, input)), true
}

// safely runs one kind's function; a panic answers this case with an error (the stack goes to stderr) instead of
// ending the session.
func safely(handler func(*seqio.Value) answer, input *seqio.Value) (a answer) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(os.Stderr, "seqio-starter: internal error: %v\n%s", p, debug.Stack())
			a = answer{kind: "error", rule: "testee.internal-error", text: fmt.Sprintf("the testee failed: %v", p)}
		}
	}()
	return handler(input)
}

func hello() []byte {
	v := object("type", seqio.StringValue("hello"), "protocol", seqio.NumberValue(seqio.IntNumber(protocolVersion)),
		"implementation", object("name", seqio.StringValue("seq-io-go-starter"), "version", seqio.StringValue(seqio.PackageVersion)),
		"contract_version", seqio.StringValue(seqio.ContractVersion), "kinds", stringArray(kinds))
	return seqio.WriteJSON(&v)
}

func protocolError(id seqio.Value, why string) []byte {
	fmt.Fprintln(os.Stderr, "seqio-starter: "+why)
	return encode(id, answer{kind: "error", rule: "protocol.malformed-request", text: why})
}

func encode(id seqio.Value, a answer) []byte {
	v := object("type", seqio.StringValue(a.kind), "id", id)
	switch a.kind {
	case "result":
		v.Members = append(v.Members, seqio.Member{Key: "result", Value: a.result})
	case "error":
		v.Members = append(v.Members, seqio.Member{Key: "rule", Value: seqio.StringValue(a.rule)},
			seqio.Member{Key: "message", Value: seqio.StringValue(a.text)})
	default:
		v.Members = append(v.Members, seqio.Member{Key: "reason", Value: seqio.StringValue(a.text)})
	}
	return seqio.WriteJSON(&v)
}

// object builds a JSON object from key, value pairs.
func object(pairs ...any) seqio.Value {
	members := make([]seqio.Member, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		members = append(members, seqio.Member{Key: pairs[i].(string), Value: pairs[i+1].(seqio.Value)})
	}
	return seqio.ObjectValue(members)
}

func stringArray(items []string) seqio.Value {
	values := make([]seqio.Value, 0, len(items))
	for _, s := range items {
		values = append(values, seqio.StringValue(s))
	}
	return seqio.ArrayValue(values)
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\n' || b[0] == '\r' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}
