// JSON text → Value under the wire rules of spec/validation.md, or the wire refusals with their paths.
//
// Why iterative: a hostile document may nest millions of brackets; an explicit stack of open containers bounds
// the work and never touches the call stack, and the depth rule (wire.too-deep) is checked before a value is
// opened. Syntax errors stop the read (path `$`), as do too-deep values; duplicate keys, non-finite numbers and
// over-long integers are collected with their paths and the read goes on, so every one of them is reported.
#include <cmath>
#include <unordered_set>

#include "seqio/generated_contract.h"
#include "seqio/json.h"

namespace seqio {

ReadOptions contract_read_options() {
  return ReadOptions{contract::MAX_JSON_DEPTH, contract::READER_MAX_DOCUMENT_BYTES, contract::MAX_INTEGER_DIGITS, true,
                     false};
}

namespace {

// The length of the well-formed UTF-8 sequence at `at` (no overlong form, no surrogate, at most U+10FFFF), or 0.
std::size_t utf8_sequence_length(const std::string& s, std::size_t at) {
  unsigned char c = static_cast<unsigned char>(s[at]);
  std::size_t extra;
  unsigned low = 0x80, high = 0xBF;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) extra = 1;
  else if (c == 0xE0) extra = 2, low = 0xA0;
  else if (c == 0xED) extra = 2, high = 0x9F;
  else if (c >= 0xE1 && c <= 0xEF) extra = 2;
  else if (c == 0xF0) extra = 3, low = 0x90;
  else if (c == 0xF4) extra = 3, high = 0x8F;
  else if (c >= 0xF1 && c <= 0xF3) extra = 3;
  else return 0;
  if (at + extra >= s.size()) return 0;
  for (std::size_t k = 1; k <= extra; ++k) {
    unsigned char d = static_cast<unsigned char>(s[at + k]);
    if (d < (k == 1 ? low : 0x80u) || d > (k == 1 ? high : 0xBFu)) return 0;
  }
  return extra + 1;
}

struct SyntaxError {
  std::string message;
};
struct TooDeep {};

struct Frame {
  bool object;
  std::vector<Value> items;
  std::vector<Member> members;
  std::unordered_set<std::string> keys;
  std::string key;  // the member being read
  bool duplicate_reported = false;
};

class Reader {
 public:
  Reader(const std::string& text, const ReadOptions& options) : text_(text), options_(options) {}

  ReadResult run() {
    ReadResult result;
    try {
      skip_whitespace();
      Value value = parse_document();
      skip_whitespace();
      if (at_ != text_.size()) throw SyntaxError{"text follows the JSON value at byte " + std::to_string(at_)};
      if (refusals_.empty()) {
        result.ok = true;
        result.value = std::move(value);
      } else {
        result.refusals = std::move(refusals_);
      }
    } catch (const SyntaxError& e) {
      result.refusals = {{"$", "wire.json-syntax", "the text is not JSON: " + e.message}};
    } catch (const TooDeep&) {
      result.refusals = {{"$", "wire.too-deep",
                          "a value is enclosed by more than " + std::to_string(options_.max_depth) +
                              " arrays and objects (MAX_JSON_DEPTH)"}};
    }
    return result;
  }

 private:
  const std::string& text_;
  ReadOptions options_;
  std::size_t at_ = 0;
  std::vector<Frame> stack_;
  std::vector<Refusal> refusals_;

  [[noreturn]] void fail(const std::string& what) {
    throw SyntaxError{what + " at byte " + std::to_string(at_)};
  }

  void skip_whitespace() {
    while (at_ < text_.size()) {
      char c = text_[at_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      ++at_;
    }
  }

  std::string current_path(std::size_t frames) const {
    std::string path = "$";
    for (std::size_t i = 0; i < frames; ++i) {
      const Frame& f = stack_[i];
      path = f.object ? path_member(path, f.key) : path_index(path, f.items.size());
    }
    return path;
  }

  // The main loop: read a value; when it is a container, open a frame; attach finished values to their parent.
  Value parse_document() {
    for (;;) {
      if (stack_.size() > options_.max_depth) throw TooDeep{};
      Value value;
      bool opened = false;
      if (at_ >= text_.size()) fail("the text ends where a value was expected");
      char c = text_[at_];
      if (c == '{' || c == '[') {
        ++at_;
        stack_.push_back(Frame{c == '{', {}, {}, {}, {}, false});
        skip_whitespace();
        if (at_ < text_.size() && text_[at_] == (c == '{' ? '}' : ']')) {
          ++at_;
          value = close_frame();
        } else {
          if (c == '{') read_key();
          opened = true;
        }
      } else {
        value = parse_scalar();
      }
      if (opened) continue;
      // attach the finished value, closing every container it completes
      for (;;) {
        if (stack_.empty()) return value;
        Frame& top = stack_.back();
        if (top.object)
          top.members.emplace_back(std::move(top.key), std::move(value));
        else
          top.items.push_back(std::move(value));
        skip_whitespace();
        if (at_ >= text_.size()) fail("the text ends inside an array or object");
        char next = text_[at_++];
        if (next == ',') {
          skip_whitespace();
          if (top.object) read_key();
          break;
        }
        if (next != (top.object ? '}' : ']')) {
          --at_;
          fail(top.object ? "expected ',' or '}'" : "expected ',' or ']'");
        }
        value = close_frame();
      }
    }
  }

  Value close_frame() {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    return frame.object ? Value::object(std::move(frame.members)) : Value::array(std::move(frame.items));
  }

  void read_key() {
    if (at_ >= text_.size() || text_[at_] != '"') fail("expected a member name in double quotes");
    std::string key = parse_string();
    skip_whitespace();
    if (at_ >= text_.size() || text_[at_] != ':') fail("expected ':' after a member name");
    ++at_;
    skip_whitespace();
    Frame& top = stack_.back();
    if (!top.keys.insert(key).second && !top.duplicate_reported) {
      top.duplicate_reported = true;
      refusals_.push_back({current_path(stack_.size() - 1), "wire.duplicate-key",
                           "the object holds a member name twice; a name may occur once"});
    }
    top.key = std::move(key);
  }

  Value parse_scalar() {
    char c = text_[at_];
    if (c == '"') return Value::string(parse_string());
    if (c == '-' || (c >= '0' && c <= '9')) return parse_number();
    if (text_.compare(at_, 4, "true") == 0) return at_ += 4, Value::boolean(true);
    if (text_.compare(at_, 5, "false") == 0) return at_ += 5, Value::boolean(false);
    if (text_.compare(at_, 4, "null") == 0) return at_ += 4, Value::null();
    fail("unexpected character");
  }

  bool digit_at(std::size_t i) const { return i < text_.size() && text_[i] >= '0' && text_[i] <= '9'; }

  Value parse_number() {
    std::size_t start = at_;
    if (text_[at_] == '-') ++at_;
    if (!digit_at(at_)) fail("a number needs a digit");
    if (text_[at_] == '0') {
      ++at_;
    } else {
      while (digit_at(at_)) ++at_;
    }
    std::size_t int_end = at_;
    bool integer = true;
    if (at_ < text_.size() && text_[at_] == '.') {
      integer = false;
      ++at_;
      if (!digit_at(at_)) fail("a fraction needs a digit");
      while (digit_at(at_)) ++at_;
    }
    if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
      integer = false;
      ++at_;
      if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
      if (!digit_at(at_)) fail("an exponent needs a digit");
      while (digit_at(at_)) ++at_;
    }
    std::string literal = text_.substr(start, at_ - start);
    std::size_t digits = int_end - start - (text_[start] == '-' ? 1 : 0);
    bool finite = true;
    if (!options_.refuse_unbounded_numbers) return Value::number(Number::from_literal(literal, &finite));
    if (integer && digits > options_.max_int_digits) {
      refusals_.push_back({current_path(stack_.size()), "wire.integer-too-long",
                           "an integer of " + std::to_string(digits) + " digits is longer than " +
                               std::to_string(options_.max_int_digits) + " digits (MAX_INTEGER_DIGITS)"});
      return Value::null();
    }
    Number number = Number::from_literal(literal, &finite);
    if (!finite) {
      refusals_.push_back({current_path(stack_.size()), "wire.non-finite-number",
                           "the number lies beyond the finite doubles (binary64)"});
      return Value::null();
    }
    return Value::number(std::move(number));
  }

  unsigned hex4() {
    if (at_ + 4 > text_.size()) fail("a \\u escape needs four hex digits");
    unsigned value = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text_[at_++];
      value <<= 4;
      if (c >= '0' && c <= '9') value |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') value |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') value |= static_cast<unsigned>(c - 'A' + 10);
      else fail("a \\u escape needs four hex digits");
    }
    return value;
  }

  static void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  unsigned escape_code_point() {
    unsigned cp = hex4();
    if (cp >= 0xDC00 && cp <= 0xDFFF) return lone_surrogate(cp, "a lone low surrogate escape");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      std::size_t after_high = at_;
      if (text_.compare(at_, 2, "\\u") != 0) return lone_surrogate(cp, "a high surrogate escape without its low half");
      at_ += 2;
      unsigned low = hex4();
      if (low < 0xDC00 || low > 0xDFFF) {
        at_ = after_high;  // the next escape is read on its own
        return lone_surrogate(cp, "a high surrogate escape without its low half");
      }
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    return cp;
  }

  unsigned lone_surrogate(unsigned cp, const char* what) {
    if (!options_.keep_lone_surrogates) fail(what);
    return cp;
  }

  // Copies one well-formed UTF-8 sequence.
  void copy_utf8(std::string& out) {
    std::size_t length = utf8_sequence_length(text_, at_);
    if (length == 0) fail("invalid UTF-8");
    out.append(text_, at_, length);
    at_ += length;
  }

  std::string parse_string() {
    ++at_;  // opening quote
    std::string out;
    for (;;) {
      if (at_ >= text_.size()) fail("the text ends inside a string");
      unsigned char c = static_cast<unsigned char>(text_[at_]);
      if (c == '"') {
        ++at_;
        return out;
      }
      if (c < 0x20) fail("a control character inside a string must be escaped");
      if (c == '\\') {
        ++at_;
        if (at_ >= text_.size()) fail("the text ends inside an escape");
        char e = text_[at_++];
        switch (e) {
          case '"': out += '"'; break;
          case '\\': out += '\\'; break;
          case '/': out += '/'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'n': out += '\n'; break;
          case 'r': out += '\r'; break;
          case 't': out += '\t'; break;
          case 'u': append_utf8(out, escape_code_point()); break;
          default: --at_; fail("an unknown escape");
        }
      } else if (c < 0x80) {
        out += static_cast<char>(c);
        ++at_;
      } else {
        copy_utf8(out);
      }
    }
  }
};

}  // namespace

ReadResult read(const std::string& text, const ReadOptions& options) {
  if (text.size() > options.max_bytes) {
    ReadResult result;
    result.refusals = {{"$", "reader.too-large",
                        "the document has " + std::to_string(text.size()) + " bytes, more than this reader's limit of " +
                            std::to_string(options.max_bytes)}};
    return result;
  }
  return Reader(text, options).run();
}

ReadResult read(const std::string& text) { return read(text, contract_read_options()); }

}  // namespace seqio

namespace seqio {
namespace {

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    std::size_t length = utf8_sequence_length(s, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

}  // namespace

std::vector<Refusal> wire_refusals(const Value& root, const ReadOptions& options) {
  struct Item {
    const Value* value;
    std::size_t depth;  // containers enclosing it
    std::string path;
  };
  std::vector<Refusal> out;
  std::vector<Item> stack = {{&root, 0, "$"}};
  while (!stack.empty()) {
    Item item = std::move(stack.back());
    stack.pop_back();
    if (item.depth > options.max_depth)
      return {{"$", "wire.too-deep", "a value is enclosed by more than " + std::to_string(options.max_depth) +
                                          " arrays and objects (MAX_JSON_DEPTH)"}};
    const Value& v = *item.value;
    if (v.is_string() && !valid_utf8(v.as_string()))
      return {{"$", "wire.json-syntax", "a string is not valid UTF-8 (or holds a lone surrogate)"}};
    if (v.is_number()) {
      const Number& n = v.as_number();
      std::size_t digits = n.integral() ? n.digits().size() - (n.digits()[0] == '-' ? 1 : 0) : 0;
      if (n.written_as_integer() && digits > options.max_int_digits)
        out.push_back({item.path, "wire.integer-too-long", "an integer of more than " +
                                                               std::to_string(options.max_int_digits) + " digits"});
      else if (!std::isfinite(n.to_double()))
        out.push_back({item.path, "wire.non-finite-number", "the number lies beyond the finite doubles (binary64)"});
    }
    for (std::size_t i = v.items().size(); i-- > 0;)
      stack.push_back({&v.items()[i], item.depth + 1, path_index(item.path, i)});
    for (std::size_t i = v.members().size(); i-- > 0;) {
      const Member& m = v.members()[i];
      if (!valid_utf8(m.first)) return {{"$", "wire.json-syntax", "a member name is not valid UTF-8"}};
      stack.push_back({&m.second, item.depth + 1, path_member(item.path, m.first)});
    }
  }
  return out;
}

}  // namespace seqio
