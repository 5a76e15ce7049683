// Validator tests: (type, text) → Validate → the {path, rule} refusals or the normalized value that
// spec/validation.md states in its own examples ("Which refusals", "Rule ids", "anyOf", "Rules beyond the schema",
// "Normalization", "Language-neutral decisions").
//
// WHY: these pin the mapping of the engine's error tree (x-rule through $ref, anyOf branches, propertyNames at the
// object, additionalProperties at the object) and the rules the engine cannot express.
package seqio

import (
	"strings"
	"testing"
)

func validate(t *testing.T, typeName, text string) Result {
	t.Helper()
	result, err := Validate(typeName, []byte(text))
	if err != nil {
		t.Fatalf("%s %.80s: %v", typeName, text, err)
	}
	return result
}

// expectRefusal asserts that the refusals include {path, rule}.
func expectRefusal(t *testing.T, typeName, text, path, rule string) {
	t.Helper()
	result := validate(t, typeName, text)
	if result.Valid {
		t.Fatalf("%s %.80s: accepted, want %s at %s", typeName, text, rule, path)
	}
	for _, r := range result.Refusals {
		if r.Path == path && r.Rule == rule {
			if r.Message == "" {
				t.Errorf("refusal without a sentence")
			}
			return
		}
	}
	t.Fatalf("%s %.80s: got %v, want %s at %s", typeName, text, result.Refusals, rule, path)
}

// expectNoRefusal asserts that no refusal has this rule at this path.
func expectNoRefusal(t *testing.T, typeName, text, path, rule string) {
	t.Helper()
	for _, r := range validate(t, typeName, text).Refusals {
		if r.Path == path && r.Rule == rule {
			t.Fatalf("%s %.80s: %s at %s should not be reported", typeName, text, rule, path)
		}
	}
}

func expectValid(t *testing.T, typeName, text, normalized string) {
	t.Helper()
	result := validate(t, typeName, text)
	if !result.Valid {
		t.Fatalf("%s %.80s: refused %v", typeName, text, result.Refusals)
	}
	want, _ := ReadJSON([]byte(normalized))
	if !Equal(&result.Normalized, &want) {
		t.Fatalf("%s: normalized to %s, want %s", typeName, WriteJSON(&result.Normalized), normalized)
	}
}

func TestWireRulesComeFirst(t *testing.T) {
	expectRefusal(t, "Camera", `{"width": 1, "width": 1, "height": 1}`, "$", RuleDuplicateKey)
	expectRefusal(t, "Stream", `{"every": 1e400}`, "$.every", RuleNonFinite)
}

func TestLowerRankHidesNothingButIsReported(t *testing.T) {
	// `true` for an enum of strings breaks `type` and `enum`: `type` is reported.
	expectRefusal(t, "ActionSpace", `true`, "$", "type")
	if first := validate(t, "ActionSpace", `true`).Refusals[0]; first.Rule != "type" {
		t.Fatalf("the lowest rank comes first at its path: %v", first)
	}
	// Refusals at different paths are all reported.
	expectRefusal(t, "Camera", `{"width": "x", "height": 0}`, "$.width", "type")
	expectRefusal(t, "Camera", `{"width": "x", "height": 0}`, "$.height", "minimum")
}

func TestXRuleThroughRef(t *testing.T) {
	robotArm := `{"handler_ref": "m:f", "action": {"robot": "r", "action_space": "joint_delta", "action_dim": 1, ` +
		`"control_frequency_hz": 10}, "observation": {"cameras": {"c": {"width": 1, "height": 1, "codec": %s}}}}`
	expectRefusal(t, "DeploymentPolicy", strings.Replace(robotArm, "%s", "5", 1),
		"$.observation.cameras.c.codec", "ObservationContract.robot-arm-camera")
	expectRefusal(t, "DeploymentPolicy", strings.Replace(robotArm, "%s", `"jpeg"`, 1),
		"$.observation.cameras.c.codec", "ObservationContract.robot-arm-camera")
}

func TestAdditionalPropertiesAtTheObject(t *testing.T) {
	expectRefusal(t, "Camera", `{"width": 1, "height": 1, "zoom": 1}`, "$", "additionalProperties")
	expectRefusal(t, "Lease", `{"expires_at": "2026-01-01T00:00:00Z", "epoch": 1}`, "$", "required")
}

func TestAnyOfReportsOnlyAdmittingBranches(t *testing.T) {
	action := `{"robot": "r", "action_space": "joint_delta", "action_dim": 1, "control_frequency_hz": 10, "max_delta": %s}`
	// Only the array branch admits an array: its item's exclusiveMinimum, never the null branch's `type`.
	expectRefusal(t, "ActionContract", strings.Replace(action, "%s", "[-1]", 1), "$.max_delta[0]", "exclusiveMinimum")
	expectNoRefusal(t, "ActionContract", strings.Replace(action, "%s", "[-1]", 1), "$.max_delta", "type")
	// No branch admits a string: one `type` at the member.
	expectRefusal(t, "ActionContract", strings.Replace(action, "%s", `"x"`, 1), "$.max_delta", "type")
}

func TestPropertyNamesAtTheObjectWithTheInnerRule(t *testing.T) {
	expectRefusal(t, "Observations", `{"streams": {"a ": {"every": 1}}}`, "$.streams", "Observations.stream-key")
	expectRefusal(t, "Observations", `{"streams": {"": {"every": 1}}}`, "$.streams", "Observations.stream-key")
}

func TestPatternsUseLookaheadAndWholeString(t *testing.T) {
	lease := `{"ttl_s": 1, "epoch": 1, "expires_at": %s}`
	expectValid(t, "Lease", strings.Replace(lease, "%s", `"2026-03-01T12:34:60Z"`, 1), strings.Replace(lease, "%s", `"2026-03-01T12:34:60Z"`, 1))
	expectRefusal(t, "Lease", strings.Replace(lease, "%s", `"2026-03-01T12:34:56Z\n"`, 1), "$.expires_at", "pattern")
	expectRefusal(t, "Lease", strings.Replace(lease, "%s", `"2026-03-01T12:34:56"`, 1), "$.expires_at", "pattern")
	// A stream key may hold inner whitespace, and ZERO WIDTH SPACE is not whitespace.
	expectValid(t, "Observations", `{"streams": {"front cam": {"every": 1}}}`, `{"streams": {"front cam": {"every": 1}}}`)
	expectValid(t, "Observations", "{\"streams\": {\"a\u200b\": {\"every\": 1}}}", "{\"streams\": {\"a\u200b\": {\"every\": 1}}}")
	expectRefusal(t, "Observations", "{\"streams\": {\"a\u3000\": {\"every\": 1}}}", "$.streams", "Observations.stream-key")
}

func TestNumbersByValue(t *testing.T) {
	expectValid(t, "Camera", `{"width": 640.0, "height": 1}`, `{"width": 640, "height": 1}`)
	expectRefusal(t, "ObserveFrame", `{"seq": 9007199254740992, "inputs": null}`, "$.seq", "maximum")
	expectRefusal(t, "Stream", `{"at": [0, -0.0]}`, "$.at", "uniqueItems")
	expectRefusal(t, "SeqFlags", `3`, "$", "enum")
	expectRefusal(t, "Camera", `{"width": "5", "height": 1}`, "$.width", "type")
}

func TestRulesBeyondTheSchema(t *testing.T) {
	expectRefusal(t, "InferParam", `{"type": "float", "min": 2, "max": 1, "default": 0}`, "$", "InferParam.min-not-above-max")
	expectRefusal(t, "InferParam", `{"type": "float", "min": 2, "max": 1, "default": 0}`, "$.default", "InferParam.default-allowed")
	expectRefusal(t, "InferParam", `{"type": "int", "choices": [1, 2], "default": true}`, "$.default", "InferParam.default-allowed")
	expectValid(t, "InferParam", `{"type": "int", "choices": [1, 2], "default": 1.0}`, `{"type": "int", "choices": [1, 2], "default": 1.0}`)
	expectRefusal(t, "Lease", `{"ttl_s": 1, "epoch": 1, "expires_at": "2026-02-30T00:00:00Z"}`, "$.expires_at", "Lease.expires-at-real-date")
	expectValid(t, "Lease", `{"ttl_s": 1, "epoch": 1, "expires_at": "0000-02-29T00:00:00Z"}`, `{"ttl_s": 1, "epoch": 1, "expires_at": "0000-02-29T00:00:00Z"}`)
	for _, name := range []string{"1x", "_x", "x²", "x₂", "＿x", "x\u200c"} {
		expectRefusal(t, "DeploymentPolicy", `{"handler_ref": "m:f", "params": {`+JSONString(name)+`: {"type": "int"}}}`,
			"$.params", "DeploymentPolicy.param-name")
	}
	expectValid(t, "DeploymentPolicy", `{"handler_ref": "m:f", "params": {"ünï": {"type": "int"}, "class": {"type": "int"}}}`,
		`{"handler_ref": "m:f", "params": {"ünï": {"type": "int"}, "class": {"type": "int"}}}`)
}

func TestSchemaRefusalsHideRulesBeyond(t *testing.T) {
	result := validate(t, "InferParam", `{"type": "float", "min": 2, "max": 1, "zoom": 0}`)
	for _, r := range result.Refusals {
		if strings.HasPrefix(r.Rule, "InferParam.") {
			t.Fatalf("a schema-invalid instance is refused by schema keywords only: %v", result.Refusals)
		}
	}
}

func TestNormalization(t *testing.T) {
	expectValid(t, "Stream", `{"at": [0, -2, -1.5]}`, `{"at": [-2, -1.5, 0]}`)
	expectValid(t, "DeploymentPolicy", `{"handler_ref": "m:f", "streaming": true}`, `{"handler_ref": "m:f", "episodes": "own"}`)
	expectValid(t, "DeploymentPolicy", `{"handler_ref": "m:f", "streaming": false}`, `{"handler_ref": "m:f"}`)
	expectValid(t, "DeploymentPolicy", `{"handler_ref": "m:f", "observations": {"streams": {"c": {"at": [0, -1]}}}}`,
		`{"handler_ref": "m:f", "observations": {"streams": {"c": {"at": [-1, 0]}}}}`)
}

func TestHostileInputGivesRuleIDs(t *testing.T) {
	huge := `{"episode_id": "` + strings.Repeat("é", 1<<20) + `", "frames": [], "skipped": [` + strings.Repeat("9", 4301) + `]}`
	expectRefusal(t, "ObserveRequest", huge, "$.skipped[0]", RuleIntegerTooLong)
	expectRefusal(t, "ObserveRequest", nested(100000, ""), "$", RuleTooDeep)
	if _, err := Validate("NoSuchType", []byte(`{}`)); err == nil {
		t.Fatalf("an unknown type name is an error of the caller, not a refusal")
	}
}

func TestValidateValueAppliesTheWireLimits(t *testing.T) {
	body, _ := ReadMessage([]byte(`{"seq": 1, "inputs": [1e400]}`))
	result, err := ValidateValue("ObserveFrame", body)
	if err != nil || result.Valid || result.Refusals[0].Path != "$.inputs[0]" || result.Refusals[0].Rule != RuleNonFinite {
		t.Fatalf("a value built in memory is decided as its text: %v %v", result.Refusals, err)
	}
}

func TestValuesBuiltInMemory(t *testing.T) {
	camera := ObjectValue([]Member{
		{Key: "width", Value: NumberValue(FloatNumber(640))},
		{Key: "height", Value: NumberValue(IntNumber(480))},
		{Key: "quality", Value: NumberValue(Number{})},
	})
	if got := string(WriteJSON(&camera)); got != `{"width":640.0,"height":480,"quality":0}` {
		t.Fatalf("written as %s", got)
	}
	result, err := ValidateValue("Camera", camera)
	if err != nil || !hasRefusal(result, "$.quality", "minimum") {
		t.Fatalf("the zero Number is 0, below quality's minimum 1: %v %v", result.Refusals, err)
	}
}

func hasRefusal(result Result, path, rule string) bool {
	for _, r := range result.Refusals {
		if r.Path == path && r.Rule == rule {
			return true
		}
	}
	return false
}
