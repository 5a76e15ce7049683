// {"id", "type_name", "json"} lines → read the text, decode it into the generated type, encode it back →
// {"id", "json"} or {"id", "error"} lines (the protocol of scripts/seq_io_maint/roundtrip.py).
// WHY a program: the checker compares the written text with the instance on every valid vector, so the types'
// faithfulness is measured, not assumed.
package example.seqio.tools;

import example.seqio.json.DecodeException;
import example.seqio.json.JsonReader;
import example.seqio.json.JsonValue;
import example.seqio.json.JsonWriter;
import example.seqio.types.Types;
import java.io.IOException;
import java.util.Map;

/** The round-trip program. */
public final class RoundTrip {
  private RoundTrip() {}

  public static void main(String[] args) throws IOException {
    Lines.serve(RoundTrip::answer);
  }

  private static JsonValue answer(Map<String, JsonValue> request, JsonReader.Result line) {
    String id = Lines.text(request, "id");
    String typeName = Lines.text(request, "type_name");
    String text = Lines.text(request, "json");
    if (id == null || typeName == null || text == null) {
      return Lines.object("id", String.valueOf(id), "error", "a request needs string members id, type_name, json");
    }
    Types.RoundTrip type = Types.BY_NAME.get(typeName);
    if (type == null) {
      return Lines.object("id", id, "error", "no generated type is named " + typeName);
    }
    JsonReader.Result read = JsonReader.read(text);
    if (!read.ok()) {
      return Lines.object("id", id, "error", read.refusals().get(0).message());
    }
    try {
      return Lines.object("id", id, "json", JsonWriter.write(type.apply(read.value(), "$")));
    } catch (DecodeException e) {
      return Lines.object("id", id, "error", e.getMessage());
    }
  }
}
