#!/usr/bin/env node
// Self-check of the uploader (src/uploader.js) written from the prose of spec/uploader.md alone: scenarios of events
// in → the testee's answer for kind `uploader` (src/dispatch.js, the input sent as JSON text as the runner sends it)
// → compared event by event with requests derived by hand, as conformance/protocol.md "Comparison" compares them
// (test/uploader-compare.js: frames and skipped numbers as sets, `at` the event's reading or inside a window).
//
//   node test/uploader-selfcheck.js        prints each failure and "N passed, M failed"; exit 1 on a failure
//
// Why it exists beside the vectors: it was written before them, from the prose, by the author of the implementation,
// so it catches slips of the code, not misreadings of the prose (the vectors catch those). Every scenario names the
// rules it exercises, and the run fails when a rule of spec/uploader.md is exercised by none, so each rule is checked
// at least once. Besides each scenario's expectation, every answer is held to UPL-ONCE and UPL-POST-BODY as a whole.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { answer } from "../src/dispatch.js";
import { parseWire, toJsonLine, jsonEqual } from "../src/json.js";
import { Uploader, ownDepth, cut, listsObserveFormat } from "../src/uploader.js";
import { requestsDiff } from "./uploader-compare.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SPEC = fs.readFileSync(path.resolve(HERE, "../../../spec/uploader.md"), "utf8");
/** Rules a state machine cannot show: UPL-HTTP is the time limit of an act over real HTTP. */
const NOT_REACHABLE = new Set(["UPL-HTTP"]);

let passed = 0;
let failed = 0;
const covered = new Set();
const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

/** @param {string} name @param {boolean} ok @param {string} [detail] */
function check(name, ok, detail = "") {
  if (ok) passed++;
  else {
    failed++;
    console.log(`FAIL ${name}${detail ? `: ${detail}` : ""}`);
  }
}

/** As the runner sends it: one line of JSON text, read back by the testee's own reader. */
function overTheWire(value) {
  const r = parseWire(toJsonLine(value), { lenient: true });
  if (!r.ok) throw new Error(`cannot send ${toJsonLine(value).slice(0, 200)}`);
  return r.value;
}

/** A value of own depth d (spec/stream.md STR-DEPTH): 0 inside d arrays. */
function nested(d) {
  let v = /** @type {any} */ (0);
  for (let k = 0; k < d; k++) v = [v];
  return v;
}

// ---------------------------------------------------------------------------------------------------------------
// Expected requests, written as the vectors write them (conformance/README.md, kind `uploader`)

/**
 * A post: frames as [seq, inputs] pairs, skipped numbers, optionally its reading or window.
 * @param {Array<[number, any]>} frames @param {number[]} [skipped] @param {any} [at]
 */
function post(frames, skipped = [], at) {
  const p = { post: { frames: frames.map(([seq, inputs]) => ({ seq, inputs })), skipped } };
  return at === undefined ? p : { ...p, at };
}

/** @param {number} seq @param {any} inputs @param {any} [at] */
function act(seq, inputs, at) {
  const a = { act: { seq, inputs } };
  return at === undefined ? a : { ...a, at };
}

/** The window of the k-th retry after the attempt that ended at reading r (UPL-RETRY-BACKOFF). */
function windowAfter(r, k) {
  const b = 0.1 * 2 ** (k - 1);
  return { from: r + b, to: r + 2 * b };
}

/**
 * UPL-ONCE and UPL-POST-BODY over a whole answer: no number sent with two different inputs, no frame for a number
 * declared skipped, a frame only under an observed step, never a post with both lists empty.
 */
function invariantDiff(events, requests) {
  const observed = new Set(events.filter((e) => has(e, "observe")).map((e) => e.observe.n));
  const sentFrames = new Map();
  const declared = new Set();
  for (const r of requests.flat()) {
    if (!has(r, "observe")) continue;
    const frames = r.observe.frames ?? [];
    const skipped = r.observe.skipped ?? [];
    if (frames.length === 0 && skipped.length === 0) return "a post with nothing in it (UPL-POST-BODY)";
    for (const f of frames) {
      if (!observed.has(f.seq)) return `a frame under ${f.seq}, which is no observed step (UPL-ONCE)`;
      if (declared.has(f.seq)) return `a frame for ${f.seq} after it was declared skipped (UPL-ONCE)`;
      if (sentFrames.has(f.seq) && !jsonEqual(sentFrames.get(f.seq), f.inputs)) return `${f.seq} sent with two inputs (UPL-ONCE)`;
      sentFrames.set(f.seq, f.inputs);
    }
    for (const n of skipped) declared.add(n);
  }
  return null;
}

/**
 * Plays one scenario through the testee's answer and compares it with the expectation of each event.
 * @param {string} name
 * @param {string[]} rules the UPL- rules it exercises
 * @param {{declaration: any, rate?: any, episode_id?: string, backlog?: number}} setup
 * @param {any[]} events each an event of conformance/protocol.md, optionally with `expect` (absent: no request)
 */
function scenario(name, rules, setup, events) {
  for (const r of rules) covered.add(r);
  const episodeId = setup.episode_id ?? "ep-1";
  const sent = events.map((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== "expect")));
  const input = overTheWire({ ...setup, episode_id: episodeId, events: sent });
  const ans = overTheWire(answer("uploader", input));
  if (ans.type !== "result") return check(name, false, `expected a result, got ${toJsonLine(ans).slice(0, 300)}`);
  const requests = ans.result.requests;
  const diff = requestsDiff(overTheWire(events), requests, episodeId);
  if (diff !== null) return check(name, false, diff);
  const broken = invariantDiff(input.events, requests);
  check(name, broken === null, broken ?? "");
}

/**
 * A scenario whose uploader cannot be made: the answer is an error with this rule id.
 * @param {string} name @param {string[]} rules @param {any} input @param {string} rule
 */
function refused(name, rules, input, rule) {
  for (const r of rules) covered.add(r);
  const ans = overTheWire(answer("uploader", overTheWire(input)));
  check(name, ans.type === "error" && ans.rule === rule, toJsonLine(ans).slice(0, 300));
}

const EVERY_1 = { every: 1 };
const OK = { "Seq-Accept-Formats": "x-seq-observe/1" };

// ---------------------------------------------------------------------------------------------------------------
// § 2 Setup and events

refused("setup: of refuses a seconds count without a rate", ["UPL-SETUP"],
  { declaration: { unit: "seconds", every: 0.5 }, episode_id: "e", events: [] }, "schedule.rate-required");
refused("setup: of refuses an invalid declaration", ["UPL-SETUP"],
  { declaration: { streams: { a: {} }, every: 4 }, episode_id: "e", events: [] }, "schedule.invalid-declaration");
refused("setup: a backlog of 0 is no backlog", ["UPL-SETUP"],
  { declaration: EVERY_1, episode_id: "e", backlog: 0, events: [] }, "uploader.invalid-scenario");
refused("setup: an episode id of 257 code points", ["UPL-SETUP"],
  { declaration: EVERY_1, episode_id: "😀".repeat(257), events: [] }, "uploader.invalid-scenario");

// Keys read alone only: reads_past is false, nothing is ever posted; acts carry seq and episode_id.
scenario("stream off: keys read alone", ["UPL-STREAM-OFF", "UPL-ACT-BODY"], { declaration: { streams: { cam: {} } } }, [
  { plan: 2 },
  { observe: { n: 0, inputs: { cam: 0 } } },
  { drop: 1 },
  { act: { t: 2, inputs: { cam: 2, x: 1 } }, expect: [act(2, { cam: 2, x: 1 })] },
  { answer: { to: "act", status: 200 } },
  { plan: 4 },
  { observe: { n: 3, inputs: { cam: 3 } } },
  { act: { t: 4, inputs: null }, expect: [act(4, null)] },
]);
scenario("stream off: no declaration, the act still carries seq", ["UPL-STREAM-OFF", "UPL-ACT-BODY"],
  { declaration: null, episode_id: "é😀" }, [
    { plan: 1 },
    { observe: { n: 0, inputs: 5 } },
    { act: { t: 1, inputs: 6 }, expect: [act(1, 6)] },
  ]);
// reads_past of the schedule, not of the declaration (spec/schedule.md § 8): -0.01 s at 10 Hz is step 0.
scenario("stream off: a seconds window that rounds to no past step", ["UPL-STREAM-OFF", "UPL-SETUP"],
  { declaration: { unit: "seconds", streams: { cam: { at: [-0.01, 0] } } }, rate: 10 }, [
    { plan: 3 },
    { observe: { n: 0, inputs: { cam: 0 } } },
    { observe: { n: 1, inputs: { cam: 1 } } },
    { observe: { n: 2, inputs: { cam: 2 } } },
    { act: { t: 3, inputs: { cam: 3 } }, expect: [act(3, { cam: 3 })] },
  ]);

// ---------------------------------------------------------------------------------------------------------------
// §§ 3–4 What to upload, when to post

// s every 3: wanted(s, -1, 10) = 1, 4, 7; wanted(s, 10, 20) = 11, 14, 17; the other steps are lazy skips.
scenario("fed key: wanted steps posted at once, the others ride along", [
  "UPL-WANTED", "UPL-SKIP-UNWANTED", "UPL-POST-PROMPT", "UPL-POST-ONE", "UPL-POST-BATCH", "UPL-POST-BODY", "UPL-CUT",
  "UPL-ONCE",
], { declaration: { streams: { s: { every: 3 } } } }, [
  { plan: 10 },
  { observe: { n: 0, inputs: { s: 0 } } },
  { observe: { n: 1, inputs: { s: 1, z: 9 } }, expect: [post([[1, { s: 1 }]], [0])] },
  { observe: { n: 2, inputs: { s: 2 } } },
  { observe: { n: 3, inputs: { s: 3 } } },
  { observe: { n: 4, inputs: { s: 4 } } },
  { observe: { n: 5, inputs: { s: 5 } } },
  { answer: { to: "post", status: 200, body: { through: 1 } }, expect: [post([[4, { s: 4 }]], [2, 3, 5])] },
  { observe: { n: 6, inputs: { s: 6 } } },
  { answer: { to: "post", status: 200 } },
  { observe: { n: 7, inputs: { s: 7 } }, expect: [post([[7, { s: 7 }]], [6])] },
  { observe: { n: 8, inputs: { s: 8 } } },
  { observe: { n: 9, inputs: { s: 9 } } },
  { act: { t: 10, inputs: { s: 10, z: 1 } }, expect: [act(10, { s: 10, z: 1 })] },
  { answer: { to: "act", status: 200 } },
  { answer: { to: "post", status: 200 } },
  { plan: 20 },
  { observe: { n: 11, inputs: { s: 11 } }, expect: [post([[11, { s: 11 }]], [8, 9])] },
]);

// cam at [-1, 0], s alone: before the act at 4 only step 3 is wanted, with ["cam"].
scenario("cut: listed members only, {} when none, non-objects whole", ["UPL-CUT", "UPL-WANTED"],
  { declaration: { streams: { cam: { at: [-1, 0] }, s: {} } } }, [
    { plan: 4 },
    { observe: { n: 0, inputs: { cam: 0 } } },
    { observe: { n: 1, inputs: { cam: 1 } } },
    { observe: { n: 2, inputs: { cam: 2 } } },
    { observe: { n: 3, inputs: { cam: [1, { a: 2 }], s: "x", other: null } }, expect: [post([[3, { cam: [1, { a: 2 }] }]], [0, 1, 2])] },
    { answer: { to: "post", status: 200 } },
    { act: { t: 4, inputs: { cam: 4, s: 4 } }, expect: [act(4, { cam: 4, s: 4 })] },
    { answer: { to: "act", status: 200 } },
    { plan: 6 },
    { observe: { n: 5, inputs: { s: 5 } }, expect: [post([[5, {}]])] },
    { answer: { to: "post", status: 200 } },
    { act: { t: 6, inputs: { cam: 6 } }, expect: [act(6, { cam: 6 })] },
    { answer: { to: "act", status: 200 } },
    { plan: 8 },
    { observe: { n: 7, inputs: "text" }, expect: [post([[7, "text"]])] },
  ]);
// every 2, whole: wanted(s, -1, 4) = 0, 2 with null keys: the observation goes whole.
scenario("cut: the whole observation when the keys are null", ["UPL-CUT", "UPL-SKIP-UNWANTED"], { declaration: { every: 2 } }, [
  { plan: 4 },
  { observe: { n: 0, inputs: { a: 1, b: [2] } }, expect: [post([[0, { a: 1, b: [2] }]])] },
  { observe: { n: 1, inputs: { a: 3 } } },
  { answer: { to: "post", status: 200 } },
  { observe: { n: 2, inputs: 7 }, expect: [post([[2, 7]], [1])] },
]);

// Exact integers beyond 2^53 travel unchanged, in a frame, in a cut member and in an act.
{
  covered.add("UPL-CUT");
  const text = '{"declaration": {"streams": {"cam": {"at": [-1, 0]}}}, "episode_id": "e", "events": [' +
    '{"plan": 2}, {"observe": {"n": 0, "inputs": 9007199254740993}},' +
    '{"observe": {"n": 1, "inputs": {"cam": 9007199254740995, "x": 1}}}, {"act": {"t": 2, "inputs": 9007199254740997}}]}';
  const input = /** @type {any} */ (parseWire(text, { lenient: true })).value;
  const got = overTheWire(answer("uploader", input));
  const want = /** @type {any} */ (parseWire('[[], [], [{"episode_id": "e", "frames": [{"seq": 1, "inputs": {"cam": 9007199254740995}}], ' +
    '"skipped": [0]}], [{"episode_id": "e", "seq": 2, "inputs": 9007199254740997}]]', { lenient: true })).value;
  const bodies = got.type === "result" ? got.result.requests.map((l) => l.map((r) => r.observe ?? r.act)) : null;
  check("cut: integers beyond 2^53 keep their digits", bodies !== null && jsonEqual(bodies, want), toJsonLine(got).slice(0, 400));
}

// cam at [-2, 0]: wanted(s, -1, 3) = 1 and 2 (the window's reach), both ["cam"]; 0 is not wanted.
scenario("drop: a wanted step is an urgent skip, an unwanted one lazy", ["UPL-DROPPED", "UPL-SKIP-UNWANTED", "UPL-POST-PROMPT"],
  { declaration: { streams: { cam: { at: [-2, 0] } } } }, [
    { plan: 3 },
    { drop: 0 },
    { drop: 1, expect: [post([], [0, 1])] },
    { observe: { n: 2, inputs: { cam: 2 } } },
    { answer: { to: "post", status: 200 }, expect: [post([[2, { cam: 2 }]])] },
  ]);

scenario("depth: above MAX_POST_DEPTH after the cut is an urgent skip; an act carries it", ["UPL-DEPTH", "UPL-ACT-BODY"],
  { declaration: EVERY_1 }, [
    { plan: 3 },
    { observe: { n: 0, inputs: nested(198) }, expect: [post([], [0])] },
    { observe: { n: 1, inputs: nested(197) } },
    { answer: { to: "post", status: 200 }, expect: [post([[1, nested(197)]])] },
    { observe: { n: 2, inputs: [[], {}] } },
    { act: { t: 3, inputs: nested(199) }, expect: [act(3, nested(199))] },
    { answer: { to: "post", status: 200 }, expect: [post([[2, [[], {}]]])] },
  ]);
// The cut object is one level of its own: {"cam": depth 197} has own depth 198.
scenario("depth: measured after the cut", ["UPL-DEPTH", "UPL-CUT"], { declaration: { streams: { cam: { at: [-1, 0] } } } }, [
  { plan: 2 },
  { observe: { n: 0, inputs: { cam: 0 } } },
  { observe: { n: 1, inputs: { cam: nested(197), deep: nested(198) } }, expect: [post([], [0, 1])] },
  { answer: { to: "post", status: 200 } },
  { act: { t: 2, inputs: { cam: 2 } }, expect: [act(2, { cam: 2 })] },
  { answer: { to: "act", status: 200 } },
  { plan: 4 },
  { observe: { n: 3, inputs: { cam: nested(196), deep: nested(198) } }, expect: [post([[3, { cam: nested(196) }]])] },
]);

scenario("behind: drop_oldest turns the oldest pending frames into urgent skips", ["UPL-BEHIND", "UPL-SETUP"],
  { declaration: { every: 1, when_behind: "drop_oldest" }, backlog: 2 }, [
    { plan: 10 },
    { observe: { n: 0, inputs: "a" }, expect: [post([[0, "a"]])] },
    { observe: { n: 1, inputs: "b" } },
    { observe: { n: 2, inputs: "c" } },
    { observe: { n: 3, inputs: "d" } },
    { observe: { n: 4, inputs: "e" } },
    { answer: { to: "post", status: 200 }, expect: [post([[3, "d"], [4, "e"]], [1, 2])] },
  ]);
scenario("behind: wait never drops, whatever the backlog", ["UPL-BEHIND"], { declaration: EVERY_1, backlog: 1 }, [
  { plan: 10 },
  { observe: { n: 0, inputs: "a" }, expect: [post([[0, "a"]])] },
  { observe: { n: 1, inputs: "b" } },
  { observe: { n: 2, inputs: "c" } },
  { observe: { n: 3, inputs: "d" } },
  { answer: { to: "post", status: 200 }, expect: [post([[1, "b"], [2, "c"], [3, "d"]])] },
]);
{
  // The default backlog is MAX_STREAM_FRAMES (1,024): frame 1,025 pending pushes frame 1 out.
  /** @type {any[]} */
  const events = [{ plan: 1100 }, { observe: { n: 0, inputs: 0 }, expect: [post([[0, 0]])] }];
  for (let n = 1; n <= 1025; n++) events.push({ observe: { n, inputs: n } });
  const frames = /** @type {Array<[number, any]>} */ ([]);
  for (let n = 2; n <= 1025; n++) frames.push([n, n]);
  events.push({ answer: { to: "post", status: 200 }, expect: [post(frames, [1])] });
  scenario("behind: the default backlog is MAX_STREAM_FRAMES", ["UPL-BEHIND", "UPL-SETUP"],
    { declaration: { every: 1, when_behind: "drop_oldest" } }, events);
}

// ---------------------------------------------------------------------------------------------------------------
// § 5 The act

scenario("act: sent at once whatever is in flight; never retried by the uploader", ["UPL-ACT-BODY", "UPL-ACT-ONCE"],
  { declaration: EVERY_1 }, [
    { plan: 2 },
    { observe: { n: 0, inputs: "a" }, expect: [post([[0, "a"]])] },
    { observe: { n: 1, inputs: "b" } },
    { act: { t: 2, inputs: "c" }, expect: [act(2, "c")] },
    { answer: { to: "act", status: 409, body: { error: { code: "conflict" } } } },
    { act: { t: 2, inputs: "c2" }, expect: [act(2, "c2")] },
    { fail: { to: "act", reason: "timeout" } },
    { act: { t: 2, inputs: "c3" }, expect: [act(2, "c3")] },
    { answer: { to: "act", status: 503, headers: {} } },
    { act: { t: 2, inputs: "c4" }, expect: [act(2, "c4")] },
    { answer: { to: "post", status: 200 }, expect: [post([[1, "b"]])] },
    { answer: { to: "act", status: 200 } },
    { plan: 4 },
    { observe: { n: 3, inputs: "d" } },
    { answer: { to: "post", status: 200 }, expect: [post([[3, "d"]])] },
  ]);
{
  // t_prev moves only on a 200 (spec/uploader.md § 5; no request can show it, so it is read here).
  const u = new Uploader({ declaration: EVERY_1, rate: undefined, episodeId: "e" });
  u.plan(2);
  u.act(2, 0);
  u.answer("act", 409, OK);
  const afterRefusal = u.tPrev;
  u.act(2, 0);
  u.fail("act");
  const afterFailure = u.tPrev;
  u.act(2, 0);
  u.answer("act", 204, OK);
  const afterNoContent = u.tPrev;
  u.act(2, 0);
  u.answer("act", 200, OK);
  check("act: t_prev is the last act answered 200",
    afterRefusal === -1 && afterFailure === -1 && afterNoContent === -1 && u.tPrev === 2,
    `${afterRefusal}, ${afterFailure}, ${afterNoContent}, ${u.tPrev}`);
}

// ---------------------------------------------------------------------------------------------------------------
// § 6 Answers

{
  // Six attempts: the first at 0, five retries each inside its window after the attempt before it ended.
  const r1 = 0.0 + 0.2;
  const r2 = r1 + 0.4;
  const r3 = r2 + 0.8;
  const r4 = r3 + 1.6;
  const r5 = r4 + 3.2;
  const first = post([[0, "a"]]);
  scenario("retry: the same body, six attempts, backoff windows; then given up, its frame declared skipped", [
    "UPL-RETRY", "UPL-RETRY-BACKOFF", "UPL-GIVE-UP", "UPL-LOST", "UPL-CLOCK", "UPL-POST-ONE", "UPL-FORMATS",
    "UPL-ONCE",
  ], { declaration: { every: 1 } }, [
    { plan: 5 },
    { observe: { n: 0, inputs: "a" }, expect: [first] },
    { fail: { to: "post", reason: "timeout" } },
    { observe: { n: 1, inputs: "b" } },
    { advance: 0.2, expect: [{ ...first, at: windowAfter(0.0, 1) }] },
    { answer: { to: "post", status: 503 } },
    { advance: 0.4, expect: [{ ...first, at: windowAfter(r1, 2) }] },
    { fail: { to: "post", reason: "connection" } },
    { advance: 0.8, expect: [{ ...first, at: windowAfter(r2, 3) }] },
    { answer: { to: "post", status: 500, headers: {} } },
    { advance: 1.6, expect: [{ ...first, at: windowAfter(r3, 4) }] },
    { fail: { to: "post", reason: "timeout" } },
    { advance: 3.2, expect: [{ ...first, at: windowAfter(r4, 5) }] },
    { answer: { to: "post", status: 502 }, expect: [post([[1, "b"]], [0], r5)] },
    { answer: { to: "post", status: 200 } },
    { act: { t: 5, inputs: "f" }, expect: [act(5, "f", r5)] },
  ]);
}
scenario("retry: not before the window opens", ["UPL-RETRY-BACKOFF", "UPL-CLOCK"], { declaration: EVERY_1 }, [
  { plan: 3 },
  { observe: { n: 0, inputs: "a" }, expect: [post([[0, "a"]])] },
  { fail: { to: "post", reason: "timeout" } },
  { advance: 0.05 },
  { advance: 0.25, expect: [post([[0, "a"]], [], { from: 0.1, to: 0.2 })] },
]);
scenario("clock: each advance is one binary64 addition", ["UPL-CLOCK"], { declaration: null }, [
  { plan: 0 },
  { advance: 0.1 },
  { advance: 0.1 },
  { advance: 0.1 },
  { act: { t: 0, inputs: 1 }, expect: [act(0, 1, 0.30000000000000004)] },
]);

scenario("refused: a 400 is not retried, its frame is declared skipped with pending at once", ["UPL-REFUSED", "UPL-LOST"],
  { declaration: EVERY_1 }, [
  { plan: 3 },
  { observe: { n: 0, inputs: "a" }, expect: [post([[0, "a"]])] },
  { observe: { n: 1, inputs: "b" } },
  { answer: { to: "post", status: 400 }, expect: [post([[1, "b"]], [0])] },
  { answer: { to: "post", status: 200 } },
  { observe: { n: 2, inputs: "c" }, expect: [post([[2, "c"]])] },
]);

// every 2, whole: wanted(s, -1, 6) = 0, 2, 4; 1, 3, 5 are lazy.
scenario("over limit: a 413 declares the post's numbers skipped; a post of skips is dropped",
  ["UPL-OVER-LIMIT", "UPL-LOST", "UPL-ONCE"],
  { declaration: { every: 2 } }, [
    { plan: 6 },
    { observe: { n: 0, inputs: "a" }, expect: [post([[0, "a"]])] },
    { observe: { n: 1, inputs: "b" } },
    { observe: { n: 2, inputs: "c" } },
    { answer: { to: "post", status: 413 }, expect: [post([[2, "c"]], [0, 1])] },
    { answer: { to: "post", status: 413 }, expect: [post([], [0, 1, 2])] },
    { answer: { to: "post", status: 413 } },
    { observe: { n: 3, inputs: "d" } },
    { observe: { n: 4, inputs: "e" }, expect: [post([[4, "e"]], [3])] },
  ]);

// every 2, whole, as above: a 400 of a post of frames and skips, then a post of skips alone given up and dropped.
{
  const skips = post([], [1, 2]);
  const r1 = 0.0 + 0.2;
  const r2 = r1 + 0.4;
  const r3 = r2 + 0.8;
  const r4 = r3 + 1.6;
  scenario("lost: a 400 of frames and skips declares them all; a lost post of skips alone is dropped",
    ["UPL-LOST", "UPL-REFUSED", "UPL-GIVE-UP", "UPL-ONCE"], { declaration: { every: 2 } }, [
      { plan: 6 },
      { observe: { n: 0, inputs: "a" }, expect: [post([[0, "a"]])] },
      { observe: { n: 1, inputs: "b" } },
      { observe: { n: 2, inputs: "c" } },
      { answer: { to: "post", status: 200 }, expect: [post([[2, "c"]], [1])] },
      { answer: { to: "post", status: 400 }, expect: [skips] },
      { answer: { to: "post", status: 503 } },
      { advance: 0.2, expect: [{ ...skips, at: windowAfter(0.0, 1) }] },
      { answer: { to: "post", status: 503 } },
      { advance: 0.4, expect: [{ ...skips, at: windowAfter(r1, 2) }] },
      { answer: { to: "post", status: 503 } },
      { advance: 0.8, expect: [{ ...skips, at: windowAfter(r2, 3) }] },
      { answer: { to: "post", status: 503 } },
      { advance: 1.6, expect: [{ ...skips, at: windowAfter(r3, 4) }] },
      { answer: { to: "post", status: 503 } },
      { advance: 3.2, expect: [{ ...skips, at: windowAfter(r4, 5) }] },
      { fail: { to: "post", reason: "connection" } },
      { observe: { n: 3, inputs: "d" } },
      { advance: 5.0 },
      { observe: { n: 4, inputs: "e" }, expect: [post([[4, "e"]], [3])] },
    ]);
}

scenario("ended: a 410 to a post stops posts and acts", ["UPL-ENDED", "UPL-EVENTS"], { declaration: EVERY_1 }, [
  { plan: 3 },
  { observe: { n: 0, inputs: "a" }, expect: [post([[0, "a"]])] },
  { observe: { n: 1, inputs: "b" } },
  { answer: { to: "post", status: 410, body: { error: { code: "gone" } } } },
  { observe: { n: 2, inputs: "c" } },
  { act: { t: 3, inputs: "d" } },
  { advance: 5 },
]);
scenario("ended: a 410 ends the episode whatever its header", ["UPL-ENDED", "UPL-FORMATS"], { declaration: EVERY_1 }, [
  { plan: 2 },
  { observe: { n: 0, inputs: "a" }, expect: [post([[0, "a"]])] },
  { answer: { to: "post", status: 410, headers: {} } },
  { observe: { n: 1, inputs: "b" } },
  { act: { t: 2, inputs: "c" } },
]);
scenario("answers: any 2xx to a post is done, a 1xx or 3xx is retried", ["UPL-RETRY", "UPL-POST-PROMPT"],
  { declaration: EVERY_1 }, [
    { plan: 3 },
    { observe: { n: 0, inputs: "a" }, expect: [post([[0, "a"]])] },
    { observe: { n: 1, inputs: "b" } },
    { answer: { to: "post", status: 204 }, expect: [post([[1, "b"]])] },
    { answer: { to: "post", status: 302, headers: { Location: "/elsewhere" } } },
    { advance: 0.2, expect: [post([[1, "b"]], [], { from: 0.1, to: 0.2 })] },
    { answer: { to: "post", status: 101 } },
    { advance: 0.4, expect: [post([[1, "b"]], [], { from: 0.2 + 0.2, to: 0.2 + 0.4 })] },
  ]);
scenario("ended: a 410 to an act drops a backing-off post", ["UPL-ENDED"], { declaration: EVERY_1 }, [
  { plan: 1 },
  { observe: { n: 0, inputs: "a" }, expect: [post([[0, "a"]])] },
  { act: { t: 1, inputs: "b" }, expect: [act(1, "b")] },
  { fail: { to: "post", reason: "connection" } },
  { answer: { to: "act", status: 410 } },
  { advance: 1 },
]);

scenario("formats: a 200 without the format turns posts off, not acts", ["UPL-FORMATS"], { declaration: EVERY_1 }, [
  { plan: 3 },
  { observe: { n: 0, inputs: "a" }, expect: [post([[0, "a"]])] },
  { observe: { n: 1, inputs: "b" } },
  { answer: { to: "post", status: 200, headers: {} } },
  { observe: { n: 2, inputs: "c" } },
  { act: { t: 3, inputs: "d" }, expect: [act(3, "d")] },
  { answer: { to: "act", status: 200, headers: {} } },
  { plan: 5 },
  { observe: { n: 4, inputs: "e" } },
  { act: { t: 5, inputs: "f" }, expect: [act(5, "f")] },
]);
scenario("formats: the header's name in any case, its items trimmed", ["UPL-FORMATS"], { declaration: EVERY_1 }, [
  { plan: 4 },
  { observe: { n: 0, inputs: "a" }, expect: [post([[0, "a"]])] },
  { observe: { n: 1, inputs: "b" } },
  { answer: { to: "post", status: 200, headers: { "seq-ACCEPT-formats": "other/2 ,  x-seq-observe/1 " } }, expect: [post([[1, "b"]])] },
  { observe: { n: 2, inputs: "c" } },
  { answer: { to: "post", status: 200, headers: { "Seq-Accept-Formats": "x-seq-observe/10, X-SEQ-OBSERVE/1" } } },
  { observe: { n: 3, inputs: "d" } },
]);
scenario("formats: a 404 to a post turns the stream off whatever its header", ["UPL-FORMATS"], { declaration: EVERY_1 }, [
  { plan: 3 },
  { observe: { n: 0, inputs: "a" }, expect: [post([[0, "a"]])] },
  { observe: { n: 1, inputs: "b" } },
  { answer: { to: "post", status: 404, headers: OK } },
  { observe: { n: 2, inputs: "c" } },
]);
scenario("formats: an act's 4xx without the format drops pending and the next posts", ["UPL-FORMATS", "UPL-ACT-ONCE"],
  { declaration: EVERY_1 }, [
    { plan: 2 },
    { observe: { n: 0, inputs: "a" }, expect: [post([[0, "a"]])] },
    { observe: { n: 1, inputs: "b" } },
    { act: { t: 2, inputs: "c" }, expect: [act(2, "c")] },
    { answer: { to: "act", status: 409, headers: { Other: "x-seq-observe/1" } } },
    { answer: { to: "post", status: 200 } },
    { act: { t: 2, inputs: "c" }, expect: [act(2, "c")] },
  ]);
scenario("events: an answer with nothing in flight is ignored", ["UPL-EVENTS"], { declaration: EVERY_1 }, [
  { plan: 2 },
  { answer: { to: "post", status: 200 } },
  { fail: { to: "act", reason: "timeout" } },
  { observe: { n: 0, inputs: "a" }, expect: [post([[0, "a"]])] },
  { fail: { to: "post", reason: "timeout" } },
  { answer: { to: "post", status: 200 } },
  { advance: 0.2, expect: [post([[0, "a"]], [], { from: 0.1, to: 0.2 })] },
]);

// ---------------------------------------------------------------------------------------------------------------
// The parts on their own

check("own depth: 0 for scalars and empty containers", ownDepth(3) === 0 && ownDepth([]) === 0 && ownDepth({}) === 0);
check("own depth: 1 for [0] and {a: 1}, 1 for [[]]", ownDepth([0]) === 1 && ownDepth({ a: 1 }) === 1 && ownDepth([[]]) === 1);
check("own depth: the deepest branch", ownDepth([1, { a: [[2]] }, []]) === 4);
check("cut: listed members, absent ones left out", jsonEqual(cut({ a: 1, b: 2 }, ["a", "c"]), { a: 1 }));
check("cut: null keys and non-objects whole", cut([1], ["a"])[0] === 1 && jsonEqual(cut({ a: 1 }, null), { a: 1 }));
check("formats: an empty header lists nothing", !listsObserveFormat({ "Seq-Accept-Formats": "" }));
check("formats: items are trimmed of tabs too", listsObserveFormat({ "Seq-Accept-Formats": "a/1,\t x-seq-observe/1\t" }));
check("formats: but compared exactly", !listsObserveFormat({ "Seq-Accept-Formats": "X-Seq-Observe/1, x-seq-observe/1;q=1" }));

const ruleIds = [...SPEC.matchAll(/\*\*\[(UPL-[A-Z-]+)\]\*\*/g)].map((m) => m[1]);
for (const id of ruleIds) {
  if (!NOT_REACHABLE.has(id)) check(`rule ${id} is exercised`, covered.has(id));
}
check("the spec's rules were found", ruleIds.length > 20, `${ruleIds.length} rule ids`);

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
