// Scalar decoders/encoders and the refusals of the generated types: Value → typed scalar → Value.
//
// Why here and not generated: these are the same for every type; the generator writes only what differs per type.
#include "seqio/codec.h"

namespace seqio {

void refuse(const std::string& path, const std::string& message) { throw DecodeError(path, message); }

std::string kind_name(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::Null: return "null";
    case Value::Kind::Bool: return "a boolean";
    case Value::Kind::Number: return "a number";
    case Value::Kind::String: return "a string";
    case Value::Kind::Array: return "an array";
    case Value::Kind::Object: return "an object";
  }
  return "a value";
}

void decode(const Value& in, std::string& out, const std::string& path) {
  if (!in.is_string()) refuse(path, "expected a string, found " + kind_name(in));
  out = in.as_string();
}

void decode(const Value& in, std::int64_t& out, const std::string& path) {
  if (!in.is_number() || !in.as_number().integral()) refuse(path, "expected an integer, found " + kind_name(in));
  if (!in.as_number().fits_int64()) refuse(path, "the integer " + in.as_number().digits() + " is out of range");
  out = in.as_number().to_int64();
}

void decode(const Value& in, Number& out, const std::string& path) {
  if (!in.is_number()) refuse(path, "expected a number, found " + kind_name(in));
  out = in.as_number();
}

void decode(const Value& in, bool& out, const std::string& path) {
  if (!in.is_bool()) refuse(path, "expected true or false, found " + kind_name(in));
  out = in.as_bool();
}

void decode(const Value& in, Value& out, const std::string&) { out = in; }

Value encode(const std::string& in) { return Value::string(in); }
Value encode(std::int64_t in) { return Value::number(Number::from_int64(in)); }
Value encode(const Number& in) { return Value::number(in); }
Value encode(bool in) { return Value::boolean(in); }
Value encode(const Value& in) { return in; }

void expect_object(const Value& in, const std::string& path) {
  if (!in.is_object()) refuse(path, "expected an object, found " + kind_name(in));
}

void refuse_unknown_member(const std::string& path, const std::string& name) {
  std::string quoted;
  write_string(quoted, name);
  refuse(path, "the member " + cut_for_message(quoted) + " is not one this type declares");
}

void refuse_missing_member(const std::string& path, const char* name) {
  refuse(path, std::string("the required member \"") + name + "\" is missing");
}

}  // namespace seqio
