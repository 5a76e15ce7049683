// The validator's error mapping against spec/validation.md: the anyOf rule, x-rule ids, propertyNames, the
// object as the path of additionalProperties, rank per path, rules beyond the schema and normalization. Every
// expected path and rule id below is one the spec text names for that instance.
// WHY: the engine's raw errors are shaped differently (flat, per branch, at the member); this pins the mapping.
package example.seqio.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import example.seqio.Refusal;
import example.seqio.json.JsonValue;
import example.seqio.json.JsonWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValidatorTest {
  private static final Validator VALIDATOR = new Validator();
  private static final String ACTION = "\"robot\": \"r\", \"action_space\": \"joint_delta\", \"action_dim\": 2,"
      + " \"control_frequency_hz\": 10";

  private static List<Refusal> refusals(String type, String text) {
    Validator.Outcome outcome = VALIDATOR.validate(type, text);
    assertFalse(outcome.valid(), () -> text + " was accepted");
    return outcome.refusals();
  }

  private static void refusedAt(String type, String text, String path, String rule) {
    List<Refusal> found = refusals(type, text);
    assertTrue(found.stream().anyMatch(r -> r.path().equals(path) && r.rule().equals(rule)),
        () -> "expected " + path + " " + rule + ", got " + found);
  }

  private static String normalized(String type, String text) {
    Validator.Outcome outcome = VALIDATOR.validate(type, text);
    assertTrue(outcome.valid(), () -> text + " refused: " + outcome.refusals());
    return JsonWriter.write(outcome.normalized());
  }

  @Test
  void anyOfSpeaksThroughTheBranchOfTheInstancesType() {
    refusedAt("ActionContract", "{" + ACTION + ", \"max_delta\": [-1]}", "$.max_delta[0]", "exclusiveMinimum");
    List<Refusal> noBranch = refusals("ActionContract", "{" + ACTION + ", \"max_delta\": \"x\"}");
    assertEquals(List.of("$.max_delta type"), noBranch.stream().map(r -> r.path() + " " + r.rule()).toList());
  }

  @Test
  void additionalPropertiesIsReportedAtTheObject() {
    refusedAt("Camera", "{\"width\": 1, \"height\": 1, \"x\": 1}", "$", "additionalProperties");
    String sixExtra = "{\"width\": 1, \"height\": 1, \"a\": 1, \"b\": 1, \"c\": 1, \"d\": 1, \"e\": 1, \"f\": 1}";
    List<Refusal> found = refusals("Camera", sixExtra);
    assertEquals(1, found.size());
    assertEquals("unknown key(s) \"a\", \"b\", \"c\", \"d\", \"e\" and 1 more: this object is closed",
        found.get(0).message());
  }

  @Test
  void aLowerRankHidesAHigherOneAtOnePath() {
    String action = "{\"robot\": \"r\", \"action_space\": true, \"action_dim\": 2, \"control_frequency_hz\": 10}";
    List<Refusal> found = refusals("ActionContract", action);
    assertEquals(List.of("$.action_space type"), found.stream().map(r -> r.path() + " " + r.rule()).toList());
  }

  @Test
  void refusalsAtDifferentPathsAreAllReported() {
    List<Refusal> found = refusals("Camera", "{\"width\": \"x\", \"height\": 0}");
    assertTrue(found.stream().anyMatch(r -> r.path().equals("$.width") && r.rule().equals("type")));
    assertTrue(found.stream().anyMatch(r -> r.path().equals("$.height") && r.rule().equals("minimum")));
  }

  @Test
  void xRuleNamesTheRefusalThroughRefs() {
    String camera = "{\"cameras\": {\"front\": {\"width\": 1, \"height\": 1, \"codec\": 5}}}";
    refusedAt("ObservationContract", camera, "$.cameras.front.codec", "ObservationContract.robot-arm-camera");
    refusedAt("Camera", "{\"width\": 1, \"height\": 1, \"quality\": 90}", "$", "Camera.quality-needs-jpeg");
  }

  @Test
  void propertyNamesIsReportedAtTheObjectWithTheInnerRule() {
    refusedAt("Observations", "{\"streams\": {\"a \": {}}}", "$.streams", "Observations.stream-key");
    refusedAt("ObservationContract", "{\"proprio\": {\"elbow\": 1}}", "$.proprio", "enum");
  }

  @Test
  void numbersAreComparedByExactValue() {
    refusedAt("ObserveResponse", "{\"through\": 9007199254740992}", "$.through", "maximum");
    assertEquals("{\"through\":9007199254740991}", normalized("ObserveResponse", "{\"through\": 9007199254740991}"));
    assertEquals("{\"width\":640.0,\"height\":480}", normalized("Camera", "{\"width\": 640.0, \"height\": 480}"));
    refusedAt("Stream", "{\"at\": [0, -0.0]}", "$.at", "uniqueItems");
  }

  @Test
  void wireRulesComeFirst() {
    refusedAt("Camera", "{\"width\": 1, \"width\": 2, \"height\": 1}", "$", "wire.duplicate-key");
    refusedAt("Stream", "{\"every\": 1e400}", "$.every", "wire.non-finite-number");
  }

  @Test
  void rulesBeyondTheSchema() {
    String param = "{\"type\": \"int\", \"min\": 5, \"max\": 1, \"default\": 3}";
    List<Refusal> found = refusals("InferParam", param);
    assertTrue(found.stream().anyMatch(r -> r.path().equals("$") && r.rule().equals("InferParam.min-not-above-max")));
    assertTrue(found.stream().anyMatch(r -> r.path().equals("$.default") && r.rule().equals("InferParam.default-allowed")));
    refusedAt("InferParam", "{\"type\": \"bool\", \"choices\": [1], \"default\": true}", "$.default",
        "InferParam.default-allowed");
    refusedAt("ActionContract", "{" + ACTION + ", \"bounds\": [[0, 1]]}", "$.bounds", "ActionContract.bounds-count");
    refusedAt("ActionContract", "{" + ACTION + ", \"bounds\": [[0, 1], [2, 1]]}", "$.bounds[1]",
        "ActionContract.bounds-order");
    refusedAt("Lease", "{\"ttl_s\": 1, \"expires_at\": \"2026-02-30T00:00:00Z\", \"epoch\": 1}", "$.expires_at",
        "Lease.expires-at-real-date");
    normalized("Lease", "{\"ttl_s\": 1, \"expires_at\": \"0000-02-29T23:59:60Z\", \"epoch\": 1}");
    refusedAt("DeploymentPolicy", "{\"handler_ref\": \"h\", \"params\": {\"x²\": {\"type\": \"int\"}}}", "$.params",
        "DeploymentPolicy.param-name");
    normalized("DeploymentPolicy", "{\"handler_ref\": \"h\", \"params\": {\"ünï\": {\"type\": \"int\"}}}");
  }

  @Test
  void identifiersFollowUnicode14() {
    assertTrue(BeyondSchema.isParamName("class"));
    assertFalse(BeyondSchema.isParamName("_x"));
    assertFalse(BeyondSchema.isParamName("\uFF3Fx"));
    assertFalse(BeyondSchema.isParamName("x\u200C"));
    assertFalse(BeyondSchema.isParamName("x₂"));
  }

  @Test
  void normalizationSortsWindowsAndFoldsStreaming() {
    assertEquals("{\"at\":[-2,-1.0,0]}", normalized("Stream", "{\"at\": [0, -1.0, -2]}"));
    assertEquals("{\"handler_ref\":\"h\",\"episodes\":\"own\"}",
        normalized("DeploymentPolicy", "{\"handler_ref\": \"h\", \"streaming\": true}"));
    assertEquals("{\"handler_ref\":\"h\"}", normalized("DeploymentPolicy", "{\"handler_ref\": \"h\", \"streaming\": false}"));
  }

  @Test
  void valuesBuiltInMemoryMeetTheSameLimits() {
    JsonValue deep = new JsonValue.Arr(List.of());
    for (int i = 0; i < 250; i++) {
      deep = new JsonValue.Arr(List.of(deep));
    }
    assertEquals("wire.too-deep", VALIDATOR.validate("ActRequest", deep).refusals().get(0).rule());
    java.util.Map<String, JsonValue> members = JsonValue.Obj.newMembers();
    members.put("inputs", new JsonValue.Arr(List.of(
        example.seqio.json.JsonNumber.of(java.math.BigInteger.TEN.pow(400)))));
    List<Refusal> found = VALIDATOR.validate("ActRequest", new JsonValue.Obj(members)).refusals();
    assertEquals(List.of("$.inputs[0] wire.non-finite-number"),
        found.stream().map(r -> r.path() + " " + r.rule()).toList());
  }

  @Test
  void hostileTextsGetRuleIds() {
    assertEquals("wire.too-deep", refusals("ActRequest", "[".repeat(1_000_000)).get(0).rule());
    assertEquals("wire.integer-too-long",
        refusals("ActRequest", "{\"inputs\": " + "9".repeat(4301) + "}").get(0).rule());
    String huge = "{\"streams\": {\"" + "k".repeat(2_000_000) + "\": {}}}";
    refusedAt("Observations", huge, "$.streams", "Observations.stream-key");
  }
}
