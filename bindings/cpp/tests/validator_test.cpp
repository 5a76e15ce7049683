// The validator's answers on the examples spec/validation.md itself gives: wire rules first, schema refusals with
// their paths and rule ids (x-rule, anyOf, ranks), the rules beyond the schema, and normalization.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "schema.h"
#include "seqio/validate.h"

namespace {

bool refused_with(const seqio::Validation& v, const std::string& path, const std::string& rule) {
  return std::any_of(v.refusals.begin(), v.refusals.end(),
                     [&](const seqio::Refusal& r) { return r.path == path && r.rule == rule; });
}

std::string listed(const seqio::Validation& v) {
  std::string out = v.valid ? "valid" : "refused:";
  for (const seqio::Refusal& r : v.refusals) out += " " + r.path + " " + r.rule;
  return out;
}

const char* kContract = R"({"robot": "r", "action_space": "joint_delta", "action_dim": 2, "control_frequency_hz": 10)";

TEST(Validator, WireRulesComeFirst) {
  seqio::Validation v = seqio::validate("Camera", "{\"width\": 1, \"width\": \"x\"}");
  EXPECT_EQ(listed(v), "refused: $ wire.duplicate-key");
}

TEST(Validator, RefusalsAtDifferentPathsAreAllReported) {
  // "A Camera {"width": "x", "height": 0} is refused by type at $.width and by minimum at $.height".
  seqio::Validation v = seqio::validate("Camera", R"({"width": "x", "height": 0})");
  EXPECT_TRUE(refused_with(v, "$.width", "type")) << listed(v);
  EXPECT_TRUE(refused_with(v, "$.height", "minimum")) << listed(v);
}

TEST(Validator, AdditionalPropertiesAndRequiredAreAtTheObject) {
  // "additionalProperties ... The path here is the object's"; "For required ... that is the object".
  seqio::Validation extra = seqio::validate("Stream", R"({"every": 1, "colour": 2})");
  EXPECT_EQ(listed(extra), "refused: $ additionalProperties");
  seqio::Validation missing = seqio::validate("Observations", R"({"streams": {"cam": {"camera": {"width": 1}}}})");
  EXPECT_EQ(listed(missing), "refused: $.streams.cam.camera required");
}

TEST(Validator, XRuleNamesTheRefusal) {
  seqio::Validation v = seqio::validate("Camera", R"({"width": 1, "height": 1, "codec": "png", "quality": 90})");
  EXPECT_TRUE(refused_with(v, "$.codec", "Camera.quality-needs-jpeg")) << listed(v);
}

TEST(Validator, LowerRankIsReportedAtAPath) {
  // "true for an enum of strings breaks type and enum: the vector expects type" (ActionSpace is a string enum).
  seqio::Validation v = seqio::validate("ActionContract", R"({"robot": "r", "action_space": true, "action_dim": 2, "control_frequency_hz": 10})");
  EXPECT_TRUE(refused_with(v, "$.action_space", "type")) << listed(v);
}

TEST(Validator, NullableAnyOfReportsTheBranchThatTakesTheType) {
  // "max_delta: [-1] is refused by exclusiveMinimum at $.max_delta[0]; max_delta: "x" by type at $.max_delta".
  seqio::Validation list = seqio::validate("ActionContract", std::string(kContract) + R"(, "max_delta": [-1, 1]})");
  EXPECT_TRUE(refused_with(list, "$.max_delta[0]", "exclusiveMinimum")) << listed(list);
  seqio::Validation text = seqio::validate("ActionContract", std::string(kContract) + R"(, "max_delta": "x"})");
  EXPECT_EQ(listed(text), "refused: $.max_delta type");
}

TEST(Validator, NegativeZeroEqualsZeroForUniqueItems) {
  EXPECT_TRUE(refused_with(seqio::validate("Stream", R"({"at": [0, -0.0]})"), "$.at", "uniqueItems"));
}

TEST(Validator, IntegerBoundsAreExact) {
  // "seq: 9007199254740992 is refused (maximum)".
  seqio::Validation v = seqio::validate("ActRequest", R"({"inputs": null, "seq": 9007199254740992})");
  EXPECT_EQ(listed(v), "refused: $.seq maximum");
  EXPECT_TRUE(seqio::validate("ActRequest", R"({"inputs": null, "seq": 9007199254740991})").valid);
}

TEST(Validator, SeqFlagsIsOneMemberBit) {
  EXPECT_TRUE(seqio::validate("SeqFlags", "16").valid);
  EXPECT_EQ(listed(seqio::validate("SeqFlags", "8192")), "refused: $ enum");
  EXPECT_TRUE(refused_with(seqio::validate("SeqFlags", "true"), "$", "type"));
}

TEST(Validator, BeyondSchemaRulesAreEachChecked) {
  // "an InferParam with min above max and a number default is refused by InferParam.min-not-above-max at the
  // InferParam and by InferParam.default-allowed at its default".
  seqio::Validation v = seqio::validate("InferParam", R"({"type": "float", "min": 2, "max": 1, "default": 1.5})");
  EXPECT_TRUE(refused_with(v, "$", "InferParam.min-not-above-max")) << listed(v);
  EXPECT_TRUE(refused_with(v, "$.default", "InferParam.default-allowed")) << listed(v);
}

TEST(Validator, ChoicesUseJsonEquality) {
  EXPECT_TRUE(seqio::validate("InferParam", R"({"type": "int", "choices": [1, 2], "default": 1.0})").valid);
  seqio::Validation v = seqio::validate("InferParam", R"({"type": "bool", "choices": [1], "default": true})");
  EXPECT_TRUE(refused_with(v, "$.default", "InferParam.default-allowed")) << listed(v);
}

TEST(Validator, ParamNamesAreUnicode14Identifiers) {
  EXPECT_TRUE(seqio::validate("DeploymentPolicy", R"({"handler_ref": "h", "params": {"ünï": {"type": "int"}}})").valid);
  for (const char* name : {"1x", "_x", "x²", "x\\u200c"}) {
    std::string text = std::string(R"({"handler_ref": "h", "params": {")") + name + R"(": {"type": "int"}}})";
    EXPECT_TRUE(refused_with(seqio::validate("DeploymentPolicy", text), "$.params", "DeploymentPolicy.param-name"))
        << name;
  }
}

TEST(Validator, BoundsCountAndOrder) {
  seqio::Validation count = seqio::validate("ActionContract", std::string(kContract) + R"(, "bounds": [[0, 1]]})");
  EXPECT_EQ(listed(count), "refused: $.bounds ActionContract.bounds-count");
  seqio::Validation order = seqio::validate("ActionContract", std::string(kContract) + R"(, "bounds": [[0, 1], [2, 1]]})");
  EXPECT_EQ(listed(order), "refused: $.bounds[1] ActionContract.bounds-order");
}

TEST(Validator, LeaseDateMustExist) {
  auto lease = [](const std::string& at) {
    return seqio::validate("Lease", R"({"ttl_s": 10, "epoch": 1, "expires_at": ")" + at + "\"}");
  };
  EXPECT_EQ(listed(lease("2026-02-30T00:00:00Z")), "refused: $.expires_at Lease.expires-at-real-date");
  EXPECT_TRUE(lease("2026-03-01T12:34:60Z").valid);   // a leap second after any time
  EXPECT_TRUE(lease("0000-02-29T00:00:00Z").valid);   // year 0000 is a leap year
  EXPECT_FALSE(lease("2026-03-01T12:34:00").valid);   // a naive time
  EXPECT_FALSE(lease("2026-03-01T12:34:00Z\n").valid);  // the pattern reaches the end of the string
}

TEST(Validator, NormalizesSortAtAndFoldStreaming) {
  seqio::Validation stream = seqio::validate("Stream", R"({"at": [-1, -3.0, 0]})");
  ASSERT_TRUE(stream.valid);
  EXPECT_EQ(seqio::write(stream.normalized), R"({"at":[-3.0,-1,0]})");
  seqio::Validation policy = seqio::validate("DeploymentPolicy", R"({"handler_ref": "h", "streaming": true})");
  ASSERT_TRUE(policy.valid);
  EXPECT_EQ(seqio::write(policy.normalized), R"({"handler_ref":"h","episodes":"own"})");
  seqio::Validation off = seqio::validate("DeploymentPolicy", R"({"handler_ref": "h", "streaming": false})");
  EXPECT_EQ(seqio::write(off.normalized), R"({"handler_ref":"h"})");
}

TEST(Validator, HostileInputGivesRuleIds) {
  EXPECT_EQ(listed(seqio::validate("ActRequest", std::string(100000, '['))), "refused: $ wire.too-deep");
  std::string huge(20000000, 'a');
  seqio::Validation v = seqio::validate("Observations", R"({"streams": {")" + huge + R"(": {}}})");
  EXPECT_FALSE(v.valid);
}

TEST(Validator, StreamKeyWhitespaceIsPythonsSet) {
  // U+0085 is whitespace (refused at either end); U+200B is not (accepted); a key must not end in "\n".
  auto keys = [](const std::string& key) {
    return seqio::validate("Observations", R"({"streams": {")" + key + R"(": {}}})");
  };
  EXPECT_TRUE(refused_with(keys("\u0085cam"), "$.streams", "Observations.stream-key"));
  EXPECT_TRUE(refused_with(keys("cam\u3000"), "$.streams", "Observations.stream-key"));
  EXPECT_TRUE(refused_with(keys("cam\\n"), "$.streams", "Observations.stream-key"));
  EXPECT_TRUE(keys("cam\u200b").valid);
  EXPECT_TRUE(keys("\u00fcn\u00ef cam").valid);
}

TEST(Schema, LoadingRefusesKeywordsTheEvaluatorDoesNotImplement) {
  seqio::Value known = seqio::read(R"({"type": "string", "x-rule": "A.b", "description": "d"})").value;
  EXPECT_NO_THROW(seqio::schema::compile_for_check(known));
  for (const char* unknown : {R"({"multipleOf": 2})", R"({"properties": {"a": {"unevaluatedProperties": false}}})",
                              R"({"anyOf": [{"format": "date-time"}]})"})
    EXPECT_THROW(seqio::schema::compile_for_check(seqio::read(unknown).value), std::logic_error) << unknown;
}

TEST(Validator, UnknownTypeIsAnError) {
  EXPECT_THROW(seqio::validate("NoSuchType", "{}"), std::invalid_argument);
}

}  // namespace

namespace {

TEST(Validator, ValuesBuiltInMemoryMeetTheSameWireRules) {
  // spec/validation.md "Limits": a value handed to a validator is decided as the text API decides it.
  seqio::Value deep = seqio::Value::number(seqio::Number::from_int64(0));
  for (int i = 0; i < 201; ++i) deep = seqio::Value::array({deep});
  seqio::Value request = seqio::Value::object({{"inputs", deep}});
  EXPECT_EQ(listed(seqio::validate_value("ActRequest", request)), "refused: $ wire.too-deep");
  seqio::Value infinite = seqio::Value::object({{"inputs", seqio::Value::number(seqio::Number::from_double(1e308 * 10))}});
  EXPECT_EQ(listed(seqio::validate_value("ActRequest", infinite)), "refused: $.inputs wire.non-finite-number");
  seqio::Value broken = seqio::Value::object({{"inputs", seqio::Value::string("\xED\xA0\x80")}});
  EXPECT_EQ(listed(seqio::validate_value("ActRequest", broken)), "refused: $ wire.json-syntax");
}

}  // namespace
