// The writer against spec/validation.md "Writing an instance": numbers keep value and kind, members and their
// order stay, strings are escaped only where JSON needs it.
// WHY: the round-trip and the validator's normalized output both go through this writer.
package example.seqio.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class JsonWriterTest {
  private static String again(String text) {
    return JsonWriter.write(JsonReader.read(text).value());
  }

  @Test
  void numbersAreWrittenAsRead() {
    assertEquals("[15,15.0,1.5e3,-0.0,9007199254740993,1e-400]",
        again("[15, 15.0, 1.5e3, -0.0, 9007199254740993, 1e-400]"));
  }

  @Test
  void numbersBuiltInMemoryKeepTheirKind() {
    assertEquals("15", JsonWriter.write(JsonNumber.of(15)));
    assertEquals("2.0", JsonWriter.write(JsonNumber.ofDouble(2.0)));
    assertEquals("2.5", JsonWriter.write(JsonNumber.ofDouble(2.5)));
    assertEquals("123456789012345678901234567890",
        JsonWriter.write(JsonNumber.of(new BigInteger("123456789012345678901234567890"))));
    assertThrows(IllegalArgumentException.class, () -> JsonNumber.ofDouble(Double.NaN));
  }

  @Test
  void membersKeepTheirOrderAndEmptyContainersStay() {
    assertEquals("{\"z\":{},\"a\":[],\"m\":null}", again("{\"z\": {}, \"a\": [], \"m\": null}"));
  }

  @Test
  void stringsAreEscapedOnlyWhereJsonNeedsIt() {
    assertEquals("\"a\\\"b\\\\c\\n\\u0001ü😀\"", again("\"a\\\"b\\\\c\\n\\u0001\\u00fc\\ud83d\\ude00\""));
  }
}
