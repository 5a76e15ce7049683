//! The looseness table: conformance/vectors.json → every invalid validation vector decoded by the generated types
//! alone (reader + types, no validator) → per rule id, how many of its vectors the types refuse → JSON.
//!
//! `seq-io-looseness VECTORS` prints the table; `--check TABLE` fails (exit 1) when the checked-in table differs,
//! `--write TABLE` rewrites it. Why a program of the binding: the table must say what these types do, so it is
//! computed by them, on every vector, each time the binding is checked.

use seq_io::codec::round_trip;
use seq_io::json::{read, Json, Reader};
use std::collections::BTreeMap;
use std::process::ExitCode;

/// (rule id, whether the types alone refused) for every invalid validation case.
fn verdicts(bundle: &Json) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let Some(Json::Array(files)) = bundle.get("files") else { return out };
    for document in files.iter().filter_map(|file| file.get("document")) {
        let (Some(Json::String(kind)), Some(Json::String(type_name))) = (document.get("kind"), document.get("type"))
        else {
            continue;
        };
        if kind != "validation" {
            continue;
        }
        let Some(Json::Array(groups)) = document.get("groups") else { continue };
        for group in groups {
            let Some(Json::Array(cases)) = group.get("cases") else { continue };
            for case in cases.iter().filter(|case| case.get("valid") == Some(&Json::Bool(false))) {
                let Some(Json::String(rule)) = case.get("error").and_then(|error| error.get("rule")) else { continue };
                out.push((rule.clone(), types_refuse(type_name, case)));
            }
        }
    }
    out
}

/// True when the reader or the type's decoder refuses the case's instance.
fn types_refuse(type_name: &str, case: &Json) -> bool {
    let text = match (case.get("json"), case.get("instance")) {
        (Some(Json::String(text)), _) => text.clone(),
        (_, Some(instance)) => instance.to_text(),
        _ => return false,
    };
    match read(text.as_bytes()) {
        Err(_) => true,
        Ok(value) => matches!(round_trip(type_name, &value), Some(Err(_))),
    }
}

/// The verdict of bindings/looseness.schema.json: every vector, none, or some refused by the types alone.
fn held_by(vectors: usize, refused: usize) -> &'static str {
    if refused == vectors {
        "types"
    } else if refused == 0 {
        "validator only"
    } else {
        "types in part"
    }
}

/// The table in the layout of bindings/looseness.schema.json (the same in every binding), one rule id per line so
/// a diff shows the rule that moved.
fn table(verdicts: &[(String, bool)]) -> String {
    let mut by_rule: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (rule, refused) in verdicts {
        let entry = by_rule.entry(rule).or_default();
        entry.0 += 1;
        entry.1 += usize::from(*refused);
    }
    let rows: Vec<String> = by_rule
        .iter()
        .map(|(rule, (vectors, refused))| {
            let name = Json::String((*rule).into()).to_text();
            let verdict = held_by(*vectors, *refused);
            format!("  {name}: {{\"vectors\": {vectors}, \"refused_by_types\": {refused}, \"held_by\": \"{verdict}\"}}")
        })
        .collect();
    let description = Json::String(DESCRIPTION.into()).to_text();
    format!("{{\n \"description\": {description},\n \"rules\": {{\n{}\n }}\n}}\n", rows.join(",\n"))
}

/// The vector file wraps instances (some 200 deep on purpose) in a few levels of its own; it is trusted input.
const VECTOR_FILE_DEPTH: usize = 1024;

const DESCRIPTION: &str = "Per rule id of the invalid validation vectors: how many the Rust binding's generated \
types refuse on decode alone (wire rules included, validator not). Computed by seq-io-looseness; do not edit.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(vectors) = args.first() else {
        eprintln!("usage: seq-io-looseness VECTORS_JSON [--check TABLE | --write TABLE]");
        return ExitCode::from(2);
    };
    let bundle = match std::fs::read(vectors).map_err(|e| e.to_string()).and_then(|bytes| {
        Reader { max_depth: VECTOR_FILE_DEPTH, wire_limits: false, ..Reader::default() }
            .read(&bytes)
            .map_err(|issues| issues.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
    }) {
        Ok(bundle) => bundle,
        Err(problem) => {
            eprintln!("seq-io-looseness: cannot read {vectors}: {problem}");
            return ExitCode::from(2);
        }
    };
    let text = table(&verdicts(&bundle));
    match (args.get(1).map(String::as_str), args.get(2)) {
        (None, _) => print!("{text}"),
        (Some("--write"), Some(path)) => {
            if let Err(error) = std::fs::write(path, &text) {
                eprintln!("seq-io-looseness: cannot write {path}: {error}");
                return ExitCode::from(2);
            }
        }
        (Some("--check"), Some(path)) => {
            if std::fs::read_to_string(path).ok().as_deref() != Some(text.as_str()) {
                eprintln!("seq-io-looseness: {path} is stale; the computed table is:\n{text}");
                return ExitCode::from(1);
            }
        }
        _ => {
            eprintln!("usage: seq-io-looseness VECTORS_JSON [--check TABLE | --write TABLE]");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
