// Typed values ↔ seqio::Value: the building blocks the generated types (generated/cpp) decode and encode with.
//
// Why these shapes: spec/validation.md "Writing an instance" asks a writer to keep absent absent and null null,
// so an optional or nullable member is a three-state Field<T>; a member typed `integer` accepts any integral
// number (640.0) and writes the integer; `number` keeps the exact Number and its kind; an opaque member keeps the
// Value. A map is an ordered list of members (member order is kept as read, though it carries no meaning).
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "seqio/json.h"

namespace seqio {

// A type refused a value on decode: where (a JSON path) and why.
class DecodeError : public std::runtime_error {
 public:
  DecodeError(std::string path, const std::string& message)
      : std::runtime_error(path + ": " + message), path_(std::move(path)) {}
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// An optional and/or nullable member: absent, null, or a value. Absent and null are kept apart on the wire.
template <class T>
class Field {
 public:
  enum class State { Absent, Null, Present };
  Field() = default;
  Field(T value) : state_(State::Present), value_(std::move(value)) {}  // NOLINT: a value converts implicitly
  static Field null() {
    Field f;
    f.state_ = State::Null;
    return f;
  }
  State state() const { return state_; }
  bool absent() const { return state_ == State::Absent; }
  bool is_null() const { return state_ == State::Null; }
  bool has_value() const { return state_ == State::Present; }
  const T& value() const {
    if (state_ != State::Present) throw std::logic_error("seqio::Field holds no value");
    return value_;
  }
  T& value() {
    if (state_ != State::Present) throw std::logic_error("seqio::Field holds no value");
    return value_;
  }
  void set(T value) {
    state_ = State::Present;
    value_ = std::move(value);
  }
  void set_null() {
    state_ = State::Null;
    value_ = T();
  }
  void clear() {
    state_ = State::Absent;
    value_ = T();
  }

 private:
  State state_ = State::Absent;
  T value_{};
};

// A JSON object with free member names and one value type, in member order.
template <class T>
struct Map {
  std::vector<std::pair<std::string, T>> entries;
};

[[noreturn]] void refuse(const std::string& path, const std::string& message);
std::string kind_name(const Value& value);

void decode(const Value& in, std::string& out, const std::string& path);
void decode(const Value& in, std::int64_t& out, const std::string& path);
void decode(const Value& in, Number& out, const std::string& path);
void decode(const Value& in, bool& out, const std::string& path);
void decode(const Value& in, Value& out, const std::string& path);

Value encode(const std::string& in);
Value encode(std::int64_t in);
Value encode(const Number& in);
Value encode(bool in);
Value encode(const Value& in);

// Which JSON kinds an alternative of a union takes (the options of a union never share a JSON kind).
inline bool accepts(const Value& v, const std::string*) { return v.is_string(); }
inline bool accepts(const Value& v, const std::int64_t*) { return v.is_number() && v.as_number().integral(); }
inline bool accepts(const Value& v, const Number*) { return v.is_number(); }
inline bool accepts(const Value& v, const bool*) { return v.is_bool(); }
template <class T>
bool accepts(const Value& v, const std::vector<T>*) {
  return v.is_array();
}

template <class T>
void decode(const Value& in, std::vector<T>& out, const std::string& path) {
  if (!in.is_array()) refuse(path, "expected an array, found " + kind_name(in));
  out.clear();
  out.reserve(in.items().size());
  for (std::size_t i = 0; i < in.items().size(); ++i) {
    out.emplace_back();
    decode(in.items()[i], out.back(), path_index(path, i));
  }
}

template <class T, std::size_t N>
void decode(const Value& in, std::array<T, N>& out, const std::string& path) {
  if (!in.is_array()) refuse(path, "expected an array, found " + kind_name(in));
  if (in.items().size() != N) refuse(path, "expected exactly " + std::to_string(N) + " items");
  for (std::size_t i = 0; i < N; ++i) decode(in.items()[i], out[i], path_index(path, i));
}

template <class T>
void decode(const Value& in, Map<T>& out, const std::string& path) {
  if (!in.is_object()) refuse(path, "expected an object, found " + kind_name(in));
  out.entries.clear();
  for (const Member& m : in.members()) {
    out.entries.emplace_back(m.first, T());
    decode(m.second, out.entries.back().second, path_member(path, m.first));
  }
}

template <class Variant, std::size_t I = 0>
void decode_alternative(const Value& in, Variant& out, const std::string& path) {
  if constexpr (I == std::variant_size_v<Variant>) {
    refuse(path, "no alternative of this member takes " + kind_name(in));
  } else {
    using T = std::variant_alternative_t<I, Variant>;
    if (accepts(in, static_cast<const T*>(nullptr))) {
      T value{};
      decode(in, value, path);
      out = std::move(value);
    } else {
      decode_alternative<Variant, I + 1>(in, out, path);
    }
  }
}

template <class... Ts>
void decode(const Value& in, std::variant<Ts...>& out, const std::string& path) {
  decode_alternative(in, out, path);
}

// A member that may be null or absent; `nullable` says whether the schema lets it be null.
template <class T>
void decode_field(const Value& in, Field<T>& out, const std::string& path, bool nullable) {
  if (in.is_null()) {
    if (!nullable) refuse(path, "null is not allowed here");
    out.set_null();
    return;
  }
  T value{};
  decode(in, value, path);
  out.set(std::move(value));
}

template <class T>
Value encode(const std::vector<T>& in) {
  std::vector<Value> items;
  items.reserve(in.size());
  for (const T& item : in) items.push_back(encode(item));
  return Value::array(std::move(items));
}

template <class T, std::size_t N>
Value encode(const std::array<T, N>& in) {
  std::vector<Value> items;
  for (const T& item : in) items.push_back(encode(item));
  return Value::array(std::move(items));
}

template <class T>
Value encode(const Map<T>& in) {
  std::vector<Member> members;
  members.reserve(in.entries.size());
  for (const auto& entry : in.entries) members.emplace_back(entry.first, encode(entry.second));
  return Value::object(std::move(members));
}

template <class... Ts>
Value encode(const std::variant<Ts...>& in) {
  return std::visit([](const auto& alternative) { return encode(alternative); }, in);
}

// Appends a member unless absent: null stays null, a value is encoded.
template <class T>
void encode_field(std::vector<Member>& out, const char* name, const Field<T>& field) {
  if (field.absent()) return;
  out.emplace_back(name, field.is_null() ? Value::null() : encode(field.value()));
}

// Text → a generated type with the reader's wire rules first: throws DecodeError naming the wire rule when the
// text is not contract JSON, or the decode refusal (a path and a sentence). Usage: decode_text<Camera>(text).
template <class T>
T decode_text(const std::string& text) {
  ReadResult r = read(text);
  if (!r.ok) throw DecodeError(r.refusals.at(0).path, r.refusals.at(0).rule + ": " + r.refusals.at(0).message);
  T out{};
  decode(r.value, out, "$");
  return out;
}

// Refuses members a closed object does not declare, and required members that are missing.
void expect_object(const Value& in, const std::string& path);
[[noreturn]] void refuse_unknown_member(const std::string& path, const std::string& name);
[[noreturn]] void refuse_missing_member(const std::string& path, const char* name);

}  // namespace seqio
