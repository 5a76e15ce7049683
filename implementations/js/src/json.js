// A small JSON reader that applies the wire rules of spec/validation.md, and JSON value helpers.
//
// JSON.parse cannot be used for contract instances: it keeps the last of two duplicate keys silently and
// gives no location for an overflowing literal. This reader:
//   - accepts exactly RFC 8259 (one value, optional whitespace around it: space, tab, LF, CR);
//   - refuses the tokens NaN, Infinity, -Infinity as a syntax error of the whole text (wire.json-syntax, path $);
//   - reports every duplicate key (wire.duplicate-key, path of the object) and every number literal that is not
//     finite as a binary64 double (wire.non-finite-number, path of the number), and goes on reading so that all of
//     them are reported;
//   - refuses a string or member name holding a lone surrogate (an unpaired \ud800-\udfff), as a syntax error of
//     the whole text (wire.json-syntax, path $), and a leading byte order mark (not JSON whitespace).
//   - refuses a text in which some value is enclosed by more than MAX_JSON_DEPTH arrays and objects (wire.too-deep,
//     the whole text, path $: reading stops there), and an integer literal (no fraction, no exponent) of more than
//     MAX_INTEGER_DIGITS digits (wire.integer-too-long, path of the number); both limits come from
//     spec/contract.json ("Limits" in spec/validation.md).
// It is iterative (no recursion), so deeply nested texts cannot overflow the call stack.
//
// A "lenient" mode exists for protocol messages written by other tools (the conformance runner): it accepts the
// NaN / Infinity / -Infinity tokens as numbers and lets the last duplicate key win, as Python's json does.

import fs from "node:fs";
import path from "node:path";

import { SPEC_DIR } from "./data.js";

const LIMITS = JSON.parse(fs.readFileSync(path.join(SPEC_DIR, "contract.json"), "utf8")).limits;
export const MAX_JSON_DEPTH = LIMITS.MAX_JSON_DEPTH;
export const MAX_INTEGER_DIGITS = LIMITS.MAX_INTEGER_DIGITS;
/** Protocol messages (lenient mode) wrap an instance in a few levels of their own (conformance/protocol.md). */
const PROTOCOL_DEPTH_MARGIN = 16;

export class WireError extends Error {
  constructor(rule, path, message) {
    super(message);
    this.rule = rule;
    this.path = path;
  }
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Formats a list of path segments (strings for member names, numbers for array indices) as a JSONPath. */
export function formatPath(segments) {
  let out = "$";
  for (const s of segments) {
    if (typeof s === "number") out += `[${s}]`;
    else if (IDENT.test(s)) out += `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** Sets an own, enumerable member, even one named "__proto__". */
export function setMember(obj, key, value) {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

// ---------------------------------------------------------------------------------------------------------------
// Exact integers beyond 2^53
//
// Values are JavaScript numbers (binary64). spec/validation.md ("the value of a number"): a literal whose exact value
// is an integer IS that integer, exactly (9007199254740993, 9007199254740993.0, 9.007199254740993e15 alike), and any
// other literal is the nearest double (1e-400 is 0). An integer beyond ±(2^53 − 1) cannot be held by a double, and
// opaque values must come back unchanged, so its exact value, as canonical integer text, is recorded beside the
// value, keyed by the container (array or object) that holds it and its index or member name; the serializer writes
// that text back, and exact comparisons use it. A member that is moved into a new container carries its text along
// (`carry`).

const LITERALS = new WeakMap(); // container -> Map(key -> canonical integer text)
const NUMBER_PARTS = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;

/**
 * The canonical integer text of a finite number literal whose double `v` is not a safe integer, when the literal's
 * exact value is an integer (then |value| < 2^1024, so the text has at most 309 digits); else undefined.
 */
export function integerText(literal, v) {
  if (!Number.isFinite(v) || Number.isSafeInteger(v) || Math.abs(v) < 2 ** 53) return undefined;
  const m = NUMBER_PARTS.exec(literal);
  if (!m) return undefined;
  let digits = (m[2] + (m[3] || "")).replace(/^0+/, "");
  let scale = Number(m[4] || 0) - (m[3] || "").length; // value = digits × 10^scale
  const zeros = digits.length - digits.replace(/0+$/, "").length;
  digits = digits.slice(0, digits.length - zeros);
  scale += zeros;
  if (digits === "" || scale < 0) return undefined; // zero (a safe integer) or not an integer
  return (m[1] === "-" ? "-" : "") + digits + "0".repeat(scale);
}

/** The recorded literal of the number held at container[key], if any. */
export function literalOf(container, key) {
  if (container === null || typeof container !== "object") return undefined;
  const m = LITERALS.get(container);
  return m ? m.get(key) : undefined;
}

/** Records (or, with undefined, forgets) the literal of the number held at container[key]. */
export function setLiteral(container, key, text) {
  let m = LITERALS.get(container);
  if (text === undefined) {
    if (m) m.delete(key);
    return;
  }
  if (!m) LITERALS.set(container, (m = new Map()));
  m.set(key, text);
}

/** container[key] was copied to target[targetKey]: the literal, if any, goes along. */
export function carry(container, key, target, targetKey) {
  const lit = literalOf(container, key);
  if (lit !== undefined) setLiteral(target, targetKey, lit);
}

/** The exact value of a number: a BigInt for a recorded integer literal, else the number itself. */
export function exactValue(v, literal) {
  if (literal !== undefined && typeof v === "number" && Number(literal) === v) return BigInt(literal);
  return v;
}

/** Compares two numbers exactly (BigInt or double): -1, 0, 1. NaN is not expected. */
export function compareExact(a, b) {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "bigint" && typeof b === "bigint") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "number") return -compareExact(b, a);
  // a bigint, b a double
  if (!Number.isFinite(b)) return b > 0 ? -1 : 1;
  if (Number.isInteger(b)) {
    const bb = BigInt(b);
    return a < bb ? -1 : a > bb ? 1 : 0;
  }
  // b is not whole (then |b| < 2^52, so floor(b) is exact): a <= floor(b) < b, or a > b
  return a <= BigInt(Math.floor(b)) ? -1 : 1;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** @type {ReadonlyArray<[string, number]>} The number tokens that only the lenient mode reads. */
const NON_FINITE_TOKENS = [["-Infinity", -Infinity], ["Infinity", Infinity], ["NaN", NaN]];
/** @type {ReadonlyArray<[string, boolean | null]>} */
const LITERAL_TOKENS = [["true", true], ["false", false], ["null", null]];

/** True when the string holds no lone surrogate (every high surrogate is followed by a low one, and only then). */
export function isWellFormed(s) {
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = k + 1 < s.length ? s.charCodeAt(k + 1) : 0;
      if (d < 0xdc00 || d > 0xdfff) return false;
      k++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

/**
 * Parses `text` under the wire rules.
 * Returns {ok: true, value, literal} or {ok: false, errors: [{path, rule, message}]}; `literal` is the literal text
 * of a top-level integer beyond ±(2^53 − 1) (nested ones are recorded with `setLiteral`).
 * @param {string} text
 * @param {{lenient?: boolean}} [options]
 * @returns {{ok: true, value: any, literal?: string}
 *   | {ok: false, errors: Array<{path: string, rule: string, message: string}>}}
 */
export function parseWire(text, { lenient = false } = {}) {
  const errors = [];
  let i = 0;
  const n = text.length;
  const depthLimit = lenient ? MAX_JSON_DEPTH + PROTOCOL_DEPTH_MARGIN : MAX_JSON_DEPTH;

  /** @type {(msg: string) => never} */
  const syntax = (msg) => {
    throw new WireError("wire.json-syntax", "$", `not JSON (RFC 8259): ${msg} at offset ${i}`);
  };
  const skipWs = () => {
    while (i < n && WS.has(text.charCodeAt(i))) i++;
  };

  // Path of the value being read: one segment per open container (its current key or index).
  const pathSegs = [];

  const readString = () => {
    // text[i] === '"'
    i++;
    let out = "";
    let start = i;
    for (;;) {
      if (i >= n) syntax("unterminated string");
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(start, i);
        i++;
        if (!lenient && !isWellFormed(out)) {
          throw new WireError("wire.json-syntax", "$",
            "not JSON for this contract: a string or member name holds a lone surrogate (I-JSON, RFC 7493)");
        }
        return out;
      }
      if (c === 0x5c) {
        out += text.slice(start, i);
        i++;
        if (i >= n) syntax("unterminated escape");
        const e = text[i];
        switch (e) {
          case '"': out += '"'; break;
          case "\\": out += "\\"; break;
          case "/": out += "/"; break;
          case "b": out += "\b"; break;
          case "f": out += "\f"; break;
          case "n": out += "\n"; break;
          case "r": out += "\r"; break;
          case "t": out += "\t"; break;
          case "u": {
            const hex = text.slice(i + 1, i + 5);
            if (!/^[0-9A-Fa-f]{4}$/.test(hex)) syntax("bad \\u escape");
            out += String.fromCharCode(parseInt(hex, 16));
            i += 4;
            break;
          }
          default:
            syntax("bad escape");
        }
        i++;
        start = i;
        continue;
      }
      if (c < 0x20) syntax("control character in string");
      i++;
    }
  };

  const NUM = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
  let pendingLiteral; // the literal of the number just read, when it is an integer beyond ±(2^53 − 1)
  const readNumber = () => {
    if (lenient) {
      for (const [tok, v] of NON_FINITE_TOKENS) {
        if (text.startsWith(tok, i)) {
          i += tok.length;
          return v;
        }
      }
    }
    NUM.lastIndex = i;
    const m = NUM.exec(text);
    if (!m) {
      if (text.startsWith("NaN", i) || text.startsWith("Infinity", i) || text.startsWith("-Infinity", i)) {
        syntax("NaN and Infinity are not JSON");
      }
      syntax("unexpected character");
    }
    i += m[0].length;
    const integerDigits = m[1] === undefined && m[2] === undefined ? m[0].length - (m[0][0] === "-" ? 1 : 0) : 0;
    if (integerDigits > MAX_INTEGER_DIGITS && !lenient) {
      errors.push({
        path: formatPath(pathSegs),
        rule: "wire.integer-too-long",
        message: `an integer literal of ${integerDigits} digits is longer than MAX_INTEGER_DIGITS (${MAX_INTEGER_DIGITS})`,
      });
      pendingLiteral = undefined;
      return 0;
    }
    const v = Number(m[0]); // correctly rounded, Infinity on overflow, ±0 on underflow
    pendingLiteral = integerText(m[0], v);
    if (!Number.isFinite(v) && !lenient) {
      errors.push({
        path: formatPath(pathSegs),
        rule: "wire.non-finite-number",
        message: `the number ${m[0].length > 40 ? m[0].slice(0, 40) + "..." : m[0]} is not a finite binary64 double`,
      });
    }
    return v;
  };

  const readLiteral = () => {
    for (const [tok, v] of LITERAL_TOKENS) {
      if (text.startsWith(tok, i)) {
        i += tok.length;
        return v;
      }
    }
    return undefined;
  };

  // Containers being filled: {kind: "a"|"o", value, keys(Set, objects), key(current member name)}
  const stack = [];
  let result;
  let haveResult = false;

  let rootLiteral;
  const finishValue = (v, literal) => {
    if (stack.length === 0) {
      result = v;
      rootLiteral = literal;
      haveResult = true;
      return;
    }
    const top = stack[stack.length - 1];
    if (top.kind === "a") {
      if (literal !== undefined) setLiteral(top.value, top.value.length, literal);
      top.value.push(v);
    } else {
      setLiteral(top.value, top.key, literal); // also forgets the literal of a duplicate key's earlier value
      setMember(top.value, top.key, v);
    }
  };

  try {
    skipWs();
    // state machine
    // expect: "value" | "after" (after a value inside a container)
    let expect = "value";
    for (;;) {
      if (expect === "value") {
        // The value about to be read is enclosed by the containers on the stack.
        if (stack.length > depthLimit) {
          throw new WireError("wire.too-deep", "$",
            `nested more deeply than ${MAX_JSON_DEPTH} arrays and objects at offset ${i} (spec/validation.md, "Limits")`);
        }
        skipWs();
        if (i >= n) syntax("unexpected end of text");
        const c = text[i];
        if (c === "{") {
          i++;
          const frame = { kind: "o", value: {}, keys: new Set(), key: null, dupReported: false };
          skipWs();
          if (text[i] === "}") {
            i++;
            finishValue(frame.value);
            expect = "after";
            continue;
          }
          stack.push(frame);
          // read key
          if (text[i] !== '"') syntax("expected a member name");
          const k = readString();
          skipWs();
          if (text[i] !== ":") syntax("expected ':'");
          i++;
          noteKey(frame, k);
          pathSegs.push(k);
          expect = "value";
          continue;
        }
        if (c === "[") {
          i++;
          const frame = { kind: "a", value: [] };
          skipWs();
          if (text[i] === "]") {
            i++;
            finishValue(frame.value);
            expect = "after";
            continue;
          }
          stack.push(frame);
          pathSegs.push(0);
          expect = "value";
          continue;
        }
        if (c === '"') {
          finishValue(readString());
          expect = "after";
          continue;
        }
        const lit = readLiteral();
        if (lit !== undefined) {
          finishValue(lit);
          expect = "after";
          continue;
        }
        const num = readNumber();
        finishValue(num, pendingLiteral);
        expect = "after";
        continue;
      }
      // after a value
      skipWs();
      if (stack.length === 0) {
        if (i < n) syntax("text after the JSON value");
        break;
      }
      const top = stack[stack.length - 1];
      if (i >= n) syntax("unexpected end of text");
      const c = text[i];
      if (top.kind === "a") {
        if (c === ",") {
          i++;
          pathSegs[pathSegs.length - 1] = top.value.length;
          expect = "value";
          continue;
        }
        if (c === "]") {
          i++;
          stack.pop();
          pathSegs.pop();
          finishValue(top.value);
          expect = "after";
          continue;
        }
        syntax("expected ',' or ']'");
      } else {
        if (c === ",") {
          i++;
          skipWs();
          if (text[i] !== '"') syntax("expected a member name");
          const k = readString();
          skipWs();
          if (text[i] !== ":") syntax("expected ':'");
          i++;
          noteKey(top, k);
          pathSegs[pathSegs.length - 1] = k;
          expect = "value";
          continue;
        }
        if (c === "}") {
          i++;
          stack.pop();
          pathSegs.pop();
          finishValue(top.value);
          expect = "after";
          continue;
        }
        syntax("expected ',' or '}'");
      }
    }
  } catch (e) {
    if (e instanceof WireError) return { ok: false, errors: [{ path: e.path, rule: e.rule, message: e.message }] };
    throw e;
  }

  function noteKey(frame, k) {
    // Keys are compared as code-point sequences; JS strings compare as UTF-16 unit sequences, which is the same
    // equality (the encoding is a bijection), so a Set of strings is exact.
    if (frame.keys.has(k)) {
      if (!lenient && !frame.dupReported) {
        frame.dupReported = true;
        errors.push({
          path: formatPath(pathSegs.slice(0, stack.length - 1)),
          rule: "wire.duplicate-key",
          message: `the key ${JSON.stringify(k)} appears more than once in this object`,
        });
      }
      if (!lenient) return;
      // lenient: the last one wins, and keeps the position of the first.
    }
    frame.keys.add(k);
    frame.key = k;
  }

  if (!haveResult) return { ok: false, errors: [{ path: "$", rule: "wire.json-syntax", message: "no JSON value" }] };
  if (errors.length) return { ok: false, errors };
  return { ok: true, value: result, literal: rootLiteral };
}

/** The JSON type of a parsed value: null, boolean, number, string, array, object. */
export function jsonType(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  const t = typeof v;
  if (t === "boolean" || t === "number" || t === "string") return t;
  if (t === "object") return "object";
  return "undefined";
}

export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * JSON equality: numbers by exact value (1 = 1.0, 0 = -0, recorded integer literals beyond 2^53 exactly), booleans
 * only equal booleans, objects ignore member order. `la`/`lb`: the literals of a and b when they are numbers.
 * Iterative, so deeply nested values cannot overflow the stack.
 */
export function jsonEqual(a0, b0, la0, lb0) {
  const work = [[a0, b0, la0, lb0]];
  while (work.length) {
    const [a, b, la, lb] = /** @type {any[]} */ (work.pop());
    const ta = jsonType(a);
    if (ta !== jsonType(b)) return false;
    switch (ta) {
      case "array":
        if (a.length !== b.length) return false;
        for (let k = 0; k < a.length; k++) work.push([a[k], b[k], literalOf(a, k), literalOf(b, k)]);
        break;
      case "object": {
        const ka = Object.keys(a);
        if (ka.length !== Object.keys(b).length) return false;
        for (const k of ka) {
          if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
          work.push([a[k], b[k], literalOf(a, k), literalOf(b, k)]);
        }
        break;
      }
      case "number":
        if (Number.isNaN(a) || Number.isNaN(b)) {
          if (!(Number.isNaN(a) && Number.isNaN(b))) return false;
          break;
        }
        if (compareExact(exactValue(a, la), exactValue(b, lb)) !== 0) return false;
        break;
      default:
        if (a !== b) return false;
    }
  }
  return true;
}

/** Compares two strings by Unicode code point (not by UTF-16 unit). */
export function compareCodePoints(a, b) {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0);
    const cy = y.value.codePointAt(0);
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

/**
 * Serializes a value as one line of JSON, iteratively (JSON.stringify recurses and fails on deeply nested values).
 * -0 is written 0; non-finite numbers (never produced for the wire) are written null, as JSON.stringify does.
 */
export function toJsonLine(root, rootLiteral) {
  const parts = [];
  // stack of frames: {kind: "a"|"o", v, keys, i}
  const stack = [];
  const scalar = (v, literal) => {
    if (v === null || v === undefined) return "null";
    if (typeof v === "bigint") return v.toString();
    if (typeof v === "number") {
      if (literal !== undefined && Number(literal) === v) return literal;
      return Number.isFinite(v) ? JSON.stringify(v) : "null";
    }
    return JSON.stringify(v);
  };
  const open = (v, literal) => {
    if (Array.isArray(v)) {
      parts.push("[");
      stack.push({ kind: "a", v, i: 0 });
    } else if (v !== null && typeof v === "object") {
      parts.push("{");
      stack.push({ kind: "o", v, keys: Object.keys(v), i: 0 });
    } else parts.push(scalar(v, literal));
  };
  open(root, rootLiteral);
  while (stack.length) {
    const f = stack[stack.length - 1];
    const n = f.kind === "a" ? f.v.length : f.keys.length;
    if (f.i >= n) {
      parts.push(f.kind === "a" ? "]" : "}");
      stack.pop();
      continue;
    }
    if (f.i > 0) parts.push(",");
    if (f.kind === "a") {
      const idx = f.i++;
      open(f.v[idx], literalOf(f.v, idx));
    } else {
      const k = f.keys[f.i++];
      parts.push(JSON.stringify(k), ":");
      open(f.v[k], literalOf(f.v, k));
    }
  }
  return parts.join("");
}
