// An optional member of a generated type: ABSENT (not in the object), NULL (an explicit `null`) or a VALUE.
// WHY three states: spec/validation.md "Writing an instance" — a writer never turns an absent member into `null`
// or back, so `Optional` (two states) cannot hold what a message said.
package example.seqio.json;

import java.util.Objects;
import java.util.function.Function;

/** A three-state member value. */
public final class Field<T> {
  /** Which of the three states a field is in. */
  public enum State {
    ABSENT,
    NULL,
    VALUE
  }

  private static final Field<?> ABSENT_FIELD = new Field<>(State.ABSENT, null);
  private static final Field<?> NULL_FIELD = new Field<>(State.NULL, null);

  private final State state;
  private final T value;

  private Field(State state, T value) {
    this.state = state;
    this.value = value;
  }

  /** The member is not in the object. */
  @SuppressWarnings("unchecked")
  public static <T> Field<T> absent() {
    return (Field<T>) ABSENT_FIELD;
  }

  /** The member is an explicit {@code null}. */
  @SuppressWarnings("unchecked")
  public static <T> Field<T> ofNull() {
    return (Field<T>) NULL_FIELD;
  }

  /** The member holds {@code value}. */
  public static <T> Field<T> of(T value) {
    return new Field<>(State.VALUE, Objects.requireNonNull(value));
  }

  public State state() {
    return state;
  }

  public boolean isAbsent() {
    return state == State.ABSENT;
  }

  public boolean isNull() {
    return state == State.NULL;
  }

  public boolean isPresent() {
    return state == State.VALUE;
  }

  /** The value; only for a field in state VALUE. */
  public T get() {
    if (state != State.VALUE) {
      throw new IllegalStateException("the field is " + state + ", it holds no value");
    }
    return value;
  }

  /** The same state with the value mapped. */
  public <R> Field<R> map(Function<? super T, ? extends R> f) {
    return state == State.VALUE ? of(f.apply(value)) : absentOrNull();
  }

  @SuppressWarnings("unchecked")
  private <R> Field<R> absentOrNull() {
    return (Field<R>) this;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Field<?> f && f.state == state && Objects.equals(f.value, value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(state, value);
  }

  @Override
  public String toString() {
    return state == State.VALUE ? String.valueOf(value) : state.name().toLowerCase(java.util.Locale.ROOT);
  }
}
