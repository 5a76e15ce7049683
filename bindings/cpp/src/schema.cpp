// Embedded schema texts → compiled Nodes (once, on first use) → evaluation of an instance into failing keywords.
//
// Why shaped this way: every keyword is evaluated (JSON Schema applies all of them); each failure carries the
// rule id of the nearest x-rule on the way from the root (following $refs), its rank and its path, so the caller
// only filters by rank per path. anyOf, not and if evaluate their branches into scratch outcomes and keep only
// what spec/validation.md "Rule ids" says to keep.
#include "schema.h"

#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>

#include "seqio/embedded.h"

namespace seqio {
namespace schema {
namespace {

enum TypeBit : unsigned { kNull = 1, kBool = 2, kInteger = 4, kNumber = 8, kString = 16, kArray = 32, kObject = 64 };

unsigned type_bit(const std::string& name) {
  static const std::map<std::string, unsigned> bits = {{"null", kNull},     {"boolean", kBool}, {"integer", kInteger},
                                                       {"number", kNumber}, {"string", kString}, {"array", kArray},
                                                       {"object", kObject}};
  auto found = bits.find(name);
  if (found == bits.end()) throw std::logic_error("unknown JSON Schema type " + name);
  return found->second;
}

// Keywords that only annotate: accepted and ignored by evaluation.
const std::set<std::string>& annotations() {
  static const std::set<std::string> names = {"$schema", "$id",     "title",           "description", "default",
                                              "examples", "x-limits", "x-enum-varnames", "deprecated"};
  return names;
}

class Loader {
 public:
  std::deque<Node> nodes;
  std::map<std::string, const Node*> roots;
  std::vector<std::string> names;

  void load_all() {
    for (const embedded::SchemaText& schema : embedded::schemas()) {
      ReadResult read_result = read(schema.text);
      if (!read_result.ok) throw std::logic_error(std::string("embedded schema unreadable: ") + schema.file);
      std::string name = schema.file;
      name = name.substr(0, name.size() - 5);
      Node& node = compile(read_result.value, name);
      node.name = name;
      roots[name] = &node;
      names.push_back(name);
    }
    for (Node& node : nodes) {
      if (node.ref.empty()) continue;
      auto found = roots.find(node.ref);
      if (found == roots.end()) throw std::logic_error("unresolved $ref " + node.ref);
      node.ref_node = found->second;
    }
  }

  Node& compile(const Value& schema, const std::string& where) {
    nodes.emplace_back();
    Node& node = nodes.back();
    if (schema.is_bool()) {
      node.always_false = !schema.as_bool();
      return node;
    }
    if (!schema.is_object()) throw std::logic_error(where + ": a schema must be an object or a boolean");
    for (const Member& m : schema.members()) compile_keyword(node, m.first, m.second, where + "/" + m.first);
    return node;
  }

 private:
  static std::size_t size_of(const Value& v, const std::string& where) {
    if (!v.is_number() || !v.as_number().integral() || !v.as_number().fits_int64() || v.as_number().to_int64() < 0)
      throw std::logic_error(where + " needs a non-negative integer");
    return static_cast<std::size_t>(v.as_number().to_int64());
  }

  static std::wstring wide(const std::string& utf8) {
    std::u32string points = to_code_points(utf8);
    return std::wstring(points.begin(), points.end());
  }

  std::vector<const Node*> compile_list(const Value& list, const std::string& where) {
    std::vector<const Node*> out;
    for (std::size_t i = 0; i < list.items().size(); ++i)
      out.push_back(&compile(list.items()[i], where + "/" + std::to_string(i)));
    return out;
  }

  void compile_keyword(Node& node, const std::string& key, const Value& v, const std::string& where) {
    if (annotations().count(key)) return;
    if (key == "type") {
      if (v.is_string()) node.types = type_bit(v.as_string());
      else for (const Value& t : v.items()) node.types |= type_bit(t.as_string());
    } else if (key == "x-rule") {
      node.x_rule = v.as_string();
    } else if (key == "$ref") {
      std::string ref = v.as_string();
      if (ref.size() < 6 || ref.compare(ref.size() - 5, 5, ".json") != 0 || ref.find('#') != std::string::npos)
        throw std::logic_error(where + ": only whole-file references are supported: " + ref);
      node.ref = ref.substr(0, ref.size() - 5);
    } else if (key == "properties") {
      for (const Member& p : v.members()) node.properties.emplace_back(p.first, &compile(p.second, where + "/" + p.first));
    } else if (key == "required") {
      for (const Value& r : v.items()) node.required.push_back(r.as_string());
    } else if (key == "additionalProperties") {
      if (v.is_bool() && !v.as_bool()) node.additional_false = true;
      else node.additional = &compile(v, where);
    } else if (key == "anyOf") {
      node.any_of = compile_list(v, where);
    } else if (key == "allOf") {
      node.all_of = compile_list(v, where);
    } else if (key == "prefixItems") {
      node.prefix_items = compile_list(v, where);
    } else if (key == "not") {
      node.not_ = &compile(v, where);
    } else if (key == "if") {
      node.if_ = &compile(v, where);
    } else if (key == "then") {
      node.then_ = &compile(v, where);
    } else if (key == "else") {
      node.else_ = &compile(v, where);
    } else if (key == "items") {
      node.items = &compile(v, where);
    } else if (key == "propertyNames") {
      node.property_names = &compile(v, where);
    } else if (key == "minimum" || key == "maximum" || key == "exclusiveMinimum") {
      if (!v.is_number()) throw std::logic_error(where + " needs a number");
      (key == "minimum" ? node.minimum : key == "maximum" ? node.maximum : node.exclusive_minimum) = v.as_number();
    } else if (key == "minLength") {
      node.min_length = size_of(v, where);
    } else if (key == "maxLength") {
      node.max_length = size_of(v, where);
    } else if (key == "minItems") {
      node.min_items = size_of(v, where);
    } else if (key == "maxItems") {
      node.max_items = size_of(v, where);
    } else if (key == "maxProperties") {
      node.max_properties = size_of(v, where);
    } else if (key == "uniqueItems") {
      node.unique_items = v.as_bool();
    } else if (key == "enum") {
      node.enum_values = v.items();
    } else if (key == "const") {
      node.const_value = v;
    } else if (key == "pattern") {
      node.pattern_text = v.as_string();
      node.pattern = std::make_shared<std::wregex>(wide(v.as_string()), std::regex::ECMAScript);
    } else {
      throw std::logic_error(where + ": the keyword \"" + key + "\" is not one this evaluator implements");
    }
  }
};

const Loader& loaded() {
  static const Loader* loader = [] {
    auto* l = new Loader();
    l->load_all();
    return l;
  }();
  return *loader;
}

unsigned instance_types(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::Null: return kNull;
    case Value::Kind::Bool: return kBool;
    case Value::Kind::Number: return v.as_number().integral() ? (kInteger | kNumber) : kNumber;
    case Value::Kind::String: return kString;
    case Value::Kind::Array: return kArray;
    case Value::Kind::Object: return kObject;
  }
  return 0;
}

std::string type_names(unsigned types) {
  static const char* names[] = {"null", "boolean", "integer", "number", "string", "array", "object"};
  std::string out;
  for (int i = 0; i < 7; ++i) {
    if (!(types & (1u << i))) continue;
    if (!out.empty()) out += " or ";
    out += names[i];
  }
  return out;
}

std::string quote(const Value& v) { return cut_for_message(write(v)); }

// Does a branch of an anyOf take the instance's JSON type (its own `type`, after a $ref at its root)?
bool admits(const Node& branch, const Value& instance) {
  const Node* node = &branch;
  if (node->types == 0 && node->ref_node != nullptr) node = node->ref_node;
  return node->types == 0 || (node->types & instance_types(instance)) != 0;
}

class Evaluator {
 public:
  explicit Evaluator(Outcome& out, const Value* skip_patterns_of = nullptr)
      : out_(out), skip_patterns_of_(skip_patterns_of) {}

  void run(const Node& node, Value& v, const std::string& path, std::string rule) {
    if (!node.x_rule.empty()) rule = node.x_rule;
    // spec/validation.md "Limits": the patterns of a string that breaks its own maxLength may be skipped, also in
    // the subschemas applied to it here (a 100 MB stream key is refused by maxLength without scanning it).
    const Value* saved_skip = skip_patterns_of_;
    if (v.is_string() && node.max_length && code_point_count(v.as_string()) > *node.max_length) skip_patterns_of_ = &v;
    run_keywords(node, v, path, rule);
    skip_patterns_of_ = saved_skip;
  }

 private:
  Outcome& out_;
  const Value* skip_patterns_of_;

  void run_keywords(const Node& node, Value& v, const std::string& path, const std::string& rule) {
    if (!node.name.empty()) out_.visits.push_back({node.name, &v, path});
    if (node.always_false) fail(path, rule, "false", 4, "no value is allowed here");
    if (node.ref_node != nullptr) run(*node.ref_node, v, path, rule);
    check_type(node, v, path, rule);
    check_value(node, v, path, rule);
    if (v.is_number()) check_number(node, v.as_number(), path, rule);
    if (v.is_string()) check_string(node, v, path, rule);
    if (v.is_array()) check_array(node, v, path, rule);
    if (v.is_object()) check_object(node, v, path, rule);
    for (const Node* sub : node.all_of) run(*sub, v, path, rule);
    if (!node.any_of.empty()) check_any_of(node, v, path, rule);
    if (node.not_ != nullptr && passes(*node.not_, v, path, rule))
      fail(path, rule, "not", 4, "the value matches a form that is not allowed here");
    if (node.if_ != nullptr) {
      const Node* chosen = passes(*node.if_, v, path, rule) ? node.then_ : node.else_;
      if (chosen != nullptr) run(*chosen, v, path, rule);
    }
  }

  void fail(const std::string& path, const std::string& rule, const char* keyword, int rank, std::string message) {
    out_.errors.push_back({path, rule.empty() ? keyword : rule, rank, std::move(message)});
  }

  bool passes(const Node& node, Value& v, const std::string& path, const std::string& rule) {
    Outcome scratch;
    Evaluator(scratch, skip_patterns_of_).run(node, v, path, rule);
    return scratch.errors.empty();
  }

  void check_type(const Node& node, const Value& v, const std::string& path, const std::string& rule) {
    if (node.types != 0 && (node.types & instance_types(v)) == 0)
      fail(path, rule, "type", 1, "expected " + type_names(node.types) + ", found " + quote(v));
  }

  void check_value(const Node& node, const Value& v, const std::string& path, const std::string& rule) {
    if (node.enum_values) {
      bool found = false;
      for (const Value& allowed : *node.enum_values) found = found || equal(allowed, v);
      if (!found) fail(path, rule, "enum", 4, quote(v) + " is not one of the allowed values");
    }
    if (node.const_value && !equal(*node.const_value, v))
      fail(path, rule, "const", 4, quote(v) + " is not the one allowed value " + quote(*node.const_value));
  }

  void check_number(const Node& node, const Number& n, const std::string& path, const std::string& rule) {
    if (node.minimum && compare(n, *node.minimum) < 0)
      fail(path, rule, "minimum", 4, n.literal() + " is below the minimum " + node.minimum->literal());
    if (node.maximum && compare(n, *node.maximum) > 0)
      fail(path, rule, "maximum", 4, n.literal() + " is above the maximum " + node.maximum->literal());
    if (node.exclusive_minimum && compare(n, *node.exclusive_minimum) <= 0)
      fail(path, rule, "exclusiveMinimum", 4, n.literal() + " must be greater than " + node.exclusive_minimum->literal());
  }

  void check_string(const Node& node, const Value& v, const std::string& path, const std::string& rule) {
    const std::string& s = v.as_string();
    std::size_t length = code_point_count(s);
    bool too_long = node.max_length && length > *node.max_length;
    if (too_long)
      fail(path, rule, "maxLength", 4, "the string has " + std::to_string(length) + " characters, more than " +
                                           std::to_string(*node.max_length));
    if (node.min_length && length < *node.min_length)
      fail(path, rule, "minLength", 4, "the string has " + std::to_string(length) + " characters, fewer than " +
                                           std::to_string(*node.min_length));
    if (node.pattern && !too_long && skip_patterns_of_ != &v) {
      std::u32string points = to_code_points(s);
      std::wstring text(points.begin(), points.end());
      if (!std::regex_search(text, *node.pattern))
        fail(path, rule, "pattern", 4, quote(Value::string(s)) + " does not match the pattern " + node.pattern_text);
    }
  }

  void check_array(const Node& node, Value& v, const std::string& path, const std::string& rule) {
    std::vector<Value>& items = v.items();
    bool too_many = node.max_items && items.size() > *node.max_items;
    if (too_many)
      fail(path, rule, "maxItems", 4, "the array has " + std::to_string(items.size()) + " items, more than " +
                                          std::to_string(*node.max_items));
    if (node.min_items && items.size() < *node.min_items)
      fail(path, rule, "minItems", 4, "the array has " + std::to_string(items.size()) + " items, fewer than " +
                                          std::to_string(*node.min_items));
    if (too_many) return;  // spec/validation.md "Limits": the size refusal stands for the contents
    if (node.unique_items) check_unique(items, path, rule);
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Node* sub = i < node.prefix_items.size() ? node.prefix_items[i] : node.items;
      if (sub != nullptr) run(*sub, items[i], path_index(path, i), rule);
    }
  }

  void check_unique(const std::vector<Value>& items, const std::string& path, const std::string& rule) {
    for (std::size_t i = 0; i < items.size(); ++i)
      for (std::size_t j = i + 1; j < items.size(); ++j)
        if (equal(items[i], items[j])) {
          fail(path, rule, "uniqueItems", 4,
               "items " + std::to_string(i) + " and " + std::to_string(j) + " are equal; items must differ");
          return;
        }
  }

  void check_object(const Node& node, Value& v, const std::string& path, const std::string& rule) {
    std::vector<Member>& members = v.members();
    bool too_many = node.max_properties && members.size() > *node.max_properties;
    if (too_many)
      fail(path, rule, "maxProperties", 4, "the object has " + std::to_string(members.size()) +
                                               " members, more than " + std::to_string(*node.max_properties));
    for (const std::string& name : node.required)
      if (v.find(name) == nullptr) fail(path, rule, "required", 2, "the member \"" + name + "\" is required");
    if (too_many) return;
    std::vector<std::string> unknown;
    for (Member& m : members) {
      const Node* declared = nullptr;
      for (const auto& p : node.properties)
        if (p.first == m.first) declared = p.second;
      std::string member_path = path_member(path, m.first);
      if (declared != nullptr) {
        run(*declared, m.second, member_path, rule);
      } else if (node.additional != nullptr) {
        run(*node.additional, m.second, member_path, rule);
      } else if (node.additional_false) {
        unknown.push_back(m.first);
      }
      if (node.property_names != nullptr) {
        Value name = Value::string(m.first);
        Outcome names;
        Evaluator(names).run(*node.property_names, name, path, rule);
        for (Error& e : names.errors) out_.errors.push_back(std::move(e));
      }
    }
    if (!unknown.empty()) fail(path, rule, "additionalProperties", 3, unknown_members_message(unknown));
  }

  static std::string unknown_members_message(const std::vector<std::string>& unknown) {
    std::string list;
    for (std::size_t i = 0; i < unknown.size() && i < 5; ++i) {
      if (i > 0) list += ", ";
      list += quote(Value::string(unknown[i]));
    }
    if (unknown.size() > 5) list += " and " + std::to_string(unknown.size() - 5) + " more";
    return "members not declared by this type: " + list;
  }

  void check_any_of(const Node& node, Value& v, const std::string& path, const std::string& rule) {
    std::vector<Outcome> admitted;
    bool any_admits = false;
    for (const Node* branch : node.any_of) {
      Outcome branch_outcome;
      Evaluator(branch_outcome, skip_patterns_of_).run(*branch, v, path, rule);
      if (branch_outcome.errors.empty()) {  // a passing branch: the anyOf holds; keep what it visited
        for (Visit& visit : branch_outcome.visits) out_.visits.push_back(std::move(visit));
        return;
      }
      if (admits(*branch, v)) {
        any_admits = true;
        admitted.push_back(std::move(branch_outcome));
      }
    }
    if (!any_admits) {
      fail(path, rule, "type", 1, "no form allowed here takes " + quote(v));
      return;
    }
    for (Outcome& o : admitted)
      for (Error& e : o.errors) out_.errors.push_back(std::move(e));
  }
};

}  // namespace

const Node* root(const std::string& type_name) {
  const Loader& loader = loaded();
  auto found = loader.roots.find(type_name);
  return found == loader.roots.end() ? nullptr : found->second;
}

const std::vector<std::string>& root_names() { return loaded().names; }

void compile_for_check(const Value& schema) { Loader().compile(schema, "#"); }

void evaluate(const Node& node, Value& instance, const std::string& path, const std::string& rule, Outcome& out) {
  Evaluator(out).run(node, instance, path, rule);
}

}  // namespace schema
}  // namespace seqio
