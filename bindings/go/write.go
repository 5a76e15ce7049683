// Value → compact JSON text, and the two small text forms every refusal uses: a JSON path
// (spec/validation.md "Path notation") and a quoted, cut value for sentences ("Limits", quotes in messages).
//
// WHY it is shaped this way: "Writing an instance" asks that a value comes back as it was read: numbers by their
// literal (an integer stays an integer, `1.50` keeps its spelling), members in order, nothing added. Strings are
// written with the escapes of JSON.stringify, so a path names a member the way every other implementation does.
// The writer is iterative for the same reason as the reader: a value may be 216 levels deep.

package seqio

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// WriteJSON writes v as compact JSON text.
func WriteJSON(v *Value) []byte {
	var b strings.Builder
	type pending struct {
		value *Value
		next  int
	}
	stack := []pending{{value: v}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		cur := top.value
		if cur.Kind != KindArray && cur.Kind != KindObject {
			writeScalar(&b, cur)
			stack = stack[:len(stack)-1]
			continue
		}
		count := len(cur.Items)
		open, close := byte('['), byte(']')
		if cur.Kind == KindObject {
			count, open, close = len(cur.Members), '{', '}'
		}
		if top.next == 0 {
			b.WriteByte(open)
		}
		if top.next == count {
			b.WriteByte(close)
			stack = stack[:len(stack)-1]
			continue
		}
		if top.next > 0 {
			b.WriteByte(',')
		}
		var child *Value
		if cur.Kind == KindObject {
			writeString(&b, cur.Members[top.next].Key)
			b.WriteByte(':')
			child = &cur.Members[top.next].Value
		} else {
			child = &cur.Items[top.next]
		}
		top.next++
		stack = append(stack, pending{value: child})
	}
	return []byte(b.String())
}

func writeScalar(b *strings.Builder, v *Value) {
	switch v.Kind {
	case KindNull:
		b.WriteString("null")
	case KindBool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case KindNumber:
		b.WriteString(v.Number.Literal())
	case KindString:
		writeString(b, v.String)
	}
}

// writeString writes s as JSON.stringify does: `"` and `\` escaped, \b \t \n \f \r, other controls as \u00xx.
func writeString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, c := range s {
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteString(strconv.FormatInt(int64(c)/16, 16))
				b.WriteString(strconv.FormatInt(int64(c)%16, 16))
			} else {
				b.WriteRune(c)
			}
		}
	}
	b.WriteByte('"')
}

// JSONString is s as a JSON string literal.
func JSONString(s string) string {
	var b strings.Builder
	writeString(&b, s)
	return b.String()
}

// pathMember is `.name` for a plain identifier name, `["name"]` for any other (spec/validation.md "Path notation").
func pathMember(name string) string {
	if isPlainName(name) {
		return "." + name
	}
	return "[" + JSONString(name) + "]"
}

func isPlainName(name string) bool {
	if name == "" || (name[0] >= '0' && name[0] <= '9') {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

// pathIndex is `[i]`.
func pathIndex(i int) string { return "[" + strconv.Itoa(i) + "]" }

// quote is a name or value for a sentence: a JSON string cut to 60 characters (57 and `...`).
func quote(s string) string { return quoteCut(JSONString(s)) }

func quoteCut(s string) string {
	if utf8.RuneCountInString(s) <= 60 {
		return s
	}
	runes := []rune(s)
	return string(runes[:57]) + "..."
}
