// Typed Java values → JsonValue, one helper per value kind of generated/binding-model.json; the generated
// types' encoders are lists of calls to these.
// WHY: one place says that an absent Field writes nothing, a null Field writes `null`, and an `integer` member
// writes its value as an integer (spec/validation.md "Writing an instance").
package example.seqio.json;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Encoding helpers for the generated types. */
public final class Encode {
  private Encode() {}

  /** Puts a required member. */
  public static <T> void required(Map<String, JsonValue> out, String name, T value, Function<T, JsonValue> f) {
    out.put(name, f.apply(value));
  }

  /** Puts an optional member: nothing when absent, {@code null} when null, else the value. */
  public static <T> void optional(Map<String, JsonValue> out, String name, Field<T> field, Function<T, JsonValue> f) {
    switch (field.state()) {
      case ABSENT -> { }
      case NULL -> out.put(name, JsonValue.Null.NULL);
      case VALUE -> out.put(name, f.apply(field.get()));
    }
  }

  public static JsonValue string(String value) {
    return new JsonValue.Str(value);
  }

  public static JsonValue bool(Boolean value) {
    return JsonValue.Bool.of(value);
  }

  public static JsonValue integer(Long value) {
    return JsonNumber.of(value);
  }

  public static JsonValue number(JsonNumber value) {
    return value;
  }

  public static JsonValue any(JsonValue value) {
    return value;
  }

  public static <T> JsonValue list(List<T> items, Function<T, JsonValue> f) {
    List<JsonValue> out = new ArrayList<>(items.size());
    for (T item : items) {
      out.add(f.apply(item));
    }
    return new JsonValue.Arr(out);
  }

  public static <T> JsonValue map(Map<String, T> members, Function<T, JsonValue> f) {
    Map<String, JsonValue> out = JsonValue.Obj.newMembers();
    for (Map.Entry<String, T> member : members.entrySet()) {
      out.put(member.getKey(), f.apply(member.getValue()));
    }
    return new JsonValue.Obj(out);
  }
}
