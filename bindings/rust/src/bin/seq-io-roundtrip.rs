//! The round-trip program of scripts/seq_io_maint/roundtrip.py: JSON Lines requests `{id, type_name, json}` →
//! read the text, decode it into the generated type, encode it back → `{id, json}` or `{id, error}`.
//!
//! Why a program and not a test: the checker owns the comparison (exact values and literal kinds, from the
//! binding model), so every binding is judged by one piece of code.

use seq_io::codec::round_trip;
use seq_io::json::{read, Json, Reader};
use std::io::{BufRead, Write};

/// A request wraps the instance's text in one object; the text itself is read under the wire rules.
const MESSAGE_DEPTH: usize = 16;

fn answer(request: &Json) -> Json {
    let id = request.get("id").cloned().unwrap_or(Json::Null);
    let (Some(Json::String(type_name)), Some(Json::String(text))) = (request.get("type_name"), request.get("json"))
    else {
        return error(id, "the request needs a string type_name and a string json".to_owned());
    };
    let outcome = match read(text.as_bytes()) {
        Err(issues) => Err(issues.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")),
        Ok(value) => match round_trip(type_name, &value) {
            None => Err(format!("unknown type {type_name}")),
            Some(result) => result.map_err(|issue| issue.to_string()),
        },
    };
    match outcome {
        Ok(written) => Json::Object(vec![("id".into(), id), ("json".into(), Json::String(written.to_text()))]),
        Err(message) => error(id, message),
    }
}

fn error(id: Json, message: String) -> Json {
    Json::Object(vec![("id".into(), id), ("error".into(), Json::String(message))])
}

fn main() {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let mut reader = Reader { max_depth: MESSAGE_DEPTH, wire_limits: false, ..Reader::default() };
        let reply = match reader.read(line.as_bytes()) {
            Ok(request) => answer(&request),
            Err(issues) => error(Json::Null, format!("unreadable request: {}", issues[0])),
        };
        if writeln!(stdout, "{}", reply.to_text()).and_then(|()| stdout.flush()).is_err() {
            break;
        }
    }
}
