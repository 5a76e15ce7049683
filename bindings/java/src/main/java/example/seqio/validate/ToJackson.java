// Our JsonValue → a Jackson JsonNode for the schema validator, built node by node (Jackson never parses text).
// Numbers: an integral value becomes an integer node (int, long or BigInteger, the narrowest, as Jackson reads
// the schemas' own numbers), so `640.0` is an integer and `-0.0` equals `0`; any other value is the double the
// contract's number model says it is.
// WHY: Jackson's parser coerces, accepts duplicate keys and NaN, and limits number length; ours decided already.
package example.seqio.validate;

import example.seqio.json.JsonNumber;
import example.seqio.json.JsonValue;
import java.math.BigInteger;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Converts values for the validator. */
final class ToJackson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final BigInteger INT_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
  private static final BigInteger INT_MAX = BigInteger.valueOf(Integer.MAX_VALUE);

  private ToJackson() {}

  static JsonNode node(JsonValue value) {
    if (value instanceof JsonValue.Null) {
      return NODES.nullNode();
    } else if (value instanceof JsonValue.Bool b) {
      return NODES.booleanNode(b.value());
    } else if (value instanceof JsonNumber n) {
      return number(n);
    } else if (value instanceof JsonValue.Str s) {
      return NODES.stringNode(s.value());
    } else if (value instanceof JsonValue.Arr a) {
      ArrayNode out = NODES.arrayNode(a.items().size());
      for (JsonValue item : a.items()) {
        out.add(node(item));
      }
      return out;
    }
    ObjectNode out = NODES.objectNode();
    for (Map.Entry<String, JsonValue> member : ((JsonValue.Obj) value).members().entrySet()) {
      out.set(member.getKey(), node(member.getValue()));
    }
    return out;
  }

  private static JsonNode number(JsonNumber n) {
    if (!n.isIntegral()) {
      return NODES.numberNode(n.doubleValue());
    }
    BigInteger v = n.integerValue();
    if (v.compareTo(INT_MIN) >= 0 && v.compareTo(INT_MAX) <= 0) {
      return NODES.numberNode(v.intValue());
    }
    if (v.bitLength() < 64) {
      return NODES.numberNode(v.longValue());
    }
    return NODES.numberNode(v);
  }
}
