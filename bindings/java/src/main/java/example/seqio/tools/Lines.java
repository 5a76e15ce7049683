// stdin lines → one JSON object each (read by our own reader, messages may nest 16 levels deeper than an
// instance) → handled → one compact JSON answer line on stdout, flushed at once.
// WHY shared: the round-trip program and the starter testee both speak JSON Lines on stdio.
package example.seqio.tools;

import example.seqio.Contract;
import example.seqio.json.JsonReader;
import example.seqio.json.JsonValue;
import example.seqio.json.JsonWriter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** A JSON Lines loop over stdin and stdout. */
final class Lines {
  /** Message nesting allowed beyond an instance's (conformance/protocol.md, "Transport"). */
  static final int MESSAGE_EXTRA_DEPTH = 16;

  /** Answers one request line; {@code message} is null when the line is not a JSON object. */
  interface Handler {
    JsonValue answer(Map<String, JsonValue> message, JsonReader.Result read);
  }

  private Lines() {}

  static void serve(Handler handler) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), false);
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) {
        continue;
      }
      JsonReader.Result read = JsonReader.readMessage(line, Contract.MAX_JSON_DEPTH + MESSAGE_EXTRA_DEPTH);
      Map<String, JsonValue> message =
          read.ok() && read.value() instanceof JsonValue.Obj o ? o.members() : null;
      out.print(JsonWriter.write(answerOrFault(handler, message, read)));
      out.print('\n');
      out.flush();
    }
  }

  /** The handler's answer; a fault inside it is answered as an error line, so the session goes on. */
  private static JsonValue answerOrFault(Handler handler, Map<String, JsonValue> message, JsonReader.Result read) {
    try {
      return handler.answer(message, read);
    } catch (RuntimeException | StackOverflowError fault) {
      String id = text(message, "id");
      return object("type", "error", "id", id == null ? "" : id, "rule", "protocol.internal-error",
          "message", "the program failed on this request: " + fault);
    }
  }

  /** A string member of a message, or null. */
  static String text(Map<String, JsonValue> message, String name) {
    return message != null && message.get(name) instanceof JsonValue.Str s ? s.value() : null;
  }

  /** An object from alternating names and values. */
  static JsonValue object(Object... namesAndValues) {
    Map<String, JsonValue> members = JsonValue.Obj.newMembers();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      Object value = namesAndValues[i + 1];
      members.put((String) namesAndValues[i],
          value instanceof JsonValue v ? v : new JsonValue.Str(String.valueOf(value)));
    }
    return new JsonValue.Obj(members);
  }
}
