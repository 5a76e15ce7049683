// JSON text (UTF-8 bytes or a Java string) → one JsonValue, or the wire refusals of spec/validation.md.
// Steps: size limit → strict UTF-8 → one pass over the characters with an explicit stack of open containers
// (never recursion) → syntax, lone surrogates and depth stop the pass at once (path `$`); duplicate keys,
// non-finite numbers and too-long integers are collected at their own paths and reported together.
// WHY our own reader: no common Java parser refuses duplicates, lone surrogates and BOMs, bounds depth at 200,
// and keeps every number exactly with its kind in one pass (docs/bindings-generators.md measures Jackson's).
package example.seqio.json;

import example.seqio.Contract;
import example.seqio.JsonPath;
import example.seqio.Refusal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads one JSON document under the wire rules and the contract limits. */
public final class JsonReader {
  public static final String JSON_SYNTAX = "wire.json-syntax";
  public static final String DUPLICATE_KEY = "wire.duplicate-key";
  public static final String NON_FINITE = "wire.non-finite-number";
  public static final String TOO_DEEP = "wire.too-deep";
  public static final String INTEGER_TOO_LONG = "wire.integer-too-long";
  public static final String TOO_LARGE = "reader.too-large";

  /** This reader's document size limit (a reader limit, not a contract rule): 128 MiB of UTF-8. */
  public static final int MAX_DOCUMENT_BYTES = 134_217_728;

  /** An integer of more digits than this is at least 10^309, beyond the largest double. */
  private static final int MAX_FINITE_DIGITS = 309;

  /** The value read (null when refused) and the refusals (empty when the text is a valid JSON document). */
  public record Result(JsonValue value, List<Refusal> refusals) {
    public boolean ok() {
      return refusals.isEmpty();
    }
  }

  private final String text;
  private final int maxDepth;
  private final boolean keepLiterals;
  private final boolean loneSurrogates;
  private final List<Refusal> collected = new ArrayList<>();
  private final List<Object> path = new ArrayList<>();
  private int pos;

  private JsonReader(String text, int maxDepth, boolean keepLiterals, boolean loneSurrogates) {
    this.text = text;
    this.maxDepth = maxDepth;
    this.keepLiterals = keepLiterals;
    this.loneSurrogates = loneSurrogates;
  }

  /** Reads UTF-8 bytes as a contract instance ({@code MAX_JSON_DEPTH}). */
  public static Result read(byte[] utf8) {
    if (utf8.length > MAX_DOCUMENT_BYTES) {
      return refused(TOO_LARGE, "the document is " + utf8.length + " bytes, more than the "
          + MAX_DOCUMENT_BYTES + " bytes this reader accepts (spec/validation.md, \"Limits\")");
    }
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(utf8))
          .toString();
    } catch (CharacterCodingException e) {
      return refused(JSON_SYNTAX, "the text is not valid UTF-8 (RFC 8259 texts are UTF-8)");
    }
    return read(text, Contract.MAX_JSON_DEPTH);
  }

  /** Reads a text already held as characters (a protocol message's string) as a contract instance. */
  public static Result read(String text) {
    return read(text, Contract.MAX_JSON_DEPTH);
  }

  /** Reads a text whose values may be enclosed by at most {@code maxDepth} arrays and objects. */
  public static Result read(String text, int maxDepth) {
    if (text.length() > MAX_DOCUMENT_BYTES) {
      return refused(TOO_LARGE, "the document is " + text.length() + " characters, more than the "
          + MAX_DOCUMENT_BYTES + " bytes this reader accepts (spec/validation.md, \"Limits\")");
    }
    return run(new JsonReader(text, maxDepth, false, false));
  }

  /**
   * Reads a protocol message (conformance/protocol.md): its strings may hold lone surrogates, since a message's
   * {@code json} member carries an instance's text exactly, and the instance's reader then refuses them.
   */
  public static Result readMessage(String text, int maxDepth) {
    return run(new JsonReader(text, maxDepth, false, true));
  }

  /**
   * Reads a bundle of test documents (conformance/vectors.json) whose values may hold numbers the wire rules
   * refuse: such a number is kept as its literal only, so writing it back gives the text a vector means.
   * Every other rule applies as in {@link #read(String, int)}. Not for contract instances.
   */
  public static Result readKeepingLiterals(String text, int maxDepth) {
    return run(new JsonReader(text, maxDepth, true, false));
  }

  private static Result run(JsonReader reader) {
    try {
      JsonValue value = reader.document();
      if (!reader.collected.isEmpty()) {
        List<Refusal> sorted = new ArrayList<>(reader.collected);
        sorted.sort(null);
        return new Result(null, List.copyOf(sorted));
      }
      return new Result(value, List.of());
    } catch (Stop stop) {
      return new Result(null, List.of(stop.refusal));
    }
  }

  private static Result refused(String rule, String message) {
    return new Result(null, List.of(new Refusal("$", rule, message)));
  }

  /** Ends the pass: a refusal of the whole text. */
  private static final class Stop extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient Refusal refusal;

    Stop(Refusal refusal) {
      super(refusal.message(), null, false, false);
      this.refusal = refusal;
    }
  }

  private Stop syntax(String what) {
    return new Stop(new Refusal("$", JSON_SYNTAX, "not JSON: " + what + " at character " + pos));
  }

  /** An open array or object on the explicit stack. */
  private static final class Open {
    final List<JsonValue> items; // for an array
    final Map<String, JsonValue> members; // for an object
    final Set<String> reportedDuplicates;
    String key;

    Open(boolean object) {
      items = object ? null : new ArrayList<>();
      members = object ? JsonValue.Obj.newMembers() : null;
      reportedDuplicates = object ? new HashSet<>() : null;
    }

    JsonValue close() {
      return items != null ? new JsonValue.Arr(items) : new JsonValue.Obj(members);
    }
  }

  private JsonValue document() {
    List<Open> stack = new ArrayList<>();
    skipWhitespace();
    while (true) {
      // A value starts here.
      if (stack.size() > maxDepth) {
        throw new Stop(new Refusal("$", TOO_DEEP, "a value is nested more deeply than " + maxDepth
            + " arrays and objects (spec/validation.md, \"Limits\")"));
      }
      JsonValue value;
      char c = peek();
      if (c == '{' || c == '[') {
        pos++;
        skipWhitespace();
        char closing = c == '{' ? '}' : ']';
        if (peek() == closing) {
          pos++;
          value = c == '{' ? new JsonValue.Obj(JsonValue.Obj.newMembers()) : new JsonValue.Arr(List.of());
        } else {
          Open open = new Open(c == '{');
          stack.add(open);
          if (c == '{') {
            open.key = memberName();
            path.add(open.key);
          } else {
            path.add(0);
          }
          continue;
        }
      } else {
        value = scalar();
      }
      // A value ended: add it to its container, then close every container that ends here.
      while (true) {
        skipWhitespace();
        if (stack.isEmpty()) {
          if (pos != text.length()) {
            throw syntax("text after the value");
          }
          return value;
        }
        Open top = stack.get(stack.size() - 1);
        add(top, value);
        char next = peek();
        if (next == ',') {
          pos++;
          skipWhitespace();
          path.remove(path.size() - 1);
          if (top.items != null) {
            path.add(top.items.size());
          } else {
            top.key = memberName();
            path.add(top.key);
          }
          break;
        }
        if (next != (top.items != null ? ']' : '}')) {
          throw syntax(top.items != null ? "expected ',' or ']'" : "expected ',' or '}'");
        }
        pos++;
        stack.remove(stack.size() - 1);
        path.remove(path.size() - 1);
        value = top.close();
      }
    }
  }

  private void add(Open top, JsonValue value) {
    if (top.items != null) {
      top.items.add(value);
      return;
    }
    if (top.members.containsKey(top.key)) {
      if (top.reportedDuplicates.add(top.key)) {
        String at = JsonPath.of(path.subList(0, path.size() - 1));
        collected.add(new Refusal(at, DUPLICATE_KEY, "the key " + Quote.shortJson(top.key)
            + " appears more than once in this object"));
      }
      return;
    }
    top.members.put(top.key, value);
  }

  /** A member name, then its colon; leaves the position at the member's value. */
  private String memberName() {
    if (peek() != '"') {
      throw syntax("expected a member name in double quotes");
    }
    String name = string();
    skipWhitespace();
    if (peek() != ':') {
      throw syntax("expected ':'");
    }
    pos++;
    skipWhitespace();
    return name;
  }

  private JsonValue scalar() {
    char c = peek();
    if (c == '"') {
      return new JsonValue.Str(string());
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      return number();
    }
    if (text.startsWith("true", pos)) {
      pos += 4;
      return JsonValue.Bool.TRUE;
    }
    if (text.startsWith("false", pos)) {
      pos += 5;
      return JsonValue.Bool.FALSE;
    }
    if (text.startsWith("null", pos)) {
      pos += 4;
      return JsonValue.Null.NULL;
    }
    throw syntax(pos >= text.length() ? "the text ends where a value should start" : "expected a value");
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void skipWhitespace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private String string() {
    pos++; // the opening quote
    StringBuilder out = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw syntax("the text ends inside a string");
      }
      char c = text.charAt(pos);
      if (c == '"') {
        pos++;
        return out.toString();
      }
      if (c < 0x20) {
        throw syntax("a control character inside a string must be escaped");
      }
      if (c == '\\') {
        c = escape();
      } else {
        pos++;
      }
      if (loneSurrogates) {
        out.append(c);
      } else if (Character.isHighSurrogate(c)) {
        out.append(c);
        out.append(lowSurrogateAfterHigh());
      } else if (Character.isLowSurrogate(c)) {
        throw syntax("a lone surrogate (a low surrogate without a high one) is not a character");
      } else {
        out.append(c);
      }
    }
  }

  /** The low surrogate that must follow a high one, written raw or as an escape. */
  private char lowSurrogateAfterHigh() {
    char low;
    if (text.startsWith("\\u", pos)) {
      low = escape();
    } else if (pos < text.length()) {
      low = text.charAt(pos++);
    } else {
      low = '\0';
    }
    if (!Character.isLowSurrogate(low)) {
      throw syntax("a lone surrogate (a high surrogate not followed by a low one) is not a character");
    }
    return low;
  }

  /** One escape at the backslash; returns the UTF-16 unit it stands for. */
  private char escape() {
    pos++; // the backslash
    char c = peek();
    pos++;
    switch (c) {
      case '"': return '"';
      case '\\': return '\\';
      case '/': return '/';
      case 'b': return '\b';
      case 'f': return '\f';
      case 'n': return '\n';
      case 'r': return '\r';
      case 't': return '\t';
      case 'u': return hexUnit();
      default:
        pos--;
        throw syntax("an unknown escape in a string");
    }
  }

  private char hexUnit() {
    if (pos + 4 > text.length()) {
      throw syntax("a \\u escape needs four hex digits");
    }
    int unit = 0;
    for (int i = 0; i < 4; i++) {
      int digit = Character.digit(text.charAt(pos + i), 16);
      if (digit < 0 || text.charAt(pos + i) > 'f') {
        throw syntax("a \\u escape needs four hex digits");
      }
      unit = unit * 16 + digit;
    }
    pos += 4;
    return (char) unit;
  }

  private JsonValue number() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    int intStart = pos;
    if (peek() == '0') {
      pos++;
    } else if (peek() >= '1' && peek() <= '9') {
      skipDigits();
    } else {
      throw syntax("a number needs digits");
    }
    int intEnd = pos;
    int fracStart = pos;
    int fracEnd = pos;
    if (peek() == '.') {
      pos++;
      fracStart = pos;
      if (skipDigits() == 0) {
        throw syntax("a number needs digits after its decimal point");
      }
      fracEnd = pos;
    }
    int expStart = -1;
    if (peek() == 'e' || peek() == 'E') {
      pos++;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      expStart = pos;
      if (skipDigits() == 0) {
        throw syntax("a number needs digits in its exponent");
      }
      if (text.charAt(expStart - 1) == '-') {
        expStart--;
      }
    }
    String literal = text.substring(start, pos);
    if (fracStart == fracEnd && expStart < 0) {
      return integerLiteral(literal, intEnd - intStart);
    }
    return fractionLiteral(literal, intStart, intEnd, fracStart, fracEnd, expStart);
  }

  private int skipDigits() {
    int from = pos;
    while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
      pos++;
    }
    return pos - from;
  }

  private JsonValue integerLiteral(String literal, int digits) {
    if (keepLiterals && digits > MAX_FINITE_DIGITS) {
      return JsonNumber.fromLiteral(null, Double.NaN, true, literal);
    }
    if (digits > Contract.MAX_INTEGER_DIGITS) {
      collected.add(new Refusal(JsonPath.of(path), INTEGER_TOO_LONG, "an integer of " + digits
          + " digits is longer than the " + Contract.MAX_INTEGER_DIGITS
          + " digits the contract allows (spec/validation.md, \"Limits\")"));
      return JsonValue.Null.NULL;
    }
    if (digits > MAX_FINITE_DIGITS) {
      return nonFinite(literal);
    }
    BigInteger value = new BigInteger(literal);
    if (Double.isInfinite(value.doubleValue())) {
      return nonFinite(literal);
    }
    return JsonNumber.fromLiteral(value, 0.0, true, literal);
  }

  private JsonValue fractionLiteral(
      String literal, int intStart, int intEnd, int fracStart, int fracEnd, int expStart) {
    double nearest = Double.parseDouble(literal);
    if (Double.isInfinite(nearest)) {
      return nonFinite(literal);
    }
    if (nearest == 0.0) { // zero, or an underflow: the number 0 either way
      return JsonNumber.fromLiteral(BigInteger.ZERO, 0.0, false, literal);
    }
    BigInteger exact = exactIntegerOrNull(intStart, intEnd, fracStart, fracEnd, expStart);
    if (exact == null && nearest == Math.rint(nearest)) {
      exact = new java.math.BigDecimal(nearest).toBigIntegerExact();
    }
    return JsonNumber.fromLiteral(exact, exact == null ? nearest : 0.0, false, literal);
  }

  /**
   * The literal's exact value when it is an integer, else null. Only called for a finite, non-zero value, so
   * the exponent fits a long and an integral value has at most 309 digits: linear work in the literal's length.
   */
  private BigInteger exactIntegerOrNull(int intStart, int intEnd, int fracStart, int fracEnd, int expStart) {
    String digits = text.substring(intStart, intEnd) + text.substring(fracStart, fracEnd);
    int last = digits.length();
    while (last > 0 && digits.charAt(last - 1) == '0') {
      last--;
    }
    long exponent = expStart < 0 ? 0 : Long.parseLong(text.substring(expStart, pos));
    long scale = exponent - (fracEnd - fracStart) + (digits.length() - last);
    if (scale < 0) {
      return null;
    }
    BigInteger mantissa = new BigInteger(digits.substring(0, last));
    BigInteger value = mantissa.multiply(BigInteger.TEN.pow((int) scale));
    return intStart > 0 && text.charAt(intStart - 1) == '-' ? value.negate() : value;
  }

  private JsonValue nonFinite(String literal) {
    if (keepLiterals) {
      return JsonNumber.fromLiteral(null, Double.NaN, false, literal);
    }
    collected.add(new Refusal(JsonPath.of(path), NON_FINITE, "the number " + Quote.shortText(literal)
        + " is beyond the range of a binary64 double (spec/validation.md, wire rules)"));
    return JsonValue.Null.NULL;
  }
}
