// Path segments (member names and array indexes) → the path text of spec/validation.md "Path notation".
// WHY one place: readers, the validator and the rules beyond the schema must all spell paths the same way.
package example.seqio;

import java.util.List;

/** Writes JSON paths: {@code $}, {@code .name}, {@code ["other name"]}, {@code [3]}. */
public final class JsonPath {
  private JsonPath() {}

  /** The path of a list of segments, each a String (member name) or an Integer (array index). */
  public static String of(List<?> segments) {
    StringBuilder out = new StringBuilder("$");
    for (Object segment : segments) {
      append(out, segment);
    }
    return out.toString();
  }

  /** {@code base} with one more segment. */
  public static String child(String base, Object segment) {
    StringBuilder out = new StringBuilder(base);
    append(out, segment);
    return out.toString();
  }

  private static void append(StringBuilder out, Object segment) {
    if (segment instanceof Integer index) {
      out.append('[').append(index).append(']');
    } else if (isPlainName((String) segment)) {
      out.append('.').append(segment);
    } else {
      out.append('[');
      quote(out, (String) segment);
      out.append(']');
    }
  }

  private static boolean isPlainName(String name) {
    if (name.isEmpty() || !(isAsciiLetter(name.charAt(0)) || name.charAt(0) == '_')) {
      return false;
    }
    for (int i = 1; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(isAsciiLetter(c) || (c >= '0' && c <= '9') || c == '_')) {
        return false;
      }
    }
    return true;
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  }

  /** A surrogate that is not half of a pair: written as an escape, since UTF-8 cannot carry it. */
  private static boolean isLoneSurrogate(String text, int i) {
    char c = text.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
    }
    return Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1)));
  }

  /** A JSON string as {@code JSON.stringify} writes it: short escapes, {@code \\u00xx} below U+0020 and for a lone
   * surrogate, every other character as itself. */
  public static void quote(StringBuilder out, String text) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\t' -> out.append("\\t");
        case '\n' -> out.append("\\n");
        case '\f' -> out.append("\\f");
        case '\r' -> out.append("\\r");
        default -> {
          if (c < 0x20 || isLoneSurrogate(text, i)) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
