// Round-trip requests (JSON Lines on stdin, scripts/seq_io_maint/roundtrip.py) → decode each instance into the
// generated type of its type_name, write it back → one answer line per request on stdout.
//
// WHY it is shaped this way: the checker compares texts, so this program only proves what the generated types keep
// (absent vs null, number kinds, opaque values); it never validates. Requests are read with the binding's own reader
// at the protocol depth, so the instance text inside arrives untouched.
package main

import (
	"bufio"
	"fmt"
	"os"

	"seq-io-spec.example/seqio"
)

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			fmt.Fprintln(out, answer(line))
		}
		if err != nil {
			return
		}
	}
}

// answer is the reply line to one request line.
func answer(line []byte) string {
	request, refusals := seqio.ReadMessage(line)
	if len(refusals) > 0 {
		return reply(seqio.NullValue(), "the request line is not JSON: "+refusals[0].Error())
	}
	id, _ := request.Get("id")
	typeName, okType := request.Get("type_name")
	text, okText := request.Get("json")
	if id == nil || !okType || !okText || typeName.Kind != seqio.KindString || text.Kind != seqio.KindString {
		return reply(seqio.NullValue(), "a request needs id, type_name and json")
	}
	instance, refusals := seqio.ReadJSON([]byte(text.String))
	if len(refusals) > 0 {
		return reply(*id, "the instance breaks a wire rule: "+refusals[0].Error())
	}
	written, err := seqio.RoundTrip(typeName.String, &instance)
	if err != nil {
		return reply(*id, err.Error())
	}
	return replyJSON(*id, string(seqio.WriteJSON(&written)))
}

func reply(id seqio.Value, message string) string {
	v := seqio.ObjectValue([]seqio.Member{{Key: "id", Value: id}, {Key: "error", Value: seqio.StringValue(message)}})
	return string(seqio.WriteJSON(&v))
}

func replyJSON(id seqio.Value, text string) string {
	v := seqio.ObjectValue([]seqio.Member{{Key: "id", Value: id}, {Key: "json", Value: seqio.StringValue(text)}})
	return string(seqio.WriteJSON(&v))
}
