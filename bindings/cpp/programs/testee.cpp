// The starter testee of conformance/protocol.md (version 1): JSON Lines on stdin → hello, then one answer per
// case → stdout. The validation kind is wired to seqio::validate; every other kind has one clearly marked
// function below that answers `skipped` until an SDK author fills it in.
//
// Why a starter: the protocol (hello with `kinds`, integers of any length read exactly, messages nested up to
// MAX_JSON_DEPTH + 16, a protocol error for a malformed line) is the same for every implementation; copying this
// file leaves only the kinds themselves to write. `iospec run --impl <it> --xfail x.json --fix` then starts green.
#include <iostream>
#include <stdexcept>
#include <string>

#include "seqio/generated_contract.h"
#include "seqio/json.h"
#include "seqio/validate.h"

namespace {

using seqio::Value;

// One answer: {"type": "result", "result": ...}, {"type": "error", "rule", "message"} or {"type": "skipped"}.
struct Answer {
  std::string type;
  Value result;
  std::string rule;
  std::string text;  // the error message or the skip reason
};

Answer result(Value value) { return Answer{"result", std::move(value), "", ""}; }
Answer skipped(const std::string& reason) { return Answer{"skipped", Value(), "", reason}; }

// ---- validation: done, by this binding's validator ------------------------------------------------------------
Answer validation_kind(const Value& input) {
  const Value* type_name = input.find("type_name");
  const Value* text = input.find("json");
  if (type_name == nullptr || !type_name->is_string() || text == nullptr || !text->is_string())
    return Answer{"error", Value(), "protocol.malformed-request", "a validation input needs type_name and json"};
  if (!seqio::is_schema_type(type_name->as_string()))
    return skipped("this testee does not know the type " + type_name->as_string());
  seqio::Validation v = seqio::validate(type_name->as_string(), text->as_string());
  if (v.valid)
    return result(Value::object({{"valid", Value::boolean(true)}, {"normalized", std::move(v.normalized)}}));
  std::vector<Value> errors;
  for (const seqio::Refusal& r : v.refusals)
    errors.push_back(Value::object({{"path", Value::string(r.path)},
                                    {"rule", Value::string(r.rule)},
                                    {"message", Value::string(r.message)}}));
  return result(Value::object({{"valid", Value::boolean(false)}, {"errors", Value::array(std::move(errors))}}));
}

// ---- FILL IN: schedule (spec/schedule.md). Input {declaration, rate?, t, t_prev}; result {picks, needed, wanted,
// keeps_from, reads_past}, or an error with a schedule.… rule id. ---------------------------------------------------
Answer schedule_kind(const Value& /*input*/) { return skipped("schedule is not implemented in this starter"); }

// ---- FILL IN: envelope (spec/envelope.md). Input {picks, frames, own, t}; result {observations, steps}. ---------
Answer envelope_kind(const Value& /*input*/) { return skipped("envelope is not implemented in this starter"); }

// ---- FILL IN: rows_of. Input {answer, actions}; result {rows}, or an error with a rows_of.… rule id. -------------
Answer rows_of_kind(const Value& /*input*/) { return skipped("rows_of is not implemented in this starter"); }

// ---- FILL IN: stream (spec/stream.md). Input {declaration, rate?, episode_idle?, limits?, operations}; result
// {outcomes}. ----------------------------------------------------------------------------------------------------
Answer stream_kind(const Value& /*input*/) { return skipped("stream is not implemented in this starter"); }

const char* const kKinds[] = {"validation", "schedule", "envelope", "rows_of", "stream"};

Answer dispatch(const std::string& kind, const Value& input) {
  if (kind == "validation") return validation_kind(input);
  if (kind == "schedule") return schedule_kind(input);
  if (kind == "envelope") return envelope_kind(input);
  if (kind == "rows_of") return rows_of_kind(input);
  if (kind == "stream") return stream_kind(input);
  return skipped("this testee does not know the kind " + kind);
}

Value hello() {
  std::vector<Value> kinds;
  for (const char* kind : kKinds) kinds.push_back(Value::string(kind));
  return Value::object({{"type", Value::string("hello")},
                        {"protocol", Value::number(seqio::Number::from_int64(1))},
                        {"implementation", Value::object({{"name", Value::string("seqio-cpp-starter")},
                                                          {"version", Value::string(seqio::contract::PACKAGE_VERSION)}})},
                        {"contract_version", Value::string(seqio::contract::CONTRACT_VERSION)},
                        {"kinds", Value::array(std::move(kinds))}});
}

Value answer_message(const std::string& id, const Answer& a) {
  std::vector<seqio::Member> members = {{"type", Value::string(a.type)}, {"id", Value::string(id)}};
  if (a.type == "result") members.emplace_back("result", a.result);
  if (a.type == "error") {
    members.emplace_back("rule", Value::string(a.rule));
    members.emplace_back("message", Value::string(a.text));
  }
  if (a.type == "skipped") members.emplace_back("reason", Value::string(a.text));
  return Value::object(std::move(members));
}

Value protocol_error(const std::string& id, const std::string& message) {
  return answer_message(id, Answer{"error", Value(), "protocol.malformed-request", message});
}

Value handle(const std::string& line) {
  seqio::ReadOptions options = seqio::contract_read_options();
  options.max_depth += 16;  // a message wraps an instance in a few levels of its own
  options.max_bytes *= 8;    // and carries a document as an escaped string (up to 6 bytes per byte)
  options.keep_lone_surrogates = true;  // a vector's lone surrogate arrives escaped; its document refuses it
  seqio::ReadResult read = seqio::read(line, options);
  if (!read.ok || !read.value.is_object())
    return protocol_error("", "the request line is not a JSON object: " +
                                  (read.refusals.empty() ? std::string("") : read.refusals[0].message));
  const Value& msg = read.value;
  const Value* type = msg.find("type");
  if (type != nullptr && type->is_string() && type->as_string() == "hello") return hello();
  const Value* id = msg.find("id");
  std::string id_text = id != nullptr && id->is_string() ? id->as_string() : "";
  const Value* kind = msg.find("kind");
  const Value* input = msg.find("input");
  if (type == nullptr || !type->is_string() || type->as_string() != "case" || kind == nullptr || !kind->is_string() ||
      input == nullptr)
    return protocol_error(id_text, "expected a hello or a case with kind and input");
  try {
    return answer_message(id_text, dispatch(kind->as_string(), *input));
  } catch (const std::exception& e) {
    return protocol_error(id_text, std::string("the testee failed on this case: ") + e.what());
  }
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::cout << seqio::write(handle(line)) << '\n' << std::flush;
  }
  return 0;
}
