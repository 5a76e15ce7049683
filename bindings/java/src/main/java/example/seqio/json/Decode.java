// JsonValue + the JSON path where it sits → a typed Java value, or a DecodeException naming the path.
// The generated types call these helpers, one per value kind of generated/binding-model.json.
// WHY here and not generated: each rule (what an `integer` accepts, how absent/null/value map to a Field) is
// written once and tested once, and the generated code stays a list of calls.
package example.seqio.json;

import example.seqio.JsonPath;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Decoding helpers for the generated types. */
public final class Decode {
  private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private Decode() {}

  /** Decodes one value at a path. */
  @FunctionalInterface
  public interface Decoder<T> {
    T decode(JsonValue value, String path) throws DecodeException;
  }

  /** The members of an object; refuses any other JSON type. */
  public static Map<String, JsonValue> object(JsonValue value, String path) throws DecodeException {
    if (value instanceof JsonValue.Obj o) {
      return o.members();
    }
    throw wrongType(value, path, "an object");
  }

  /** Refuses a member of a closed object that its type does not name. */
  public static void closed(Map<String, JsonValue> members, Set<String> known, String path)
      throws DecodeException {
    for (String name : members.keySet()) {
      if (!known.contains(name)) {
        throw new DecodeException(path, "unknown member " + Quote.shortJson(name) + ": this object is closed");
      }
    }
  }

  /** A required member: present and not null. */
  public static <T> T required(Map<String, JsonValue> members, String name, String path, Decoder<T> decoder)
      throws DecodeException {
    JsonValue value = members.get(name);
    if (value == null) {
      throw new DecodeException(path, "the member " + Quote.shortJson(name) + " is required but missing");
    }
    return decoder.decode(value, JsonPath.child(path, name));
  }

  /** An optional member: absent, an explicit null (only when {@code nullable}), or a value. */
  public static <T> Field<T> optional(
      Map<String, JsonValue> members, String name, boolean nullable, String path, Decoder<T> decoder)
      throws DecodeException {
    JsonValue value = members.get(name);
    String at = JsonPath.child(path, name);
    if (value == null) {
      return Field.absent();
    }
    if (value instanceof JsonValue.Null) {
      if (!nullable) {
        throw new DecodeException(at, "may be absent but not null");
      }
      return Field.ofNull();
    }
    return Field.of(decoder.decode(value, at));
  }

  /** A string. */
  public static String string(JsonValue value, String path) throws DecodeException {
    if (value instanceof JsonValue.Str s) {
      return s.value();
    }
    throw wrongType(value, path, "a string");
  }

  /** A boolean. */
  public static Boolean bool(JsonValue value, String path) throws DecodeException {
    if (value instanceof JsonValue.Bool b) {
      return b.value();
    }
    throw wrongType(value, path, "a boolean");
  }

  /** An {@code integer} member: any whole number value ({@code 640.0} included) that fits a long. */
  public static Long integer(JsonValue value, String path) throws DecodeException {
    if (value instanceof JsonNumber n && n.isIntegral()) {
      BigInteger v = n.integerValue();
      if (v.compareTo(LONG_MIN) >= 0 && v.compareTo(LONG_MAX) <= 0) {
        return v.longValueExact();
      }
      throw new DecodeException(path, "the integer " + Quote.shortText(n.toJson()) + " does not fit a long");
    }
    throw wrongType(value, path, "an integer");
  }

  /** A {@code number} member: kept exactly, with its kind. */
  public static JsonNumber number(JsonValue value, String path) throws DecodeException {
    if (value instanceof JsonNumber n) {
      return n;
    }
    throw wrongType(value, path, "a number");
  }

  /** An opaque ({@code any}) member: kept as the exact JSON value. */
  public static JsonValue any(JsonValue value, String path) {
    return value;
  }

  /** A list of one item type. */
  public static <T> List<T> list(JsonValue value, String path, Decoder<T> item) throws DecodeException {
    if (!(value instanceof JsonValue.Arr a)) {
      throw wrongType(value, path, "an array");
    }
    List<T> out = new ArrayList<>(a.items().size());
    for (int i = 0; i < a.items().size(); i++) {
      out.add(item.decode(a.items().get(i), JsonPath.child(path, i)));
    }
    return out;
  }

  /** A fixed-length array ({@code prefixItems}) whose items share one type. */
  public static <T> List<T> tuple(JsonValue value, String path, int length, Decoder<T> item)
      throws DecodeException {
    List<T> out = list(value, path, item);
    if (out.size() != length) {
      throw new DecodeException(path, "must hold exactly " + length + " items; it holds " + out.size());
    }
    return out;
  }

  /** An object with free member names and one value type, in member order. */
  public static <T> Map<String, T> map(JsonValue value, String path, Decoder<T> item) throws DecodeException {
    Map<String, T> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonValue> member : object(value, path).entrySet()) {
      out.put(member.getKey(), item.decode(member.getValue(), JsonPath.child(path, member.getKey())));
    }
    return out;
  }

  /** A union told apart by JSON type: the first option whose JSON type fits decides, kept as the JSON value. */
  public static JsonValue union(JsonValue value, String path, Decoder<?>... options) throws DecodeException {
    DecodeException last = null;
    for (Decoder<?> option : options) {
      try {
        option.decode(value, path);
        return value;
      } catch (DecodeException e) {
        last = e;
      }
    }
    throw last;
  }

  private static DecodeException wrongType(JsonValue value, String path, String expected) {
    return new DecodeException(path, "must be " + expected + ", not " + value.jsonType());
  }
}
