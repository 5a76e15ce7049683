// validate(type name, JSON text) → valid + the normalized value, or the refusals {path, rule, message} of
// spec/validation.md: wire rules (the reader), then the type's JSON Schema (the embedded spec/schemas, evaluated by
// this binding's own 2020-12 evaluator of the keywords those schemas use), then the rules beyond the schema, then
// normalization (Stream.sort-at, DeploymentPolicy.fold-streaming).
#pragma once

#include <string>
#include <vector>

#include "seqio/json.h"

namespace seqio {

struct Validation {
  bool valid = false;
  Value normalized;                // when valid
  std::vector<Refusal> refusals;   // when refused: at most 100, by path, the lowest rank first at a path
};

// The contract types a document can be validated as (the names of spec/schemas/*.json).
const std::vector<std::string>& schema_type_names();
bool is_schema_type(const std::string& type_name);

// Throws std::invalid_argument for a type name that is not a contract type.
Validation validate(const std::string& type_name, const std::string& text);
// The same for a value already read (wire rules that apply to text are then the caller's).
Validation validate_value(const std::string& type_name, const Value& value);

}  // namespace seqio
