// Thrown by the generated types' decoders: the path of the member that does not fit its type, and why.
// WHY an exception: decoding stops at the first misfit; the validator, not the types, lists every refusal.
package example.seqio.json;

/** A JSON value that does not fit the generated type it was decoded into. */
public final class DecodeException extends Exception {
  private static final long serialVersionUID = 1L;
  private final String path;

  public DecodeException(String path, String message) {
    super(path + ": " + message);
    this.path = path;
  }

  /** The JSON path of the value that does not fit. */
  public String path() {
    return path;
  }
}
