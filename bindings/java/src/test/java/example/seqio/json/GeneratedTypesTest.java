// The generated types against spec/validation.md "Writing an instance": absent stays absent, null stays null,
// `640.0` in an `integer` member is written `640`, a `number` member keeps its value and kind, opaque values come
// back unchanged, unknown members and misfits are refused on decode.
// WHY: these are the faithfulness promises the generator exists for (docs/bindings-generators.md).
package example.seqio.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import example.seqio.types.ActRequest;
import example.seqio.types.Camera;
import example.seqio.types.CameraCodec;
import example.seqio.types.DeploymentPolicy;
import example.seqio.types.SeqFlags;
import example.seqio.types.Stream;
import org.junit.jupiter.api.Test;

class GeneratedTypesTest {
  @Test
  void absentNullAndValueAreThreeStates() throws DecodeException {
    Stream absent = Stream.decode("{}");
    Stream nulled = Stream.decode("{\"at\": null}");
    Stream valued = Stream.decode("{\"at\": [0, -1]}");
    assertTrue(absent.at().isAbsent());
    assertTrue(nulled.at().isNull());
    assertEquals(2, valued.at().get().size());
    assertEquals("{}", absent.encode());
    assertEquals("{\"at\":null}", nulled.encode());
    assertEquals("{\"at\":[0,-1]}", valued.encode());
  }

  @Test
  void defaultsAreNeverWritten() throws DecodeException {
    assertEquals("{\"handler_ref\":\"h\"}", DeploymentPolicy.decode("{\"handler_ref\": \"h\"}").encode());
  }

  @Test
  void integerMembersTakeIntegralFloatsAndWriteIntegers() throws DecodeException {
    Camera camera = Camera.decode("{\"width\": 640.0, \"height\": 4.8e2}");
    assertEquals(640L, camera.width());
    assertEquals("{\"width\":640,\"height\":480}", camera.encode());
    assertThrows(DecodeException.class, () -> Camera.decode("{\"width\": 2.5, \"height\": 1}"));
    assertThrows(DecodeException.class, () -> Camera.decode("{\"width\": \"640\", \"height\": 1}"));
  }

  @Test
  void numberMembersKeepValueAndKind() throws DecodeException {
    assertEquals("{\"every\":2.0}", Stream.decode("{\"every\": 2.0}").encode());
    assertEquals("{\"every\":3}", Stream.decode("{\"every\": 3}").encode());
  }

  @Test
  void opaqueValuesComeBackUnchanged() throws DecodeException {
    String inputs = "{\"big\":90071992547409931234,\"f\":1.50,\"o\":{\"z\":1,\"a\":[true,null]}}";
    assertEquals("{\"inputs\":" + inputs + "}", ActRequest.decode("{\"inputs\": " + inputs + "}").encode());
  }

  @Test
  void unknownMembersAndMissingRequiredOnesAreRefused() {
    DecodeException unknown = assertThrows(DecodeException.class,
        () -> Camera.decode("{\"width\": 1, \"height\": 1, \"zoom\": 2}"));
    assertEquals("$", unknown.path());
    DecodeException missing = assertThrows(DecodeException.class, () -> Camera.decode("{\"width\": 1}"));
    assertEquals("$", missing.path());
  }

  @Test
  void nullIsRefusedWhereTheMemberIsNotNullable() {
    DecodeException e = assertThrows(DecodeException.class,
        () -> DeploymentPolicy.decode("{\"handler_ref\": \"h\", \"streaming\": null}"));
    assertEquals("$.streaming", e.path());
  }

  @Test
  void enumsAreNamedTypes() throws DecodeException {
    assertEquals(CameraCodec.JPEG, Camera.decode("{\"width\":1,\"height\":1,\"codec\":\"jpeg\"}").codec().get());
    assertEquals(SeqFlags.INFER, SeqFlags.fromJson(JsonReader.read("16.0").value(), "$"));
    assertThrows(DecodeException.class, () -> SeqFlags.fromJson(JsonReader.read("3").value(), "$"));
  }

  @Test
  void typesBuiltInCodeWriteOnlyWhatWasSet() {
    Camera camera = new Camera().width(640L).height(480L).quality(Field.ofNull());
    assertEquals("{\"width\":640,\"height\":480,\"quality\":null}", camera.encode());
  }
}
