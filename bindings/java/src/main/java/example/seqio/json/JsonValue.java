// A JSON value as the contract sees it: null, boolean, exact number, string, array, object with members in order.
// The reader builds these, the generated types keep opaque members as these, the writer writes them back.
// WHY a type of our own: the contract's number model (spec/validation.md, "The value of a number") needs the
// literal's exact value and its kind (integer or not), which no common Java JSON tree keeps together.
package example.seqio.json;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One JSON value; see the permitted records. */
public sealed interface JsonValue
    permits JsonValue.Null, JsonValue.Bool, JsonNumber, JsonValue.Str, JsonValue.Arr, JsonValue.Obj {

  /** JSON {@code null}. */
  enum Null implements JsonValue {
    NULL
  }

  /** JSON {@code true} / {@code false}. */
  record Bool(boolean value) implements JsonValue {
    public static final Bool TRUE = new Bool(true);
    public static final Bool FALSE = new Bool(false);

    public static Bool of(boolean value) {
      return value ? TRUE : FALSE;
    }
  }

  /** A JSON string (never holding a lone surrogate when it came from the reader). */
  record Str(String value) implements JsonValue {}

  /** A JSON array; the list is unmodifiable. */
  record Arr(List<JsonValue> items) implements JsonValue {
    public Arr {
      items = Collections.unmodifiableList(items);
    }
  }

  /** A JSON object; members keep the order they were read or put in; the map is unmodifiable. */
  record Obj(Map<String, JsonValue> members) implements JsonValue {
    public Obj {
      members = Collections.unmodifiableMap(members);
    }

    /** An empty, ordered member map to fill before wrapping it. */
    public static Map<String, JsonValue> newMembers() {
      return new LinkedHashMap<>();
    }
  }

  /** The JSON type name used in messages and by JSON Schema's {@code type} keyword. */
  default String jsonType() {
    if (this instanceof Null) {
      return "null";
    } else if (this instanceof Bool) {
      return "boolean";
    } else if (this instanceof JsonNumber n) {
      return n.isIntegral() ? "integer" : "number";
    } else if (this instanceof Str) {
      return "string";
    } else if (this instanceof Arr) {
      return "array";
    }
    return "object";
  }
}
