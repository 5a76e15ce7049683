//! Json ⇄ typed values: the building blocks the generated types (src/generated/types.rs) decode and encode with.
//!
//! A member is one of four shapes (spec/validation.md "Writing an instance"): required (`T`), required and nullable
//! (`Option<T>`, `None` = `null`), optional (`Option<T>`, `None` = absent; an explicit `null` is refused, as the
//! schema refuses it), optional and nullable (`Field<T>`: absent, `null` or a value, each written back as it
//! came). Decoding refuses what a type can see alone (JSON type, a missing required member, an unknown member of a
//! closed object, a value outside an enum) with the path and rule id the validator would give; everything else
//! (bounds, patterns, cross-field rules) is the validator's.

use crate::issue::{push_segment, quote, Issue, Segment};
use crate::json::{Json, Number};

/// Decoding from the exact JSON value at `path` (a path in the spec's notation, for refusals).
pub trait FromJson: Sized {
    fn from_json(value: &Json, path: &str) -> Result<Self, Issue>;
}

/// Encoding back to the exact JSON value.
pub trait ToJson {
    fn to_json(&self) -> Json;
}

/// A visit of every node of a named object type inside a value (the validator's rules beyond the schema and its
/// normalizations are written against these nodes).
pub trait Walk {
    fn walk<'a>(&'a self, _path: &str, _visit: &mut dyn FnMut(crate::types::Node<'a>, &str)) {}
    fn walk_mut(&mut self, _visit: &mut dyn FnMut(crate::types::NodeMut<'_>)) {}
}

/// A type of the contract: decode its text, encode it back.
pub trait Contract: FromJson + ToJson {
    /// The type's name (its schema's title).
    const NAME: &'static str;

    /// JSON text → the type: the wire rules first (the reader), then what the type itself checks.
    fn decode(text: &str) -> Result<Self, Vec<Issue>> {
        let value = crate::json::read(text.as_bytes())?;
        Self::from_json(&value, "$").map_err(|issue| vec![issue])
    }

    /// The type → compact JSON text, members absent stay absent, `null` stays `null`, numbers as they came.
    fn encode(&self) -> String {
        self.to_json().to_text()
    }
}

/// Something done with one contract type chosen by name at run time ([`crate::types::with_type`]).
pub trait TypeVisitor {
    type Output;
    fn visit<T: Contract + Walk>(self) -> Self::Output;
}

/// Decodes `value` as the type named `type_name` and writes it back; `None` for an unknown name.
pub fn round_trip(type_name: &str, value: &Json) -> Option<Result<Json, Issue>> {
    struct RoundTrip<'v>(&'v Json);
    impl TypeVisitor for RoundTrip<'_> {
        type Output = Result<Json, Issue>;
        fn visit<T: Contract + Walk>(self) -> Self::Output {
            T::from_json(self.0, "$").map(|typed| typed.to_json())
        }
    }
    crate::types::with_type(type_name, RoundTrip(value))
}

/// An optional, nullable member: absent, `null`, or a value; each is written back as it came.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Field<T> {
    #[default]
    Absent,
    Null,
    Value(T),
}

impl<T> Field<T> {
    /// The value when there is one (absent and `null` mean the same to a reader: no value).
    pub fn value(&self) -> Option<&T> {
        match self {
            Field::Value(value) => Some(value),
            _ => None,
        }
    }

    /// The value, mutably, when there is one.
    pub fn value_mut(&mut self) -> Option<&mut T> {
        match self {
            Field::Value(value) => Some(value),
            _ => None,
        }
    }
}

/// A JSON object with free member names, in the order they came.
#[derive(Debug, Clone, PartialEq)]
pub struct Map<T>(pub Vec<(String, T)>);

impl<T> Default for Map<T> {
    fn default() -> Self {
        Map(Vec::new())
    }
}

impl<T> Map<T> {
    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&T> {
        self.0.iter().find(|(name, _)| name == key).map(|(_, value)| value)
    }

    /// The members in order.
    pub fn iter(&self) -> impl Iterator<Item = &(String, T)> {
        self.0.iter()
    }

    /// How many members.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True without members.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The path of a member of the object at `path`.
pub fn child(path: &str, key: &str) -> String {
    let mut out = path.to_owned();
    push_segment(&mut out, &Segment::Key(key.to_owned()));
    out
}

fn item(path: &str, index: usize) -> String {
    let mut out = path.to_owned();
    push_segment(&mut out, &Segment::Index(index));
    out
}

/// A `type` refusal naming what came instead.
pub fn wrong_type(value: &Json, path: &str) -> Issue {
    Issue::new(path, "type", format!("the value is of the wrong JSON type ({})", value.type_name()))
}

/// An `enum` refusal.
pub fn not_in_enum(value: &Json, path: &str) -> Issue {
    Issue::new(path, "enum", format!("{} is not one of the allowed values", quote(&value.to_text())))
}

/// The members of an object, or a `type` refusal.
pub fn object_members<'v>(value: &'v Json, path: &str) -> Result<&'v [(String, Json)], Issue> {
    match value {
        Json::Object(members) => Ok(members),
        other => Err(wrong_type(other, path)),
    }
}

/// The text of a string, or a `type` refusal.
pub fn string_value<'v>(value: &'v Json, path: &str) -> Result<&'v str, Issue> {
    match value {
        Json::String(text) => Ok(text),
        other => Err(wrong_type(other, path)),
    }
}

/// Refuses a member a closed object does not declare (`additionalProperties`, at the object).
pub fn refuse_unknown(members: &[(String, Json)], known: &[&str], path: &str) -> Result<(), Issue> {
    match members.iter().find(|(name, _)| !known.contains(&name.as_str())) {
        Some((name, _)) => {
            Err(Issue::new(path, "additionalProperties", format!("unknown key {}: this object is closed", quote(name))))
        }
        None => Ok(()),
    }
}

fn member<'v>(members: &'v [(String, Json)], key: &str) -> Option<&'v Json> {
    members.iter().find(|(name, _)| name == key).map(|(_, value)| value)
}

fn missing(key: &str, path: &str) -> Issue {
    Issue::new(path, "required", format!("{} is required but missing", quote(key)))
}

/// A required member.
pub fn required<T: FromJson>(members: &[(String, Json)], key: &str, path: &str) -> Result<T, Issue> {
    let value = member(members, key).ok_or_else(|| missing(key, path))?;
    T::from_json(value, &child(path, key))
}

/// A required member that may be `null` (`None`).
pub fn required_nullable<T: FromJson>(members: &[(String, Json)], key: &str, path: &str) -> Result<Option<T>, Issue> {
    match member(members, key).ok_or_else(|| missing(key, path))? {
        Json::Null => Ok(None),
        value => T::from_json(value, &child(path, key)).map(Some),
    }
}

/// An optional member that is not nullable: absent is `None`, `null` is refused (`type`).
pub fn optional<T: FromJson>(members: &[(String, Json)], key: &str, path: &str) -> Result<Option<T>, Issue> {
    member(members, key).map(|value| T::from_json(value, &child(path, key))).transpose()
}

/// An optional, nullable member.
pub fn optional_nullable<T: FromJson>(members: &[(String, Json)], key: &str, path: &str) -> Result<Field<T>, Issue> {
    Ok(match member(members, key) {
        None => Field::Absent,
        Some(Json::Null) => Field::Null,
        Some(value) => Field::Value(T::from_json(value, &child(path, key))?),
    })
}

/// Writes a required member.
pub fn put_required<T: ToJson>(members: &mut Vec<(String, Json)>, key: &str, value: &T) {
    members.push((key.to_owned(), value.to_json()));
}

/// Writes a required, nullable member (`None` as `null`).
pub fn put_required_nullable<T: ToJson>(members: &mut Vec<(String, Json)>, key: &str, value: &Option<T>) {
    members.push((key.to_owned(), value.as_ref().map_or(Json::Null, ToJson::to_json)));
}

/// Writes an optional member when present.
pub fn put_optional<T: ToJson>(members: &mut Vec<(String, Json)>, key: &str, value: &Option<T>) {
    if let Some(value) = value {
        members.push((key.to_owned(), value.to_json()));
    }
}

/// Writes an optional, nullable member as it came: nothing, `null`, or the value.
pub fn put_optional_nullable<T: ToJson>(members: &mut Vec<(String, Json)>, key: &str, value: &Field<T>) {
    match value {
        Field::Absent => {}
        Field::Null => members.push((key.to_owned(), Json::Null)),
        Field::Value(value) => members.push((key.to_owned(), value.to_json())),
    }
}

impl FromJson for Json {
    fn from_json(value: &Json, _path: &str) -> Result<Self, Issue> {
        Ok(value.clone())
    }
}

impl ToJson for Json {
    fn to_json(&self) -> Json {
        self.clone()
    }
}

impl FromJson for bool {
    fn from_json(value: &Json, path: &str) -> Result<Self, Issue> {
        match value {
            Json::Bool(flag) => Ok(*flag),
            other => Err(wrong_type(other, path)),
        }
    }
}

impl ToJson for bool {
    fn to_json(&self) -> Json {
        Json::Bool(*self)
    }
}

impl FromJson for String {
    fn from_json(value: &Json, path: &str) -> Result<Self, Issue> {
        string_value(value, path).map(str::to_owned)
    }
}

impl ToJson for String {
    fn to_json(&self) -> Json {
        Json::String(self.clone())
    }
}

/// A member typed `number`: any number, kept exactly as it came (value and literal).
impl FromJson for Number {
    fn from_json(value: &Json, path: &str) -> Result<Self, Issue> {
        match value {
            Json::Number(number) => Ok(number.clone()),
            other => Err(wrong_type(other, path)),
        }
    }
}

impl ToJson for Number {
    fn to_json(&self) -> Json {
        Json::Number(self.clone())
    }
}

/// A member typed `integer`: any whole number (`640.0` included) that fits an `i64`; written as an integer. A
/// whole number beyond `i64` is refused by the bound it breaks (the schemas bound every integer at ±(2^53 − 1)).
impl FromJson for i64 {
    fn from_json(value: &Json, path: &str) -> Result<Self, Issue> {
        let Json::Number(number) = value else { return Err(wrong_type(value, path)) };
        if !number.is_integral() {
            return Err(Issue::new(path, "type", format!("{} is not a whole number", quote(number.literal()))));
        }
        number.as_i64().ok_or_else(|| {
            let rule = if number.as_f64() < 0.0 { "minimum" } else { "maximum" };
            Issue::new(path, rule, format!("{} is beyond what this type holds", quote(number.literal())))
        })
    }
}

impl ToJson for i64 {
    fn to_json(&self) -> Json {
        Json::Number(Number::from_i64(*self))
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(value: &Json, path: &str) -> Result<Self, Issue> {
        let Json::Array(items) = value else { return Err(wrong_type(value, path)) };
        items.iter().enumerate().map(|(index, entry)| T::from_json(entry, &item(path, index))).collect()
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn to_json(&self) -> Json {
        Json::Array(self.iter().map(ToJson::to_json).collect())
    }
}

impl<T: FromJson> FromJson for Map<T> {
    fn from_json(value: &Json, path: &str) -> Result<Self, Issue> {
        let members = object_members(value, path)?;
        let typed = members.iter().map(|(key, entry)| Ok((key.clone(), T::from_json(entry, &child(path, key))?)));
        typed.collect::<Result<Vec<_>, Issue>>().map(Map)
    }
}

impl<T: ToJson> ToJson for Map<T> {
    fn to_json(&self) -> Json {
        Json::Object(self.0.iter().map(|(key, value)| (key.clone(), value.to_json())).collect())
    }
}

/// A fixed pair (`prefixItems` of two, as a `bounds` pair): exactly two items.
impl<A: FromJson, B: FromJson> FromJson for (A, B) {
    fn from_json(value: &Json, path: &str) -> Result<Self, Issue> {
        match value {
            Json::Array(items) if items.len() == 2 => {
                Ok((A::from_json(&items[0], &item(path, 0))?, B::from_json(&items[1], &item(path, 1))?))
            }
            Json::Array(items) => {
                let rule = if items.len() < 2 { "minItems" } else { "maxItems" };
                Err(Issue::new(path, rule, format!("a pair must hold 2 items; it holds {}", items.len())))
            }
            other => Err(wrong_type(other, path)),
        }
    }
}

impl<A: ToJson, B: ToJson> ToJson for (A, B) {
    fn to_json(&self) -> Json {
        Json::Array(vec![self.0.to_json(), self.1.to_json()])
    }
}

impl Walk for Json {}
impl Walk for bool {}
impl Walk for String {}
impl Walk for Number {}
impl Walk for i64 {}

impl<A: Walk, B: Walk> Walk for (A, B) {}

impl<T: Walk> Walk for Vec<T> {
    fn walk<'a>(&'a self, path: &str, visit: &mut dyn FnMut(crate::types::Node<'a>, &str)) {
        for (index, entry) in self.iter().enumerate() {
            entry.walk(&item(path, index), visit);
        }
    }

    fn walk_mut(&mut self, visit: &mut dyn FnMut(crate::types::NodeMut<'_>)) {
        self.iter_mut().for_each(|entry| entry.walk_mut(visit));
    }
}

impl<T: Walk> Walk for Map<T> {
    fn walk<'a>(&'a self, path: &str, visit: &mut dyn FnMut(crate::types::Node<'a>, &str)) {
        for (key, entry) in &self.0 {
            entry.walk(&child(path, key), visit);
        }
    }

    fn walk_mut(&mut self, visit: &mut dyn FnMut(crate::types::NodeMut<'_>)) {
        self.0.iter_mut().for_each(|(_, entry)| entry.walk_mut(visit));
    }
}

impl<T: Walk> Walk for Option<T> {
    fn walk<'a>(&'a self, path: &str, visit: &mut dyn FnMut(crate::types::Node<'a>, &str)) {
        if let Some(inner) = self {
            inner.walk(path, visit);
        }
    }

    fn walk_mut(&mut self, visit: &mut dyn FnMut(crate::types::NodeMut<'_>)) {
        if let Some(inner) = self {
            inner.walk_mut(visit);
        }
    }
}

impl<T: Walk> Walk for Field<T> {
    fn walk<'a>(&'a self, path: &str, visit: &mut dyn FnMut(crate::types::Node<'a>, &str)) {
        if let Field::Value(inner) = self {
            inner.walk(path, visit);
        }
    }

    fn walk_mut(&mut self, visit: &mut dyn FnMut(crate::types::NodeMut<'_>)) {
        if let Field::Value(inner) = self {
            inner.walk_mut(visit);
        }
    }
}
