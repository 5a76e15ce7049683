// Request lines → the starter testee's answers, against conformance/protocol.md: the hello lists the kinds, a
// line that is no request gets an error answer (never silence), an unknown type and an unfilled kind are
// `skipped`, and a validation refusal is a result with `valid: false`.
// WHY: the runner checks these end to end in `make binding-java`; a unit test names the broken promise.
package example.seqio.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.seqio.json.JsonReader;
import example.seqio.json.JsonValue;
import example.seqio.json.JsonWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StarterTesteeTest {
  private static Map<String, JsonValue> answer(String line) {
    JsonReader.Result read = JsonReader.readMessage(line, 216);
    Map<String, JsonValue> message = read.ok() && read.value() instanceof JsonValue.Obj o ? o.members() : null;
    return ((JsonValue.Obj) StarterTestee.answer(message, read)).members();
  }

  private static String member(Map<String, JsonValue> answer, String name) {
    return JsonWriter.write(answer.get(name));
  }

  @Test
  void helloListsEveryKind() {
    Map<String, JsonValue> hello = answer("{\"type\":\"hello\",\"protocol\":1,\"contract_version\":\"0.5.25\"}");
    assertEquals("[\"validation\",\"schedule\",\"envelope\",\"rows_of\",\"stream\"]", member(hello, "kinds"));
    assertEquals("1", member(hello, "protocol"));
  }

  @Test
  void aMalformedLineGetsAnErrorAnswer() {
    assertEquals("\"protocol.malformed-request\"", member(answer("{\"type\": \"case\""), "rule"));
    assertEquals("\"error\"", member(answer("[1, 2]"), "type"));
  }

  @Test
  void unknownTypesAndUnfilledKindsAreSkipped() {
    String unknown = "{\"type\":\"case\",\"id\":\"a\",\"kind\":\"validation\",\"input\":{\"type_name\":\"Nope\",\"json\":\"{}\"}}";
    assertEquals("\"skipped\"", member(answer(unknown), "type"));
    String schedule = "{\"type\":\"case\",\"id\":\"b\",\"kind\":\"schedule\",\"input\":{}}";
    assertEquals("\"skipped\"", member(answer(schedule), "type"));
  }

  @Test
  void aRefusalIsAResult() {
    String line = "{\"type\":\"case\",\"id\":\"c\",\"kind\":\"validation\","
        + "\"input\":{\"type_name\":\"Stream\",\"json\":\"{\\\"every\\\": 0}\"}}";
    Map<String, JsonValue> answer = answer(line);
    assertEquals("\"result\"", member(answer, "type"));
    Map<String, JsonValue> result = ((JsonValue.Obj) answer.get("result")).members();
    assertEquals("false", member(result, "valid"));
    Map<String, JsonValue> first = ((JsonValue.Obj) ((JsonValue.Arr) result.get("errors")).items().get(0)).members();
    assertEquals("\"$.every\"", member(first, "path"));
    assertEquals("\"exclusiveMinimum\"", member(first, "rule"));
  }
}
