//! The starter testee: conformance/protocol.md (version 1) done once. Runner's hello → our hello (with `kinds`) →
//! one JSON Lines answer per case until stdin closes. Validation is wired to this crate's validator; every other
//! kind has ONE function below, marked `FILL IN`, that answers `skipped` until an SDK author writes it.
//!
//! Why a starter: the protocol's details (integers of any length read exactly, messages 216 levels deep, a lone
//! surrogate inside a request, an answer for every line, even a malformed one) cost an implementer more than the
//! first kind does. Copy this file into your own crate, run `iospec run --impl <it> --xfail x.json --fix`, and
//! start from a green run.

use seq_io::generated::limits::MAX_JSON_DEPTH;
use seq_io::json::{Json, Reader, Surrogates};
use seq_io::validate::{is_known_type, validate};
use seq_io::{CONTRACT_VERSION, PACKAGE_VERSION};
use std::io::{BufRead, Write};

/// A message wraps an instance in up to 16 levels of its own (conformance/protocol.md, Transport).
const MESSAGE_DEPTH: usize = MAX_JSON_DEPTH as usize + 16;
/// The kinds this testee lists in its hello; those not filled in answer `skipped`.
const KINDS: [&str; 5] = ["validation", "schedule", "envelope", "rows_of", "stream"];

/// What a case function answers.
enum Answer {
    Result(Json),
    /// The spec's refusal of the input: its rule id and a sentence.
    Error(String, String),
    Skipped(String),
}

fn not_yet(kind: &str) -> Answer {
    Answer::Skipped(format!("the kind {kind} is not implemented yet in this testee"))
}

// ---- FILL IN: one function per kind (inputs and results: conformance/protocol.md, "Requests") ----------------

/// FILL IN: spec/schedule.md — {declaration, rate?, t, t_prev} → {picks, needed, wanted, keeps_from, reads_past}.
fn schedule(_input: &Json) -> Answer {
    not_yet("schedule")
}

/// FILL IN: spec/schedule.md § 9 — {picks, frames, own, t} → {observations, steps}.
fn envelope(_input: &Json) -> Answer {
    not_yet("envelope")
}

/// FILL IN: spec/schedule.md § 10 — {answer, actions} → {rows}.
fn rows_of(_input: &Json) -> Answer {
    not_yet("rows_of")
}

/// FILL IN: spec/stream.md — one whole scenario → {outcomes}.
fn stream(_input: &Json) -> Answer {
    not_yet("stream")
}

// ---- done: validation, wired to seq_io::validate ---------------------------------------------------------------

/// {type_name, json} → {valid: true, normalized} or {valid: false, errors: [{path, rule}]}.
fn validation(input: &Json, lone_surrogate_in_request: bool) -> Answer {
    let (Some(Json::String(type_name)), Some(Json::String(text))) = (input.get("type_name"), input.get("json")) else {
        return Answer::Error("protocol.malformed-request".into(), "input needs string type_name and json".into());
    };
    if !is_known_type(type_name) {
        return Answer::Skipped(format!("the type {type_name} is not a type this testee knows"));
    }
    if lone_surrogate_in_request {
        // The text held a lone surrogate as a code point: no UTF-8 text can, so it is refused as the escape is.
        return Answer::Result(refused(vec![("$".into(), "wire.json-syntax".into())]));
    }
    Answer::Result(match validate(type_name, text.as_bytes()) {
        Ok(normalized) => object(vec![("valid", Json::Bool(true)), ("normalized", normalized)]),
        Err(issues) => refused(issues.into_iter().map(|issue| (issue.path, issue.rule)).collect()),
    })
}

fn refused(errors: Vec<(String, String)>) -> Json {
    let errors = errors
        .into_iter()
        .map(|(path, rule)| object(vec![("path", Json::String(path)), ("rule", Json::String(rule))]))
        .collect();
    object(vec![("valid", Json::Bool(false)), ("errors", Json::Array(errors))])
}

// ---- the protocol ----------------------------------------------------------------------------------------------

fn object(members: Vec<(&str, Json)>) -> Json {
    Json::Object(members.into_iter().map(|(key, value)| (key.to_owned(), value)).collect())
}

fn text(value: &str) -> Json {
    Json::String(value.to_owned())
}

fn hello() -> Json {
    let implementation = object(vec![("name", text("seq-io-rust-starter")), ("version", text(PACKAGE_VERSION))]);
    object(vec![
        ("type", text("hello")),
        ("protocol", Json::Number(seq_io::json::Number::from_i64(1))),
        ("implementation", implementation),
        ("contract_version", text(CONTRACT_VERSION)),
        ("kinds", Json::Array(KINDS.iter().map(|kind| text(kind)).collect())),
    ])
}

fn answer_case(request: &Json, lone_surrogate: bool) -> Json {
    let id = match request.get("id") {
        Some(Json::String(id)) => id.clone(),
        _ => return protocol_error("", "a case request needs a string id"),
    };
    let input = request.get("input").unwrap_or(&Json::Null);
    let answer = match request.get("kind") {
        Some(Json::String(kind)) => match kind.as_str() {
            "validation" => validation(input, lone_surrogate),
            "schedule" => schedule(input),
            "envelope" => envelope(input),
            "rows_of" => rows_of(input),
            "stream" => stream(input),
            other => Answer::Skipped(format!("the kind {other} is not known to this testee")),
        },
        _ => return protocol_error(&id, "a case request needs a string kind"),
    };
    match answer {
        Answer::Result(result) => object(vec![("type", text("result")), ("id", text(&id)), ("result", result)]),
        Answer::Error(rule, message) => {
            object(vec![("type", text("error")), ("id", text(&id)), ("rule", text(&rule)), ("message", text(&message))])
        }
        Answer::Skipped(reason) => {
            object(vec![("type", text("skipped")), ("id", text(&id)), ("reason", text(&reason))])
        }
    }
}

/// The answer to a line that is no case request: an error the runner can show, never a silent exit.
fn protocol_error(id: &str, message: &str) -> Json {
    object(vec![
        ("type", text("error")),
        ("id", text(id)),
        ("rule", text("protocol.malformed-request")),
        ("message", text(message)),
    ])
}

fn answer_line(line: &str) -> Json {
    let mut reader = Reader {
        max_depth: MESSAGE_DEPTH,
        surrogates: Surrogates::Mark,
        saw_lone_surrogate: false,
        wire_limits: false,
    };
    match reader.read(line.as_bytes()) {
        Ok(request) if request.get("type") == Some(&text("case")) => answer_case(&request, reader.saw_lone_surrogate),
        Ok(request) if request.get("type") == Some(&text("hello")) => hello(),
        Ok(_) => protocol_error("", "the line is not a case request"),
        Err(issues) => protocol_error("", &format!("the request line is not readable JSON: {}", issues[0])),
    }
}

fn main() {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else {
            let reply = protocol_error("", "the request line is not UTF-8");
            let _ = writeln!(stdout, "{}", reply.to_text()).and_then(|()| stdout.flush());
            continue;
        };
        if line.trim().is_empty() {
            continue;
        }
        let reply = answer_line(&line);
        if writeln!(stdout, "{}", reply.to_text()).and_then(|()| stdout.flush()).is_err() {
            return;
        }
    }
}
