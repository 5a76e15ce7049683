// JSON text ↔ seqio::Value. Text → read() (wire rules + contract limits) → Value; Value → write() → text.
//
// Why our own: the contract's value model (spec/validation.md) needs every number kept exactly (an integer of any
// length up to MAX_INTEGER_DIGITS, a fraction/exponent literal by its value, and whether it was written as an
// integer), objects in member order, duplicate keys refused rather than merged, and a depth bound that never
// recurses. No common C++ JSON library gives all of that, and a fresh machine may not have one installed.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace seqio {

// A JSON number under the spec's value model: an exact integer (decimal digits with an optional '-') when its
// value is integral, otherwise the nearest binary64 double; plus the literal as written and its kind.
class Number {
 public:
  Number() = default;
  // Parses a literal that already matches the JSON number grammar. `finite` is false when the value lies beyond
  // the doubles (wire.non-finite-number); the Number is then unusable.
  static Number from_literal(const std::string& literal, bool* finite);
  static Number from_int64(std::int64_t value);
  static Number from_double(double value);

  bool integral() const { return integral_; }              // the value has no fractional part (640.0 too)
  bool written_as_integer() const { return written_int_; }  // no fraction and no exponent in the literal
  const std::string& digits() const { return digits_; }     // exact integer, canonical ("-12", "0"); integral only
  double to_double() const { return double_; }
  bool fits_int64() const;
  std::int64_t to_int64() const;  // only when fits_int64()
  // The literal to write: as read when read, else a canonical spelling.
  std::string literal() const;
  // The integer spelling of an integral value (for members typed `integer`).
  const std::string& integer_literal() const { return digits_; }

 private:
  bool integral_ = true;
  bool written_int_ = true;
  std::string digits_ = "0";
  double double_ = 0.0;
  std::string literal_;
};

// Exact comparison by value: -1, 0, 1 (1 = 1.0, -0.0 = 0, 9007199254740993 > 9007199254740992).
int compare(const Number& a, const Number& b);

class Value;
using Member = std::pair<std::string, Value>;

class Value {
 public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Value() = default;
  static Value null() { return Value(); }
  static Value boolean(bool b);
  static Value number(Number n);
  static Value string(std::string utf8);
  static Value array(std::vector<Value> items = {});
  static Value object(std::vector<Member> members = {});

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::Null; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_number() const { return kind_ == Kind::Number; }
  bool is_string() const { return kind_ == Kind::String; }
  bool is_array() const { return kind_ == Kind::Array; }
  bool is_object() const { return kind_ == Kind::Object; }

  bool as_bool() const { return bool_; }
  const Number& as_number() const { return number_; }
  const std::string& as_string() const { return string_; }  // UTF-8, never a lone surrogate
  const std::vector<Value>& items() const { return items_; }
  std::vector<Value>& items() { return items_; }
  const std::vector<Member>& members() const { return members_; }
  std::vector<Member>& members() { return members_; }

  const Value* find(const std::string& key) const;  // nullptr when absent
  Value* find(const std::string& key);

 private:
  Kind kind_ = Kind::Null;
  bool bool_ = false;
  Number number_;
  std::string string_;
  std::vector<Value> items_;
  std::vector<Member> members_;
};

// JSON equality of values: numbers by value, strings by code points, objects ignoring member order.
bool equal(const Value& a, const Value& b);

// One refusal: a JSON path (spec/validation.md "Path notation"), a rule id and a sentence for a newcomer.
struct Refusal {
  std::string path;
  std::string rule;
  std::string message;
};

struct ReadOptions {
  std::size_t max_depth;        // containers that may enclose a value (MAX_JSON_DEPTH, or +16 for messages)
  std::size_t max_bytes;        // reader limit on the document size (reader.too-large)
  std::size_t max_int_digits;   // MAX_INTEGER_DIGITS
  // false only for trusted files that carry hostile numbers as data (conformance/vectors.json): such numbers
  // are then kept as their literal text instead of refused.
  bool refuse_unbounded_numbers = true;
  // true only for protocol messages (conformance/protocol.md): a lone surrogate escape is kept, encoded as
  // WTF-8 (the three-byte form UTF-8 forbids), so that the document it belongs to is refused by the strict reader.
  bool keep_lone_surrogates = false;
};
ReadOptions contract_read_options();  // the contract's limits and this reader's document size limit

struct ReadResult {
  bool ok = false;
  Value value;
  std::vector<Refusal> refusals;  // wire rules only; empty when ok
};

// Reads one JSON text under every wire rule. Never recurses; never throws on bad input.
ReadResult read(const std::string& text, const ReadOptions& options);
ReadResult read(const std::string& text);

// Writes a value compactly: numbers as their literal, strings as UTF-8 with the minimal escapes.
std::string write(const Value& value);
void write_string(std::string& out, const std::string& utf8);

// Path helpers (spec/validation.md "Path notation").
std::string path_member(const std::string& parent, const std::string& name);
std::string path_index(const std::string& parent, std::size_t index);

// A text quoted in a message: cut to 60 code points (57 and "...") so a huge value costs a short sentence.
std::string cut_for_message(const std::string& utf8);

// The wire rules a value built in memory can break (spec/validation.md "Limits": decided as the text API
// decides the same document): depth, non-finite and over-long numbers, strings that are not valid UTF-8.
std::vector<Refusal> wire_refusals(const Value& value, const ReadOptions& options);

// UTF-8 helpers: code points of a valid UTF-8 string.
std::size_t code_point_count(const std::string& utf8);
std::u32string to_code_points(const std::string& utf8);

}  // namespace seqio
