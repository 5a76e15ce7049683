//! A refusal (path, rule id, sentence) and the path notation of spec/validation.md: segments → `$.a["b c"][0]`.
//!
//! One place for the notation, so the reader, the generated types' decoders and the validator all write paths
//! the same way, and conformance vectors (which compare path and rule id) match every one of them.

use std::fmt;

/// One refusal: where (a path in the spec's notation), which rule (its id), and a sentence for a person.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Issue {
    pub path: String,
    pub rule: String,
    pub message: String,
}

impl Issue {
    /// An issue from its three parts.
    pub fn new(path: &str, rule: &str, message: impl Into<String>) -> Issue {
        Issue { path: path.to_owned(), rule: rule.to_owned(), message: message.into() }
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} [{}]", self.path, self.message, self.rule)
    }
}

/// One step of a path: a member name or an array index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Key(String),
    Index(usize),
}

/// Segments → the spec's path: `.name` for a name matching `[A-Za-z_][A-Za-z0-9_]*`, else `["name"]` written as a
/// JSON string; `[i]` for an index.
pub fn format_path(segments: &[Segment]) -> String {
    let mut out = String::from("$");
    for segment in segments {
        push_segment(&mut out, segment);
    }
    out
}

/// Appends one segment to a path already written.
pub fn push_segment(out: &mut String, segment: &Segment) {
    match segment {
        Segment::Index(index) => {
            out.push('[');
            out.push_str(&index.to_string());
            out.push(']');
        }
        Segment::Key(name) if is_plain_name(name) => {
            out.push('.');
            out.push_str(name);
        }
        Segment::Key(name) => {
            out.push('[');
            crate::json::write_string(out, name);
            out.push(']');
        }
    }
}

fn is_plain_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

const QUOTE_CHARS: usize = 60;

/// A value or key quoted in a sentence, cut to 60 characters (57 and `...`, spec/validation.md "Reader limits").
pub fn quote(text: &str) -> String {
    let shown: String = if text.chars().count() > QUOTE_CHARS {
        text.chars().take(QUOTE_CHARS - 3).chain("...".chars()).collect()
    } else {
        text.to_owned()
    };
    let mut out = String::new();
    crate::json::write_string(&mut out, &shown);
    out
}
