// A value or key → a short quoted form for a sentence (at most 60 characters: 57 and "...").
// WHY: spec/validation.md "Limits" bounds quotes in messages, so a 100 MB key costs a 60-character message.
package example.seqio.json;

import example.seqio.JsonPath;

/** Short quotes for messages. */
public final class Quote {
  private static final int LIMIT = 60;

  private Quote() {}

  /** A string as a JSON string, cut to 60 characters. */
  public static String shortJson(String text) {
    StringBuilder out = new StringBuilder();
    JsonPath.quote(out, text.length() > LIMIT ? text.substring(0, LIMIT) : text);
    return shortText(out.toString());
  }

  /** Any text cut to 60 characters. */
  public static String shortText(String text) {
    if (text.length() <= LIMIT) {
      return text;
    }
    int cut = Character.isHighSurrogate(text.charAt(LIMIT - 4)) ? LIMIT - 4 : LIMIT - 3;
    return text.substring(0, cut) + "...";
  }
}
