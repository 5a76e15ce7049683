// conformance/vectors.json → every invalid validation case → decode with the generated types alone (the reader's
// wire rules, then the type's decode; no validator) → per expected rule id: how many cases, how many the types
// refused → a JSON table on stdout (bindings/cpp/looseness.json holds the checked-in one).
//
// Why: an SDK author who decodes without validating must know which rules the types already hold and which only
// the validator does; computing the table from the vectors keeps it true as vectors are added.
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include "seqio/types.h"

namespace {

using seqio::Value;

struct Tally {
  int cases = 0;
  int refused = 0;
};

std::string instance_text(const Value& c) {
  const Value* json = c.find("json");
  return json != nullptr ? json->as_string() : seqio::write(*c.find("instance"));
}

bool types_refuse(const std::string& type_name, const std::string& text) {
  seqio::ReadResult r = seqio::read(text);
  if (!r.ok) return true;
  try {
    seqio::decode_as(type_name, r.value);
    return false;
  } catch (const seqio::DecodeError&) {
    return true;
  }
}

void tally_document(const Value& document, std::map<std::string, Tally>& table) {
  const Value* kind = document.find("kind");
  if (kind == nullptr || kind->as_string() != "validation") return;
  const std::string& type_name = document.find("type")->as_string();
  for (const Value& group : document.find("groups")->items())
    for (const Value& c : group.find("cases")->items()) {
      const Value* valid = c.find("valid");
      if (valid == nullptr || valid->as_bool()) continue;
      Tally& t = table[c.find("error")->find("rule")->as_string()];
      ++t.cases;
      if (types_refuse(type_name, instance_text(c))) ++t.refused;
    }
}

const char* verdict(const Tally& t) {
  if (t.refused == t.cases) return "types";
  return t.refused == 0 ? "validator only" : "types in part";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: seqio-looseness conformance/vectors.json\n";
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  std::stringstream buffer;
  buffer << file.rdbuf();
  seqio::ReadOptions trusted = seqio::contract_read_options();
  trusted.max_depth = 10000;  // the bundle wraps instances that are themselves up to MAX_JSON_DEPTH deep
  trusted.refuse_unbounded_numbers = false;
  seqio::ReadResult bundle = seqio::read(buffer.str(), trusted);
  if (!bundle.ok) {
    std::cerr << "seqio-looseness: cannot read " << argv[1] << ": " << bundle.refusals[0].message << "\n";
    return 2;
  }
  std::map<std::string, Tally> table;
  for (const Value& entry : bundle.value.find("files")->items()) tally_document(*entry.find("document"), table);
  // The layout of bindings/looseness.schema.json (the same in every binding), one rule id per line.
  std::cout << "{\n \"description\": \"Per rule id of the invalid validation vectors: how many the C++ binding's "
               "generated types refuse on decode alone (wire rules included, validator not). Computed by "
               "seqio-looseness; do not edit.\",\n \"rules\": {\n";
  std::size_t row = 0;
  for (const auto& [rule, t] : table) {
    std::cout << "  " << seqio::write(Value::string(rule)) << ": {\"vectors\": " << t.cases
              << ", \"refused_by_types\": " << t.refused << ", \"held_by\": \"" << verdict(t) << "\"}"
              << (++row < table.size() ? ",\n" : "\n");
  }
  std::cout << " }\n}\n";
  return 0;
}
