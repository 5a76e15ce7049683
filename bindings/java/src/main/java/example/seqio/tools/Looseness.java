// conformance/vectors.json → every invalid validation case → decoded by the generated types alone (our reader,
// then Type.fromJson; no schema, no rules beyond it) → per rule id, how many of its invalid cases the types
// refuse → the looseness table as JSON; `--check FILE` fails when it differs from the checked-in table.
// WHY computed: the table says what an SDK author gets from the types without the validator, and a change in
// the types or the vectors must show up here rather than in a stale README.
package example.seqio.tools;

import example.seqio.Contract;
import example.seqio.json.DecodeException;
import example.seqio.json.JsonReader;
import example.seqio.json.JsonValue;
import example.seqio.json.JsonWriter;
import example.seqio.types.Types;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Computes (and checks) bindings/java/looseness.json. */
public final class Looseness {
  private Looseness() {}

  /** Usage: {@code Looseness VECTORS.json [--check FILE | --write FILE]}. */
  public static void main(String[] args) throws IOException {
    if (args.length != 3 || !(args[1].equals("--check") || args[1].equals("--write"))) {
      System.err.println("usage: Looseness conformance/vectors.json --check|--write bindings/java/looseness.json");
      System.exit(2);
    }
    String table = table(Files.readAllBytes(Path.of(args[0])));
    Path file = Path.of(args[2]);
    if (args[1].equals("--write")) {
      Files.writeString(file, table, StandardCharsets.UTF_8);
      return;
    }
    String kept = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    if (!kept.equals(table)) {
      System.err.println(file + " differs from the computed looseness table; computed:\n" + table);
      System.exit(1);
    }
    System.out.println("looseness: " + file + " is current");
  }

  /** rule id → its invalid cases and how many the types alone refuse, in the layout of bindings/looseness.schema.json. */
  static String table(byte[] vectors) {
    JsonReader.Result read = JsonReader.readKeepingLiterals(new String(vectors, StandardCharsets.UTF_8),
        Contract.MAX_JSON_DEPTH + Lines.MESSAGE_EXTRA_DEPTH);
    if (!read.ok()) {
      throw new IllegalArgumentException("vectors.json: " + read.refusals().get(0).message());
    }
    Map<String, int[]> counts = new TreeMap<>();
    for (JsonValue file : items(member(read.value(), "files"))) {
      JsonValue document = member(file, "document");
      if (!(member(document, "kind") instanceof JsonValue.Str k) || !k.value().equals("validation")) {
        continue;
      }
      String type = ((JsonValue.Str) member(document, "type")).value();
      for (JsonValue group : items(member(document, "groups"))) {
        for (JsonValue c : items(member(group, "cases"))) {
          if (member(c, "valid") == JsonValue.Bool.FALSE) {
            String rule = ((JsonValue.Str) member(member(c, "error"), "rule")).value();
            int[] row = counts.computeIfAbsent(rule, r -> new int[2]);
            row[0] += refusedByTypes(type, instanceText(c)) ? 1 : 0;
            row[1]++;
          }
        }
      }
    }
    StringBuilder out = new StringBuilder("{\n \"description\": \"Per rule id of the invalid validation vectors:"
        + " how many the Java binding's generated types refuse on decode alone (wire rules included, validator not)."
        + " Computed by example.seqio.tools.Looseness; do not edit.\",\n \"rules\": {\n");
    int i = 0;
    for (Map.Entry<String, int[]> row : counts.entrySet()) {
      int refused = row.getValue()[0];
      int cases = row.getValue()[1];
      out.append("  \"").append(row.getKey()).append("\": {\"vectors\": ").append(cases)
          .append(", \"refused_by_types\": ").append(refused).append(", \"held_by\": \"")
          .append(heldBy(refused, cases)).append("\"}").append(++i < counts.size() ? ",\n" : "\n");
    }
    return out.append(" }\n}\n").toString();
  }

  /** The verdict bindings/looseness.schema.json defines: every case, none, or some refused by the types. */
  private static String heldBy(int refused, int vectors) {
    if (refused == vectors) {
      return "types";
    }
    return refused == 0 ? "validator only" : "types in part";
  }

  private static String instanceText(JsonValue c) {
    return member(c, "json") instanceof JsonValue.Str s ? s.value() : JsonWriter.write(member(c, "instance"));
  }

  private static boolean refusedByTypes(String type, String text) {
    JsonReader.Result read = JsonReader.read(text);
    if (!read.ok()) {
      return true;
    }
    try {
      Types.BY_NAME.get(type).apply(read.value(), "$");
      return false;
    } catch (DecodeException e) {
      return true;
    }
  }

  private static JsonValue member(JsonValue value, String name) {
    JsonValue found = value instanceof JsonValue.Obj o ? o.members().get(name) : null;
    return found == null ? JsonValue.Null.NULL : found;
  }

  private static List<JsonValue> items(JsonValue value) {
    return value instanceof JsonValue.Arr a ? a.items() : List.of();
  }
}
