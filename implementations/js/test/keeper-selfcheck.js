#!/usr/bin/env node
// Unit self-check of the stream keeper's parts that the vectors reach only through a limit: the canonical text and
// size of STR-SIZE (spec/stream.md § 5) for tricky numbers and strings, the StreamError bodies of STR-HTTP, and the
// keeper's own guards. Every expectation below is written by hand from the prose of spec/stream.md (its table, its
// spelling rule and its list of sizes), never computed by the code under test.
//
//   node test/keeper-selfcheck.js        prints each failure and "N passed, M failed"; exit 1 on a failure

import { parseWire } from "../src/json.js";
import { canonicalText, canonicalSize } from "../src/canonical.js";
import { Keeper, streamErrorBody, STREAM_ERRORS } from "../src/keeper.js";
import { validateValue } from "../src/validation.js";

let passed = 0;
let failed = 0;
function check(name, ok, detail = "") {
  if (ok) passed++;
  else {
    failed++;
    console.log(`FAIL ${name}${detail ? `: ${detail}` : ""}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// STR-SIZE: [wire text of the inputs, the canonical text by hand, the size the prose states (or the byte count)]

const Q = '"';
/** @type {Array<[string, string, number]>} */
const CANONICAL = [
  // The sizes the prose lists, word for word.
  ["null", "null", 4],
  ["0", "0", 1],
  ["-0.0", "0", 1],
  ["1.0", "1", 1],
  ["1.5", "1.5", 3],
  ["0.000001", "0.000001", 8],
  ["1e-7", "1e-7", 4],
  ["1e21", "1000000000000000000000", 22],
  ["9007199254740993", "9007199254740993", 16],
  ['""', '""', 2],
  ['"é"', '"é"', 4],
  ['"😀"', '"😀"', 6],
  ['"a\\"b"', '"a\\"b"', 6],
  ['"\\u0001"', '"\\u0001"', 8],
  ['"\\u2028"', `${Q}\u2028${Q}`, 5],
  ["[]", "[]", 2],
  ["[1,2]", "[1,2]", 5],
  ['{"a":1}', '{"a":1}', 7],
  ['{"cam": [1, 2], "s": "x"}', '{"cam":[1,2],"s":"x"}', 21],
  // Numbers: the table's integer row and the spelling rule's three cases.
  ["5e-324", "5e-324", 6], // n = -323 <= -6: exponential
  ["1.5e-10", "1.5e-10", 7], // digits 15, n = -9
  ["123.456", "123.456", 7], // 0 < n = 3 <= 21
  ["1e-5", "0.00001", 7], // n = -4: fixed (Python's repr writes 1e-05)
  ["-1.5", "-1.5", 4],
  ["7", "7", 1],
  ["7.0", "7", 1],
  ["7e0", "7", 1],
  ["-7E+0", "-7", 2],
  ["1e-400", "0", 1], // underflows to 0: an integer
  ["-1e-400", "0", 1],
  ["1e23", "100000000000000000000000", 24], // the literal's exact value, 10^23, not the double's 99999999999999991611392
  ["9007199254740993.0", "9007199254740993", 16],
  ["1.8014398509481985e16", "18014398509481985", 17], // exactly 2^54 + 1
  ["-9007199254740993", "-9007199254740993", 17],
  ["12345678901234567890", "12345678901234567890", 20],
  ["4503599627370495.5", "4503599627370495.5", 18], // 2^52 - 0.5: not whole, n = 16
  // A literal that is not an integer but whose nearest double is whole (|x| >= 2^52): that double, in full.
  ["9007199254740993.5", "9007199254740994", 16],
  ["12345678901234567890.5", "12345678901234567168", 20], // doubles there are 2048 apart
  ["0.1", "0.1", 3],
  ["9.99e-7", "9.99e-7", 7], // n = -6: exponential
  ["0.3", "0.3", 3],
  ["100", "100", 3],
  ["1e16", "10000000000000000", 17],
  // Strings: escaped are only " \ and the code points below U+0020.
  ['"\\u007f"', `${Q}\u007f${Q}`, 3], // DEL as itself
  ['"\\u001f"', '"\\u001f"', 8], // lower-case hex
  ['"\\u000b"', '"\\u000b"', 8], // vertical tab has no short escape
  ['"\\u000B"', '"\\u000b"', 8],
  ['"\\b\\t\\n\\f\\r"', '"\\b\\t\\n\\f\\r"', 12],
  ['"\\u0000"', '"\\u0000"', 8],
  ['"\\/"', '"/"', 3], // "/" is not escaped, however it was spelled
  ['"\\\\"', '"\\\\"', 4],
  ['"\\u00e9"', '"é"', 4],
  ['"\\ud83d\\ude00"', '"😀"', 6],
  ['"\\u2029x"', `${Q}\u2029x${Q}`, 6],
  ['"\\u0080"', `${Q}\u0080${Q}`, 4], // 2 UTF-8 bytes
  ['"\\uffff"', `${Q}\uffff${Q}`, 5], // 3 UTF-8 bytes
  ['"\\udbff\\udfff"', `${Q}\u{10ffff}${Q}`, 6], // 4 UTF-8 bytes
  // Containers: no space; member names are strings like any other.
  ['{"a\\nb": [true, null, false]}', '{"a\\nb":[true,null,false]}', 26],
  ['[[[]]]', "[[[]]]", 6],
  ['{"x": {"y": [1.0, -0.0, 2.5e-7]}}', '{"x":{"y":[1,0,2.5e-7]}}', 24],
  ['{"n": 1e21, "m": [9007199254740993]}', '{"n":1000000000000000000000,"m":[9007199254740993]}', 51],
];

for (const [wire, text, size] of CANONICAL) {
  const parsed = parseWire(wire);
  if (!parsed.ok) {
    check(`STR-SIZE ${wire}`, false, `not read: ${JSON.stringify(parsed.errors)}`);
    continue;
  }
  const got = canonicalText(parsed.value, parsed.literal);
  check(`STR-SIZE text of ${wire}`, got === text, `${JSON.stringify(got)} != ${JSON.stringify(text)}`);
  const bytes = Buffer.byteLength(text, "utf8");
  check(`STR-SIZE bytes of the hand text of ${wire}`, bytes === size, `the hand-written text has ${bytes} bytes, not ${size}`);
  const counted = canonicalSize(parsed.value, parsed.literal);
  check(`STR-SIZE size of ${wire}`, counted === size, `${counted} != ${size}`);
}

// Member order does not change the size; a deep value (built in memory: the reader stops at MAX_JSON_DEPTH) does
// not overflow the stack.
{
  check("STR-SIZE member order", canonicalSize({ a: 1, bb: [2] }) === canonicalSize({ bb: [2], a: 1 }) &&
    canonicalSize({ a: 1, bb: [2] }) === 16);
  /** @type {any[]} */
  let deep = [];
  for (let k = 1; k < 100000; k++) deep = [deep];
  check("STR-SIZE deep value", canonicalSize(deep) === 200000);
}

// ---------------------------------------------------------------------------------------------------------------
// STR-HTTP: every refusal's body is a valid StreamError, and its reason is the id with "_".

/** @type {{[id: string]: {[k: string]: any}}} */
const DETAILS = {
  "stream.invalid-body": { issues: [{ path: "$.frames[0].seq", rule: "minimum" }] },
  "stream.frames-missing": { missing: [2, 5] },
  "stream.frames-over-limit": { limit: "MAX_STREAM_BYTES" },
  "stream.act-over-limit": { limit: "MAX_STREAM_FRAMES" },
  "stream.act-not-after-previous": { last_act: 3 },
};
/** @type {{[status: number]: string}} */
const CODES = { 400: "invalid_request", 409: "conflict", 410: "gone", 413: "payload_too_large", 503: "unavailable" };
for (const [id, pair] of Object.entries(STREAM_ERRORS)) {
  const [status, code] = /** @type {[number, string]} */ (pair);
  const body = streamErrorBody({ error: id, status, details: DETAILS[id] ?? {} });
  const r = validateValue("StreamError", body, { normalize: false });
  check(`STR-HTTP ${id} is a valid StreamError`, r.valid, r.valid ? "" : JSON.stringify(r.errors));
  check(`STR-HTTP ${id} code`, CODES[status] === code && body.error.code === code);
  check(`STR-HTTP ${id} reason`, body.error.details.reason === id.slice("stream.".length).replaceAll("-", "_"));
}
check("STR-HTTP the contract's codes", STREAM_ERRORS["stream.frames-missing"] && streamErrorBody({ error: "stream.frames-missing", status: 409, details: { missing: [1] } }).error.details.reason === "frames_missing");

// ---------------------------------------------------------------------------------------------------------------
// The keeper's guards and bounds.

const LIMITS = { MAX_STREAM_FRAMES: 1024, MAX_STREAM_BYTES: 67108864, MAX_WORKER_STREAM_BYTES: 1073741824,
  MAX_EPISODES: 1024, STREAM_WAIT_S: 10.0 };

{
  // STR-SETUP: MAX_STREAM_FRAMES up to 1,000,000 (SCH-RESULT-BOUND's floor), the other limits from 1.
  const made = (limits) => {
    try {
      new Keeper({ declaration: null, limits: { ...LIMITS, ...limits } });
      return true;
    } catch (e) {
      return !(e instanceof RangeError);
    }
  };
  check("STR-SETUP limits in range", made({ MAX_STREAM_FRAMES: 1000000 }) && made({ MAX_EPISODES: 1 }));
  const { MAX_EPISODES: _, ...sizes } = LIMITS;
  check("STR-SETUP MAX_EPISODES left out is 1,024", new Keeper({ declaration: null, limits: sizes }).limits.MAX_EPISODES === 1024);
  check("STR-SETUP limits out of range", !made({ MAX_STREAM_FRAMES: 1000001 }) && !made({ MAX_EPISODES: 0 }) &&
    !made({ MAX_STREAM_BYTES: 1.5 }));
}

{
  // Memory follows the limits: acts alone at every other step, with no post, remember at most MAX_STREAM_FRAMES
  // numbers (STR-ACT-OWN case 3), and empty posts under new ids start at most MAX_EPISODES episodes.
  const k = new Keeper({ declaration: null, limits: { ...LIMITS, MAX_STREAM_FRAMES: 8, MAX_EPISODES: 4 } });
  for (let t = 0; t < 1000; t += 2) k.act({ episode_id: "e", seq: t, inputs: t }, 0, t);
  check("acts alone stay within MAX_STREAM_FRAMES", k.episodes.get("e").remembered() === 8);
  let refused = 0;
  for (let n = 0; n < 100; n++) if ("error" in k.post({ episode_id: `x${n}` }, 0).answer) refused++;
  check("empty posts stay within MAX_EPISODES", k.episodes.size === 4 && refused === 97);
}

{
  // STR-CLOCK: a decreasing reading is a caller's bug, not a refusal.
  const k = new Keeper({ declaration: null, limits: LIMITS });
  k.tick(5);
  let threw = false;
  try {
    k.post({ episode_id: "e" }, 4);
  } catch (e) {
    threw = e instanceof RangeError;
  }
  check("STR-CLOCK a decreasing reading throws", threw);
}

{
  // STR-ACT-BOUND: {"every": 1} acted at 10^15 after -1 is refused at once, without listing the steps.
  const k = new Keeper({ declaration: { every: 1 }, limits: LIMITS });
  const t0 = process.hrtime.bigint();
  const answer = /** @type {any} */ (k.act({ episode_id: "e", seq: 1e15, inputs: null }, 0, "a").answer);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  check("STR-ACT-BOUND 10^15", answer.error === "stream.act-over-limit" && answer.details.limit === "MAX_STREAM_FRAMES");
  check("STR-ACT-BOUND decided without listing", ms < 1000, `${ms} ms`);
}

{
  // Memory follows the limits: a long episode of acts over a window holds at most the window, whatever its length.
  const k = new Keeper({ declaration: { streams: { cam: { at: [-3, 0] } } }, limits: LIMITS });
  let ok = true;
  for (let t = 0; t < 20000 && ok; t++) {
    const post = /** @type {any} */ (k.post({ episode_id: "e", frames: [{ seq: t, inputs: { cam: t } }] }, t));
    const act = /** @type {any} */ (k.act({ episode_id: "e", seq: t, inputs: { cam: t } }, t, t));
    ok = post.answer.through === t && act.answer.handed !== undefined;
  }
  const e = k.episodes.get("e");
  check("a long episode plays", ok);
  check("a long episode holds only the window", e.held.size <= 3 && e.acc.runs === 1, `${e.held.size} held, ${e.acc.runs} runs`);
}

{
  // A gap of 200 000 skipped numbers is one run, not a million entries.
  const k = new Keeper({ declaration: null, limits: LIMITS });
  const skipped = Array.from({ length: 200000 }, (_, j) => j);
  const answer = /** @type {any} */ (k.post({ episode_id: "e", skipped }, 0).answer);
  check("skipped run", answer.through === 199999 && k.episodes.get("e").acc.runs === 1);
}

console.log(`\nkeeper self-check: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
