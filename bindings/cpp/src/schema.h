// Embedded schema texts → compiled schema nodes, and the evaluation of one node against one instance.
//
// Why our own evaluator: no maintained C++ JSON Schema 2020-12 validator was installable here (see README.md,
// "Validator"), and the refusal rules of spec/validation.md need each failing keyword with its rule id (nearest
// x-rule), rank and path, and anyOf branches told apart. Loading refuses any keyword outside the set this file
// evaluates, so a schema that starts using a new keyword fails loudly instead of being half-checked.
#pragma once

#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "seqio/json.h"

namespace seqio {
namespace schema {

struct Node {
  std::string name;      // a root schema's type name ("Camera"), else empty
  std::string x_rule;    // this node's own x-rule annotation
  bool always_false = false;
  unsigned types = 0;    // bit set of JSON types from `type`; 0 = no `type` keyword
  std::string ref;       // `$ref` target type name
  const Node* ref_node = nullptr;
  std::vector<std::pair<std::string, const Node*>> properties;
  std::vector<std::string> required;
  bool additional_false = false;
  const Node* additional = nullptr;
  std::vector<const Node*> any_of, all_of, prefix_items;
  const Node* not_ = nullptr;
  const Node* if_ = nullptr;
  const Node* then_ = nullptr;
  const Node* else_ = nullptr;
  const Node* items = nullptr;
  const Node* property_names = nullptr;
  std::optional<Number> minimum, maximum, exclusive_minimum;
  std::optional<std::size_t> min_length, max_length, min_items, max_items, max_properties;
  bool unique_items = false;
  std::optional<std::vector<Value>> enum_values;
  std::optional<Value> const_value;
  std::string pattern_text;
  std::shared_ptr<std::wregex> pattern;
};

// The compiled root schema of a contract type, or nullptr.
const Node* root(const std::string& type_name);
const std::vector<std::string>& root_names();

// Compiles one schema on its own; throws std::logic_error on a keyword this evaluator does not implement.
void compile_for_check(const Value& schema);

// One failing keyword: where, its rule id, its rank (1 type, 2 required, 3 additionalProperties, 4 other).
struct Error {
  std::string path;
  std::string rule;
  int rank;
  std::string message;
};

// A node of a named type that the instance validated against (for the rules beyond the schema).
struct Visit {
  std::string type_name;
  Value* node;
  std::string path;
};

struct Outcome {
  std::vector<Error> errors;
  std::vector<Visit> visits;
};

void evaluate(const Node& node, Value& instance, const std::string& path, const std::string& rule, Outcome& out);

}  // namespace schema
}  // namespace seqio
