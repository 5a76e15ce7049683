// The starter testee of conformance/protocol.md (version 1): the runner's hello → our hello with `kinds` →
// one request line at a time (JSON Lines, read by our exact reader, nesting up to MAX_JSON_DEPTH + 16) → one
// answer line each; a line that is no request gets a protocol error answer, never silence; stdin closed → exit 0.
// The `validation` kind is wired to this binding's Validator. The other kinds are one marked function each:
// copy this file, fill one in, run `iospec run --impl <it> --xfail x.json --fix`, and start from a green run.
// WHY stdio only: the protocol needs no clock, threads or state between requests.
package example.seqio.tools;

import example.seqio.Contract;
import example.seqio.Refusal;
import example.seqio.json.JsonReader;
import example.seqio.json.JsonValue;
import example.seqio.validate.Validator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The starter testee: validation done, the other kinds ready to fill in. */
public final class StarterTestee {
  private static final int PROTOCOL = 1;
  private static final List<String> KINDS = List.of("validation", "schedule", "envelope", "rows_of", "stream");
  private static final Validator VALIDATOR = new Validator();

  private StarterTestee() {}

  public static void main(String[] args) throws IOException {
    Lines.serve(StarterTestee::answer);
  }

  static JsonValue answer(Map<String, JsonValue> message, JsonReader.Result read) {
    String type = Lines.text(message, "type");
    if ("hello".equals(type)) {
      return hello();
    }
    String id = Lines.text(message, "id");
    if (!"case".equals(type) || id == null || !(message.get("input") instanceof JsonValue.Obj input)) {
      String why = read.ok() ? "a request needs type \"case\", a string id and an object input"
          : "the request line is not JSON: " + read.refusals().get(0).message();
      return error(id == null ? "" : id, "protocol.malformed-request", why);
    }
    String kind = String.valueOf(Lines.text(message, "kind"));
    JsonValue result = switch (kind) {
      case "validation" -> validation(input.members());
      case "schedule" -> schedule(input.members());
      case "envelope" -> envelope(input.members());
      case "rows_of" -> rowsOf(input.members());
      case "stream" -> stream(input.members());
      default -> null;
    };
    if (result == null) {
      return Lines.object("type", "skipped", "id", id, "reason", "the " + kind + " kind is not implemented yet");
    }
    return result instanceof JsonValue.Obj o && o.members().containsKey("rule")
        ? error(id, Lines.text(o.members(), "rule"), Lines.text(o.members(), "message"))
        : Lines.object("type", "result", "id", id, "result", result);
  }

  private static JsonValue hello() {
    List<JsonValue> kinds = new ArrayList<>();
    KINDS.forEach(k -> kinds.add(new JsonValue.Str(k)));
    return Lines.object("type", "hello", "protocol", example.seqio.json.JsonNumber.of(PROTOCOL),
        "implementation", Lines.object("name", "seq-io-java-starter", "version", Contract.PACKAGE_VERSION),
        "contract_version", Contract.CONTRACT_VERSION, "kinds", new JsonValue.Arr(kinds));
  }

  private static JsonValue error(String id, String rule, String message) {
    return Lines.object("type", "error", "id", id, "rule", rule, "message", message);
  }

  /** An error answer (a refusal of the input by its rule id) for the kind functions to return. */
  static JsonValue refusal(String rule, String message) {
    return Lines.object("rule", rule, "message", message);
  }

  // ---- validation: done, through this binding's Validator -------------------------------------------------

  private static JsonValue validation(Map<String, JsonValue> input) {
    String typeName = Lines.text(input, "type_name");
    String text = Lines.text(input, "json");
    if (typeName == null || text == null || !Validator.knows(typeName)) {
      return null; // an unknown type is a gap of the testee, answered `skipped`
    }
    Validator.Outcome outcome = VALIDATOR.validate(typeName, text);
    if (outcome.valid()) {
      return Lines.object("valid", JsonValue.Bool.TRUE, "normalized", outcome.normalized());
    }
    List<JsonValue> errors = new ArrayList<>();
    for (Refusal r : outcome.refusals()) {
      errors.add(Lines.object("path", r.path(), "rule", r.rule(), "message", r.message()));
    }
    return Lines.object("valid", JsonValue.Bool.FALSE, "errors", new JsonValue.Arr(errors));
  }

  // ---- FILL IN: each returns the `result` object, refusal(rule, message) for an error answer, or null for
  // `skipped`. Inputs and results are described in conformance/protocol.md, "Requests". ----------------------

  /** FILL IN: spec/schedule.md — picks, needed, wanted, keeps_from, reads_past. */
  static JsonValue schedule(Map<String, JsonValue> input) {
    return null;
  }

  /** FILL IN: spec/schedule.md — the envelope of picked frames. */
  static JsonValue envelope(Map<String, JsonValue> input) {
    return null;
  }

  /** FILL IN: spec/schedule.md — rows of an action answer. */
  static JsonValue rowsOf(Map<String, JsonValue> input) {
    return null;
  }

  /** FILL IN: spec/stream.md — one whole scenario, one outcome per operation. */
  static JsonValue stream(Map<String, JsonValue> input) {
    return null;
  }
}
