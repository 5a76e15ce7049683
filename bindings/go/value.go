// JSON values as the contract reads them: a parsed text → Value (numbers exact, members in order, strings valid
// Unicode) → back to text by the writer in write.go.
//
// WHY it is shaped this way: encoding/json turns numbers into float64 (an integer beyond 2^53 is rounded, `640.0`
// and `640` become one token-less value) and cannot say whether a member was absent or null. spec/validation.md
// ("The value of a number", "Writing an instance") needs both, so the binding keeps its own small value model:
// every number carries its literal, its exact value (an integer as *big.Int, otherwise the nearest double) and
// whether it was written as an integer.

package seqio

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The six JSON types.
const (
	KindNull Kind = iota
	KindBool
	KindNumber
	KindString
	KindArray
	KindObject
)

// Value is one JSON value. Only the members of its Kind are meaningful.
type Value struct {
	Kind    Kind
	Bool    bool
	Number  Number
	String  string
	Items   []Value
	Members []Member
}

// Member is one name/value pair of an object, in the order it was read.
type Member struct {
	Key   string
	Value Value
}

// Number is a JSON number under spec/validation.md "The value of a number": when the exact decimal value of its
// literal is an integer, the number is that integer (any size); otherwise it is the nearest binary64 double.
type Number struct {
	literal   string
	integer   *big.Int
	float     float64
	asInteger bool
	// overflow marks a literal beyond every finite double, kept only by ReadMessage (a protocol message must
	// carry such numbers to the implementation that refuses them); ReadJSON never returns one.
	overflow bool
}

// NullValue is a JSON null.
func NullValue() Value { return Value{Kind: KindNull} }

// BoolValue is a JSON true or false.
func BoolValue(b bool) Value { return Value{Kind: KindBool, Bool: b} }

// StringValue is a JSON string (s must be valid UTF-8).
func StringValue(s string) Value { return Value{Kind: KindString, String: s} }

// NumberValue wraps a Number.
func NumberValue(n Number) Value { return Value{Kind: KindNumber, Number: n} }

// ArrayValue is a JSON array of the given items.
func ArrayValue(items []Value) Value {
	if items == nil {
		items = []Value{}
	}
	return Value{Kind: KindArray, Items: items}
}

// ObjectValue is a JSON object with the given members, in order.
func ObjectValue(members []Member) Value {
	if members == nil {
		members = []Member{}
	}
	return Value{Kind: KindObject, Members: members}
}

// Get returns the member named key of an object, and whether it is there.
func (v *Value) Get(key string) (*Value, bool) {
	if v.Kind != KindObject {
		return nil, false
	}
	for i := range v.Members {
		if v.Members[i].Key == key {
			return &v.Members[i].Value, true
		}
	}
	return nil, false
}

// IntNumber is the integer i, written as an integer.
func IntNumber(i int64) Number {
	return Number{literal: strconv.FormatInt(i, 10), integer: big.NewInt(i), asInteger: true}
}

// BigIntNumber is the integer i, written as an integer.
func BigIntNumber(i *big.Int) Number {
	return Number{literal: i.String(), integer: new(big.Int).Set(i), asInteger: true}
}

// FloatNumber is the double f (finite), written with a fraction or exponent; an integral f is that integer.
func FloatNumber(f float64) Number {
	literal := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(literal, ".eE") {
		literal += ".0"
	}
	n, _ := parseNumberLiteral(literal)
	return n
}

// ParseNumber reads one JSON number literal; ok is false when it is not finite as a double.
// The literal must already follow the JSON number grammar.
func parseNumberLiteral(literal string) (n Number, finite bool) {
	if len(literal) <= 18 && !strings.ContainsAny(literal, ".eE") {
		i, _ := strconv.ParseInt(literal, 10, 64) // at most 18 digits: always an int64
		return Number{literal: literal, integer: big.NewInt(i), asInteger: true}, true
	}
	f, err := strconv.ParseFloat(literal, 64)
	if err != nil && (math.IsInf(f, 0) || math.IsNaN(f)) {
		return Number{}, false
	}
	n = Number{literal: literal, asInteger: !strings.ContainsAny(literal, ".eE")}
	if exact, ok := integerValueOf(literal); ok {
		n.integer = exact
	} else if f == math.Trunc(f) {
		// Not an integer exactly, but its nearest double is (`2.0000000000000001` is 2, `1e-400` is 0).
		n.integer, _ = new(big.Float).SetFloat64(f).Int(nil)
	} else {
		n.float = f
	}
	return n, true
}

// unboundedNumber keeps a literal the wire rules refuse (too long or not finite): an integer literal exactly, any
// other as the infinity it rounds to. Only protocol messages hold such numbers (CheckValue refuses them).
func unboundedNumber(literal string) Number {
	f, _ := strconv.ParseFloat(literal, 64)
	n := Number{literal: literal, asInteger: !strings.ContainsAny(literal, ".eE"), overflow: math.IsInf(f, 0)}
	if n.asInteger {
		n.integer, _ = new(big.Int).SetString(literal, 10)
	} else {
		n.float = f
	}
	return n
}

// IsFinite says whether the number is within the range of a double (always so for a number ReadJSON returns).
func (n Number) IsFinite() bool { return !n.overflow }

// integerValueOf is the literal's exact value when that is an integer. Only called on finite literals, so the
// integer has at most 309 digits and the work is linear in the literal's length.
func integerValueOf(literal string) (*big.Int, bool) {
	negative := strings.HasPrefix(literal, "-")
	body := strings.TrimPrefix(literal, "-")
	exponent := 0
	if at := strings.IndexAny(body, "eE"); at >= 0 {
		e, err := strconv.Atoi(body[at+1:])
		if err != nil {
			// An exponent beyond int range on a finite literal means the mantissa is 0 or it underflows.
			return zeroUnlessNonZeroDigits(body[:at])
		}
		exponent = e
		body = body[:at]
	}
	digits := body
	if dot := strings.IndexByte(body, '.'); dot >= 0 {
		digits = body[:dot] + body[dot+1:]
		exponent -= len(body) - dot - 1
	}
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return new(big.Int), true
	}
	trimmed := strings.TrimRight(digits, "0")
	exponent += len(digits) - len(trimmed)
	if exponent < 0 {
		return nil, false
	}
	value, _ := new(big.Int).SetString(trimmed, 10)
	value.Mul(value, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(exponent)), nil))
	if negative {
		value.Neg(value)
	}
	return value, true
}

func zeroUnlessNonZeroDigits(mantissa string) (*big.Int, bool) {
	if strings.Trim(mantissa, "0.") == "" {
		return new(big.Int), true
	}
	return nil, false
}

// orZero is n, with the zero Number (never built by the reader) read as the integer 0.
func (n Number) orZero() Number {
	if n.literal == "" && n.integer == nil && n.float == 0 {
		return IntNumber(0)
	}
	return n
}

// IsInteger says whether the number's value is an integer (`640.0` is).
func (n Number) IsInteger() bool { return n.orZero().integer != nil }

// WrittenAsInteger says whether the literal had no fraction and no exponent.
func (n Number) WrittenAsInteger() bool { return n.asInteger }

// Literal is the number as written (or as built); the zero Number is 0.
func (n Number) Literal() string { return n.orZero().literal }

// BigInt is the integer value (nil when the value is not an integer).
func (n Number) BigInt() *big.Int {
	n = n.orZero()
	if n.integer == nil {
		return nil
	}
	return new(big.Int).Set(n.integer)
}

// Float64 is the value as a double (rounded for integers beyond 2^53).
func (n Number) Float64() float64 {
	n = n.orZero()
	if n.integer != nil {
		f, _ := new(big.Float).SetInt(n.integer).Float64()
		return f
	}
	return n.float
}

// AsIntegerLiteral is the same value written as an integer (for members typed `integer`); n must be an integer.
func (n Number) AsIntegerLiteral() Number {
	n = n.orZero()
	return Number{literal: n.integer.String(), integer: n.integer, asInteger: true}
}

// Rat is the exact value.
func (n Number) Rat() *big.Rat {
	n = n.orZero()
	if n.integer != nil {
		return new(big.Rat).SetInt(n.integer)
	}
	return new(big.Rat).SetFloat64(n.float)
}

// Cmp compares two numbers by exact value: -1, 0 or +1.
func (n Number) Cmp(other Number) int {
	n = n.orZero()
	other = other.orZero()
	if n.integer != nil && other.integer != nil {
		return n.integer.Cmp(other.integer)
	}
	if n.integer == nil && other.integer == nil {
		switch {
		case n.float < other.float:
			return -1
		case n.float > other.float:
			return 1
		}
		return 0
	}
	return n.Rat().Cmp(other.Rat())
}

// CanonicalText is the value in a form every JSON Schema engine reads exactly: the integer's digits, or the
// shortest decimal that reads back to the double.
func (n Number) CanonicalText() string {
	n = n.orZero()
	if n.overflow {
		return n.literal
	}
	if n.integer != nil {
		return n.integer.String()
	}
	return strconv.FormatFloat(n.float, 'g', -1, 64)
}

// Equal is JSON equality: numbers by value, `true` never equal to 1, objects regardless of member order.
func Equal(a, b *Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case KindNull:
		return true
	case KindBool:
		return a.Bool == b.Bool
	case KindNumber:
		return a.Number.Cmp(b.Number) == 0
	case KindString:
		return a.String == b.String
	case KindArray:
		return equalItems(a.Items, b.Items)
	}
	return equalMembers(a, b)
}

func equalItems(a, b []Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !Equal(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

func equalMembers(a, b *Value) bool {
	if len(a.Members) != len(b.Members) {
		return false
	}
	for i := range a.Members {
		other, ok := b.Get(a.Members[i].Key)
		if !ok || !Equal(&a.Members[i].Value, other) {
			return false
		}
	}
	return true
}
