// The canonical JSON text of a value and its size in bytes (spec/stream.md STR-SIZE): a parsed value (with its
// recorded integer literals, src/json.js) in → an iterative walk → the text, or the UTF-8 byte count of that text.
//
// Why this shape: the size of a held frame counts toward MAX_STREAM_BYTES, so every language must count the same
// bytes, whatever spelling the request used. JSON.stringify is not that text (1e21 → "1e+21"), so numbers are written
// here by the rule of STR-SIZE: a whole value in full decimal digits (from the exact literal beyond 2^53, else from
// the double with BigInt, which is exact), any other value as ECMAScript's Number.prototype.toString writes it —
// which is exactly the rule's shortest round-trip spelling for a double that is not whole (|x| < 2^52, so the
// decimal exponent n is at most 16 and never reaches the "e+" form). Strings escape only what the rule escapes. The
// size is counted by the same walk without building the text, so a 64 MiB frame costs no 64 MiB string. The walk is
// iterative: deep values cannot overflow the call stack.

import { literalOf } from "./json.js";

/** The canonical text of a number whose recorded integer literal (beyond 2^53) is `literal`, if any. */
export function numberText(v, literal) {
  if (!Number.isFinite(v)) throw new RangeError(`no canonical text for the non-finite number ${v}`);
  if (literal !== undefined && Number(literal) === v) return literal; // an exact integer beyond 2^53
  if (Number.isInteger(v)) return BigInt(v).toString(); // whole: every digit, no exponent, -0 is "0"
  return String(v); // not whole: shortest round trip, ECMAScript spelling (STR-SIZE)
}

const SHORT_ESCAPES = { 0x22: '\\"', 0x5c: "\\\\", 0x08: "\\b", 0x09: "\\t", 0x0a: "\\n", 0x0c: "\\f", 0x0d: "\\r" };

/** The canonical text of a string: quotes around its code points, escaping only what STR-SIZE escapes. */
export function stringText(s) {
  let out = '"';
  let start = 0;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(start, k) + (SHORT_ESCAPES[c] ?? `\\u00${c.toString(16).padStart(2, "0")}`);
    start = k + 1;
  }
  return out + s.slice(start) + '"';
}

/** The UTF-8 byte count of stringText(s), counted without building it. `s` holds no lone surrogate. */
export function stringSize(s) {
  let bytes = 2;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c < 0x20) bytes += SHORT_ESCAPES[c] === undefined ? 6 : 2;
    else if (c === 0x22 || c === 0x5c) bytes += 2;
    else if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4; // a surrogate pair: one code point above U+FFFF
      k++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Walks a value in canonical order: onString(s) for each string and member name, onText(piece) for every other
 * piece of the canonical text (null, true, false, numbers, and the ASCII punctuation `[`, `]`, `{`, `}`, `,`, `:`).
 * `rootLiteral` is the recorded literal of a top-level number.
 */
function walk(root, rootLiteral, onText, onString) {
  const stack = [];
  const open = (v, literal) => {
    if (v === null) onText("null");
    else if (v === true) onText("true");
    else if (v === false) onText("false");
    else if (typeof v === "number") onText(numberText(v, literal));
    else if (typeof v === "string") onString(v);
    else if (Array.isArray(v)) {
      onText("[");
      stack.push({ array: true, v, keys: null, i: 0 });
    } else if (typeof v === "object") {
      onText("{");
      stack.push({ array: false, v, keys: Object.keys(v), i: 0 });
    } else throw new TypeError(`not a JSON value: ${typeof v}`);
  };
  open(root, rootLiteral);
  while (stack.length) {
    const f = stack[stack.length - 1];
    const n = f.array ? f.v.length : f.keys.length;
    if (f.i >= n) {
      onText(f.array ? "]" : "}");
      stack.pop();
      continue;
    }
    if (f.i > 0) onText(",");
    const idx = f.i++;
    if (f.array) open(f.v[idx], literalOf(f.v, idx));
    else {
      const k = f.keys[idx];
      onString(k);
      onText(":");
      open(f.v[k], literalOf(f.v, k));
    }
  }
}

/** The canonical JSON text of a value (STR-SIZE). */
export function canonicalText(value, literal) {
  const parts = [];
  walk(value, literal, (t) => parts.push(t), (s) => parts.push(stringText(s)));
  return parts.join("");
}

/** The size of a frame: the UTF-8 byte count of the canonical text of its inputs (STR-SIZE). */
export function canonicalSize(value, literal) {
  let bytes = 0;
  walk(value, literal, (t) => (bytes += t.length), (s) => (bytes += stringSize(s))); // non-string pieces are ASCII
  return bytes;
}
