// Generated-type tests: instance text → Decode<Type> → fields and three states → MarshalJSON → text, against
// spec/validation.md "Writing an instance" (absent stays absent, null stays null, `{}` stays, no default written,
// `640.0` in an integer member is the integer 640, numbers and opaque values unchanged).
//
// WHY: these are the promises encoding/json breaks (issue 19's table); each is pinned on one small instance.
package seqio

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestAbsentNullAndValueStayApart(t *testing.T) {
	stream, err := DecodeStream([]byte(`{"every": null}`))
	if err != nil {
		t.Fatal(err)
	}
	if stream.Every.State != IsNull || stream.At.State != Absent || stream.Camera.State != Absent {
		t.Fatalf("states: every %v at %v camera %v", stream.Every.State, stream.At.State, stream.Camera.State)
	}
	out, _ := json.Marshal(stream)
	if string(out) != `{"every":null}` {
		t.Fatalf("written back as %s", out)
	}
}

func TestEmptyMapStaysEmptyMap(t *testing.T) {
	// {"streams": {}} reads nothing; {} reads the whole observation: they must not collapse.
	obs, err := DecodeObservations([]byte(`{"streams": {}}`))
	if err != nil {
		t.Fatal(err)
	}
	if obs.Streams.State != Present || len(obs.Streams.Value) != 0 {
		t.Fatalf("streams should be present and empty")
	}
	out, _ := json.Marshal(obs)
	if string(out) != `{"streams":{}}` {
		t.Fatalf("written back as %s", out)
	}
}

func TestDefaultsAreNeverWritten(t *testing.T) {
	policy, err := DecodeDeploymentPolicy([]byte(`{"handler_ref": "m:f"}`))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(policy)
	if string(out) != `{"handler_ref":"m:f"}` {
		t.Fatalf("written back as %s (streaming and secrets have defaults that must not be added)", out)
	}
}

func TestIntegralFloatInIntegerMemberIsTheInteger(t *testing.T) {
	camera, err := DecodeCamera([]byte(`{"width": 640.0, "height": 4.8e2}`))
	if err != nil {
		t.Fatal(err)
	}
	if camera.Width != 640 || camera.Height != 480 {
		t.Fatalf("got %d x %d", camera.Width, camera.Height)
	}
	out, _ := json.Marshal(camera)
	if string(out) != `{"width":640,"height":480}` {
		t.Fatalf("written back as %s", out)
	}
	if _, err := DecodeCamera([]byte(`{"width": 2.5, "height": 1}`)); ruleOf(err) != "type" {
		t.Fatalf("2.5 is not an integer: %v", err)
	}
}

func TestNumbersAndOpaqueValuesKeptExactly(t *testing.T) {
	text := `{"inputs":{"big":90071992547409931,"f":1.50,"e":1E+2,"deep":[{"z":null}]},"seed":null}`
	request, err := DecodeActRequest([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(request)
	if string(out) != text {
		t.Fatalf("got  %s\nwant %s", out, text)
	}
	hz, err := DecodeActions([]byte(`{"hz": 15}`))
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := json.Marshal(hz); string(out) != `{"hz":15}` {
		t.Fatalf("a number member keeps an integer an integer: %s", out)
	}
}

func TestUnionKeepsItsBranch(t *testing.T) {
	param, err := DecodeInferParam([]byte(`{"type": "float", "default": 0.5, "choices": [true, "x", 2]}`))
	if err != nil {
		t.Fatal(err)
	}
	def, _ := param.Default.Get()
	if def.Number == nil || def.Number.Literal() != "0.5" {
		t.Fatalf("default should be the number 0.5")
	}
	choices, _ := param.Choices.Get()
	if choices[0].Boolean == nil || choices[1].String == nil || choices[2].Number == nil {
		t.Fatalf("choices lost their JSON types")
	}
}

func ruleOf(err error) string {
	var refusal Refusal
	if errors.As(err, &refusal) {
		return refusal.Rule
	}
	return ""
}

func TestTypesRefuseWhatTheyCannotHold(t *testing.T) {
	cases := []struct{ text, rule, path string }{
		{`{"width": 1, "height": 1, "zoom": 2}`, "additionalProperties", "$"},
		{`{"width": 1}`, "required", "$"},
		{`{"width": "1", "height": 1}`, "type", "$.width"},
		{`{"width": 1, "height": 1, "codec": "gif"}`, "enum", "$.codec"},
		{`{"width": 1, "height": 1, "codec": null}`, "", ""},
		{`{"width": true, "height": 1}`, "type", "$.width"},
		{`[]`, "type", "$"},
	}
	for _, c := range cases {
		_, err := DecodeCamera([]byte(c.text))
		var refusal Refusal
		if c.rule == "" {
			if err != nil {
				t.Errorf("%s: refused %v", c.text, err)
			}
			continue
		}
		if !errors.As(err, &refusal) || refusal.Rule != c.rule || refusal.Path != c.path {
			t.Errorf("%s: got %v, want %s at %s", c.text, err, c.rule, c.path)
		}
	}
	if _, err := DecodeSeqFlags([]byte(`3`)); ruleOf(err) != "enum" {
		t.Errorf("SeqFlags 3 is two bits, not a member: %v", err)
	}
	if flag, err := DecodeSeqFlags([]byte(`1024.0`)); err != nil || flag != SeqFlagsOnEpisode {
		t.Errorf("SeqFlags 1024.0 is ON_EPISODE: %v", err)
	}
	if _, err := DecodeObserveRequest([]byte(`{"episode_id": "e", "frames": null}`)); ruleOf(err) != "type" {
		t.Errorf("frames is not nullable: %v", err)
	}
}

func TestUnmarshalAppliesWireRules(t *testing.T) {
	var camera Camera
	if err := json.Unmarshal([]byte(`{"width": 1, "width": 2, "height": 1}`), &camera); ruleOf(err) != RuleDuplicateKey {
		t.Fatalf("a duplicate key is a wire refusal: %v", err)
	}
}

func TestVersionsComeFromTheModel(t *testing.T) {
	var contract struct {
		Version string `json:"contract_version"`
	}
	mustReadEmbedded("embedded/contract.json", &contract)
	if ContractVersion != contract.Version || PackageVersion == "" {
		t.Fatalf("contract %s package %s", ContractVersion, PackageVersion)
	}
}
