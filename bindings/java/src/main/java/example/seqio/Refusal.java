// One refusal of an instance: where (a JSON path in spec/validation.md's notation), which rule id, and a sentence.
// Readers, the schema stage and the rules beyond the schema all report these, so a caller handles one shape.
// WHY a record: vectors compare path and rule only; the sentence is for people.
package example.seqio;

/** A refusal: {@code path} like {@code $.streams["front cam"].at[0]}, {@code rule} like {@code maximum}. */
public record Refusal(String path, String rule, String message) implements Comparable<Refusal> {
  @Override
  public int compareTo(Refusal other) {
    int byPath = path.compareTo(other.path);
    return byPath != 0 ? byPath : rule.compareTo(other.rule);
  }
}
