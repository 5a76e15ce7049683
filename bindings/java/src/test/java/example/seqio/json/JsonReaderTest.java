// The reader against spec/validation.md "Wire rules", "Limits" and "The value of a number": each test's expected
// path and rule id are the spec's, and each limit is tried at its edge and one past it.
// WHY here: the reader is where every wire rule lives; a regression must fail a test named after the rule.
package example.seqio.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import example.seqio.Contract;
import example.seqio.Refusal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonReaderTest {
  private static List<Refusal> refusals(String text) {
    return JsonReader.read(text).refusals();
  }

  private static void refusedAt(String text, String path, String rule) {
    List<Refusal> found = refusals(text);
    assertTrue(found.stream().anyMatch(r -> r.path().equals(path) && r.rule().equals(rule)),
        () -> "expected " + path + " " + rule + ", got " + found);
  }

  private static JsonNumber number(String literal) {
    JsonReader.Result read = JsonReader.read(literal);
    assertTrue(read.ok(), () -> literal + " refused: " + read.refusals());
    return (JsonNumber) read.value();
  }

  private static String nested(int containers, String inner) {
    return "[".repeat(containers) + inner + "]".repeat(containers);
  }

  @Test
  void syntaxErrorsAreRefusedWholeAtTheRoot() {
    refusedAt("{\"a\":1,}", "$", "wire.json-syntax");
    refusedAt("[1] [2]", "$", "wire.json-syntax");
    refusedAt("NaN", "$", "wire.json-syntax");
    refusedAt("[Infinity]", "$", "wire.json-syntax");
    refusedAt("", "$", "wire.json-syntax");
    refusedAt("\"tab\there\"", "$", "wire.json-syntax");
  }

  @Test
  void documentsOverTheReaderLimitAreRefusedWhole() {
    byte[] oversized = new byte[JsonReader.MAX_DOCUMENT_BYTES + 1];
    assertEquals(List.of("$ reader.too-large"),
        JsonReader.read(oversized).refusals().stream().map(r -> r.path() + " " + r.rule()).toList());
  }

  @Test
  void aByteOrderMarkIsRefused() {
    refusedAt("\uFEFF{}", "$", "wire.json-syntax");
    byte[] withBom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '{', '}'};
    assertEquals("wire.json-syntax", JsonReader.read(withBom).refusals().get(0).rule());
  }

  @Test
  void loneSurrogatesAreRefusedEscapedOrRaw() {
    refusedAt("\"\\ud800\"", "$", "wire.json-syntax");
    refusedAt("\"\\ude00\\ud83d\"", "$", "wire.json-syntax");
    refusedAt("{\"\\ud800\": 1}", "$", "wire.json-syntax");
    refusedAt("\"\ud800\"", "$", "wire.json-syntax");
    JsonReader.Result pair = JsonReader.read("\"\\ud83d\\ude00\"");
    assertEquals(new JsonValue.Str("\uD83D\uDE00"), pair.value());
  }

  @Test
  void invalidUtf8IsRefused() {
    byte[] cesu = {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'};
    assertEquals(List.of(new Refusal("$", "wire.json-syntax", "the text is not valid UTF-8 (RFC 8259 texts are UTF-8)")),
        JsonReader.read(cesu).refusals());
    assertTrue(JsonReader.read("\"ü\"".getBytes(StandardCharsets.UTF_8)).ok());
  }

  @Test
  void duplicateKeysAreRefusedAtTheObjectOnce() {
    List<Refusal> found = refusals("{\"a\": {\"k\": 1, \"k\": 2, \"k\": 3}, \"b\": [{\"x\": 1, \"x\": 1}]}");
    assertEquals(List.of("$.a", "$.b[0]"), found.stream().map(Refusal::path).toList());
    assertTrue(found.stream().allMatch(r -> r.rule().equals("wire.duplicate-key")));
  }

  @Test
  void nonFiniteNumbersAreRefusedAtTheirPaths() {
    refusedAt("{\"every\": 1e400}", "$.every", "wire.non-finite-number");
    refusedAt("[0, -1e400]", "$[1]", "wire.non-finite-number");
    refusedAt("{\"x\": 1" + "0".repeat(400) + "}", "$.x", "wire.non-finite-number");
    assertEquals(2, refusals("{\"a\": 1e400, \"b\": 2e400}").size());
  }

  @Test
  void syntaxHidesEveryOtherWireRefusal() {
    assertEquals(List.of("wire.json-syntax"),
        refusals("{\"a\": 1e400, \"a\": 2,}").stream().map(Refusal::rule).toList());
  }

  @Test
  void integerLengthLimitIsExact() {
    String longest = "1" + "0".repeat(Contract.MAX_INTEGER_DIGITS - 1);
    // 4,300 digits are allowed by this rule but far beyond a double: wire.non-finite-number.
    refusedAt("[" + longest + "]", "$[0]", "wire.non-finite-number");
    refusedAt("[-" + longest + "0]", "$[0]", "wire.integer-too-long");
    // A literal with a fraction has no length limit: 5,000 digits of a small number are fine.
    assertTrue(JsonReader.read("0." + "1".repeat(5000)).ok());
  }

  @Test
  void depthLimitIsExact() {
    int max = Contract.MAX_JSON_DEPTH;
    assertTrue(JsonReader.read(nested(max, "0")).ok());
    assertTrue(JsonReader.read(nested(max, "[]")).ok());
    refusedAt(nested(max, "[0]"), "$", "wire.too-deep");
    refusedAt(nested(max, "{\"a\":1}"), "$", "wire.too-deep");
  }

  @Test
  void tooDeepIsReportedBeforeALaterSyntaxError() {
    assertEquals(List.of("wire.too-deep"),
        refusals(nested(100_000, "0") + ",,").stream().map(Refusal::rule).toList());
  }

  @Test
  void integralLiteralsAreExactIntegersWhateverTheirSpelling() {
    BigInteger beyond = new BigInteger("9007199254740993");
    assertEquals(beyond, number("9007199254740993").integerValue());
    assertEquals(beyond, number("9007199254740993.0").integerValue());
    assertEquals(beyond, number("9.007199254740993e15").integerValue());
    assertFalse(number("9007199254740993.0").writtenAsInteger());
    assertEquals(BigInteger.valueOf(640), number("640.0").integerValue());
    assertEquals(BigInteger.valueOf(640), number("6.4e2").integerValue());
  }

  @Test
  void otherLiteralsAreTheNearestDouble() {
    assertEquals(number("0.1"), number("0.10000000000000001"));
    assertEquals(BigInteger.TWO, number("2.0000000000000001").integerValue());
    assertEquals(BigInteger.ZERO, number("1e-400").integerValue());
    assertEquals(BigInteger.ZERO, number("-1e-400").integerValue());
    assertEquals(number("0"), number("-0.0"));
    assertEquals(number("1"), number("10e-1"));
    assertFalse(number("2.5").isIntegral());
  }

  @Test
  void messagesMayNestSixteenLevelsDeeper() {
    int deeper = Contract.MAX_JSON_DEPTH + 16;
    assertTrue(JsonReader.read(nested(deeper, "0"), deeper).ok());
    assertFalse(JsonReader.read(nested(deeper + 1, "0"), deeper).ok());
  }

  @Test
  void messagesMayCarryLoneSurrogatesThatTheInstanceReaderThenRefuses() {
    JsonReader.Result message = JsonReader.readMessage("{\"json\": \"\\\"\\ud800\\\"\"}", 216);
    assertTrue(message.ok());
    String instance = ((JsonValue.Str) ((JsonValue.Obj) message.value()).members().get("json")).value();
    assertEquals("\"\ud800\"", instance);
    refusedAt(instance, "$", "wire.json-syntax");
    assertEquals("\"\\ud800\"", JsonWriter.write(new JsonValue.Str("\ud800")));
  }
}
