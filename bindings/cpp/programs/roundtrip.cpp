// The round-trip program of scripts/seq_io_maint/roundtrip.py: JSON Lines requests {id, type_name, json} on stdin
// → read the instance (wire rules) → decode into the generated type → encode → write → {id, json} or {id, error}.
//
// Why: it proves the generated types alone keep every valid instance as spec/validation.md "Writing an instance"
// asks (absent stays absent, null stays null, numbers keep value and kind), with no validator in between.
#include <iostream>
#include <string>

#include "seqio/generated_contract.h"
#include "seqio/types.h"

namespace {

std::string answer_json(const std::string& id, const char* key, const std::string& text) {
  seqio::Value answer = seqio::Value::object({{"id", seqio::Value::string(id)}, {key, seqio::Value::string(text)}});
  return seqio::write(answer);
}

std::string handle(const std::string& line) {
  seqio::ReadOptions message_options = seqio::contract_read_options();
  message_options.max_depth += 16;
  message_options.max_bytes *= 8;  // a document arrives as an escaped string, up to 6 bytes per byte
  message_options.keep_lone_surrogates = true;
  seqio::ReadResult request = seqio::read(line, message_options);
  if (!request.ok || !request.value.is_object()) return answer_json("", "error", "the request line is not a JSON object");
  const seqio::Value* id = request.value.find("id");
  const seqio::Value* type_name = request.value.find("type_name");
  const seqio::Value* text = request.value.find("json");
  std::string id_text = id != nullptr && id->is_string() ? id->as_string() : "";
  if (type_name == nullptr || !type_name->is_string() || text == nullptr || !text->is_string())
    return answer_json(id_text, "error", "the request needs the strings type_name and json");
  seqio::ReadResult instance = seqio::read(text->as_string());
  if (!instance.ok)
    return answer_json(id_text, "error", instance.refusals[0].rule + ": " + instance.refusals[0].message);
  try {
    seqio::Value out;
    if (!seqio::roundtrip(type_name->as_string(), instance.value, out))
      return answer_json(id_text, "error", "no generated type named " + type_name->as_string());
    return answer_json(id_text, "json", seqio::write(out));
  } catch (const seqio::DecodeError& e) {
    return answer_json(id_text, "error", e.what());
  }
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::cout << handle(line) << '\n' << std::flush;
  }
  return 0;
}
