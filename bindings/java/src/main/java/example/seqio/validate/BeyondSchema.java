// A schema-valid node of a named type + its path → the refusals of spec/validation.md "Rules beyond the
// schema" (identifiers, bounds counts, InferParam, Lease date), and the two normalizations (Stream.sort-at,
// DeploymentPolicy.fold-streaming). Each rule inspects one node; the schema already checked every shape.
// WHY exact comparisons: the contract compares numbers by exact value (JsonNumber.compareValue).
package example.seqio.validate;

import example.seqio.JsonPath;
import example.seqio.Refusal;
import example.seqio.json.JsonNumber;
import example.seqio.json.JsonReader;
import example.seqio.json.JsonValue;
import example.seqio.json.Quote;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The rules JSON Schema cannot express, and the normalizations. */
final class BeyondSchema {
  private static final int[][] XID_START = identifierRanges("xid_start");
  private static final int[][] XID_CONTINUE = identifierRanges("xid_continue");

  private BeyondSchema() {}

  /** Appends the refusals of every rule that inspects nodes of {@code typeName}. */
  static void check(String typeName, Map<String, JsonValue> node, String path, List<Refusal> out) {
    switch (typeName) {
      case "DeploymentPolicy" -> paramNames(node, path, out);
      case "ActionContract" -> bounds(node, path, out);
      case "InferParam" -> inferParam(node, path, out);
      case "Lease" -> leaseDate(node, path, out);
      default -> { }
    }
  }

  /** The normalized node of {@code typeName}. */
  static JsonValue.Obj normalize(String typeName, JsonValue.Obj node) {
    if (typeName.equals("Stream") && node.members().get("at") instanceof JsonValue.Arr at) {
      List<JsonValue> sorted = new ArrayList<>(at.items());
      sorted.sort((a, b) -> ((JsonNumber) a).compareValue((JsonNumber) b));
      Map<String, JsonValue> members = JsonValue.Obj.newMembers();
      members.putAll(node.members());
      members.put("at", new JsonValue.Arr(sorted));
      return new JsonValue.Obj(members);
    }
    if (typeName.equals("DeploymentPolicy") && node.members().containsKey("streaming")) {
      Map<String, JsonValue> members = JsonValue.Obj.newMembers();
      node.members().forEach((k, v) -> {
        if (!k.equals("streaming")) {
          members.put(k, v);
        }
      });
      if (node.members().get("streaming") == JsonValue.Bool.TRUE) {
        members.put("episodes", new JsonValue.Str("own"));
      }
      return new JsonValue.Obj(members);
    }
    return node;
  }

  private static void paramNames(Map<String, JsonValue> node, String path, List<Refusal> out) {
    if (node.get("params") instanceof JsonValue.Obj params) {
      for (String name : params.members().keySet()) {
        if (!isParamName(name)) {
          out.add(new Refusal(JsonPath.child(path, "params"), "DeploymentPolicy.param-name",
              "the parameter name " + Quote.shortJson(name)
                  + " is not an identifier (Unicode 14.0) or starts with '_'"));
        }
      }
    }
  }

  /** An identifier of Unicode 14.0 (XID_Start then XID_Continue) that does not start with {@code _}. */
  static boolean isParamName(String name) {
    if (name.isEmpty() || !has(XID_START, name.codePointAt(0))) {
      return false;
    }
    return name.codePoints().skip(1).allMatch(c -> has(XID_CONTINUE, c));
  }

  private static boolean has(int[][] ranges, int codePoint) {
    int low = 0;
    int high = ranges.length - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (codePoint < ranges[mid][0]) {
        high = mid - 1;
      } else if (codePoint > ranges[mid][1]) {
        low = mid + 1;
      } else {
        return true;
      }
    }
    return false;
  }

  private static void bounds(Map<String, JsonValue> node, String path, List<Refusal> out) {
    long dim = ((JsonNumber) node.get("action_dim")).integerValue().longValueExact();
    if (node.get("bounds") instanceof JsonValue.Arr bounds) {
      String at = JsonPath.child(path, "bounds");
      if (bounds.items().size() != dim) {
        out.add(new Refusal(at, "ActionContract.bounds-count", "bounds holds " + bounds.items().size()
            + " [low, high] pair(s) but action_dim is " + dim));
      } else {
        for (int i = 0; i < bounds.items().size(); i++) {
          List<JsonValue> pair = ((JsonValue.Arr) bounds.items().get(i)).items();
          if (((JsonNumber) pair.get(0)).compareValue((JsonNumber) pair.get(1)) > 0) {
            out.add(new Refusal(JsonPath.child(at, i), "ActionContract.bounds-order",
                "the pair [" + pair.get(0) + ", " + pair.get(1) + "] has low above high"));
          }
        }
      }
    }
    if (node.get("max_delta") instanceof JsonValue.Arr delta && delta.items().size() != dim) {
      out.add(new Refusal(JsonPath.child(path, "max_delta"), "ActionContract.max-delta-count", "max_delta lists "
          + delta.items().size() + " value(s) but action_dim is " + dim + " (or give one number)"));
    }
  }

  private static void inferParam(Map<String, JsonValue> node, String path, List<Refusal> out) {
    JsonNumber low = node.get("min") instanceof JsonNumber n ? n : null;
    JsonNumber high = node.get("max") instanceof JsonNumber n ? n : null;
    if (low != null && high != null && low.compareValue(high) > 0) {
      out.add(new Refusal(path, "InferParam.min-not-above-max", "min (" + low + ") is above max (" + high + ")"));
    }
    JsonValue value = node.get("default");
    if (value == null || value == JsonValue.Null.NULL) {
      return;
    }
    String at = JsonPath.child(path, "default");
    if (node.get("choices") instanceof JsonValue.Arr choices && !choices.items().contains(value)) {
      out.add(new Refusal(at, "InferParam.default-allowed", "the default " + Quote.shortText(example.seqio.json.JsonWriter.write(value))
          + " is not one of the choices (JSON equality: true is not 1, 1 is 1.0)"));
    } else if ((low != null || high != null) && !(value instanceof JsonNumber)) {
      out.add(new Refusal(at, "InferParam.default-allowed",
          "the default is not a number, so it cannot be checked against min/max"));
    } else if (value instanceof JsonNumber n
        && ((low != null && n.compareValue(low) < 0) || (high != null && n.compareValue(high) > 0))) {
      out.add(new Refusal(at, "InferParam.default-allowed",
          "the default " + n + " lies outside [min, max] = [" + low + ", " + high + "]"));
    }
  }

  private static void leaseDate(Map<String, JsonValue> node, String path, List<Refusal> out) {
    String date = ((JsonValue.Str) node.get("expires_at")).value().substring(0, 10);
    int year = Integer.parseInt(date.substring(0, 4));
    int month = Integer.parseInt(date.substring(5, 7));
    int day = Integer.parseInt(date.substring(8, 10));
    if (!dayExists(year, month, day)) {
      out.add(new Refusal(JsonPath.child(path, "expires_at"), "Lease.expires-at-real-date",
          date + " is not a day of the calendar"));
    }
  }

  /** Proleptic Gregorian, year 0000 a leap year; the pattern already bounds month 1..12 and day 1..31. */
  static boolean dayExists(int year, int month, int day) {
    if (month == 2) {
      boolean leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
      return day <= (leap ? 29 : 28);
    }
    return day <= 30 || !(month == 4 || month == 6 || month == 9 || month == 11);
  }

  private static int[][] identifierRanges(String property) {
    try (InputStream in = BeyondSchema.class.getResourceAsStream("/example/seqio/identifier-characters.json")) {
      if (in == null) {
        throw new IllegalStateException("the embedded identifier-characters.json is missing");
      }
      JsonReader.Result read = JsonReader.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      List<JsonValue> rows = ((JsonValue.Arr) ((JsonValue.Obj) read.value()).members().get(property)).items();
      int[][] ranges = new int[rows.size()][];
      for (int i = 0; i < rows.size(); i++) {
        List<JsonValue> pair = ((JsonValue.Arr) rows.get(i)).items();
        ranges[i] = new int[] {
          ((JsonNumber) pair.get(0)).integerValue().intValueExact(),
          ((JsonNumber) pair.get(1)).integerValue().intValueExact()
        };
      }
      return ranges;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
