//! The validator's mapping of schema errors to spec/validation.md (rule ids, paths, anyOf, propertyNames, ranks),
//! the rules beyond the schema and the normalizations. Each expectation is the example the spec's text gives.

use seq_io::validate::validate;

fn refused(type_name: &str, text: &str) -> Vec<(String, String)> {
    match validate(type_name, text.as_bytes()) {
        Ok(value) => panic!("expected refusals, got valid {}", value.to_text()),
        Err(issues) => issues.into_iter().map(|issue| (issue.path, issue.rule)).collect(),
    }
}

fn has(found: &[(String, String)], path: &str, rule: &str) -> bool {
    found.iter().any(|(p, r)| p == path && r == rule)
}

fn normalized(type_name: &str, text: &str) -> String {
    validate(type_name, text.as_bytes()).unwrap_or_else(|issues| panic!("refused: {issues:?}")).to_text()
}

#[test]
fn wire_rules_come_first() {
    assert_eq!(refused("Camera", r#"{"width": 1, "width": 2}"#), vec![("$".into(), "wire.duplicate-key".into())]);
}

#[test]
fn a_lower_rank_hides_a_higher_one_at_the_same_path() {
    let found = refused("ActionContract", r#"{"robot": "r", "action_space": true, "action_dim": 1}"#);
    assert!(has(&found, "$", "required"), "control_frequency_hz is missing: {found:?}");
    assert_eq!(found.iter().filter(|(p, _)| p == "$.action_space").count(), 1, "{found:?}");
    assert!(has(&found, "$.action_space", "type"), "true for an enum of strings breaks type and enum: {found:?}");
    let closed = refused("StreamError", r#"{"code": "conflict"}"#);
    assert_eq!(closed, vec![("$".into(), "required".into())], "required (2) hides additionalProperties (3)");
}

#[test]
fn refusals_at_different_paths_are_all_reported() {
    let found = refused("Camera", r#"{"width": "x", "height": 0}"#);
    assert!(has(&found, "$.width", "type") && has(&found, "$.height", "minimum"), "{found:?}");
}

#[test]
fn nullable_any_of_reports_the_non_null_branch_or_type() {
    let list = refused("ActionContract", &contract(r#""max_delta": [-1]"#));
    assert_eq!(list, vec![("$.max_delta[0]".into(), "exclusiveMinimum".into())]);
    let string = refused("ActionContract", &contract(r#""max_delta": "x""#));
    assert_eq!(string, vec![("$.max_delta".into(), "type".into())]);
}

fn contract(extra: &str) -> String {
    format!(r#"{{"robot": "r", "action_space": "joint_delta", "action_dim": 2, "control_frequency_hz": 10, {extra}}}"#)
}

#[test]
fn x_rule_names_a_keyword_inside_it() {
    let png = refused("Camera", r#"{"width": 1, "height": 1, "codec": "png", "quality": 90}"#);
    assert_eq!(png, vec![("$.codec".into(), "Camera.quality-needs-jpeg".into())]);
    let no_codec = refused("Camera", r#"{"width": 1, "height": 1, "quality": 90}"#);
    assert_eq!(no_codec, vec![("$".into(), "Camera.quality-needs-jpeg".into())], "the required codec is missing");
}

#[test]
fn a_value_built_in_memory_is_decided_as_its_text() {
    use seq_io::json::{Json, Number};
    let one = Json::Number(Number::from_i64(1));
    let twice = Json::Object(vec![("inputs".into(), one.clone()), ("inputs".into(), one.clone())]);
    let found: Vec<_> = seq_io::validate::validate_value("ActRequest", &twice).unwrap_err();
    assert_eq!((found[0].path.as_str(), found[0].rule.as_str()), ("$", "wire.duplicate-key"));
    let mut deep = one;
    for _ in 0..201 {
        deep = Json::Array(vec![deep]);
    }
    let found =
        seq_io::validate::validate_value("ActRequest", &Json::Object(vec![("inputs".into(), deep)])).unwrap_err();
    assert_eq!((found[0].path.as_str(), found[0].rule.as_str()), ("$", "wire.too-deep"));
}

#[test]
fn property_names_report_the_inner_rule_at_the_object() {
    let found = refused("Observations", r#"{"streams": {"a ": {"at": [0]}}}"#);
    assert_eq!(found, vec![("$.streams".into(), "Observations.stream-key".into())]);
}

#[test]
fn additional_properties_is_reported_at_the_object() {
    assert_eq!(refused("Stream", r#"{"at": [0], "x": 1}"#), vec![("$".into(), "additionalProperties".into())]);
}

#[test]
fn minus_zero_equals_zero_for_unique_items() {
    assert_eq!(refused("Stream", r#"{"at": [0, -0.0]}"#), vec![("$.at".into(), "uniqueItems".into())]);
}

#[test]
fn integers_are_bounded_exactly_at_max_safe_integer() {
    let ok = r#"{"inputs": 1, "seq": 9007199254740991}"#;
    assert!(validate("ActRequest", ok.as_bytes()).is_ok());
    let beyond = r#"{"inputs": 1, "seq": 9007199254740992}"#;
    assert_eq!(refused("ActRequest", beyond), vec![("$.seq".into(), "maximum".into())]);
}

#[test]
fn path_notation_quotes_names_that_are_not_plain() {
    let found = refused("Observations", r#"{"streams": {"front cam": {"at": [1]}}}"#);
    assert_eq!(found, vec![("$.streams[\"front cam\"].at[0]".into(), "maximum".into())]);
}

#[test]
fn rules_beyond_the_schema_are_each_checked() {
    let both = refused("InferParam", r#"{"type": "float", "min": 2, "max": 1, "default": 1.5}"#);
    assert!(has(&both, "$", "InferParam.min-not-above-max") && has(&both, "$.default", "InferParam.default-allowed"));
    let choices = refused("InferParam", r#"{"type": "int", "default": true, "choices": [1, 2]}"#);
    assert_eq!(choices, vec![("$.default".into(), "InferParam.default-allowed".into())], "true is not 1");
    assert!(validate("InferParam", br#"{"type": "int", "default": 1.0, "choices": [1, 2]}"#).is_ok());
    let count = refused("ActionContract", &contract(r#""bounds": [[0, 1]]"#));
    assert_eq!(count, vec![("$.bounds".into(), "ActionContract.bounds-count".into())]);
    let order = refused("ActionContract", &contract(r#""bounds": [[0, 1], [2, 1]]"#));
    assert_eq!(order, vec![("$.bounds[1]".into(), "ActionContract.bounds-order".into())]);
}

#[test]
fn lease_dates_exist_in_the_proleptic_gregorian_calendar() {
    let lease = |at: &str| format!(r#"{{"ttl_s": 60, "expires_at": "{at}", "epoch": 1}}"#);
    assert_eq!(
        refused("Lease", &lease("2026-02-30T00:00:00Z")),
        vec![("$.expires_at".into(), "Lease.expires-at-real-date".into())]
    );
    assert!(validate("Lease", lease("0000-02-29T00:00:00Z").as_bytes()).is_ok(), "year 0000 is a leap year");
    assert!(validate("Lease", lease("2026-03-01T12:34:60Z").as_bytes()).is_ok(), "a leap second at any time");
}

#[test]
fn param_names_are_unicode_14_identifiers() {
    let policy = |name: &str| format!(r#"{{"handler_ref": "m:f", "params": {{"{name}": {{"type": "int"}}}}}}"#);
    assert!(validate("DeploymentPolicy", policy("ünï").as_bytes()).is_ok());
    for name in ["1x", "_x", "x²", "x\u{200c}"] {
        assert_eq!(
            refused("DeploymentPolicy", &policy(name)),
            vec![("$.params".into(), "DeploymentPolicy.param-name".into())],
            "{name}"
        );
    }
}

#[test]
fn normalization_sorts_at_and_folds_streaming() {
    assert_eq!(normalized("Stream", r#"{"at": [0, -2.0, -1]}"#), r#"{"at":[-2.0,-1,0]}"#);
    assert_eq!(
        normalized("DeploymentPolicy", r#"{"handler_ref": "m:f", "streaming": true}"#),
        r#"{"handler_ref":"m:f","episodes":"own"}"#
    );
    assert_eq!(
        normalized("DeploymentPolicy", r#"{"handler_ref": "m:f", "streaming": false}"#),
        r#"{"handler_ref":"m:f"}"#
    );
}

#[test]
fn hostile_documents_get_rule_ids() {
    let deep = format!(r#"{{"inputs": {}0{}}}"#, "[".repeat(500), "]".repeat(500));
    assert_eq!(refused("ActRequest", &deep), vec![("$".into(), "wire.too-deep".into())]);
    let long = format!(r#"{{"inputs": {}}}"#, "9".repeat(10_000));
    assert_eq!(refused("ActRequest", &long), vec![("$.inputs".into(), "wire.integer-too-long".into())]);
    let huge_key = format!(r#"{{"streams": {{"{} ": {{}}}}}}"#, "k".repeat(1_000_000));
    assert!(!refused("Observations", &huge_key).is_empty());
}
