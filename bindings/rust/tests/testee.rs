//! The starter testee as the runner sees it (conformance/protocol.md): the handshake with `kinds`, one answer per
//! line, `skipped` for a kind not filled in, a protocol error for a malformed line (never a silent exit),
//! integers of any length and messages 216 levels deep read, a lone surrogate inside a request refused.

use std::io::Write;
use std::process::{Command, Stdio};

/// Sends the runner's hello and `lines`, closes stdin; returns every answer line and the exit status.
fn session(lines: &[String]) -> (Vec<String>, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_seq-io-testee"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the testee starts");
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(stdin, r#"{{"type":"hello","protocol":1,"contract_version":"0.5.25"}}"#).unwrap();
    for line in lines {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let output = child.wait_with_output().expect("the testee ends");
    let text = String::from_utf8(output.stdout).expect("UTF-8 answers");
    (text.lines().map(str::to_owned).collect(), output.status.success())
}

fn validation(id: &str, type_name: &str, json: &str) -> String {
    let json = seq_io::json::Json::String(json.to_owned()).to_text();
    format!(r#"{{"type":"case","id":"{id}","kind":"validation","input":{{"type_name":"{type_name}","json":{json}}}}}"#)
}

#[test]
fn the_hello_lists_the_kinds_and_the_contract_version() {
    let (answers, ok) = session(&[]);
    assert!(ok);
    assert_eq!(answers.len(), 1);
    assert!(answers[0].contains(r#""type":"hello""#) && answers[0].contains(r#""protocol":1"#));
    assert!(answers[0].contains(r#""contract_version":"0.5.25""#));
    assert!(answers[0].contains(r#""kinds":["validation","schedule","envelope","rows_of","stream"]"#));
}

#[test]
fn every_line_gets_one_answer_even_a_malformed_one() {
    let schedule = r#"{"type":"case","id":"sch-0001","kind":"schedule","input":{"t":1}}"#.to_owned();
    let (answers, ok) = session(&["not json".into(), r#"{"type":"case"}"#.into(), schedule]);
    assert!(ok, "the testee exits 0 when stdin closes");
    assert_eq!(answers.len(), 4);
    assert!(answers[1].contains(r#""type":"error""#) && answers[1].contains("protocol.malformed-request"));
    assert!(answers[2].contains(r#""type":"error""#) && answers[2].contains("protocol.malformed-request"));
    assert!(answers[3].contains(r#""type":"skipped""#) && answers[3].contains(r#""id":"sch-0001""#));
}

#[test]
fn validation_answers_with_the_normalized_value_or_the_refusals() {
    let (answers, _) = session(&[
        validation("val-0001", "Stream", r#"{"at": [0, -1]}"#),
        validation("val-0002", "Stream", r#"{"at": [1]}"#),
        validation("val-0003", "NoSuchType", "{}"),
    ]);
    assert!(answers[1].contains(r#""result":{"valid":true,"normalized":{"at":[-1,0]}}"#), "{}", answers[1]);
    assert!(answers[2].contains(r#"{"path":"$.at[0]","rule":"maximum"}"#), "{}", answers[2]);
    assert!(answers[3].contains(r#""type":"skipped""#), "{}", answers[3]);
}

#[test]
fn requests_carry_long_integers_deep_nesting_and_lone_surrogates() {
    let long_integer =
        format!(r#"{{"type":"case","id":"sch-0002","kind":"schedule","input":{{"t":1{}}}}}"#, "0".repeat(400));
    let deep = format!(
        r#"{{"type":"case","id":"sch-0003","kind":"schedule","input":{{"d":{}0{}}}}}"#,
        "[".repeat(214),
        "]".repeat(214)
    );
    let too_deep = deep.replace("sch-0003", "sch-0004").replacen('[', "[[", 1).replacen(']', "]]", 1);
    let surrogate = r#"{"type":"case","id":"val-0004","kind":"validation","input":{"type_name":"ActRequest","json":"{\"inputs\": \"\ud800\"}"}}"#;
    let (answers, _) = session(&[long_integer, deep, surrogate.to_owned(), too_deep]);
    assert!(answers[1].contains(r#""type":"skipped""#), "{}", answers[1]);
    assert!(answers[2].contains(r#""type":"skipped""#), "216 enclosing levels are read: {}", answers[2]);
    assert!(answers[4].contains("protocol.malformed-request"), "217 are not: {}", answers[4]);
    assert!(answers[3].contains(r#"{"path":"$","rule":"wire.json-syntax"}"#), "{}", answers[3]);
}
