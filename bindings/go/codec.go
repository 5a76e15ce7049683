// The pieces the generated types (types_gen.go) are built from: a three-state Optional, an ordered Map, and
// decode/encode helpers from Value to Go values and back, each refusing with a path and a rule id.
//
// WHY it is shaped this way: encoding/json cannot omit a struct-valued field nor tell absent from null, and its
// numbers are float64; so every generated type decodes from and encodes to the exact Value model (value.go) through
// these helpers, and its MarshalJSON/UnmarshalJSON only wrap that. The rule ids a type alone refuses with (`type`,
// `required`, `additionalProperties`, `enum`, `minimum`/`maximum` beyond int64) are the JSON Schema keyword a
// validator would name, so the looseness table can compare the two.

package seqio

import (
	"fmt"
	"math/big"
	"sort"
)

// FieldState says whether an optional member was absent, an explicit null, or present with a value.
type FieldState uint8

// The three states of an optional member.
const (
	Absent FieldState = iota
	IsNull
	Present
)

// Optional is an optional (and perhaps nullable) member: absent, null, or a value. The zero value is absent.
type Optional[T any] struct {
	State FieldState
	Value T
}

// Some is a present member holding v.
func Some[T any](v T) Optional[T] { return Optional[T]{State: Present, Value: v} }

// NullOf is a member written as an explicit null.
func NullOf[T any]() Optional[T] { return Optional[T]{State: IsNull} }

// Get returns the value and whether the member is present with a value.
func (o Optional[T]) Get() (T, bool) { return o.Value, o.State == Present }

// Entry is one member of a Map.
type Entry[T any] struct {
	Key   string
	Value T
}

// Map is a JSON object with free member names, in the order they were read.
type Map[T any] []Entry[T]

// Lookup returns the value of key and whether it is there.
func (m Map[T]) Lookup(key string) (T, bool) {
	for _, e := range m {
		if e.Key == key {
			return e.Value, true
		}
	}
	var zero T
	return zero, false
}

type decoder[T any] func(v *Value, path string) (T, error)

var kindNames = map[Kind]string{KindNull: "null", KindBool: "a boolean", KindNumber: "a number",
	KindString: "a string", KindArray: "an array", KindObject: "an object"}

func typeRefusal(path, want string, v *Value) error {
	return Refusal{Path: path, Rule: "type", Message: fmt.Sprintf("%s is expected here, not %s", want, kindNames[v.Kind])}
}

func decodeString(v *Value, path string) (string, error) {
	if v.Kind != KindString {
		return "", typeRefusal(path, "a string", v)
	}
	return v.String, nil
}

func decodeBoolean(v *Value, path string) (bool, error) {
	if v.Kind != KindBool {
		return false, typeRefusal(path, "a boolean", v)
	}
	return v.Bool, nil
}

func decodeNumber(v *Value, path string) (Number, error) {
	if v.Kind != KindNumber {
		return Number{}, typeRefusal(path, "a number", v)
	}
	return v.Number, nil
}

var (
	minInt64 = big.NewInt(-1 << 63)
	maxInt64 = big.NewInt(1<<63 - 1)
)

// decodeInteger takes any whole number value (`640.0` is 640); beyond int64 it refuses as the schema's bound would.
func decodeInteger(v *Value, path string) (int64, error) {
	if v.Kind != KindNumber || !v.Number.IsInteger() {
		return 0, typeRefusal(path, "an integer", v)
	}
	i := v.Number.BigInt()
	if i.Cmp(minInt64) < 0 {
		return 0, Refusal{Path: path, Rule: "minimum", Message: "the integer is below the range of this field"}
	}
	if i.Cmp(maxInt64) > 0 {
		return 0, Refusal{Path: path, Rule: "maximum", Message: "the integer is above the range of this field"}
	}
	return i.Int64(), nil
}

func decodeAny(v *Value, _ string) (Value, error) { return *v, nil }

func decodeList[T any](v *Value, path string, item decoder[T]) ([]T, error) {
	if v.Kind != KindArray {
		return nil, typeRefusal(path, "an array", v)
	}
	out := make([]T, 0, len(v.Items))
	for i := range v.Items {
		x, err := item(&v.Items[i], path+pathIndex(i))
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

func decodePair[T any](v *Value, path string, item decoder[T]) ([2]T, error) {
	var out [2]T
	items, err := decodeList(v, path, item)
	if err != nil {
		return out, err
	}
	if len(items) != 2 {
		rule := "minItems"
		if len(items) > 2 {
			rule = "maxItems"
		}
		return out, Refusal{Path: path, Rule: rule, Message: fmt.Sprintf("2 items are expected, not %d", len(items))}
	}
	return [2]T{items[0], items[1]}, nil
}

func decodeMap[T any](v *Value, path string, item decoder[T]) (Map[T], error) {
	if v.Kind != KindObject {
		return nil, typeRefusal(path, "an object", v)
	}
	out := make(Map[T], 0, len(v.Members))
	for i := range v.Members {
		x, err := item(&v.Members[i].Value, path+pathMember(v.Members[i].Key))
		if err != nil {
			return nil, err
		}
		out = append(out, Entry[T]{Key: v.Members[i].Key, Value: x})
	}
	return out, nil
}

// decodeOptional reads a member that was present: null when nullable allows it, else a value.
func decodeOptional[T any](v *Value, path string, nullable bool, item decoder[T]) (Optional[T], error) {
	if v.Kind == KindNull {
		if !nullable {
			return Optional[T]{}, typeRefusal(path, "a value (not null)", v)
		}
		return NullOf[T](), nil
	}
	x, err := item(v, path)
	if err != nil {
		return Optional[T]{}, err
	}
	return Some(x), nil
}

func expectObject(v *Value, path string) error {
	if v.Kind != KindObject {
		return typeRefusal(path, "an object", v)
	}
	return nil
}

func unknownMember(path, key string) error {
	return Refusal{Path: path, Rule: "additionalProperties",
		Message: fmt.Sprintf("the member %s is not part of this type", quote(key))}
}

func missingMember(path, key string) error {
	return Refusal{Path: path, Rule: "required", Message: fmt.Sprintf("the member %s is required", quote(key))}
}

func notInEnum(path string, v *Value) error {
	return Refusal{Path: path, Rule: "enum", Message: "the value " + quoteCut(string(WriteJSON(v))) +
		" is not one of the allowed values"}
}

func encodeString(s string) Value { return StringValue(s) }
func encodeBoolean(b bool) Value  { return BoolValue(b) }
func encodeNumber(n Number) Value { return NumberValue(n) }
func encodeInteger(i int64) Value { return NumberValue(IntNumber(i)) }
func encodeAny(v Value) Value     { return v }
func encodePair[T any](p [2]T, item func(T) Value) Value {
	return ArrayValue([]Value{item(p[0]), item(p[1])})
}

func encodeList[T any](xs []T, item func(T) Value) Value {
	out := make([]Value, 0, len(xs))
	for _, x := range xs {
		out = append(out, item(x))
	}
	return ArrayValue(out)
}

func encodeMap[T any](m Map[T], item func(T) Value) Value {
	out := make([]Member, 0, len(m))
	for _, e := range m {
		out = append(out, Member{Key: e.Key, Value: item(e.Value)})
	}
	return ObjectValue(out)
}

// appendOptional writes a member unless it is absent: null as null, a value through item.
func appendOptional[T any](members []Member, key string, o Optional[T], item func(T) Value) []Member {
	switch o.State {
	case IsNull:
		return append(members, Member{Key: key, Value: NullValue()})
	case Present:
		return append(members, Member{Key: key, Value: item(o.Value)})
	}
	return members
}

// unmarshalText is UnmarshalJSON for every generated type: the wire rules first, then the type's decoder.
func unmarshalText[T any](text []byte, decode decoder[T], into *T) error {
	value, refusals := ReadJSON(text)
	if len(refusals) > 0 {
		return refusals[0]
	}
	x, err := decode(&value, "$")
	if err != nil {
		return err
	}
	*into = x
	return nil
}

// roundTripOf decodes a value into T and writes it back; the registry of types_gen.go is built from it.
func roundTripOf[T interface{ ToValue() Value }](decode decoder[T]) func(v *Value) (Value, error) {
	return func(v *Value) (Value, error) {
		x, err := decode(v, "$")
		if err != nil {
			return Value{}, err
		}
		return x.ToValue(), nil
	}
}

// RoundTrip decodes a value into the generated type named typeName and writes it back as a value.
func RoundTrip(typeName string, v *Value) (Value, error) {
	codec, ok := typeCodecs[typeName]
	if !ok {
		return Value{}, fmt.Errorf("no type is named %q", typeName)
	}
	return codec(v)
}

// TypeNames are the contract's type names (those RoundTrip and Validate take).
func TypeNames() []string {
	names := make([]string, 0, len(typeCodecs))
	for name := range typeCodecs {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
