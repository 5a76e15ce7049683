// A schema-valid instance + its type name → every node of every named object type inside it, with its path,
// found through the generated route table (Routes: member → `ref T`, `map ref T`, `list ref T`) → a visitor that
// may return a rewritten node, so one walk serves the rules beyond the schema and the normalizations.
// WHY a table: the rules apply to a type wherever it is nested; the model, not hand-written code, says where.
package example.seqio.validate;

import example.seqio.JsonPath;
import example.seqio.json.JsonValue;
import example.seqio.types.Routes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Walks the named object types of a schema-valid instance, bottom-up. */
final class TypedWalk {
  /** Sees one node of a named object type; returns the node to keep (itself, or a rewritten one). */
  interface Visitor {
    JsonValue.Obj visit(String typeName, JsonValue.Obj node, String path);
  }

  private TypedWalk() {}

  /** Visits the nodes below first, then this one; the depth is bounded by the reader's limit. */
  static JsonValue walk(String typeName, JsonValue value, String path, Visitor visitor) {
    Map<String, String> routes = Routes.BY_TYPE.get(typeName);
    if (routes == null || !(value instanceof JsonValue.Obj node)) {
      return value;
    }
    Map<String, JsonValue> members = JsonValue.Obj.newMembers();
    for (Map.Entry<String, JsonValue> member : node.members().entrySet()) {
      String route = routes.get(member.getKey());
      JsonValue child = member.getValue();
      String at = JsonPath.child(path, member.getKey());
      members.put(member.getKey(), route == null ? child : follow(route.split(" "), 0, child, at, visitor));
    }
    return visitor.visit(typeName, new JsonValue.Obj(members), path);
  }

  private static JsonValue follow(String[] route, int step, JsonValue value, String path, Visitor visitor) {
    switch (route[step]) {
      case "ref":
        return walk(route[step + 1], value, path, visitor);
      case "list":
        if (value instanceof JsonValue.Arr a) {
          List<JsonValue> items = new ArrayList<>(a.items().size());
          for (int i = 0; i < a.items().size(); i++) {
            items.add(follow(route, step + 1, a.items().get(i), JsonPath.child(path, i), visitor));
          }
          return new JsonValue.Arr(items);
        }
        return value;
      case "map":
        if (value instanceof JsonValue.Obj o) {
          Map<String, JsonValue> members = JsonValue.Obj.newMembers();
          for (Map.Entry<String, JsonValue> m : o.members().entrySet()) {
            members.put(m.getKey(), follow(route, step + 1, m.getValue(), JsonPath.child(path, m.getKey()), visitor));
          }
          return new JsonValue.Obj(members);
        }
        return value;
      default:
        throw new IllegalStateException("unknown route word " + route[step]);
    }
  }
}
