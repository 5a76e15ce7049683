// Path segments → path text, checked on the examples of spec/validation.md "Path notation".
// WHY: vectors compare paths as text, so one wrong escape fails every refusal under such a key.
package example.seqio.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.seqio.JsonPath;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonPathTest {
  @Test
  void theSpecExamples() {
    assertEquals("$.streams.cam.at[0]", JsonPath.of(List.of("streams", "cam", "at", 0)));
    assertEquals("$.streams[\"front cam\"]", JsonPath.of(List.of("streams", "front cam")));
    assertEquals("$.params[\"ünï\"]", JsonPath.of(List.of("params", "ünï")));
    assertEquals("$.streams[\"a\\\"b\"]", JsonPath.of(List.of("streams", "a\"b")));
    assertEquals("$.streams[\"a\\nb\"]", JsonPath.of(List.of("streams", "a\nb")));
    assertEquals("$.params[\"\"]", JsonPath.of(List.of("params", "")));
    assertEquals("$[\"1x\"][\"\\u001f\"]", JsonPath.of(List.of("1x", "\u001f")));
  }
}
