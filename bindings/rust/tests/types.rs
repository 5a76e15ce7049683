//! The generated types: absent vs null vs value (three-state), no default written, `integer` members take an
//! integral float and write the integer, `number` and opaque members keep value and literal, closed objects refuse
//! unknown members (spec/validation.md "Writing an instance").

use seq_io::codec::{Contract, Field};
use seq_io::types::{ActRequest, Camera, DeploymentPolicy, Observations, SeqFlags, Stream};

#[test]
fn absent_null_and_value_stay_what_they_were() {
    let absent = ActRequest::decode(r#"{"inputs": 1}"#).unwrap();
    assert_eq!(absent.seed, Field::Absent);
    assert_eq!(absent.encode(), r#"{"inputs":1}"#);
    let null = ActRequest::decode(r#"{"inputs": 1, "seed": null}"#).unwrap();
    assert_eq!(null.seed, Field::Null);
    assert_eq!(null.encode(), r#"{"inputs":1,"seed":null}"#);
    let value = ActRequest::decode(r#"{"inputs": null, "seed": 7}"#).unwrap();
    assert_eq!(value.seed, Field::Value(7));
    assert_eq!(value.encode(), r#"{"inputs":null,"seed":7}"#);
}

#[test]
fn defaults_are_never_written_and_empty_containers_stay() {
    let policy = DeploymentPolicy::decode(r#"{"handler_ref": "m:f"}"#).unwrap();
    assert_eq!(policy.encode(), r#"{"handler_ref":"m:f"}"#);
    let reads_nothing = Observations::decode(r#"{"streams": {}}"#).unwrap();
    assert_eq!(reads_nothing.encode(), r#"{"streams":{}}"#);
}

#[test]
fn an_integer_member_takes_an_integral_float_and_writes_the_integer() {
    let camera = Camera::decode(r#"{"width": 640.0, "height": 4.8e2}"#).unwrap();
    assert_eq!((camera.width, camera.height), (640, 480));
    assert_eq!(camera.encode(), r#"{"width":640,"height":480}"#);
    let refused = Camera::decode(r#"{"width": 2.5, "height": 1}"#).unwrap_err();
    assert_eq!((refused[0].path.as_str(), refused[0].rule.as_str()), ("$.width", "type"));
}

#[test]
fn a_number_member_keeps_its_literal() {
    let stream = Stream::decode(r#"{"at": [-1.0, 0, -2e0], "every": 2.50}"#).unwrap();
    assert_eq!(stream.encode(), r#"{"at":[-1.0,0,-2e0],"every":2.50}"#);
}

#[test]
fn an_opaque_member_keeps_big_integers_exactly() {
    let text = r#"{"inputs":[9007199254740993,1.8014398509481985e16,{"z":1,"a":2}]}"#;
    assert_eq!(ActRequest::decode(text).unwrap().encode(), text);
}

#[test]
fn a_closed_object_refuses_unknown_members_at_the_object() {
    let refused = Camera::decode(r#"{"width": 1, "height": 1, "zoom": 2}"#).unwrap_err();
    assert_eq!((refused[0].path.as_str(), refused[0].rule.as_str()), ("$", "additionalProperties"));
}

#[test]
fn a_missing_required_member_and_a_null_where_none_is_allowed_are_refused() {
    let missing = Camera::decode(r#"{"width": 1}"#).unwrap_err();
    assert_eq!((missing[0].path.as_str(), missing[0].rule.as_str()), ("$", "required"));
    let null = DeploymentPolicy::decode(r#"{"handler_ref": "m:f", "streaming": null}"#).unwrap_err();
    assert_eq!((null[0].path.as_str(), null[0].rule.as_str()), ("$.streaming", "type"));
}

#[test]
fn seq_flags_is_exactly_one_member_bit() {
    assert_eq!(SeqFlags::decode("1024").unwrap(), SeqFlags::OnEpisode);
    assert_eq!(SeqFlags::decode("16.0").unwrap().encode(), "16");
    for refused in ["0", "3", "8192", "64"] {
        assert_eq!(SeqFlags::decode(refused).unwrap_err()[0].rule, "enum", "{refused}");
    }
}

#[test]
fn the_versions_have_one_source() {
    assert_eq!(seq_io::PACKAGE_VERSION, env!("CARGO_PKG_VERSION"));
    assert!(!seq_io::CONTRACT_VERSION.is_empty());
}
