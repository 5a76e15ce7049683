//! `validate(type, text)`: JSON text → wire rules (our reader) → JSON Schema 2020-12 (the `jsonschema` crate over
//! the embedded spec/schemas) → rules beyond the schema → normalization → the normalized value, or the refusals.
//!
//! The schema stage maps the engine's errors to spec/validation.md: the rule id is the nearest `x-rule` on the
//! error's evaluation path (which follows `$ref`s) or else the keyword; a failed `anyOf` is explained by the
//! branches that admit the instance's JSON type; a `propertyNames` failure by its inner keyword at the object;
//! then, per path, only the refusals of the lowest rank are kept. Why an engine and not our own checks: the
//! schemas are the contract's source of truth; a maintained 2020-12 engine reads them as they are.

use crate::codec::{Contract, TypeVisitor, Walk};
use crate::generated::schemas::SCHEMAS;
use crate::issue::{quote, Issue};
use crate::json::{read, Json, NumberValue};
use crate::types;
use jsonschema::error::ValidationErrorKind;
use jsonschema::{Registry, ValidationError, Validator};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The base every schema's `$id` lives under (spec/README.md).
const SCHEMA_BASE: &str = "https://seq-io-spec.example/schemas/";
/// At most this many refusals are reported (spec/validation.md "Reader limits").
const MAX_REFUSALS: usize = 100;

/// The normalized instance, or every refusal (path, rule id, sentence) of spec/validation.md.
pub type Validation = Result<Json, Vec<Issue>>;

/// True when `type_name` is a type of the contract (a schema of spec/schemas).
pub fn is_known_type(type_name: &str) -> bool {
    SCHEMAS.iter().any(|(name, _)| *name == type_name)
}

/// Validates JSON text as the type named `type_name` (a schema's title); an unknown type is refused as `type-name`.
pub fn validate(type_name: &str, text: &[u8]) -> Validation {
    validate_read(type_name, &read(text)?)
}

/// Validates a value built in memory exactly as its text would be (depth and duplicate keys included).
pub fn validate_value(type_name: &str, value: &Json) -> Validation {
    if let Some(refusals) = in_memory_wire_refusals(value) {
        return Err(refusals);
    }
    validate_read(type_name, value)
}

/// The stages after the wire rules, on a value that obeys them.
fn validate_read(type_name: &str, value: &Json) -> Validation {
    let Some(validator) = validators().get(type_name) else {
        return Err(vec![Issue::new("$", "type-name", format!("{} is not a type of the contract", quote(type_name)))]);
    };
    let schema_refusals = schema_refusals(validator, type_name, value);
    if !schema_refusals.is_empty() {
        return Err(schema_refusals);
    }
    typed_stage(type_name, value)
}

fn in_memory_wire_refusals(value: &Json) -> Option<Vec<Issue>> {
    let limit = crate::generated::limits::MAX_JSON_DEPTH as usize;
    if value.depth() > limit {
        return Some(vec![Issue::new(
            "$",
            "wire.too-deep",
            format!("a value is nested in more than {limit} containers"),
        )]);
    }
    // A value made by this crate's reader has no duplicate keys; one built by hand is re-read from its text.
    read(value.to_text().as_bytes()).err()
}

fn registry() -> &'static Registry<'static> {
    static REGISTRY: OnceLock<Registry<'static>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let documents = SCHEMAS.iter().map(|(name, text)| (format!("{SCHEMA_BASE}{name}.json"), schema_json(text)));
        let resources: Vec<(String, jsonschema::Resource)> =
            documents.map(|(uri, document)| (uri, jsonschema::Draft::Draft202012.create_resource(document))).collect();
        Registry::new().extend(resources).and_then(|builder| builder.prepare()).expect("the embedded schemas load")
    })
}

fn schema_json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("an embedded schema is JSON")
}

fn schema_documents() -> &'static HashMap<&'static str, serde_json::Value> {
    static DOCUMENTS: OnceLock<HashMap<&'static str, serde_json::Value>> = OnceLock::new();
    DOCUMENTS.get_or_init(|| SCHEMAS.iter().map(|(name, text)| (*name, schema_json(text))).collect())
}

fn validators() -> &'static HashMap<&'static str, Validator> {
    static VALIDATORS: OnceLock<HashMap<&'static str, Validator>> = OnceLock::new();
    VALIDATORS.get_or_init(|| {
        schema_documents()
            .iter()
            .map(|(name, document)| {
                let validator = jsonschema::options()
                    .with_draft(jsonschema::Draft::Draft202012)
                    .with_registry(registry())
                    .should_validate_formats(false)
                    .build(document)
                    .expect("an embedded schema compiles");
                (*name, validator)
            })
            .collect()
    })
}

/// Our exact value → serde_json's: whole numbers as `i64`/`u64` when they fit (bounds at ±(2^53 − 1) stay exact),
/// else the nearest double, which is beyond every bound of the schemas anyway.
pub fn to_serde(value: &Json) -> serde_json::Value {
    match value {
        Json::Null => serde_json::Value::Null,
        Json::Bool(flag) => serde_json::Value::Bool(*flag),
        Json::Number(number) => {
            if let Some(integer) = number.as_i64() {
                return serde_json::Value::from(integer);
            }
            match number.value() {
                NumberValue::Integer { negative: false, digits } if digits.parse::<u64>().is_ok() => {
                    serde_json::Value::from(digits.parse::<u64>().unwrap_or_default())
                }
                _ => serde_json::Number::from_f64(number.as_f64())
                    .map_or(serde_json::Value::Null, serde_json::Value::Number),
            }
        }
        Json::String(text) => serde_json::Value::String(text.clone()),
        Json::Array(items) => serde_json::Value::Array(items.iter().map(to_serde).collect()),
        Json::Object(members) => {
            serde_json::Value::Object(members.iter().map(|(key, value)| (key.clone(), to_serde(value))).collect())
        }
    }
}

/// One schema refusal before the rank filter: its keyword decides its rank.
struct Found {
    issue: Issue,
    keyword: String,
}

fn rank(keyword: &str) -> u8 {
    match keyword {
        "type" => 1,
        "required" => 2,
        "additionalProperties" => 3,
        _ => 4,
    }
}

fn schema_refusals(validator: &Validator, type_name: &str, value: &Json) -> Vec<Issue> {
    let instance = to_serde(value);
    let mut found = Vec::new();
    for error in validator.iter_errors(&instance) {
        explain(&error, type_name, value, &mut found);
    }
    lowest_rank_per_path(found)
}

/// Turns one engine error into the refusals it stands for (spec/validation.md "Rule ids" and "`anyOf`").
fn explain(error: &ValidationError<'_>, type_name: &str, value: &Json, found: &mut Vec<Found>) {
    match error.kind() {
        ValidationErrorKind::AnyOf { context } => {
            let root = error.evaluation_path().as_str().to_owned();
            let wrong_type_at_root = |index: usize, sub: &ValidationError<'_>| {
                let prefix = format!("{root}/{index}");
                let rest = sub.evaluation_path().as_str().strip_prefix(prefix.as_str()).unwrap_or("");
                matches!(sub.kind(), ValidationErrorKind::Type { .. })
                    && sub.instance_path().as_str() == error.instance_path().as_str()
                    && (rest == "/type" || rest == "/$ref/type")
            };
            let admitting: Vec<usize> = (0..context.len())
                .filter(|index| !context[*index].iter().any(|sub| wrong_type_at_root(*index, sub)))
                .collect();
            if admitting.is_empty() {
                let first = context
                    .iter()
                    .enumerate()
                    .find_map(|(index, errors)| errors.iter().find(|sub| wrong_type_at_root(index, sub)));
                if let Some(sub) = first {
                    found.push(leaf(sub, type_name, value, false));
                }
                return;
            }
            for index in admitting {
                for sub in &context[index] {
                    explain(sub, type_name, value, found);
                }
            }
        }
        ValidationErrorKind::PropertyNames { error: inner } => {
            let mut issue = leaf(inner, type_name, value, true).issue;
            issue.path = instance_path(error.instance_path().as_str(), value);
            let keyword = inner.kind().keyword().to_owned();
            found.push(Found { issue, keyword });
        }
        _ => found.push(leaf(error, type_name, value, false)),
    }
}

/// A refusal from a failing keyword: its path, its rule id (nearest `x-rule` on the way, else the keyword). The
/// engine gives an error inside `propertyNames` its full evaluation path, so the walk passes through `propertyNames`.
fn leaf(error: &ValidationError<'_>, type_name: &str, value: &Json, for_a_key: bool) -> Found {
    let keyword = error.kind().keyword().to_owned();
    let rule = rule_along(type_name, error.evaluation_path().as_str()).unwrap_or_else(|| keyword.clone());
    let path = instance_path(error.instance_path().as_str(), value);
    let message = sentence(error, for_a_key);
    Found { issue: Issue::new(&path, &rule, message), keyword }
}

fn pointer_tokens(pointer: &str) -> impl Iterator<Item = String> + '_ {
    pointer.split('/').skip(1).map(|token| token.replace("~1", "/").replace("~0", "~"))
}

/// Follows an evaluation path from the type's root schema (jumping to a file's root at each `$ref`) and returns
/// the nearest `x-rule` annotation met on the way to the keyword.
fn rule_along(type_name: &str, evaluation_path: &str) -> Option<String> {
    let documents = schema_documents();
    let mut node = documents.get(type_name)?;
    let mut rule = None;
    for token in pointer_tokens(evaluation_path) {
        if let Some(found) = node.get("x-rule").and_then(serde_json::Value::as_str) {
            rule = Some(found.to_owned());
        }
        let next = if token == "$ref" {
            let target = node.get("$ref").and_then(serde_json::Value::as_str)?;
            documents.get(target.trim_end_matches(".json"))
        } else {
            match node {
                serde_json::Value::Array(items) => token.parse::<usize>().ok().and_then(|index| items.get(index)),
                other => other.get(&token),
            }
        };
        match next {
            Some(next) => node = next,
            None => break,
        }
    }
    rule
}

/// A JSON pointer into the instance → the spec's path (the instance tells an index from a member name).
fn instance_path(pointer: &str, value: &Json) -> String {
    let mut path = String::from("$");
    let mut node = Some(value);
    for token in pointer_tokens(pointer) {
        let segment = match (node, token.parse::<usize>()) {
            (Some(Json::Array(items)), Ok(index)) => {
                node = items.get(index);
                crate::issue::Segment::Index(index)
            }
            (current, _) => {
                node = current.and_then(|json| json.get(&token));
                crate::issue::Segment::Key(token)
            }
        };
        crate::issue::push_segment(&mut path, &segment);
    }
    path
}

fn sentence(error: &ValidationError<'_>, for_a_key: bool) -> String {
    let shown = quote(&error.instance().to_string());
    let text = match error.kind() {
        ValidationErrorKind::Type { .. } => format!("{shown} is of the wrong JSON type"),
        ValidationErrorKind::Required { property } => {
            format!("{} is required but missing", quote(&property.to_string()))
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let named: Vec<String> = unexpected.iter().take(5).map(|key| quote(key)).collect();
            let more = unexpected.len().saturating_sub(5);
            let tail = if more > 0 { format!(" and {more} more") } else { String::new() };
            format!("unknown key(s) {}{tail}: this object is closed", named.join(", "))
        }
        ValidationErrorKind::Enum { .. } => format!("{shown} is not one of the allowed values"),
        ValidationErrorKind::Minimum { limit } => format!("must be at least {limit}; got {shown}"),
        ValidationErrorKind::Maximum { limit } => format!("must be at most {limit}; got {shown}"),
        ValidationErrorKind::ExclusiveMinimum { limit } => format!("must be greater than {limit}; got {shown}"),
        ValidationErrorKind::ExclusiveMaximum { limit } => format!("must be less than {limit}; got {shown}"),
        ValidationErrorKind::MinLength { limit } => format!("must be at least {limit} character(s) long"),
        ValidationErrorKind::MaxLength { limit } => format!("must be at most {limit} character(s) long"),
        ValidationErrorKind::MinItems { limit } => format!("must hold at least {limit} item(s)"),
        ValidationErrorKind::MaxItems { limit } => format!("must hold at most {limit} item(s)"),
        ValidationErrorKind::MaxProperties { limit } => format!("must have at most {limit} key(s)"),
        ValidationErrorKind::UniqueItems => "must not hold two equal items (numbers compare by value)".to_owned(),
        ValidationErrorKind::Pattern { .. } => format!("{shown} does not have the required form"),
        ValidationErrorKind::Not { .. } => format!("{shown} is a form this field forbids"),
        other => format!("{shown} breaks `{}`", other.keyword()),
    };
    if for_a_key {
        format!("the key {shown} is refused: {text}")
    } else {
        text
    }
}

fn lowest_rank_per_path(found: Vec<Found>) -> Vec<Issue> {
    let mut lowest: HashMap<String, u8> = HashMap::new();
    for entry in &found {
        let rank = rank(&entry.keyword);
        lowest.entry(entry.issue.path.clone()).and_modify(|r| *r = (*r).min(rank)).or_insert(rank);
    }
    let mut kept: Vec<Issue> =
        found.into_iter().filter(|entry| lowest[&entry.issue.path] == rank(&entry.keyword)).map(|e| e.issue).collect();
    kept.sort();
    kept.dedup_by(|a, b| a.path == b.path && a.rule == b.rule);
    kept.truncate(MAX_REFUSALS);
    kept
}

/// The typed stage on a schema-valid instance: decode into the generated type, check the rules beyond the schema
/// on every node, normalize, encode.
fn typed_stage(type_name: &str, value: &Json) -> Validation {
    struct TypedStage<'v>(&'v Json);
    impl TypeVisitor for TypedStage<'_> {
        type Output = Validation;
        fn visit<T: Contract + Walk>(self) -> Validation {
            let mut typed = T::from_json(self.0, "$").map_err(|issue| vec![issue])?;
            let mut refusals = Vec::new();
            typed.walk("$", &mut |node, path| crate::beyond::check(node, path, &mut refusals));
            if !refusals.is_empty() {
                refusals.sort();
                refusals.truncate(MAX_REFUSALS);
                return Err(refusals);
            }
            typed.walk_mut(&mut crate::beyond::normalize);
            Ok(typed.to_json())
        }
    }
    types::with_type(type_name, TypedStage(value)).unwrap_or_else(|| Ok(value.clone()))
}
