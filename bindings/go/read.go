// JSON text → Value, or the wire refusals of spec/validation.md ("Wire rules", "Limits"): one pass over the bytes
// with an explicit stack of open containers, so depth is a counter and no input can exhaust the goroutine stack.
//
// WHY it is shaped this way: the spec fixes which refusal wins (a syntax error anywhere beats everything; the first
// value nested too deeply stops the read; duplicate keys, non-finite numbers and over-long integers are collected
// with their own paths). encoding/json cannot tell any of these apart, so the reader is the binding's own. The
// depth limit is a parameter because protocol messages wrap an instance in 16 more levels (conformance/protocol.md).

package seqio

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Wire rule ids (spec/validation.md "Rule ids") and the reader's own size limit.
const (
	RuleJSONSyntax     = "wire.json-syntax"
	RuleDuplicateKey   = "wire.duplicate-key"
	RuleNonFinite      = "wire.non-finite-number"
	RuleTooDeep        = "wire.too-deep"
	RuleIntegerTooLong = "wire.integer-too-long"
	RuleTooLarge       = "reader.too-large"
)

// MaxDocumentBytes is this reader's size limit (a reader limit, not a contract rule): twice MAX_STREAM_BYTES.
func MaxDocumentBytes() int { return 2 * Limits().MaxStreamBytes }

// Refusal is one reason an instance is not valid: a JSON path, a rule id and a sentence.
type Refusal struct {
	Path    string `json:"path"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

func (r Refusal) Error() string { return fmt.Sprintf("%s: %s (%s)", r.Path, r.Message, r.Rule) }

// ReadJSON reads a contract instance under the wire rules, with MAX_JSON_DEPTH as the depth limit.
func ReadJSON(text []byte) (Value, []Refusal) {
	return ReadJSONWithDepth(text, Limits().MaxJSONDepth)
}

// ReadJSONWithDepth reads JSON text with the given depth limit (a protocol message allows MAX_JSON_DEPTH + 16).
func ReadJSONWithDepth(text []byte, maxDepth int) (Value, []Refusal) {
	if len(text) > MaxDocumentBytes() {
		return Value{}, []Refusal{{Path: "$", Rule: RuleTooLarge, Message: fmt.Sprintf(
			"the document is %d bytes long; this reader takes at most %d", len(text), MaxDocumentBytes())}}
	}
	if !utf8.Valid(text) {
		return Value{}, []Refusal{syntaxRefusal("the text is not valid UTF-8")}
	}
	return readWith(reader{text: text, maxDepth: maxDepth, maxDigits: Limits().MaxIntegerDigits})
}

// ReadMessage reads a protocol message (conformance/protocol.md): nesting up to MAX_JSON_DEPTH + 16, integers of any
// length read exactly, numbers beyond a double kept (Number.IsFinite says so), and a lone surrogate escape kept inside
// its string (as the three WTF-8 bytes of the code point). What a message carries thus reaches the implementation,
// which applies the wire rules itself: ReadJSON to an instance text, CheckValue to a body sent as a value.
func ReadMessage(line []byte) (Value, []Refusal) {
	if !utf8.Valid(line) {
		return Value{}, []Refusal{syntaxRefusal("the text is not valid UTF-8")}
	}
	return readWith(reader{text: line, maxDepth: Limits().MaxJSONDepth + 16, maxDigits: Limits().MaxIntegerDigits,
		messageMode: true})
}

func readWith(r reader) (Value, []Refusal) {
	value, fatal := r.document()
	if fatal != nil {
		return Value{}, []Refusal{*fatal}
	}
	if len(r.refusals) > 0 {
		return Value{}, r.refusals
	}
	return value, nil
}

func syntaxRefusal(why string) Refusal {
	return Refusal{Path: "$", Rule: RuleJSONSyntax, Message: "the text is not one JSON value: " + why}
}

// frame is one open container: the value being built and, for an object, the key awaiting its value.
type frame struct {
	value   Value
	key     string
	keys    map[string]struct{}
	hasKey  bool
	counter int
}

type reader struct {
	text      []byte
	pos       int
	stack     []frame
	refusals  []Refusal
	maxDepth  int
	maxDigits int
	// messageMode keeps what the wire rules refuse inside a value (lone surrogates as WTF-8 bytes, numbers beyond a
	// double or too long) instead of refusing it: protocol messages only.
	messageMode bool
}

func (r *reader) fail(format string, args ...any) *Refusal {
	refusal := syntaxRefusal(fmt.Sprintf(format, args...) + fmt.Sprintf(" (at byte %d)", r.pos))
	return &refusal
}

func (r *reader) skipSpace() {
	for r.pos < len(r.text) {
		switch r.text[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// document reads one value and checks that only whitespace follows it.
func (r *reader) document() (Value, *Refusal) {
	value, fatal := r.value()
	if fatal != nil {
		return Value{}, fatal
	}
	r.skipSpace()
	if r.pos != len(r.text) {
		return Value{}, r.fail("more text follows the value")
	}
	return value, nil
}

// value reads values iteratively: scalars complete at once, containers are pushed and completed when closed.
func (r *reader) value() (Value, *Refusal) {
	for {
		r.skipSpace()
		if len(r.stack) > r.maxDepth {
			return Value{}, &Refusal{Path: "$", Rule: RuleTooDeep, Message: fmt.Sprintf(
				"a value is nested more than %d arrays and objects deep", r.maxDepth)}
		}
		if r.pos >= len(r.text) {
			return Value{}, r.fail("the text ends where a value should start")
		}
		var done Value
		switch c := r.text[r.pos]; {
		case c == '{' || c == '[':
			opened, fatal := r.open(c)
			if fatal != nil {
				return Value{}, fatal
			}
			if !opened {
				continue
			}
			done = r.pop()
		default:
			scalar, fatal := r.scalar()
			if fatal != nil {
				return Value{}, fatal
			}
			done = scalar
		}
		for {
			if len(r.stack) == 0 {
				return done, nil
			}
			closed, fatal := r.attach(done)
			if fatal != nil {
				return Value{}, fatal
			}
			if !closed {
				break
			}
			done = r.pop()
		}
	}
}

// open pushes a container; it returns opened=false when a first item or member follows (the loop reads it),
// true when the container is empty and already closed.
func (r *reader) open(c byte) (bool, *Refusal) {
	r.pos++
	f := frame{value: ArrayValue(nil)}
	if c == '{' {
		f.value = ObjectValue(nil)
		f.keys = map[string]struct{}{}
	}
	r.stack = append(r.stack, f)
	r.skipSpace()
	closer := byte(']')
	if c == '{' {
		closer = '}'
	}
	if r.pos < len(r.text) && r.text[r.pos] == closer {
		r.pos++
		return true, nil
	}
	if c == '{' {
		return false, r.memberName()
	}
	return false, nil
}

func (r *reader) pop() Value {
	top := r.stack[len(r.stack)-1]
	r.stack = r.stack[:len(r.stack)-1]
	return top.value
}

// memberName reads `"name":` into the top frame, noting a duplicate.
func (r *reader) memberName() *Refusal {
	r.skipSpace()
	if r.pos >= len(r.text) || r.text[r.pos] != '"' {
		return r.fail("a member name (a string) was expected")
	}
	name, fatal := r.stringToken()
	if fatal != nil {
		return fatal
	}
	r.skipSpace()
	if r.pos >= len(r.text) || r.text[r.pos] != ':' {
		return r.fail("':' was expected after a member name")
	}
	r.pos++
	top := &r.stack[len(r.stack)-1]
	if _, seen := top.keys[name]; seen {
		r.refusals = append(r.refusals, Refusal{Path: r.path(false), Rule: RuleDuplicateKey,
			Message: fmt.Sprintf("the member %s appears more than once in this object", quote(name))})
	}
	top.keys[name] = struct{}{}
	top.key, top.hasKey = name, true
	return nil
}

// attach adds a finished value to the top container and reads the separator; closed says the container ended.
func (r *reader) attach(v Value) (bool, *Refusal) {
	top := &r.stack[len(r.stack)-1]
	if top.value.Kind == KindArray {
		top.value.Items = append(top.value.Items, v)
	} else {
		top.value.Members = append(top.value.Members, Member{Key: top.key, Value: v})
		top.hasKey = false
	}
	top.counter++
	r.skipSpace()
	if r.pos >= len(r.text) {
		return false, r.fail("the text ends inside an array or object")
	}
	closer := byte(']')
	if top.value.Kind == KindObject {
		closer = '}'
	}
	switch r.text[r.pos] {
	case closer:
		r.pos++
		return true, nil
	case ',':
		r.pos++
		if top.value.Kind == KindObject {
			return false, r.memberName()
		}
		return false, nil
	}
	return false, r.fail("',' or '%c' was expected", closer)
}

// path is the JSON path of the value being read (pending=true) or of the top container (pending=false).
func (r *reader) path(pending bool) string {
	var b strings.Builder
	b.WriteString("$")
	last := len(r.stack)
	if !pending {
		last--
	}
	for i := 0; i < last; i++ {
		f := &r.stack[i]
		if f.value.Kind == KindArray {
			b.WriteString("[" + strconv.Itoa(f.counter) + "]")
		} else {
			b.WriteString(pathMember(f.key))
		}
	}
	return b.String()
}

func (r *reader) scalar() (Value, *Refusal) {
	switch c := r.text[r.pos]; {
	case c == '"':
		s, fatal := r.stringToken()
		return StringValue(s), fatal
	case c == '-' || (c >= '0' && c <= '9'):
		return r.number()
	case r.literal("true"):
		return BoolValue(true), nil
	case r.literal("false"):
		return BoolValue(false), nil
	case r.literal("null"):
		return NullValue(), nil
	}
	return Value{}, r.fail("no JSON value starts here (NaN and Infinity are not JSON)")
}

func (r *reader) literal(word string) bool {
	if strings.HasPrefix(string(r.text[r.pos:min(len(r.text), r.pos+len(word))]), word) {
		r.pos += len(word)
		return true
	}
	return false
}

// number reads a literal by the JSON grammar, then applies the integer-length and finiteness limits at its path.
func (r *reader) number() (Value, *Refusal) {
	start := r.pos
	if r.text[r.pos] == '-' {
		r.pos++
	}
	intStart := r.pos
	if !r.digits() {
		return Value{}, r.fail("a number needs a digit")
	}
	if r.text[intStart] == '0' && r.pos-intStart > 1 {
		return Value{}, r.fail("a number may not start with 0")
	}
	integerDigits := r.pos - intStart
	isInteger := true
	if r.pos < len(r.text) && r.text[r.pos] == '.' {
		r.pos++
		isInteger = false
		if !r.digits() {
			return Value{}, r.fail("a fraction needs a digit")
		}
	}
	if r.pos < len(r.text) && (r.text[r.pos] == 'e' || r.text[r.pos] == 'E') {
		r.pos++
		isInteger = false
		if r.pos < len(r.text) && (r.text[r.pos] == '+' || r.text[r.pos] == '-') {
			r.pos++
		}
		if !r.digits() {
			return Value{}, r.fail("an exponent needs a digit")
		}
	}
	literal := string(r.text[start:r.pos])
	if r.messageMode {
		if n, finite := parseNumberLiteral(literal); finite && integerDigits <= r.maxDigits {
			return NumberValue(n), nil
		}
		return NumberValue(unboundedNumber(literal)), nil
	}
	if isInteger && integerDigits > r.maxDigits {
		r.refusals = append(r.refusals, Refusal{Path: r.path(true), Rule: RuleIntegerTooLong, Message: fmt.Sprintf(
			"an integer of %d digits is longer than the %d digits the contract allows", integerDigits, r.maxDigits)})
		return NullValue(), nil
	}
	n, finite := parseNumberLiteral(literal)
	if !finite {
		r.refusals = append(r.refusals, Refusal{Path: r.path(true), Rule: RuleNonFinite,
			Message: "the number " + quoteCut(literal) + " is beyond the range of a double"})
		return NullValue(), nil
	}
	return NumberValue(n), nil
}

func (r *reader) digits() bool {
	start := r.pos
	for r.pos < len(r.text) && r.text[r.pos] >= '0' && r.text[r.pos] <= '9' {
		r.pos++
	}
	return r.pos > start
}

// stringToken reads a string; escapes are decoded and a lone surrogate escape is a syntax error.
func (r *reader) stringToken() (string, *Refusal) {
	r.pos++
	var b strings.Builder
	for {
		start := r.pos
		for r.pos < len(r.text) && r.text[r.pos] != '"' && r.text[r.pos] != '\\' && r.text[r.pos] >= 0x20 {
			r.pos++
		}
		b.Write(r.text[start:r.pos])
		if r.pos >= len(r.text) {
			return "", r.fail("a string is not closed")
		}
		switch c := r.text[r.pos]; {
		case c == '"':
			r.pos++
			return b.String(), nil
		case c < 0x20:
			return "", r.fail("a control character must be escaped in a string")
		}
		if fatal := r.escape(&b); fatal != nil {
			return "", fatal
		}
	}
}

var simpleEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func (r *reader) escape(b *strings.Builder) *Refusal {
	r.pos++
	if r.pos >= len(r.text) {
		return r.fail("a string ends inside an escape")
	}
	if c, ok := simpleEscapes[r.text[r.pos]]; ok {
		b.WriteByte(c)
		r.pos++
		return nil
	}
	if r.text[r.pos] != 'u' {
		return r.fail("unknown escape \\%c", r.text[r.pos])
	}
	unit, ok := r.hex4()
	if !ok {
		return r.fail("\\u needs four hex digits")
	}
	if !utf16.IsSurrogate(rune(unit)) {
		b.WriteRune(rune(unit))
		return nil
	}
	if unit < 0xDC00 && strings.HasPrefix(string(r.text[r.pos:min(len(r.text), r.pos+6)]), "\\u") {
		saved := r.pos
		r.pos++
		if low, ok := r.hex4(); ok && low >= 0xDC00 && low <= 0xDFFF {
			b.WriteRune(utf16.DecodeRune(rune(unit), rune(low)))
			return nil
		}
		r.pos = saved
	}
	if !r.messageMode {
		return r.fail("a string holds a lone surrogate")
	}
	b.Write([]byte{0xE0 | byte(unit>>12), 0x80 | byte(unit>>6)&0x3F, 0x80 | byte(unit)&0x3F})
	return nil
}

// hex4 reads `uXXXX` at the cursor (the cursor is on the `u`).
func (r *reader) hex4() (uint16, bool) {
	if r.pos+5 > len(r.text) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(r.text[r.pos+1:r.pos+5]), 16, 16)
	if err != nil || strings.ContainsAny(string(r.text[r.pos+1:r.pos+5]), "+-") {
		return 0, false
	}
	r.pos += 5
	return uint16(n), true
}

// CheckValue applies the wire limits to a value built in memory or read by ReadMessage, as ReadJSON applies them to
// text (spec/validation.md "Limits"): a value enclosed by more than MAX_JSON_DEPTH containers is refused whole, at
// `$`; otherwise every number beyond a double and every integer literal of more than MAX_INTEGER_DIGITS digits is
// refused at its path. (A string holding a lone surrogate is not valid UTF-8; CheckValue refuses it as json-syntax.)
func CheckValue(v *Value) []Refusal {
	limits := Limits()
	c := valueCheck{maxDepth: limits.MaxJSONDepth, maxDigits: limits.MaxIntegerDigits}
	if !c.walk(v, 0) {
		return []Refusal{{Path: "$", Rule: RuleTooDeep, Message: fmt.Sprintf(
			"a value is nested more than %d arrays and objects deep", c.maxDepth)}}
	}
	if c.badText {
		return []Refusal{syntaxRefusal("a string or member name is not valid Unicode (a lone surrogate)")}
	}
	return c.refusals
}

type valueCheck struct {
	maxDepth, maxDigits int
	segments            []string
	refusals            []Refusal
	badText             bool
}

// walk checks v, enclosed by `enclosing` containers; false means too deep (the walk stops there).
func (c *valueCheck) walk(v *Value, enclosing int) bool {
	if enclosing > c.maxDepth {
		return false
	}
	switch v.Kind {
	case KindString:
		c.badText = c.badText || !utf8.ValidString(v.String)
	case KindNumber:
		c.number(v.Number)
	case KindArray:
		for i := range v.Items {
			c.segments = append(c.segments, pathIndex(i))
			ok := c.walk(&v.Items[i], enclosing+1)
			c.segments = c.segments[:len(c.segments)-1]
			if !ok {
				return false
			}
		}
	case KindObject:
		for i := range v.Members {
			c.badText = c.badText || !utf8.ValidString(v.Members[i].Key)
			c.segments = append(c.segments, pathMember(v.Members[i].Key))
			ok := c.walk(&v.Members[i].Value, enclosing+1)
			c.segments = c.segments[:len(c.segments)-1]
			if !ok {
				return false
			}
		}
	}
	return true
}

func (c *valueCheck) number(n Number) {
	path := "$" + strings.Join(c.segments, "")
	digits := len(strings.TrimPrefix(n.literal, "-"))
	switch {
	case n.asInteger && digits > c.maxDigits:
		c.refusals = append(c.refusals, Refusal{Path: path, Rule: RuleIntegerTooLong, Message: fmt.Sprintf(
			"an integer of %d digits is longer than the %d digits the contract allows", digits, c.maxDigits)})
	case n.overflow:
		c.refusals = append(c.refusals, Refusal{Path: path, Rule: RuleNonFinite,
			Message: "the number " + quoteCut(n.literal) + " is beyond the range of a double"})
	}
}
