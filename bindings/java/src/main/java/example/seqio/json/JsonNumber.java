// A number literal → its value under spec/validation.md "The value of a number" + whether it was written as an
// integer → compared exactly, written back exactly.
// WHY: the value is an exact integer whenever the literal's exact decimal value is integral (any size the limits
// allow), otherwise the nearest binary64 double; the kind lets a writer keep `15` as `15` and `2.5e0` as a float.
package example.seqio.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Objects;

/** An exact JSON number: an integer value (any length) or a finite double, plus the kind it was written in. */
public final class JsonNumber implements JsonValue {
  private final BigInteger integer; // set when the value is integral
  private final double fraction; // the value when it is not integral
  private final boolean writtenAsInteger;
  private final String literal; // the text it was read from, or null for a number built in memory

  private JsonNumber(BigInteger integer, double fraction, boolean writtenAsInteger, String literal) {
    this.integer = integer;
    this.fraction = fraction;
    this.writtenAsInteger = writtenAsInteger;
    this.literal = literal;
  }

  /** An integer written as an integer ({@code 15}). */
  public static JsonNumber of(BigInteger value) {
    return new JsonNumber(Objects.requireNonNull(value), 0.0, true, null);
  }

  /** An integer written as an integer ({@code 15}). */
  public static JsonNumber of(long value) {
    return of(BigInteger.valueOf(value));
  }

  /**
   * A finite double, written with a fraction or exponent. An integral double is held as its exact integer.
   *
   * @throws IllegalArgumentException for NaN or an infinity, which JSON cannot carry
   */
  public static JsonNumber ofDouble(double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("JSON numbers are finite; got " + value);
    }
    if (value == Math.rint(value)) {
      return new JsonNumber(new BigDecimal(value).toBigIntegerExact(), 0.0, false, null);
    }
    return new JsonNumber(null, value, false, null);
  }

  /** What the reader builds: the value decided from the literal's digits, the literal kept for writing back. */
  static JsonNumber fromLiteral(BigInteger integer, double fraction, boolean writtenAsInteger, String literal) {
    return new JsonNumber(integer, fraction, writtenAsInteger, literal);
  }

  /** True when the value is a whole number ({@code 640}, {@code 640.0}, {@code 6.4e2}). */
  public boolean isIntegral() {
    return integer != null;
  }

  /** True when the literal had no fraction and no exponent (or the number was built from an integer). */
  public boolean writtenAsInteger() {
    return writtenAsInteger;
  }

  /** The integer value; only for {@link #isIntegral()} numbers. */
  public BigInteger integerValue() {
    if (integer == null) {
      throw new ArithmeticException("not an integral number: " + this);
    }
    return integer;
  }

  /** The exact value as a BigDecimal (a double's exact binary value when not integral). */
  public BigDecimal decimalValue() {
    return integer != null ? new BigDecimal(integer) : new BigDecimal(fraction);
  }

  /** The value as the nearest double (exact for every non-integral value). */
  public double doubleValue() {
    return integer != null ? integer.doubleValue() : fraction;
  }

  /** The literal this number was read from, or null when it was built in memory. */
  public String literal() {
    return literal;
  }

  /** Compares by exact value, never by kind or spelling ({@code 1} = {@code 1.0} = {@code 10e-1}). */
  public int compareValue(JsonNumber other) {
    if (integer != null && other.integer != null) {
      return integer.compareTo(other.integer);
    }
    return decimalValue().compareTo(other.decimalValue());
  }

  /** The JSON text of this number: the literal read, else the integer's digits, else the double. */
  public String toJson() {
    if (literal != null) {
      return literal;
    }
    if (integer != null) {
      return writtenAsInteger ? integer.toString() : integer + ".0";
    }
    return Double.toString(fraction);
  }

  /** Equal when the values are equal (JSON equality, as JSON Schema's {@code enum} and {@code uniqueItems}). */
  @Override
  public boolean equals(Object other) {
    return other instanceof JsonNumber n && compareValue(n) == 0;
  }

  @Override
  public int hashCode() {
    return decimalValue().stripTrailingZeros().hashCode();
  }

  @Override
  public String toString() {
    return toJson();
  }
}
