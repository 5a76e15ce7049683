// The contract's JSON Schemas, embedded in the jar (example/seqio/schemas/<Type>.json) → one networknt registry
// that resolves every `$id` under the schemas' base from those resources (never the network) + each schema read
// by our own reader, for finding `x-rule` annotations along an error's evaluation path.
// WHY the registry is fed the texts itself: a `$ref` then cannot reach anything but the shipped files.
package example.seqio.validate;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import example.seqio.json.JsonReader;
import example.seqio.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The embedded schemas: compiled validators and their JSON. */
final class SchemaSet {
  static final String BASE = "https://seq-io-spec.example/schemas/";
  private static final String RESOURCES = "/example/seqio/schemas/";

  private final SchemaRegistry registry;
  private final Map<String, Schema> compiled = new ConcurrentHashMap<>();
  private final Map<String, JsonValue.Obj> documents = new ConcurrentHashMap<>();

  SchemaSet() {
    registry = SchemaRegistry.withDefaultDialect(
        SpecificationVersion.DRAFT_2020_12, builder -> builder.schemas(SchemaSet::textOrNull));
  }

  /** True when {@code typeName} has a schema file. */
  static boolean exists(String typeName) {
    return SchemaSet.class.getResource(RESOURCES + typeName + ".json") != null;
  }

  /** The compiled validator of a type. */
  Schema schema(String typeName) {
    return compiled.computeIfAbsent(typeName,
        name -> registry.getSchema(SchemaLocation.of(BASE + name + ".json")));
  }

  /** The schema document of a file name under the base ({@code Camera.json}), as our JSON value. */
  JsonValue.Obj document(String fileName) {
    return documents.computeIfAbsent(fileName, name -> {
      JsonReader.Result read = JsonReader.read(resourceText(name));
      if (!(read.value() instanceof JsonValue.Obj o)) {
        throw new IllegalStateException("the embedded schema " + name + " is not a JSON object");
      }
      return o;
    });
  }

  private static String textOrNull(String iri) {
    if (!iri.startsWith(BASE)) {
      return null;
    }
    String name = iri.substring(BASE.length());
    return SchemaSet.class.getResource(RESOURCES + name) == null ? null : resourceText(name);
  }

  private static String resourceText(String fileName) {
    try (InputStream in = SchemaSet.class.getResourceAsStream(RESOURCES + fileName)) {
      if (in == null) {
        throw new IllegalStateException("no embedded schema " + fileName);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
