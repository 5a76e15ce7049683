// JsonValue → compact JSON text: members in their order, numbers as their literal or exact value, strings with
// only the escapes JSON needs (non-ASCII written as itself).
// WHY: spec/validation.md "Writing an instance": every number keeps its value and kind, nothing is added.
// The depth of a value is bounded by the reader (or checked by the validator for a value built in memory), so
// the recursion here is bounded too.
package example.seqio.json;

import example.seqio.JsonPath;
import java.util.Map;

/** Writes JSON values as compact text. */
public final class JsonWriter {
  private JsonWriter() {}

  /** The compact JSON text of {@code value}. */
  public static String write(JsonValue value) {
    StringBuilder out = new StringBuilder();
    write(out, value);
    return out.toString();
  }

  /** Appends the compact JSON text of {@code value}. */
  public static void write(StringBuilder out, JsonValue value) {
    if (value instanceof JsonValue.Null) {
      out.append("null");
    } else if (value instanceof JsonValue.Bool b) {
      out.append(b.value());
    } else if (value instanceof JsonNumber n) {
      out.append(n.toJson());
    } else if (value instanceof JsonValue.Str s) {
      JsonPath.quote(out, s.value());
    } else if (value instanceof JsonValue.Arr a) {
      out.append('[');
      for (int i = 0; i < a.items().size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(out, a.items().get(i));
      }
      out.append(']');
    } else {
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, JsonValue> member : ((JsonValue.Obj) value).members().entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        JsonPath.quote(out, member.getKey());
        out.append(':');
        write(out, member.getValue());
      }
      out.append('}');
    }
  }
}
