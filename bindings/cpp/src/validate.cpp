// validate(): text → wire rules (reader) → schema refusals, lowest rank per path → rules beyond the schema on
// every node of their type → normalization → Validation.
//
// Why in this order: spec/validation.md decides that a text breaking a wire rule is refused by wire rules only,
// an instance failing its schema by schema keywords only, and the rules beyond the schema are checked on a
// schema-valid instance alone; the nodes they inspect are those the schema evaluation met under each type's root.
#include "seqio/validate.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "schema.h"
#include "seqio/embedded.h"

namespace seqio {
namespace {

constexpr std::size_t kMaxRefusals = 100;  // spec/validation.md "Reader limits": refusals reported

// Every failing keyword once per (path, rule), lowest rank first at each path. spec/validation.md asks for every
// refusal of the lowest rank at a path and allows the others; reporting all of them keeps the answer complete
// (a vector may name a higher-ranked refusal beside a lower one, as val-stream-error-0011 does).
std::vector<Refusal> schema_refusals(std::vector<schema::Error> errors) {
  std::stable_sort(errors.begin(), errors.end(), [](const schema::Error& a, const schema::Error& b) {
    return a.path != b.path ? a.path < b.path : a.rank < b.rank;
  });
  std::vector<Refusal> out;
  std::set<std::pair<std::string, std::string>> seen;
  for (const schema::Error& e : errors)
    if (seen.insert({e.path, e.rule}).second) out.push_back({e.path, e.rule, e.message});
  return out;
}

void sort_and_bound(std::vector<Refusal>& refusals) {
  std::stable_sort(refusals.begin(), refusals.end(), [](const Refusal& a, const Refusal& b) {
    return a.path < b.path;
  });
  if (refusals.size() > kMaxRefusals) refusals.resize(kMaxRefusals);
}

bool in_ranges(const std::vector<embedded::CodePointRange>& ranges, char32_t c) {
  auto after = std::upper_bound(ranges.begin(), ranges.end(), c,
                                [](char32_t value, const embedded::CodePointRange& r) { return value < r.first; });
  return after != ranges.begin() && c <= (after - 1)->last;
}

// DeploymentPolicy.param-name: XID_Start first (which `_` is not), XID_Continue after (Unicode 14.0.0).
bool is_param_name(const std::string& name) {
  std::u32string points = to_code_points(name);
  if (points.empty() || !in_ranges(embedded::xid_start(), points[0])) return false;
  for (std::size_t i = 1; i < points.size(); ++i)
    if (!in_ranges(embedded::xid_continue(), points[i])) return false;
  return true;
}

bool present(const Value* v) { return v != nullptr && !v->is_null(); }

void deployment_policy_rules(const Value& node, const std::string& path, std::vector<Refusal>& out) {
  const Value* params = node.find("params");
  if (!present(params)) return;
  for (const Member& m : params->members())
    if (!is_param_name(m.first)) {
      std::string quoted;
      write_string(quoted, m.first);
      out.push_back({path_member(path, "params"), "DeploymentPolicy.param-name",
                     "the parameter name " + quoted + " is not an identifier (Unicode 14) or starts with '_'"});
    }
}

void action_contract_rules(const Value& node, const std::string& path, std::vector<Refusal>& out) {
  const Number& dim = node.find("action_dim")->as_number();
  const Value* bounds = node.find("bounds");
  if (present(bounds)) {
    std::string bounds_path = path_member(path, "bounds");
    if (compare(Number::from_int64(static_cast<std::int64_t>(bounds->items().size())), dim) != 0) {
      out.push_back({bounds_path, "ActionContract.bounds-count",
                     "bounds holds " + std::to_string(bounds->items().size()) + " [low, high] pairs but action_dim is " +
                         dim.literal()});
    } else {
      for (std::size_t i = 0; i < bounds->items().size(); ++i) {
        const std::vector<Value>& pair = bounds->items()[i].items();
        if (compare(pair[0].as_number(), pair[1].as_number()) > 0)
          out.push_back({path_index(bounds_path, i), "ActionContract.bounds-order", "the pair has low above high"});
      }
    }
  }
  const Value* max_delta = node.find("max_delta");
  if (present(max_delta) && max_delta->is_array() &&
      compare(Number::from_int64(static_cast<std::int64_t>(max_delta->items().size())), dim) != 0)
    out.push_back({path_member(path, "max_delta"), "ActionContract.max-delta-count",
                   "max_delta lists " + std::to_string(max_delta->items().size()) + " values but action_dim is " +
                       dim.literal() + " (or give one number)"});
}

// JSON equality of two scalars: numbers by value, anything else only equal to a value of its own JSON type.
bool same_scalar(const Value& a, const Value& b) { return equal(a, b); }

void infer_param_rules(const Value& node, const std::string& path, std::vector<Refusal>& out) {
  const Value* low = node.find("min");
  const Value* high = node.find("max");
  const Value* def = node.find("default");
  const Value* choices = node.find("choices");
  bool has_low = present(low), has_high = present(high);
  if (has_low && has_high && compare(low->as_number(), high->as_number()) > 0)
    out.push_back({path, "InferParam.min-not-above-max", "min (" + low->as_number().literal() +
                                                             ") is above max (" + high->as_number().literal() + ")"});
  if (!present(def)) return;
  std::string def_path = path_member(path, "default");
  if (present(choices)) {
    bool found = false;
    for (const Value& choice : choices->items()) found = found || same_scalar(*def, choice);
    if (!found) {
      out.push_back({def_path, "InferParam.default-allowed",
                     "the default is not one of the choices (JSON equality: true is not 1, 1 is 1.0)"});
      return;
    }
  }
  if (!has_low && !has_high) return;
  if (!def->is_number()) {
    out.push_back({def_path, "InferParam.default-allowed",
                   "the default is not a number, so it cannot be checked against min/max"});
  } else if ((has_low && compare(def->as_number(), low->as_number()) < 0) ||
             (has_high && compare(def->as_number(), high->as_number()) > 0)) {
    out.push_back({def_path, "InferParam.default-allowed", "the default lies outside [min, max]"});
  }
}

bool day_exists(long year, int month, int day) {
  if (month == 2) {
    bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    return day <= (leap ? 29 : 28);
  }
  return day <= 30 || !(month == 4 || month == 6 || month == 9 || month == 11);
}

void lease_rules(const Value& node, const std::string& path, std::vector<Refusal>& out) {
  const std::string& text = node.find("expires_at")->as_string();  // the schema's pattern fixed YYYY-MM-DD
  long year = std::stol(text.substr(0, 4));
  int month = std::stoi(text.substr(5, 2));
  int day = std::stoi(text.substr(8, 2));
  if (!day_exists(year, month, day))
    out.push_back({path_member(path, "expires_at"), "Lease.expires-at-real-date",
                   text.substr(0, 10) + " is not a day of the calendar"});
}

void beyond_schema(const std::vector<schema::Visit>& visits, std::vector<Refusal>& out) {
  std::set<const Value*> done;
  for (const schema::Visit& visit : visits) {
    if (!done.insert(visit.node).second) continue;
    if (visit.type_name == "DeploymentPolicy") deployment_policy_rules(*visit.node, visit.path, out);
    if (visit.type_name == "ActionContract") action_contract_rules(*visit.node, visit.path, out);
    if (visit.type_name == "InferParam") infer_param_rules(*visit.node, visit.path, out);
    if (visit.type_name == "Lease") lease_rules(*visit.node, visit.path, out);
  }
}

// Stream.sort-at first (it changes no object's members), then DeploymentPolicy.fold-streaming from the deepest
// node up, so that removing `streaming` never moves a node still to be rewritten.
void normalize(const std::vector<schema::Visit>& visits) {
  std::set<const Value*> done;
  for (const schema::Visit& visit : visits) {
    if (visit.type_name != "Stream" || !done.insert(visit.node).second) continue;
    Value* at = visit.node->find("at");
    if (present(at))
      std::stable_sort(at->items().begin(), at->items().end(),
                       [](const Value& a, const Value& b) { return compare(a.as_number(), b.as_number()) < 0; });
  }
  for (auto it = visits.rbegin(); it != visits.rend(); ++it) {
    if (it->type_name != "DeploymentPolicy" || !done.insert(it->node).second) continue;
    std::vector<Member>& members = it->node->members();
    const Value* streaming = it->node->find("streaming");
    bool own = streaming != nullptr && streaming->is_bool() && streaming->as_bool();
    members.erase(std::remove_if(members.begin(), members.end(), [](const Member& m) { return m.first == "streaming"; }),
                  members.end());
    if (own) {
      Value* episodes = it->node->find("episodes");
      if (episodes != nullptr) *episodes = Value::string("own");
      else members.emplace_back("episodes", Value::string("own"));
    }
  }
}

// A value that obeys the wire rules → schema, rules beyond it, normalization.
Validation validate_checked(const schema::Node& root, Value value) {
  Validation result;
  result.normalized = std::move(value);
  schema::Outcome outcome;
  schema::evaluate(root, result.normalized, "$", "", outcome);
  if (!outcome.errors.empty()) {
    result.refusals = schema_refusals(std::move(outcome.errors));
  } else {
    beyond_schema(outcome.visits, result.refusals);
  }
  if (!result.refusals.empty()) {
    sort_and_bound(result.refusals);
    result.normalized = Value();
    return result;
  }
  normalize(outcome.visits);
  result.valid = true;
  return result;
}

}  // namespace

const std::vector<std::string>& schema_type_names() { return schema::root_names(); }

bool is_schema_type(const std::string& type_name) { return schema::root(type_name) != nullptr; }

Validation validate_value(const std::string& type_name, const Value& value) {
  const schema::Node* root = schema::root(type_name);
  if (root == nullptr) throw std::invalid_argument("not a contract type: " + type_name);
  Validation result;
  result.refusals = wire_refusals(value, contract_read_options());
  if (!result.refusals.empty()) {
    sort_and_bound(result.refusals);
    return result;
  }
  return validate_checked(*root, value);
}

Validation validate(const std::string& type_name, const std::string& text) {
  if (!is_schema_type(type_name)) throw std::invalid_argument("not a contract type: " + type_name);
  ReadResult read_result = read(text);
  Validation result;
  if (!read_result.ok) {
    result.refusals = std::move(read_result.refusals);
    sort_and_bound(result.refusals);
    return result;
  }
  return validate_checked(*schema::root(type_name), std::move(read_result.value));
}

}  // namespace seqio
