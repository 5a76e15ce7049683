// networknt's flat error list (keyword, instance location, evaluation path) → the refusals of spec/validation.md:
// the anyOf rule (only branches that admit the instance's JSON type speak; none → one `type`), the rule id (the
// nearest `x-rule` on the evaluation path, following `$ref`s, else the keyword; inside `propertyNames` the
// failing inner keyword), the path (the object for `required`, `additionalProperties`, `propertyNames`), and
// the rank rule (per path, only the lowest rank: type 1, required 2, additionalProperties 3, others 4).
// WHY here: the engine's answer is right but shaped for its own output format; this is the one translation.
package example.seqio.validate;

import com.networknt.schema.Error;
import com.networknt.schema.path.NodePath;
import example.seqio.JsonPath;
import example.seqio.Refusal;
import example.seqio.json.JsonValue;
import example.seqio.json.Quote;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** Maps engine errors to refusals. */
final class SchemaErrors {
  private final SchemaSet schemas;
  private final String rootFile;

  SchemaErrors(SchemaSet schemas, String typeName) {
    this.schemas = schemas;
    this.rootFile = typeName + ".json";
  }

  /** One engine error with its evaluation path as plain segments. */
  private record Raw(Error error, List<String> eval) {
    String evalText() {
      return String.join("/", eval);
    }
  }

  List<Refusal> refusals(List<Error> errors) {
    List<Raw> raws = new ArrayList<>();
    for (Error error : errors) {
      raws.add(new Raw(error, segments(error.getEvaluationPath())));
    }
    Set<String> evalPaths = new HashSet<>();
    Map<String, Set<Integer>> branchesSeen = new HashMap<>();
    for (Raw raw : raws) {
      evalPaths.add(raw.evalText());
      for (int i = 0; i + 1 < raw.eval.size(); i++) {
        if (raw.eval.get(i).equals("anyOf")) {
          branchesSeen.computeIfAbsent(prefix(raw.eval, i), k -> new TreeSet<>())
              .add(Integer.parseInt(raw.eval.get(i + 1)));
        }
      }
    }
    Map<String, Integer> ranks = new HashMap<>();
    Map<String, Ranked> found = new LinkedHashMap<>();
    Map<String, List<String>> unknownKeys = new HashMap<>();
    for (Raw raw : raws) {
      if (speaks(raw, evalPaths, branchesSeen)) {
        Refusal refusal = refusal(raw);
        int rank = rank(raw.error.getKeyword());
        ranks.merge(refusal.path(), rank, Math::min);
        String key = refusal.path() + "\u0000" + refusal.rule();
        found.putIfAbsent(key, new Ranked(refusal, rank));
        if (raw.error.getKeyword().equals("additionalProperties") && raw.error.getProperty() != null) {
          unknownKeys.computeIfAbsent(key, k -> new ArrayList<>()).add(raw.error.getProperty());
        }
      }
    }
    List<Refusal> out = new ArrayList<>();
    for (Map.Entry<String, Ranked> entry : found.entrySet()) {
      Refusal r = entry.getValue().refusal;
      if (entry.getValue().rank == ranks.get(r.path())) {
        List<String> keys = unknownKeys.get(entry.getKey());
        out.add(keys == null ? r : new Refusal(r.path(), r.rule(), unknownKeysSentence(keys)));
      }
    }
    return out;
  }

  private record Ranked(Refusal refusal, int rank) {}

  /** At most this many unknown keys are named in one sentence (spec/validation.md, "Limits"). */
  private static final int KEYS_NAMED = 5;

  private static String unknownKeysSentence(List<String> keys) {
    List<String> sorted = new ArrayList<>(new TreeSet<>(keys));
    StringBuilder out = new StringBuilder("unknown key(s) ");
    for (int i = 0; i < Math.min(KEYS_NAMED, sorted.size()); i++) {
      out.append(i > 0 ? ", " : "").append(Quote.shortJson(sorted.get(i)));
    }
    if (sorted.size() > KEYS_NAMED) {
      out.append(" and ").append(sorted.size() - KEYS_NAMED).append(" more");
    }
    return out.append(": this object is closed").toString();
  }

  /**
   * Whether an error is reported under the anyOf rule: at every anyOf on its way, its branch must admit the
   * instance's type; when no branch of an anyOf does, only the first branch's own {@code type} error speaks.
   */
  private static boolean speaks(Raw raw, Set<String> evalPaths, Map<String, Set<Integer>> branchesSeen) {
    for (int i = 0; i + 1 < raw.eval.size(); i++) {
      if (!raw.eval.get(i).equals("anyOf")) {
        continue;
      }
      String at = prefix(raw.eval, i);
      Set<Integer> branches = branchesSeen.get(at);
      int branch = Integer.parseInt(raw.eval.get(i + 1));
      boolean noneAdmits = branches.stream().allMatch(b -> refusesType(at, b, evalPaths));
      if (noneAdmits) {
        int first = branches.iterator().next();
        return branch == first && raw.evalText().equals(typeErrorOf(at, first, evalPaths));
      }
      if (refusesType(at, branch, evalPaths)) {
        return false;
      }
    }
    return true;
  }

  private static boolean refusesType(String anyOf, int branch, Set<String> evalPaths) {
    return typeErrorOf(anyOf, branch, evalPaths) != null;
  }

  /** The evaluation path of a branch's own root {@code type} error (after a root {@code $ref}), or null. */
  private static String typeErrorOf(String anyOf, int branch, Set<String> evalPaths) {
    String head = (anyOf.isEmpty() ? "" : anyOf + "/") + "anyOf/" + branch;
    for (String candidate : List.of(head + "/type", head + "/$ref/type")) {
      if (evalPaths.contains(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  private static String prefix(List<String> eval, int end) {
    return String.join("/", eval.subList(0, end));
  }

  private static List<String> segments(NodePath path) {
    List<String> out = new ArrayList<>(path.getNameCount());
    for (int i = 0; i < path.getNameCount(); i++) {
      out.add(String.valueOf(path.getElement(i)));
    }
    return out;
  }

  static int rank(String keyword) {
    return switch (keyword) {
      case "type" -> 1;
      case "required" -> 2;
      case "additionalProperties" -> 3;
      default -> 4;
    };
  }

  private Refusal refusal(Raw raw) {
    Error error = raw.error;
    String keyword = error.getKeyword();
    String path = instancePath(error.getInstanceLocation());
    Walk walk = walk(raw.eval);
    if (keyword.equals("propertyNames")) {
      String name = error.getProperty();
      String rule = walk.rule != null ? walk.rule : innerKeyword(walk.node, name);
      return new Refusal(path, rule, "the key " + Quote.shortJson(name == null ? "" : name)
          + " is refused: " + sentence(walk, error));
    }
    return new Refusal(path, walk.rule != null ? walk.rule : keyword, sentence(walk, error));
  }

  private static String sentence(Walk walk, Error error) {
    String text = Quote.shortText(error.getMessage() == null ? error.getKeyword() : error.getMessage());
    return walk.description != null ? walk.description + " (" + text + ")" : text;
  }

  private static String instancePath(NodePath location) {
    List<Object> segments = new ArrayList<>();
    for (int i = 0; i < location.getNameCount(); i++) {
      segments.add(location.getElement(i));
    }
    return JsonPath.of(segments);
  }

  /** Where an evaluation path ends in the schema documents, and the nearest x-rule met on the way. */
  private record Walk(JsonValue node, String rule, String description) {}

  private Walk walk(List<String> eval) {
    JsonValue node = schemas.document(rootFile);
    String[] found = annotation(node, new String[2]);
    for (int i = 0; i + 1 < eval.size(); i++) {
      String step = eval.get(i);
      if (step.equals("$ref")) {
        node = schemas.document(refFile(node));
      } else {
        node = child(node, step);
      }
      found = annotation(node, found);
    }
    if (!eval.isEmpty() && eval.get(eval.size() - 1).equals("propertyNames")) {
      node = child(node, "propertyNames");
      found = annotation(node, found);
    }
    return new Walk(node, found[0], found[1]);
  }

  private static String[] annotation(JsonValue node, String[] found) {
    if (node instanceof JsonValue.Obj o && o.members().get("x-rule") instanceof JsonValue.Str rule) {
      String description = o.members().get("description") instanceof JsonValue.Str d ? d.value() : null;
      return new String[] {rule.value(), description};
    }
    return found;
  }

  private static String refFile(JsonValue node) {
    String ref = ((JsonValue.Str) ((JsonValue.Obj) node).members().get("$ref")).value();
    return ref.startsWith(SchemaSet.BASE) ? ref.substring(SchemaSet.BASE.length()) : ref;
  }

  private static JsonValue child(JsonValue node, String step) {
    if (node instanceof JsonValue.Obj o) {
      return o.members().getOrDefault(step, JsonValue.Null.NULL);
    }
    if (node instanceof JsonValue.Arr a) {
      return a.items().get(Integer.parseInt(step));
    }
    return JsonValue.Null.NULL;
  }

  /** The keyword inside a {@code propertyNames} subschema (without x-rule) that refuses {@code name}. */
  private static String innerKeyword(JsonValue subschema, String name) {
    Map<String, JsonValue> members = subschema instanceof JsonValue.Obj o ? o.members() : Map.of();
    int length = name == null ? 0 : name.codePointCount(0, name.length());
    if (members.get("enum") instanceof JsonValue.Arr values
        && !values.items().contains(new JsonValue.Str(name))) {
      return "enum";
    }
    if (members.get("minLength") instanceof example.seqio.json.JsonNumber min
        && length < min.integerValue().intValue()) {
      return "minLength";
    }
    if (members.get("maxLength") instanceof example.seqio.json.JsonNumber max
        && length > max.integerValue().intValue()) {
      return "maxLength";
    }
    if (members.get("pattern") instanceof JsonValue.Str pattern
        && !Pattern.compile(pattern.value()).matcher(name).find()) {
      return "pattern";
    }
    for (String keyword : members.keySet()) {
      if (!keyword.equals("description") && !keyword.equals("title") && !keyword.startsWith("x-")) {
        return keyword; // the subschema's remaining keyword (`not`, `allOf`, ...): never `propertyNames` itself
      }
    }
    throw new IllegalStateException("a propertyNames subschema without keywords refuses nothing");
  }
}
