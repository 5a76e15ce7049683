// Number, Value, JSON equality and the writer: parsed literals → exact values → compact JSON text.
//
// Why: numbers are compared and written by the spec's value model (exact integers, doubles otherwise), so the
// literal as read is kept for writing back and the exact integer digits for comparing, without any big-number
// library: comparing two decimal digit strings is all the contract needs.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "seqio/json.h"

namespace seqio {
namespace {

std::string strip_leading_zeros(const std::string& digits) {
  std::size_t first = digits.find_first_not_of('0');
  return first == std::string::npos ? std::string("0") : digits.substr(first);
}

// The exact decimal digits of an integral double (glibc prints doubles exactly).
std::string integral_double_digits(double value) {
  char buffer[400];
  std::snprintf(buffer, sizeof buffer, "%.0f", value);
  std::string text = buffer;
  return text == "-0" ? "0" : text;
}

std::string shortest_double(double value) {
  char buffer[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  std::string text = buffer;
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

int compare_magnitudes(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

int compare_exact_integers(const std::string& a, const std::string& b) {
  bool neg_a = a[0] == '-', neg_b = b[0] == '-';
  if (neg_a != neg_b) return neg_a ? -1 : 1;
  int magnitude = compare_magnitudes(neg_a ? a.substr(1) : a, neg_b ? b.substr(1) : b);
  return neg_a ? -magnitude : magnitude;
}

// An exact integer against a non-integral double (whose magnitude is below 2^53).
int compare_integer_with_double(const std::string& digits, double value) {
  std::size_t length = digits.size() - (digits[0] == '-' ? 1 : 0);
  if (length > 18) return digits[0] == '-' ? -1 : 1;
  long double exact = std::strtold(digits.c_str(), nullptr);
  long double other = value;
  return exact < other ? -1 : (exact > other ? 1 : 0);
}

}  // namespace

Number Number::from_literal(const std::string& literal, bool* finite) {
  Number n;
  n.literal_ = literal;
  n.written_int_ = literal.find_first_of(".eE") == std::string::npos;
  n.double_ = std::strtod(literal.c_str(), nullptr);
  *finite = std::isfinite(n.double_);
  if (!*finite) return n;
  bool negative = literal[0] == '-';
  std::size_t at = negative ? 1 : 0;
  std::string mantissa;
  long long exponent = 0;
  while (at < literal.size() && literal[at] >= '0' && literal[at] <= '9') mantissa += literal[at++];
  if (at < literal.size() && literal[at] == '.') {
    ++at;
    while (at < literal.size() && literal[at] >= '0' && literal[at] <= '9') {
      mantissa += literal[at++];
      --exponent;
    }
  }
  if (at < literal.size() && (literal[at] == 'e' || literal[at] == 'E')) {
    ++at;
    bool exp_negative = literal[at] == '-';
    if (literal[at] == '-' || literal[at] == '+') ++at;
    long long written = 0;
    while (at < literal.size()) {
      if (written < 1000000000LL) written = written * 10 + (literal[at] - '0');
      ++at;
    }
    exponent += exp_negative ? -written : written;
  }
  mantissa = strip_leading_zeros(mantissa);
  while (mantissa.size() > 1 && mantissa.back() == '0') {
    mantissa.pop_back();
    ++exponent;
  }
  if (mantissa == "0") {
    n.integral_ = true;
    n.digits_ = "0";
  } else if (exponent >= 0) {  // finite, so at most 309 digits
    n.integral_ = true;
    n.digits_ = (negative ? "-" : "") + mantissa + std::string(static_cast<std::size_t>(exponent), '0');
  } else if (std::floor(n.double_) == n.double_) {  // the nearest double is a whole number (2.0000000000000001)
    n.integral_ = true;
    n.digits_ = integral_double_digits(n.double_);
  } else {
    n.integral_ = false;
  }
  return n;
}

Number Number::from_int64(std::int64_t value) {
  Number n;
  n.digits_ = std::to_string(value);
  n.double_ = static_cast<double>(value);
  return n;
}

Number Number::from_double(double value) {
  Number n;
  n.written_int_ = false;
  n.double_ = value;
  n.integral_ = std::isfinite(value) && std::floor(value) == value;
  if (n.integral_) n.digits_ = integral_double_digits(value);
  return n;
}

bool Number::fits_int64() const {
  if (!integral_) return false;
  static const std::string max = std::to_string(std::numeric_limits<std::int64_t>::max());
  static const std::string min = std::to_string(std::numeric_limits<std::int64_t>::min());
  return compare_exact_integers(digits_, max) <= 0 && compare_exact_integers(digits_, min) >= 0;
}

std::int64_t Number::to_int64() const { return std::strtoll(digits_.c_str(), nullptr, 10); }

std::string Number::literal() const {
  if (!literal_.empty()) return literal_;
  if (written_int_) return digits_;
  return shortest_double(double_);
}

int compare(const Number& a, const Number& b) {
  if (a.integral() && b.integral()) return compare_exact_integers(a.digits(), b.digits());
  if (a.integral()) return compare_integer_with_double(a.digits(), b.to_double());
  if (b.integral()) return -compare_integer_with_double(b.digits(), a.to_double());
  double x = a.to_double(), y = b.to_double();
  return x < y ? -1 : (x > y ? 1 : 0);
}

Value Value::boolean(bool b) {
  Value v;
  v.kind_ = Kind::Bool;
  v.bool_ = b;
  return v;
}
Value Value::number(Number n) {
  Value v;
  v.kind_ = Kind::Number;
  v.number_ = std::move(n);
  return v;
}
Value Value::string(std::string utf8) {
  Value v;
  v.kind_ = Kind::String;
  v.string_ = std::move(utf8);
  return v;
}
Value Value::array(std::vector<Value> items) {
  Value v;
  v.kind_ = Kind::Array;
  v.items_ = std::move(items);
  return v;
}
Value Value::object(std::vector<Member> members) {
  Value v;
  v.kind_ = Kind::Object;
  v.members_ = std::move(members);
  return v;
}

const Value* Value::find(const std::string& key) const {
  for (const Member& m : members_)
    if (m.first == key) return &m.second;
  return nullptr;
}
Value* Value::find(const std::string& key) {
  for (Member& m : members_)
    if (m.first == key) return &m.second;
  return nullptr;
}

bool equal(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Value::Kind::Null: return true;
    case Value::Kind::Bool: return a.as_bool() == b.as_bool();
    case Value::Kind::Number: return compare(a.as_number(), b.as_number()) == 0;
    case Value::Kind::String: return a.as_string() == b.as_string();
    case Value::Kind::Array: {
      if (a.items().size() != b.items().size()) return false;
      for (std::size_t i = 0; i < a.items().size(); ++i)
        if (!equal(a.items()[i], b.items()[i])) return false;
      return true;
    }
    case Value::Kind::Object: {
      if (a.members().size() != b.members().size()) return false;
      for (const Member& m : a.members()) {
        const Value* other = b.find(m.first);
        if (other == nullptr || !equal(m.second, *other)) return false;
      }
      return true;
    }
  }
  return false;
}

void write_string(std::string& out, const std::string& utf8) {
  static const char* hex = "0123456789abcdef";
  out += '"';
  for (std::size_t i = 0; i < utf8.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(utf8[i]);
    if (c == 0xED && i + 2 < utf8.size() && static_cast<unsigned char>(utf8[i + 1]) >= 0xA0) {
      // a lone surrogate kept from a protocol message (WTF-8): written back as its escape, never as bytes
      unsigned cp = 0xD000u | ((static_cast<unsigned char>(utf8[i + 1]) & 0x3Fu) << 6) |
                    (static_cast<unsigned char>(utf8[i + 2]) & 0x3Fu);
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += hex[(cp >> shift) & 15];
      i += 2;
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\f': out += "\\f"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

namespace {

// Writes without recursion: a stack of (container, next index) frames.
void write_value(std::string& out, const Value& root) {
  struct Frame {
    const Value* container;
    std::size_t next;
  };
  std::vector<Frame> stack;
  const Value* current = &root;
  for (;;) {
    if (current != nullptr) {
      switch (current->kind()) {
        case Value::Kind::Null: out += "null"; break;
        case Value::Kind::Bool: out += current->as_bool() ? "true" : "false"; break;
        case Value::Kind::Number: out += current->as_number().literal(); break;
        case Value::Kind::String: write_string(out, current->as_string()); break;
        case Value::Kind::Array: out += '['; stack.push_back({current, 0}); break;
        case Value::Kind::Object: out += '{'; stack.push_back({current, 0}); break;
      }
      current = nullptr;
    }
    if (stack.empty()) return;
    Frame& top = stack.back();
    bool is_array = top.container->is_array();
    std::size_t size = is_array ? top.container->items().size() : top.container->members().size();
    if (top.next == size) {
      out += is_array ? ']' : '}';
      stack.pop_back();
      continue;
    }
    if (top.next > 0) out += ',';
    if (is_array) {
      current = &top.container->items()[top.next];
    } else {
      const Member& m = top.container->members()[top.next];
      write_string(out, m.first);
      out += ':';
      current = &m.second;
    }
    ++top.next;
  }
}

bool is_plain_name(const std::string& name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

}  // namespace

std::string write(const Value& value) {
  std::string out;
  write_value(out, value);
  return out;
}

std::string path_member(const std::string& parent, const std::string& name) {
  if (is_plain_name(name)) return parent + "." + name;
  std::string out = parent + "[";
  write_string(out, name);
  return out + "]";
}

std::string path_index(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

std::string cut_for_message(const std::string& utf8) {
  std::size_t points = 0;
  for (std::size_t i = 0; i < utf8.size(); ++i) {
    if ((static_cast<unsigned char>(utf8[i]) & 0xC0) == 0x80) continue;
    if (points == 57 && code_point_count(utf8) > 60) return utf8.substr(0, i) + "...";
    ++points;
  }
  return utf8;
}

std::size_t code_point_count(const std::string& utf8) {
  std::size_t count = 0;
  for (unsigned char c : utf8)
    if ((c & 0xC0) != 0x80) ++count;
  return count;
}

std::u32string to_code_points(const std::string& utf8) {
  std::u32string out;
  out.reserve(utf8.size());
  for (std::size_t i = 0; i < utf8.size();) {
    unsigned char c = static_cast<unsigned char>(utf8[i]);
    int extra = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
    char32_t cp = extra == 0 ? c : extra == 1 ? (c & 0x1F) : extra == 2 ? (c & 0x0F) : (c & 0x07);
    for (int k = 1; k <= extra && i + k < utf8.size(); ++k) cp = (cp << 6) | (utf8[i + k] & 0x3F);
    out += cp;
    i += static_cast<std::size_t>(extra) + 1;
  }
  return out;
}

}  // namespace seqio
