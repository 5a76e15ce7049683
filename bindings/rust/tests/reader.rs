//! The reader and writer against spec/validation.md "Wire rules", "Limits" and "Language-neutral decisions":
//! each expected path, rule id and value below is the one the spec's text gives for that input.

use seq_io::json::{read, Json, Number, NumberValue, Reader, Surrogates};

fn refusals(text: &[u8]) -> Vec<(String, String)> {
    match read(text) {
        Ok(value) => panic!("expected a refusal, read {}", value.to_text()),
        Err(issues) => issues.into_iter().map(|issue| (issue.path, issue.rule)).collect(),
    }
}

fn one(path: &str, rule: &str) -> Vec<(String, String)> {
    vec![(path.to_owned(), rule.to_owned())]
}

fn nested(depth: usize, inner: &str) -> String {
    format!("{}{inner}{}", "[".repeat(depth), "]".repeat(depth))
}

#[test]
fn a_byte_order_mark_is_refused_as_syntax() {
    assert_eq!(refusals("\u{feff}{}".as_bytes()), one("$", "wire.json-syntax"));
}

#[test]
fn nan_and_infinity_tokens_are_not_json() {
    for text in ["NaN", "Infinity", "-Infinity", "[1, NaN]"] {
        assert_eq!(refusals(text.as_bytes()), one("$", "wire.json-syntax"), "{text}");
    }
}

#[test]
fn only_four_whitespace_characters_surround_a_value() {
    assert!(read(b" \t\r\n{} \t\r\n").is_ok());
    assert_eq!(refusals("\u{c}{}".as_bytes()), one("$", "wire.json-syntax"));
    assert_eq!(refusals("{}\u{a0}".as_bytes()), one("$", "wire.json-syntax"));
}

#[test]
fn lone_surrogate_escapes_are_refused_and_a_pair_is_one_code_point() {
    assert_eq!(refusals(br#""\ud800""#), one("$", "wire.json-syntax"));
    assert_eq!(refusals(br#""\ude00\ud83d""#), one("$", "wire.json-syntax"));
    assert_eq!(refusals(br#"{"\ud800": 1}"#), one("$", "wire.json-syntax"));
    assert_eq!(read(br#""\ud83d\ude00""#).unwrap(), Json::String("\u{1F600}".into()));
}

#[test]
fn a_surrogate_encoded_in_bytes_is_not_utf8() {
    assert_eq!(refusals(b"\"\xed\xa0\x80\""), one("$", "wire.json-syntax"));
    assert_eq!(refusals(b"\"\xff\""), one("$", "wire.json-syntax"));
}

#[test]
fn a_protocol_reader_marks_a_lone_surrogate_instead() {
    let mut reader = Reader { surrogates: Surrogates::Mark, ..Reader::default() };
    assert!(reader.read(br#"{"json": "\ud800"}"#).is_ok());
    assert!(reader.saw_lone_surrogate);
}

#[test]
fn duplicate_keys_are_refused_at_the_object_each_one() {
    assert_eq!(refusals(br#"{"a": {"b": 1, "b": 2}}"#), one("$.a", "wire.duplicate-key"));
    let both = refusals(br#"{"x": 1, "x": 2, "y": [{"z": 0, "z": 0}]}"#);
    assert_eq!(both, vec![("$".into(), "wire.duplicate-key".into()), ("$.y[0]".into(), "wire.duplicate-key".into())]);
}

#[test]
fn non_finite_numbers_are_refused_at_their_paths() {
    assert_eq!(refusals(br#"{"a": [0, 1e400]}"#), one("$.a[1]", "wire.non-finite-number"));
    assert_eq!(refusals(b"-1e400"), one("$", "wire.non-finite-number"));
    let ten_to_400 = format!("1{}", "0".repeat(400));
    assert_eq!(refusals(ten_to_400.as_bytes()), one("$", "wire.non-finite-number"));
}

#[test]
fn integer_digits_are_limited_at_4300() {
    let at_limit = format!("{{\"n\": 1{}}}", "0".repeat(4299));
    assert_eq!(refusals(at_limit.as_bytes()), one("$.n", "wire.non-finite-number"));
    let beyond = format!("{{\"n\": -1{}}}", "0".repeat(4300));
    assert_eq!(refusals(beyond.as_bytes()), one("$.n", "wire.integer-too-long"));
    let with_exponent = format!("1{}e-5000", "0".repeat(5000));
    assert!(read(with_exponent.as_bytes()).is_ok(), "a literal with an exponent has no length limit");
}

#[test]
fn depth_counts_enclosing_containers_up_to_200() {
    assert!(read(nested(200, "0").as_bytes()).is_ok());
    assert!(read(nested(201, "").as_bytes()).is_ok(), "an empty container is enclosed, not enclosing");
    assert_eq!(refusals(nested(201, "0").as_bytes()), one("$", "wire.too-deep"));
    let deep_then_broken = format!("{}0,,,", "[".repeat(201));
    assert_eq!(refusals(deep_then_broken.as_bytes()), one("$", "wire.too-deep"));
    let very_deep = "[".repeat(1_000_000);
    assert_eq!(refusals(very_deep.as_bytes()), one("$", "wire.too-deep"), "no recursion, no crash");
}

#[test]
fn syntax_breaks_win_over_duplicate_keys_found_before() {
    assert_eq!(refusals(br#"{"a": 1, "a": 2"#), one("$", "wire.json-syntax"));
}

#[test]
fn a_number_is_its_exact_value() {
    let value = |text: &str| match read(text.as_bytes()).unwrap() {
        Json::Number(number) => number,
        other => panic!("not a number: {other:?}"),
    };
    let integer = |digits: &str| NumberValue::Integer { negative: false, digits: digits.into() };
    assert_eq!(value("9007199254740993.0").value(), &integer("9007199254740993"));
    assert_eq!(value("9.007199254740993e15").value(), &integer("9007199254740993"));
    assert_eq!(value("2.0000000000000001").value(), &integer("2"));
    assert_eq!(value("1e-400").value(), &integer("0"));
    assert_eq!(value("-0.0").value(), &integer("0"));
    assert_eq!(value("0.10000000000000001").value(), &NumberValue::Fraction(0.1));
    assert_eq!(value("640.0"), value("640"));
    assert_eq!(value("10e-1"), value("1"));
    assert_ne!(value("9007199254740993"), value("9007199254740992"));
    assert!(value("640.0").is_integral() && !value("640.0").is_integer_literal());
}

#[test]
fn a_double_built_in_memory_keeps_its_value_and_is_written_as_a_double() {
    let literal = |value: f64| Number::from_f64(value).map(|number| number.literal().to_owned());
    assert_eq!(literal(640.0).as_deref(), Some("640.0"));
    assert_eq!(literal(0.1).as_deref(), Some("0.1"));
    assert_eq!(literal(-1e300).as_deref(), Some("-1e300"));
    assert_eq!(literal(f64::NAN), None);
    assert_eq!(Number::from_f64(1e300).unwrap(), Number::parse(&format!("1{}", "0".repeat(300))).unwrap());
}

#[test]
fn the_writer_writes_each_value_back_as_it_came() {
    let text = r#"{"b":[1.0,-0.0,1e-07,9007199254740993,{}],"a":null,"s":"é\"\\\n\u0001","t":[]}"#;
    assert_eq!(read(text.as_bytes()).unwrap().to_text(), text);
}

#[test]
fn the_document_size_limit_is_twice_max_stream_bytes() {
    assert_eq!(seq_io::json::MAX_DOCUMENT_BYTES, 134_217_728);
    let huge = vec![b' '; seq_io::json::MAX_DOCUMENT_BYTES + 1];
    assert_eq!(refusals(&huge), one("$", "reader.too-large"));
}
