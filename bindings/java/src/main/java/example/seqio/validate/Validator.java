// validate(typeName, text) → valid + normalized value, or the refusals {path, rule, message} of
// spec/validation.md, in its order of concern: wire rules (our reader) → JSON Schema 2020-12 (networknt, over
// the embedded schemas, its errors mapped by SchemaErrors) → rules beyond the schema (on a schema-valid
// instance only) → normalization.
// WHY this order: a text that breaks a wire rule has no value to check, and an instance that fails its schema is
// reported by schema keywords only; each stage runs only when the ones before found nothing.
package example.seqio.validate;

import example.seqio.Contract;
import example.seqio.JsonPath;
import example.seqio.Refusal;
import example.seqio.json.JsonNumber;
import example.seqio.json.JsonReader;
import example.seqio.json.JsonValue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/** The contract validator. Thread-safe; build one and reuse it (compiled schemas are cached). */
public final class Validator {
  /** At most this many refusals are reported (sorted by path and rule). */
  public static final int MAX_REFUSALS = 100;

  private final SchemaSet schemas = new SchemaSet();

  /** The answer: valid with the normalized value, or refused with at least one refusal. */
  public record Outcome(boolean valid, JsonValue normalized, List<Refusal> refusals) {
    static Outcome refused(List<Refusal> refusals) {
      List<Refusal> sorted = new ArrayList<>(refusals);
      sorted.sort(null);
      return new Outcome(false, null, List.copyOf(sorted.subList(0, Math.min(MAX_REFUSALS, sorted.size()))));
    }
  }

  /** True when the contract has a type of this name (a schema file in spec/schemas). */
  public static boolean knows(String typeName) {
    return typeName.matches("[A-Za-z]+") && SchemaSet.exists(typeName);
  }

  /** Validates UTF-8 JSON text as an instance of {@code typeName}. */
  public Outcome validate(String typeName, byte[] utf8) {
    return afterReading(typeName, JsonReader.read(utf8));
  }

  /** Validates JSON text held as characters as an instance of {@code typeName}. */
  public Outcome validate(String typeName, String text) {
    return afterReading(typeName, JsonReader.read(text));
  }

  /** Validates a value built in memory, decided exactly as the same document given as text. */
  public Outcome validate(String typeName, JsonValue value) {
    Refusal limit = limitRefusal(value);
    return limit != null ? Outcome.refused(List.of(limit)) : validated(typeName, value);
  }

  private Outcome afterReading(String typeName, JsonReader.Result read) {
    return read.ok() ? validated(typeName, read.value()) : Outcome.refused(read.refusals());
  }

  private Outcome validated(String typeName, JsonValue value) {
    if (!knows(typeName)) {
      throw new IllegalArgumentException("the contract has no type named " + typeName);
    }
    List<com.networknt.schema.Error> errors = schemas.schema(typeName).validate(ToJackson.node(value));
    if (!errors.isEmpty()) {
      return Outcome.refused(new SchemaErrors(schemas, typeName).refusals(errors));
    }
    List<Refusal> beyond = new ArrayList<>();
    JsonValue normalized = TypedWalk.walk(typeName, value, "$", (name, node, path) -> {
      BeyondSchema.check(name, node.members(), path, beyond);
      return BeyondSchema.normalize(name, node);
    });
    return beyond.isEmpty() ? new Outcome(true, normalized, List.of()) : Outcome.refused(beyond);
  }

  /** The depth and number limits for a value built in memory, checked without recursion. */
  private static Refusal limitRefusal(JsonValue root) {
    Deque<Object[]> work = new ArrayDeque<>();
    work.push(new Object[] {root, 0, "$"});
    while (!work.isEmpty()) {
      Object[] top = work.pop();
      JsonValue value = (JsonValue) top[0];
      int depth = (Integer) top[1];
      String path = (String) top[2];
      if (depth > Contract.MAX_JSON_DEPTH) {
        return new Refusal("$", JsonReader.TOO_DEEP, "a value is nested more deeply than "
            + Contract.MAX_JSON_DEPTH + " arrays and objects (spec/validation.md, \"Limits\")");
      }
      if (value instanceof JsonNumber n && n.isIntegral()) {
        Refusal refusal = integerRefusal(n, path);
        if (refusal != null) {
          return refusal;
        }
      } else if (value instanceof JsonValue.Arr a) {
        for (int i = a.items().size() - 1; i >= 0; i--) {
          work.push(new Object[] {a.items().get(i), depth + 1, JsonPath.child(path, i)});
        }
      } else if (value instanceof JsonValue.Obj o) {
        for (Map.Entry<String, JsonValue> m : o.members().entrySet()) {
          work.push(new Object[] {m.getValue(), depth + 1, JsonPath.child(path, m.getKey())});
        }
      }
    }
    return null;
  }

  private static Refusal integerRefusal(JsonNumber n, String path) {
    if (!Double.isInfinite(n.integerValue().doubleValue())) {
      return null;
    }
    int digits = n.integerValue().abs().toString().length();
    if (n.writtenAsInteger() && digits > Contract.MAX_INTEGER_DIGITS) {
      return new Refusal(path, JsonReader.INTEGER_TOO_LONG, "an integer of " + digits + " digits is longer than "
          + Contract.MAX_INTEGER_DIGITS + " digits");
    }
    return new Refusal(path, JsonReader.NON_FINITE, "the number is beyond the range of a binary64 double");
  }
}
