// Reader and writer tests: texts → ReadJSON → the refusals or values spec/validation.md ("Wire rules", "Limits",
// "The value of a number") states, and values → WriteJSON → text. Every expected value is quoted from the spec.
//
// WHY: the reader decides every wire rule of the binding; these pin each rule and each limit at its exact edge.
package seqio

import (
	"math/big"
	"strings"
	"testing"
)

// refusedWith reads text and asserts exactly the given {path, rule} refusals, in order.
func refusedWith(t *testing.T, text string, want ...[2]string) {
	t.Helper()
	_, refusals := ReadJSON([]byte(text))
	if len(refusals) != len(want) {
		t.Fatalf("%.80q: got %d refusals %v, want %v", text, len(refusals), refusals, want)
	}
	for i, w := range want {
		if refusals[i].Path != w[0] || refusals[i].Rule != w[1] {
			t.Errorf("%.80q: refusal %d is %s %s, want %s %s", text, i, refusals[i].Path, refusals[i].Rule, w[0], w[1])
		}
		if refusals[i].Message == "" {
			t.Errorf("%.80q: refusal %d has no sentence", text, i)
		}
	}
}

func readOK(t *testing.T, text string) Value {
	t.Helper()
	v, refusals := ReadJSON([]byte(text))
	if len(refusals) > 0 {
		t.Fatalf("%.80q: refused %v", text, refusals)
	}
	return v
}

func TestSyntaxRefusedAtRoot(t *testing.T) {
	for _, text := range []string{
		"", "{", "[1,]", `{"a":1,}`, "NaN", "Infinity", "-Infinity", "01", "1.", ".5", "1e", "+1", `"a`, "tru",
		"\ufeff{}", "{} {}", `{"a" 1}`, `{1:2}`, "[1 2]", "\"\t\"", `"\x"`, `"\u12"`, "\v1",
	} {
		refusedWith(t, text, [2]string{"$", RuleJSONSyntax})
	}
}

func TestWhitespaceAroundValue(t *testing.T) {
	v := readOK(t, " \t\r\n[ 1 , 2 ]\n")
	if len(v.Items) != 2 {
		t.Fatalf("got %d items", len(v.Items))
	}
}

func TestLoneSurrogatesRefused(t *testing.T) {
	for _, text := range []string{`"\ud800"`, `"\ude00\ud83d"`, `{"\udfff":1}`, `"\ud800x"`, `"\ud800\u0041"`} {
		refusedWith(t, text, [2]string{"$", RuleJSONSyntax})
	}
	// A surrogate written as UTF-8 bytes (CESU-8 / WTF-8) is not UTF-8.
	refusedWith(t, "\"\xed\xa0\x80\"", [2]string{"$", RuleJSONSyntax})
	refusedWith(t, "\"\xff\"", [2]string{"$", RuleJSONSyntax})
}

func TestSurrogatePairIsOneCodePoint(t *testing.T) {
	v := readOK(t, `"\ud83d\ude00"`)
	if v.String != "\U0001F600" {
		t.Fatalf("got %q", v.String)
	}
}

func TestDuplicateKeysEachAtTheirObject(t *testing.T) {
	refusedWith(t, `{"a":1,"a":2}`, [2]string{"$", RuleDuplicateKey})
	refusedWith(t, `{"s":{"x":1,"x":2},"t":[{"y":0,"y":0}]}`,
		[2]string{"$.s", RuleDuplicateKey}, [2]string{"$.t[0]", RuleDuplicateKey})
	refusedWith(t, `{"a b":{"k":1,"k":1}}`, [2]string{`$["a b"]`, RuleDuplicateKey})
}

func TestNonFiniteNumbersAtTheirPath(t *testing.T) {
	refusedWith(t, `{"a":1e400,"b":[-1e400]}`, [2]string{"$.a", RuleNonFinite}, [2]string{"$.b[0]", RuleNonFinite})
	refusedWith(t, "1"+strings.Repeat("0", 400), [2]string{"$", RuleNonFinite})
}

func TestSyntaxBeatsCollectedRefusals(t *testing.T) {
	refusedWith(t, `{"a":1,"a":1e400,}`, [2]string{"$", RuleJSONSyntax})
}

func TestIntegerDigitsLimitAtItsEdge(t *testing.T) {
	// 4,300 digits is beyond every double (non-finite); 4,301 digits is too long, whatever its value.
	refusedWith(t, "["+strings.Repeat("9", 4300)+"]", [2]string{"$[0]", RuleNonFinite})
	refusedWith(t, "["+strings.Repeat("9", 4301)+"]", [2]string{"$[0]", RuleIntegerTooLong})
	refusedWith(t, "-"+strings.Repeat("1", 4301), [2]string{"$", RuleIntegerTooLong})
	// A literal with a fraction has no length limit: its value decides.
	readOK(t, "0."+strings.Repeat("1", 10000))
}

func nested(depth int, inner string) string {
	return strings.Repeat("[", depth) + inner + strings.Repeat("]", depth)
}

func TestDepthLimitAtItsEdge(t *testing.T) {
	// A value may be enclosed by 200 containers: an empty one there is fine, a value inside it is enclosed by 201.
	readOK(t, nested(201, ""))
	readOK(t, nested(200, "0"))
	refusedWith(t, nested(201, "0"), [2]string{"$", RuleTooDeep})
	refusedWith(t, nested(200, `{"a":0}`), [2]string{"$", RuleTooDeep})
	refusedWith(t, nested(100000, ""), [2]string{"$", RuleTooDeep})
	// Too deep and broken later: too deep.
	refusedWith(t, nested(201, "0")+"x", [2]string{"$", RuleTooDeep})
}

func TestDocumentSizeLimit(t *testing.T) {
	huge := make([]byte, MaxDocumentBytes()+1)
	if _, refusals := ReadJSON(huge); len(refusals) != 1 || refusals[0].Rule != RuleTooLarge || refusals[0].Path != "$" {
		t.Fatalf("a document of 128 MiB + 1 byte is too large: %v", refusals)
	}
	// At the limit itself the size is fine; these zero bytes are then refused as text, not as size.
	if _, refusals := ReadJSON(huge[:MaxDocumentBytes()]); len(refusals) != 1 || refusals[0].Rule != RuleJSONSyntax {
		t.Fatalf("a document of exactly 128 MiB is read: %v", refusals)
	}
}

func number(t *testing.T, literal string) Number {
	t.Helper()
	v := readOK(t, literal)
	if v.Kind != KindNumber {
		t.Fatalf("%s is not a number", literal)
	}
	return v.Number
}

func TestNumberValues(t *testing.T) {
	exact, _ := new(big.Int).SetString("9007199254740993", 10)
	for _, literal := range []string{"9007199254740993", "9007199254740993.0", "9.007199254740993e15"} {
		n := number(t, literal)
		if !n.IsInteger() || n.BigInt().Cmp(exact) != 0 {
			t.Errorf("%s should be the integer 9007199254740993", literal)
		}
	}
	if n := number(t, "640.0"); !n.IsInteger() || n.WrittenAsInteger() || n.BigInt().Int64() != 640 {
		t.Errorf("640.0 is the integer 640 written with a fraction")
	}
	if n := number(t, "2.0000000000000001"); !n.IsInteger() || n.BigInt().Int64() != 2 {
		t.Errorf("2.0000000000000001 is the integer 2")
	}
	for _, literal := range []string{"1e-400", "-1e-400", "-0.0"} {
		if n := number(t, literal); !n.IsInteger() || n.BigInt().Sign() != 0 {
			t.Errorf("%s is the number 0", literal)
		}
	}
	if number(t, "0.1").Cmp(number(t, "0.10000000000000001")) != 0 {
		t.Errorf("0.1 and 0.10000000000000001 are the same double")
	}
	if number(t, "1").Cmp(number(t, "10e-1")) != 0 || number(t, "1e0").Cmp(number(t, "1.0")) != 0 {
		t.Errorf("1, 1.0, 1e0 and 10e-1 are one number")
	}
}

func TestJSONEquality(t *testing.T) {
	one, oneFloat, yes := readOK(t, "1"), readOK(t, "1.0"), readOK(t, "true")
	if !Equal(&one, &oneFloat) || Equal(&one, &yes) {
		t.Errorf("1 = 1.0 and true ≠ 1")
	}
	a, b := readOK(t, `{"x":1,"y":[2]}`), readOK(t, `{"y":[2.0],"x":1}`)
	if !Equal(&a, &b) {
		t.Errorf("member order carries no meaning")
	}
}

func TestWriterKeepsLiteralsOrderAndStrings(t *testing.T) {
	text := `{"b":1.50,"a":[9007199254740993,-0.0,1e2],"s":"ü\"\\\n\u0001😀","n":null,"e":{},"l":[]}`
	v := readOK(t, text)
	want := `{"b":1.50,"a":[9007199254740993,-0.0,1e2],"s":"ü\"\\\n\u0001😀","n":null,"e":{},"l":[]}`
	if got := string(WriteJSON(&v)); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestWriterIsIterative(t *testing.T) {
	text := nested(200, "")
	v := readOK(t, text)
	if got := string(WriteJSON(&v)); got != text {
		t.Fatalf("a 200-deep value did not come back")
	}
}

func TestPathNotation(t *testing.T) {
	cases := map[string]string{
		"cam": ".cam", "front cam": `["front cam"]`, "ünï": `["ünï"]`, `a"b`: `["a\"b"]`, "a\nb": `["a\nb"]`,
		"": `[""]`, "1x": `["1x"]`, "_x9": "._x9", "a-b": `["a-b"]`, "\u001f": `["\u001f"]`,
	}
	for name, want := range cases {
		if got := pathMember(name); got != want {
			t.Errorf("%q: got %s, want %s", name, got, want)
		}
	}
}

func TestMessageReaderKeepsLoneSurrogateForTheInstance(t *testing.T) {
	// The instance text holds the escape `\ud800`, then the code point U+D800 itself (spec/validation.md).
	for _, instance := range []string{`\"\\ud800\"`, `\"\ud800\"`} {
		line := `{"json":"` + instance + `","deep":` + nested(216, "") + `}`
		message, refusals := ReadMessage([]byte(line))
		if len(refusals) > 0 {
			t.Fatalf("a message 216 deep with a lone surrogate inside a string is readable: %v", refusals)
		}
		text, _ := message.Get("json")
		refusedWith(t, text.String, [2]string{"$", RuleJSONSyntax})
	}
	_, refusals := ReadMessage([]byte(nested(218, "")))
	if len(refusals) != 1 || refusals[0].Rule != RuleTooDeep {
		t.Fatalf("a message deeper than MAX_JSON_DEPTH + 16 is refused: %v", refusals)
	}
}

func TestMessageReaderKeepsEveryNumber(t *testing.T) {
	long := strings.Repeat("7", 5000)
	message, refusals := ReadMessage([]byte(`{"t":` + long + `,"rate":1` + strings.Repeat("0", 400) + `,"x":-1e400}`))
	if len(refusals) > 0 {
		t.Fatalf("a message takes integers of any length: %v", refusals)
	}
	t5000, _ := message.Get("t")
	if t5000.Number.BigInt().String() != long {
		t.Fatalf("a 5,000-digit integer is read exactly")
	}
	// A body sent as a value is then checked as the text API would check the same document.
	got := CheckValue(&message)
	want := [][2]string{{"$.t", RuleIntegerTooLong}, {"$.rate", RuleNonFinite}, {"$.x", RuleNonFinite}}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i].Path != want[i][0] || got[i].Rule != want[i][1] {
			t.Errorf("refusal %d: got %s %s, want %s %s", i, got[i].Path, got[i].Rule, want[i][0], want[i][1])
		}
	}
}

func TestCheckValueDepthAndText(t *testing.T) {
	deep, _ := ReadMessage([]byte(nested(202, "")))
	if got := CheckValue(&deep); len(got) != 1 || got[0].Rule != RuleTooDeep || got[0].Path != "$" {
		t.Fatalf("a value enclosed by 201 containers is too deep: %v", got)
	}
	fine, _ := ReadMessage([]byte(nested(201, "")))
	if got := CheckValue(&fine); len(got) != 0 {
		t.Fatalf("an empty 201st container is fine: %v", got)
	}
	surrogate, _ := ReadMessage([]byte(`{"k":"\udc00"}`))
	if got := CheckValue(&surrogate); len(got) != 1 || got[0].Rule != RuleJSONSyntax {
		t.Fatalf("a lone surrogate in a value is json-syntax: %v", got)
	}
}
