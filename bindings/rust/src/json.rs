//! JSON text → `Json` (every number exact, members in order) → JSON text again.
//!
//! The reader applies the wire rules of spec/validation.md in one pass over the bytes, without recursion: UTF-8
//! and syntax (`wire.json-syntax`, path `$`, ends the read), the depth limit (`wire.too-deep`, path `$`, ends the
//! read), duplicate keys, non-finite numbers and over-long integers (collected at their own paths, the read goes
//! on). The writer writes a value back as it came: each number as its literal, members in order.
//!
//! Why our own reader: serde_json stops at 128 levels (the contract allows 200), cannot keep a number's literal
//! and value together without `arbitrary_precision`, keeps no duplicate keys to report, and fails a document
//! without a path. Reading into this exact type first keeps every rule in one place.

use crate::generated::limits::{MAX_INTEGER_DIGITS, MAX_JSON_DEPTH, MAX_STREAM_BYTES};
use crate::issue::{format_path, Issue, Segment};
use std::cmp::Ordering;
use std::collections::HashSet;
use std::fmt::Write as _;

/// The reader limit on a document's size (spec/validation.md "Reader limits": twice `MAX_STREAM_BYTES`).
pub const MAX_DOCUMENT_BYTES: usize = 2 * MAX_STREAM_BYTES as usize;

/// A JSON value whose numbers keep their exact value and literal, and whose objects keep member order.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// A number: the literal as written (what the writer writes) and its value under the spec's value model.
#[derive(Debug, Clone)]
pub struct Number {
    literal: Box<str>,
    value: NumberValue,
}

/// The value of a number: an exact integer whenever the value is whole, else a non-integral finite double.
#[derive(Debug, Clone, PartialEq)]
pub enum NumberValue {
    /// A whole number of any length: sign and decimal digits without leading zeros (`"0"` for zero).
    Integer { negative: bool, digits: Box<str> },
    /// A finite double with a fractional part (a non-finite literal is kept as infinity, and refused).
    Fraction(f64),
}

impl PartialEq for Number {
    /// Numbers are equal by value (`1` = `1.0` = `10e-1`), as JSON Schema and the contract compare them.
    fn eq(&self, other: &Self) -> bool {
        self.cmp_value(other) == Ordering::Equal
    }
}

impl Number {
    /// Reads one JSON number literal (the caller has checked the grammar); its value per spec/validation.md.
    fn from_checked_literal(literal: &str) -> Number {
        let value = literal_value(literal);
        Number { literal: literal.into(), value }
    }

    /// Parses a JSON number literal; `None` when the text is not one or is not finite as a double.
    pub fn parse(literal: &str) -> Option<Number> {
        let end = scan_number(literal.as_bytes(), 0).ok()?;
        if end != literal.len() || !is_finite_literal(literal) {
            return None;
        }
        Some(Number::from_checked_literal(literal))
    }

    /// An integer number.
    pub fn from_i64(value: i64) -> Number {
        Number::from_checked_literal(&value.to_string())
    }

    /// A finite double, written with a fraction or exponent (`640.0`, `0.5`, `1e300`) by Rust's shortest
    /// round-trip formatting; `None` for NaN or an infinity.
    pub fn from_f64(value: f64) -> Option<Number> {
        if !value.is_finite() {
            return None;
        }
        let text = match (value.fract() == 0.0, value.abs() < 1e17) {
            (true, true) => format!("{value:.1}"),
            (true, false) => format!("{value:e}"),
            (false, _) => format!("{value}"),
        };
        Number::parse(&text)
    }

    /// The literal as it was written (`640.0`, `1e-07`, `9007199254740993`).
    pub fn literal(&self) -> &str {
        &self.literal
    }

    /// The value under the contract's value model.
    pub fn value(&self) -> &NumberValue {
        &self.value
    }

    /// True when the literal has no fraction and no exponent (written as an integer).
    pub fn is_integer_literal(&self) -> bool {
        !self.literal.contains(['.', 'e', 'E'])
    }

    /// True when the value is a whole number (`640`, `640.0`, `6.4e2`), the JSON Schema `integer` type.
    pub fn is_integral(&self) -> bool {
        matches!(self.value, NumberValue::Integer { .. })
    }

    /// The value as an `i64` when it is whole and fits.
    pub fn as_i64(&self) -> Option<i64> {
        match &self.value {
            NumberValue::Integer { negative, digits } => {
                let magnitude: i128 = if digits.len() > 20 { return None } else { digits.parse().ok()? };
                i64::try_from(if *negative { -magnitude } else { magnitude }).ok()
            }
            NumberValue::Fraction(_) => None,
        }
    }

    /// The nearest double (exact for every whole number up to 2^53 and for every fraction).
    pub fn as_f64(&self) -> f64 {
        match &self.value {
            NumberValue::Integer { negative, digits } => {
                let magnitude: f64 = digits.parse().unwrap_or(f64::INFINITY);
                if *negative {
                    -magnitude
                } else {
                    magnitude
                }
            }
            NumberValue::Fraction(value) => *value,
        }
    }

    /// Exact comparison by value, whatever the literals' spelling and length.
    pub fn cmp_value(&self, other: &Number) -> Ordering {
        match (&self.value, &other.value) {
            (NumberValue::Fraction(a), NumberValue::Fraction(b)) => a.partial_cmp(b).unwrap_or(Ordering::Equal),
            (NumberValue::Integer { negative, digits }, NumberValue::Integer { negative: n2, digits: d2 }) => {
                compare_integers(*negative, digits, *n2, d2)
            }
            (NumberValue::Integer { negative, digits }, NumberValue::Fraction(f)) => {
                compare_integer_with_fraction(*negative, digits, *f)
            }
            (NumberValue::Fraction(f), NumberValue::Integer { negative, digits }) => {
                compare_integer_with_fraction(*negative, digits, *f).reverse()
            }
        }
    }

    /// The same value written as an integer literal (for members typed `integer`: `2.0` becomes `2`).
    pub fn to_integer_literal(&self) -> Option<Number> {
        match &self.value {
            NumberValue::Integer { negative, digits } => {
                let sign = if *negative { "-" } else { "" };
                Some(Number::from_checked_literal(&format!("{sign}{digits}")))
            }
            NumberValue::Fraction(_) => None,
        }
    }
}

fn compare_integers(neg_a: bool, a: &str, neg_b: bool, b: &str) -> Ordering {
    let magnitude = a.len().cmp(&b.len()).then_with(|| a.cmp(b));
    match (neg_a, neg_b) {
        (false, false) => magnitude,
        (true, true) => magnitude.reverse(),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
    }
}

/// A fraction's magnitude is below 2^52 (a larger double is whole), so an integer of 17 digits or more lies beyond
/// it, and a shorter one compares exactly with the fraction's floor.
fn compare_integer_with_fraction(negative: bool, digits: &str, fraction: f64) -> Ordering {
    if digits.len() > 16 {
        return if negative { Ordering::Less } else { Ordering::Greater };
    }
    let magnitude: i64 = digits.parse().unwrap_or(0);
    let integer = if negative { -magnitude } else { magnitude };
    if (integer as f64) <= fraction.floor() {
        Ordering::Less
    } else {
        Ordering::Greater
    }
}

/// A literal's value (spec/validation.md "Language-neutral decisions"): its exact decimal value when that is whole,
/// else the nearest double, which is itself kept as a whole number when rounding made it one.
fn literal_value(literal: &str) -> NumberValue {
    let negative = literal.starts_with('-');
    let unsigned = literal.trim_start_matches('-');
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], unsigned[at + 1..].parse::<i64>().unwrap_or(i64::MAX)),
        None => (unsigned, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = format!("{whole}{fraction}");
    let significant = all_digits.trim_start_matches('0');
    let trimmed = significant.trim_end_matches('0');
    if trimmed.is_empty() {
        return integer_value(false, "0");
    }
    let shift =
        exponent.saturating_sub(fraction.len() as i64).saturating_add((significant.len() - trimmed.len()) as i64);
    let double: f64 = literal.parse().unwrap_or(f64::INFINITY);
    if shift >= 0 && double.is_finite() {
        return integer_value(negative, &format!("{trimmed}{}", "0".repeat(shift as usize)));
    }
    if double.is_finite() && double.fract() == 0.0 {
        return integer_value(double < 0.0, format!("{:.0}", double.abs()).as_str());
    }
    NumberValue::Fraction(double)
}

fn integer_value(negative: bool, digits: &str) -> NumberValue {
    let digits = digits.trim_start_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    NumberValue::Integer { negative: negative && digits != "0", digits: digits.into() }
}

fn is_finite_literal(literal: &str) -> bool {
    literal.parse::<f64>().map(f64::is_finite).unwrap_or(false)
}

/// What one read gives: the value, or the wire refusals that keep the text from being one.
pub type ReadResult = Result<Json, Vec<Issue>>;

/// How a reader treats a lone surrogate escape (`\ud800`): the contract refuses it; a protocol message may carry
/// one inside a string (the vector's own text), which the testee then refuses itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surrogates {
    Refuse,
    /// Read as U+FFFD and remembered in [`Reader::saw_lone_surrogate`].
    Mark,
}

/// A reader's settings: the depth limit (enclosing containers), the surrogate policy, and whether the number
/// limits of the wire rules apply (`wire_limits: false` keeps every number as written, as a protocol message
/// needs: an integer of any length exactly, `1e400` as its literal with an infinite value, for the SDK to refuse).
#[derive(Debug, Clone, Copy)]
pub struct Reader {
    pub max_depth: usize,
    pub surrogates: Surrogates,
    pub saw_lone_surrogate: bool,
    pub wire_limits: bool,
}

impl Default for Reader {
    fn default() -> Self {
        Reader {
            max_depth: MAX_JSON_DEPTH as usize,
            surrogates: Surrogates::Refuse,
            saw_lone_surrogate: false,
            wire_limits: true,
        }
    }
}

/// Reads a contract document under every wire rule of spec/validation.md.
pub fn read(text: &[u8]) -> ReadResult {
    Reader::default().read(text)
}

fn syntax(message: impl Into<String>) -> Vec<Issue> {
    vec![Issue::new("$", "wire.json-syntax", message)]
}

enum Frame {
    Array(Vec<Json>),
    Object { members: Vec<(String, Json)>, keys: HashSet<String>, key: Option<String> },
}

struct Parse<'t> {
    text: &'t [u8],
    at: usize,
    stack: Vec<Frame>,
    refusals: Vec<Issue>,
}

impl Reader {
    /// Reads `text` as one JSON document under the wire rules.
    pub fn read(&mut self, text: &[u8]) -> ReadResult {
        if text.len() > MAX_DOCUMENT_BYTES {
            let message = format!("the document has more than {MAX_DOCUMENT_BYTES} bytes, this reader's limit");
            return Err(vec![Issue::new("$", "reader.too-large", message)]);
        }
        if std::str::from_utf8(text).is_err() {
            return Err(syntax("the text is not UTF-8 (a surrogate or a broken byte sequence)"));
        }
        let mut parse = Parse { text, at: 0, stack: Vec::new(), refusals: Vec::new() };
        let value = parse.document(self)?;
        if parse.refusals.is_empty() {
            Ok(value)
        } else {
            Err(parse.refusals)
        }
    }
}

impl Parse<'_> {
    fn document(&mut self, reader: &mut Reader) -> ReadResult {
        self.skip_space();
        let mut value = self.value_start(reader)?;
        loop {
            // `value` is complete: hand it to the enclosing container, or finish.
            let Some(frame) = self.stack.last_mut() else {
                self.skip_space();
                if self.at != self.text.len() {
                    return Err(syntax(format!("unexpected text after the value at byte {}", self.at)));
                }
                return Ok(value.expect("a complete value"));
            };
            if let Some(done) = value.take() {
                match frame {
                    Frame::Array(items) => items.push(done),
                    Frame::Object { members, key, .. } => members.push((key.take().unwrap_or_default(), done)),
                }
            }
            let in_array = matches!(frame, Frame::Array(_));
            self.skip_space();
            let closing = if in_array { b']' } else { b'}' };
            match self.peek() {
                Some(b',') => {
                    self.at += 1;
                    self.skip_space();
                    if !in_array {
                        self.member_key(reader)?;
                    }
                    value = self.value_start(reader)?;
                }
                Some(byte) if byte == closing => {
                    self.at += 1;
                    value = Some(match self.stack.pop() {
                        Some(Frame::Array(items)) => Json::Array(items),
                        Some(Frame::Object { members, .. }) => Json::Object(members),
                        None => unreachable!("a frame was open"),
                    });
                }
                _ => return Err(syntax(format!("expected ',' or '{}' at byte {}", closing as char, self.at))),
            }
        }
    }

    /// Reads up to the first complete value: containers opened on the way stay on the stack; the value returned is
    /// a scalar or an empty container. A loop, not recursion, so no text can exhaust the call stack.
    fn value_start(&mut self, reader: &mut Reader) -> Result<Option<Json>, Vec<Issue>> {
        loop {
            if self.stack.len() > reader.max_depth {
                let message = format!("a value is nested in more than {} arrays and objects", reader.max_depth);
                return Err(vec![Issue::new("$", "wire.too-deep", message)]);
            }
            let opening = self.peek();
            if !matches!(opening, Some(b'[' | b'{')) {
                return self.scalar(reader).map(Some);
            }
            self.at += 1;
            self.skip_space();
            let array = opening == Some(b'[');
            if self.peek() == Some(if array { b']' } else { b'}' }) {
                self.at += 1;
                return Ok(Some(if array { Json::Array(Vec::new()) } else { Json::Object(Vec::new()) }));
            }
            if array {
                self.stack.push(Frame::Array(Vec::new()));
            } else {
                self.stack.push(Frame::Object { members: Vec::new(), keys: HashSet::new(), key: None });
                self.member_key(reader)?;
            }
        }
    }

    fn scalar(&mut self, reader: &mut Reader) -> Result<Json, Vec<Issue>> {
        match self.peek() {
            Some(b'"') => Ok(Json::String(self.string(reader)?)),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'n') => self.word("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(reader),
            _ => Err(syntax(format!("expected a JSON value at byte {}", self.at))),
        }
    }

    /// Reads `"key":` into the open object frame, reporting a duplicate at the object's path.
    fn member_key(&mut self, reader: &mut Reader) -> Result<(), Vec<Issue>> {
        if self.peek() != Some(b'"') {
            return Err(syntax(format!("expected a member name at byte {}", self.at)));
        }
        let name = self.string(reader)?;
        self.skip_space();
        if self.peek() != Some(b':') {
            return Err(syntax(format!("expected ':' at byte {}", self.at)));
        }
        self.at += 1;
        self.skip_space();
        let duplicate = match self.stack.last_mut() {
            Some(Frame::Object { keys, key, .. }) => {
                let fresh = keys.insert(name.clone());
                *key = Some(name.clone());
                !fresh
            }
            _ => false,
        };
        if duplicate {
            let path = self.path_of_open_container();
            let message = format!("the key {} occurs twice in this object", crate::issue::quote(&name));
            self.refusals.push(Issue::new(&path, "wire.duplicate-key", message));
        }
        Ok(())
    }

    fn word(&mut self, word: &str, value: Json) -> Result<Json, Vec<Issue>> {
        if self.text[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(syntax(format!(
                "an unknown word at byte {}: only true, false and null are (NaN, Infinity are not)",
                self.at
            )))
        }
    }

    fn number(&mut self, reader: &Reader) -> Result<Json, Vec<Issue>> {
        let start = self.at;
        self.at = scan_number(self.text, start).map_err(|at| syntax(format!("a malformed number at byte {at}")))?;
        let literal = std::str::from_utf8(&self.text[start..self.at]).unwrap_or("0");
        let is_integer = !literal.contains(['.', 'e', 'E']);
        let digit_count = literal.trim_start_matches('-').len();
        let too_long = is_integer && digit_count > MAX_INTEGER_DIGITS as usize;
        if too_long && reader.wire_limits {
            let path = self.path_of_next_value();
            let message = format!("an integer of {digit_count} digits (at most {MAX_INTEGER_DIGITS} are read)");
            self.refusals.push(Issue::new(&path, "wire.integer-too-long", message));
        } else if (too_long || !is_finite_literal(literal)) && reader.wire_limits {
            let path = self.path_of_next_value();
            let shown = crate::issue::quote(literal);
            self.refusals.push(Issue::new(&path, "wire.non-finite-number", format!("{shown} is beyond every double")));
        } else if is_integer {
            let value = integer_value(literal.starts_with('-'), literal.trim_start_matches('-'));
            return Ok(Json::Number(Number { literal: literal.into(), value }));
        } else if !is_finite_literal(literal) {
            return Ok(Json::Number(Number { literal: literal.into(), value: NumberValue::Fraction(f64::INFINITY) }));
        } else {
            return Ok(Json::Number(Number::from_checked_literal(literal)));
        }
        // A refused number: the document is refused, so its value is never used.
        Ok(Json::Null)
    }

    fn string(&mut self, reader: &mut Reader) -> Result<String, Vec<Issue>> {
        self.at += 1; // the opening quote
        let mut out = String::new();
        loop {
            let start = self.at;
            while let Some(byte) = self.peek() {
                if byte == b'"' || byte == b'\\' || byte < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // The whole text is UTF-8 and the stop bytes are ASCII, so this slice is on char boundaries.
            out.push_str(std::str::from_utf8(&self.text[start..self.at]).unwrap_or_default());
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => self.escape(reader, &mut out)?,
                Some(_) => return Err(syntax(format!("a control character inside a string at byte {}", self.at))),
                None => return Err(syntax("the text ends inside a string")),
            }
        }
    }

    fn escape(&mut self, reader: &mut Reader, out: &mut String) -> Result<(), Vec<Issue>> {
        let simple = match self.text.get(self.at + 1) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => return self.unicode_escape(reader, out),
            _ => return Err(syntax(format!("an invalid escape at byte {}", self.at))),
        };
        out.push(simple);
        self.at += 2;
        Ok(())
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        let digits = std::str::from_utf8(self.text.get(at..at + 4)?).ok()?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(digits, 16).ok()
    }

    fn unicode_escape(&mut self, reader: &mut Reader, out: &mut String) -> Result<(), Vec<Issue>> {
        let bad = || syntax("an invalid \\u escape");
        let unit = self.hex4(self.at + 2).ok_or_else(bad)?;
        self.at += 6;
        let code = if (0xD800..0xDC00).contains(&unit) {
            let low = (self.text.get(self.at..self.at + 2) == Some(b"\\u"))
                .then(|| self.hex4(self.at + 2))
                .flatten()
                .filter(|low| (0xDC00..0xE000).contains(low));
            match low {
                Some(low) => {
                    self.at += 6;
                    0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                }
                None => self.lone_surrogate(reader)?,
            }
        } else if (0xDC00..0xE000).contains(&unit) {
            self.lone_surrogate(reader)?
        } else {
            unit
        };
        out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
        Ok(())
    }

    fn lone_surrogate(&mut self, reader: &mut Reader) -> Result<u32, Vec<Issue>> {
        match reader.surrogates {
            Surrogates::Refuse => Err(syntax("a lone surrogate escape: not a Unicode character (I-JSON)")),
            Surrogates::Mark => {
                reader.saw_lone_surrogate = true;
                Ok(0xFFFD)
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn segments(&self, upto: usize) -> Vec<Segment> {
        self.stack[..upto]
            .iter()
            .map(|frame| match frame {
                Frame::Array(items) => Segment::Index(items.len()),
                Frame::Object { key, .. } => Segment::Key(key.clone().unwrap_or_default()),
            })
            .collect()
    }

    /// The path of the value about to be read (inside every open container).
    fn path_of_next_value(&self) -> String {
        format_path(&self.segments(self.stack.len()))
    }

    /// The path of the innermost open container (the object whose key is being read).
    fn path_of_open_container(&self) -> String {
        format_path(&self.segments(self.stack.len().saturating_sub(1)))
    }
}

/// Checks the JSON number grammar from `start`; the end offset, or the offset of the first wrong byte.
fn scan_number(text: &[u8], start: usize) -> Result<usize, usize> {
    let mut at = start;
    let digits = |at: &mut usize| {
        let from = *at;
        while text.get(*at).is_some_and(u8::is_ascii_digit) {
            *at += 1;
        }
        *at > from
    };
    if text.get(at) == Some(&b'-') {
        at += 1;
    }
    match text.get(at) {
        Some(b'0') => at += 1,
        Some(b'1'..=b'9') => {
            digits(&mut at);
        }
        _ => return Err(at),
    }
    if text.get(at) == Some(&b'.') {
        at += 1;
        if !digits(&mut at) {
            return Err(at);
        }
    }
    if matches!(text.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(text.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        if !digits(&mut at) {
            return Err(at);
        }
    }
    Ok(at)
}

impl Json {
    /// Compact JSON text: numbers as their literals, members in order, non-ASCII as itself.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write_to(&mut out);
        out
    }

    fn write_to(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(value) => out.push_str(if *value { "true" } else { "false" }),
            Json::Number(number) => out.push_str(number.literal()),
            Json::String(text) => write_string(out, text),
            Json::Array(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    item.write_to(out);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                for (index, (key, value)) in members.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    write_string(out, key);
                    out.push(':');
                    value.write_to(out);
                }
                out.push('}');
            }
        }
    }

    /// The member `key` of an object (the first, were there several).
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(name, _)| name == key).map(|(_, value)| value),
            _ => None,
        }
    }

    /// The JSON type's name, as JSON Schema spells it (`integer` for a whole number).
    pub fn type_name(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "boolean",
            Json::Number(number) if number.is_integral() => "integer",
            Json::Number(_) => "number",
            Json::String(_) => "string",
            Json::Array(_) => "array",
            Json::Object(_) => "object",
        }
    }

    /// How many containers enclose the deepest value (0 for a scalar or an empty container), without recursion.
    pub fn depth(&self) -> usize {
        let mut deepest = 0;
        let mut pending = vec![(self, 0usize)];
        while let Some((value, enclosed)) = pending.pop() {
            deepest = deepest.max(enclosed);
            match value {
                Json::Array(items) => pending.extend(items.iter().map(|item| (item, enclosed + 1))),
                Json::Object(members) => pending.extend(members.iter().map(|(_, value)| (value, enclosed + 1))),
                _ => {}
            }
        }
        deepest
    }

    /// JSON equality: numbers by value, objects as unordered member sets, arrays in order.
    pub fn equals(&self, other: &Json) -> bool {
        match (self, other) {
            (Json::Object(a), Json::Object(b)) => {
                a.len() == b.len()
                    && a.iter().all(|(key, value)| other.get(key).is_some_and(|theirs| value.equals(theirs)))
            }
            (Json::Array(a), Json::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.equals(y)),
            _ => self == other,
        }
    }
}

/// Writes a string as JSON: `"` and `\` escaped, the short escapes, other controls as `\u00xx`.
pub fn write_string(out: &mut String, text: &str) {
    out.push('"');
    for character in text.chars() {
        match character {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
