//! The rules beyond the schema and the normalizations of spec/validation.md, on typed nodes: (node, path) →
//! refusals, and node → node rewritten in place.
//!
//! Each runs on one node of a schema-valid instance, reached by the generated `Walk` wherever it is nested, so a
//! rule reads typed members (never re-checking what the schema did) and numbers compare exactly by value.

use crate::codec::{child, Field};
use crate::generated::identifiers::{XID_CONTINUE, XID_START};
use crate::issue::{push_segment, quote, Issue, Segment};
use crate::json::Number;
use crate::types::{
    ActionContract, DeploymentPolicy, Episodes, InferParam, Lease, Node, NodeMut, NumberOrBoolOrString,
    NumberOrNumberList, Stream,
};
use std::cmp::Ordering;

/// Every rule beyond the schema that applies to `node` (at `path`), appended to `refusals`.
pub fn check(node: Node<'_>, path: &str, refusals: &mut Vec<Issue>) {
    match node {
        Node::DeploymentPolicy(policy) => param_names(policy, path, refusals),
        Node::ActionContract(contract) => bounds(contract, path, refusals),
        Node::InferParam(param) => infer_param(param, path, refusals),
        Node::Lease(lease) => lease_date(lease, path, refusals),
        _ => {}
    }
}

/// The normalizations: `Stream.sort-at` and `DeploymentPolicy.fold-streaming`.
pub fn normalize(node: NodeMut<'_>) {
    match node {
        NodeMut::Stream(stream) => sort_at(stream),
        NodeMut::DeploymentPolicy(policy) => fold_streaming(policy),
        _ => {}
    }
}

fn sort_at(stream: &mut Stream) {
    if let Some(at) = stream.at.value_mut() {
        at.sort_by(Number::cmp_value);
    }
}

fn fold_streaming(policy: &mut DeploymentPolicy) {
    if policy.streaming.take() == Some(true) {
        policy.episodes = Field::Value(Episodes::Own);
    }
}

fn has(ranges: &[(u32, u32)], character: char) -> bool {
    let code = character as u32;
    let index = ranges.partition_point(|(first, _)| *first <= code);
    index > 0 && code <= ranges[index - 1].1
}

/// `DeploymentPolicy.param-name`: an identifier of Unicode 14.0.0 whose first code point is XID_Start (so not `_`).
pub fn is_param_name(name: &str) -> bool {
    let mut characters = name.chars();
    characters.next().is_some_and(|first| has(&XID_START, first)) && characters.all(|c| has(&XID_CONTINUE, c))
}

fn param_names(policy: &DeploymentPolicy, path: &str, refusals: &mut Vec<Issue>) {
    let Some(params) = policy.params.value() else { return };
    for (name, _) in params.iter().filter(|(name, _)| !is_param_name(name)) {
        let message =
            format!("the parameter name {} is not an identifier (Unicode 14) or starts with '_'", quote(name));
        refusals.push(Issue::new(&child(path, "params"), "DeploymentPolicy.param-name", message));
    }
}

fn bounds(contract: &ActionContract, path: &str, refusals: &mut Vec<Issue>) {
    let dim = contract.action_dim;
    if let Some(pairs) = contract.bounds.value() {
        let bounds_path = child(path, "bounds");
        if pairs.len() as i64 != dim {
            let message = format!("bounds holds {} [low, high] pair(s) but action_dim is {dim}", pairs.len());
            refusals.push(Issue::new(&bounds_path, "ActionContract.bounds-count", message));
        } else {
            for (index, (low, high)) in pairs.iter().enumerate() {
                if low.cmp_value(high) == Ordering::Greater {
                    let mut pair_path = bounds_path.clone();
                    push_segment(&mut pair_path, &Segment::Index(index));
                    let message = format!("the pair [{}, {}] has low above high", low.literal(), high.literal());
                    refusals.push(Issue::new(&pair_path, "ActionContract.bounds-order", message));
                }
            }
        }
    }
    if let Some(NumberOrNumberList::NumberList(values)) = contract.max_delta.value() {
        if values.len() as i64 != dim {
            let message =
                format!("max_delta lists {} value(s) but action_dim is {dim} (or give one number)", values.len());
            refusals.push(Issue::new(&child(path, "max_delta"), "ActionContract.max-delta-count", message));
        }
    }
}

/// JSON equality of two scalars: numbers by value, anything else only equal to the same JSON type's equal value.
fn same_scalar(a: &NumberOrBoolOrString, b: &NumberOrBoolOrString) -> bool {
    match (a, b) {
        (NumberOrBoolOrString::Number(x), NumberOrBoolOrString::Number(y)) => x.cmp_value(y) == Ordering::Equal,
        _ => a == b,
    }
}

fn infer_param(param: &InferParam, path: &str, refusals: &mut Vec<Issue>) {
    let (low, high) = (param.min.value(), param.max.value());
    if let (Some(low), Some(high)) = (low, high) {
        if low.cmp_value(high) == Ordering::Greater {
            let message = format!("min ({}) is above max ({})", low.literal(), high.literal());
            refusals.push(Issue::new(path, "InferParam.min-not-above-max", message));
        }
    }
    let Some(default) = param.default.value() else { return };
    let default_path = child(path, "default");
    let refuse = |message: String, refusals: &mut Vec<Issue>| {
        refusals.push(Issue::new(&default_path, "InferParam.default-allowed", message));
    };
    if let Some(choices) = param.choices.value() {
        if !choices.iter().any(|choice| same_scalar(default, choice)) {
            refuse("the default is not one of the choices (JSON equality: true is not 1, 1 is 1.0)".into(), refusals);
            return;
        }
    }
    if low.is_none() && high.is_none() {
        return;
    }
    let NumberOrBoolOrString::Number(number) = default else {
        refuse("the default is not a number, so it cannot lie within min and max".into(), refusals);
        return;
    };
    let below = low.is_some_and(|low| number.cmp_value(low) == Ordering::Less);
    let above = high.is_some_and(|high| number.cmp_value(high) == Ordering::Greater);
    if below || above {
        refuse(format!("the default {} lies outside min and max", number.literal()), refusals);
    }
}

fn lease_date(lease: &Lease, path: &str, refusals: &mut Vec<Issue>) {
    let date = lease.expires_at.get(..10).unwrap_or_default();
    let mut parts = date.split('-').map(|part| part.parse::<u32>().unwrap_or(0));
    let (year, month, day) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    if !day_exists(year, month, day) {
        let message = format!("{} is not a day of the calendar", quote(date));
        refusals.push(Issue::new(&child(path, "expires_at"), "Lease.expires-at-real-date", message));
    }
}

/// Proleptic Gregorian, year 0000 a leap year; the schema's pattern already keeps month 1–12 and day 1–31.
pub fn day_exists(year: u32, month: u32, day: u32) -> bool {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let last = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    (1..=last).contains(&day)
}
