#!/usr/bin/env node
// Differential self-check of the keeper's data structures: random scenarios in → src/stream_case.js (the keeper with
// its skip list of runs, per-run held counts, heap and expiry queues) and a naive model that transcribes the
// pseudo-code of spec/stream.md §§ 2–4 literally (a plain set of accounted numbers, `e2` as a copy of `e` for a post
// and for an act's own frame, through and every limit quantity recounted from scratch, and after every operation a
// check that no quantity is above its limit, as § 6 claims) → the outcome lists must be equal.
//
//   node test/keeper-model.js [SCENARIOS]      prints the first difference and "N passed, M failed"
//
// Both read the prose the same way (same author), so this check finds bugs of the efficient structures, not
// misreadings of the prose; the vectors are there for those. Scenarios come from a fixed-seed generator.

import { streamCase } from "../src/stream_case.js";
import { of, picks, needed, keepsFrom } from "../src/schedule.js";
import { envelope } from "../src/envelope.js";
import { canonicalSize } from "../src/canonical.js";
import { jsonEqual, toJsonLine, compareCodePoints } from "../src/json.js";

const WAIT = 10.0;

/**
 * The naive keeper: the pseudo-code of spec/stream.md, with nothing clever.
 * @param {{declaration: any, limits: any, episode_idle?: number | null, operations: any[]}} scenario
 * @returns {any[]} one outcome per operation
 */
function naive({ declaration, limits: scaled, episode_idle: idle = null, operations }) {
  const limits = { MAX_EPISODES: 1024, ...scaled };
  const s = of(declaration, undefined);
  /** @type {Map<string, any>} */
  const eps = new Map();
  /** @type {Map<string, number>} */
  const ended = new Map(); // id -> end time
  const outcomes = [];
  let clock = 0;
  const through = (e) => {
    let n = -1;
    while (e.acc.has(n + 1)) n++;
    return n;
  };
  const remembered = (e) => {
    const th = through(e);
    let c = e.held.size;
    for (const u of e.acc) if (u > th && !e.held.has(u)) c++;
    return c;
  };
  const bytes = (e) => [...e.held.values()].reduce((a, v) => a + canonicalSize(v), 0);
  const workerWith = (id, e2) => {
    let b = 0;
    for (const [k, e] of eps) if (k !== id) b += bytes(e);
    return b + (e2 ? bytes(e2) : 0);
  };
  /** @returns {any} an episode's state, as § 2 lists it */
  const fresh = () => ({ acc: new Set(), held: new Map(), line: 0, lastAct: -1, waiting: null, seen: clock });
  const copy = (e) => ({ ...e, acc: new Set(e.acc), held: new Map(e.held) });
  /** STR-LIMIT-CHECK: the first limit that episode `id` in state e2 would be above, or null. */
  const crosses = (id, e2) => {
    const after = [
      ["MAX_STREAM_FRAMES", remembered(e2)],
      ["MAX_STREAM_BYTES", bytes(e2)],
      ["MAX_WORKER_STREAM_BYTES", workerWith(id, e2)],
    ];
    for (const [name, quantity] of after) if (quantity > limits[name]) return name;
    return null;
  };
  const refuse = (error, status, extra = {}) => ({ error, status, ...extra });
  const handOver = (id, e, t, own) => {
    let handed = own;
    if (s !== null) {
      const entries = picks(s, t, e.lastAct).filter(([u]) => u === t || e.held.has(u));
      const frames = {};
      for (const [u, v] of e.held) frames[String(u)] = v;
      handed = envelope(entries, frames, own, t);
    }
    e.waiting = null;
    e.lastAct = t;
    e.line = keepsFrom(s, t);
    for (const u of [...e.held.keys()]) if (u < e.line) e.held.delete(u);
    if (!e.acc.has(t)) {
      const holding = copy(e);
      holding.acc.add(t);
      holding.held.set(t, own);
      const accounting = copy(e);
      accounting.acc.add(t);
      if (t >= e.line && crosses(id, holding) === null) {
        e.acc.add(t);
        e.held.set(t, own);
      } else if (crosses(id, accounting) === null) e.acc.add(t);
    }
    return handed;
  };
  const expire = (j) => {
    const gone = [];
    for (const e of eps.values()) {
      const w = e.waiting;
      if (w && clock > w.deadline) {
        outcomes[w.j] = refuse("stream.frames-missing", 409, { missing: w.need.filter((u) => !e.acc.has(u)), at: j });
        e.waiting = null;
      }
    }
    if (idle !== null) {
      for (const [id, e] of [...eps]) {
        if (clock > e.seen + idle) {
          eps.delete(id);
          ended.set(id, e.seen + idle);
          gone.push(id);
        }
      }
      for (const [id, end] of [...ended]) if (clock > end + idle) ended.delete(id);
    }
    return gone;
  };
  const checkInvariant = (j) => {
    for (const [id, e] of eps) if (crosses(id, e) !== null) throw new Error(`operation ${j} left a quantity above its limit`);
  };
  const startable = (id) => eps.has(id) || eps.size < limits.MAX_EPISODES;
  operations.forEach((op, j) => {
    step(op, j);
    checkInvariant(j);
  });
  function step(op, j) {
    if ("advance" in op) {
      clock = clock + op.advance;
      outcomes[j] = { ended: expire(j).sort(compareCodePoints) };
      return;
    }
    expire(j);
    if ("observe" in op) {
      const b = op.observe;
      const frames = b.frames ?? [];
      const skipped = b.skipped ?? [];
      if (frames.some((f) => f.seq < 0)) return void (outcomes[j] = refuse("stream.invalid-body", 400));
      if (skipped.some((n) => n < 0)) return void (outcomes[j] = refuse("stream.invalid-skipped", 400));
      if (ended.has(b.episode_id)) return void (outcomes[j] = refuse("stream.episode-ended", 410));
      if (!startable(b.episode_id)) return void (outcomes[j] = refuse("stream.too-many-episodes", 503));
      const e = eps.get(b.episode_id) ?? fresh();
      const e2 = copy(e);
      for (const f of frames) {
        if (e2.acc.has(f.seq)) continue;
        e2.acc.add(f.seq);
        if (f.seq >= e2.line) e2.held.set(f.seq, f.inputs);
      }
      for (const n of skipped) e2.acc.add(n);
      const crossed = crosses(b.episode_id, e2);
      if (crossed !== null) return void (outcomes[j] = refuse("stream.frames-over-limit", 413, { limit: crossed }));
      e2.seen = clock;
      eps.set(b.episode_id, e2);
      outcomes[j] = { through: through(e2) };
      const w = e2.waiting;
      if (w && w.need.every((u) => e2.acc.has(u))) outcomes[w.j] = { handed: handOver(b.episode_id, e2, w.t, w.own), at: j };
      return;
    }
    const b = op.act;
    const t = b.seq ?? null;
    if (t === null) {
      outcomes[j] = s === null ? { handed: b.inputs, at: j } : refuse("stream.seq-required", 400, { at: j });
      return;
    }
    if (ended.has(b.episode_id)) return void (outcomes[j] = refuse("stream.episode-ended", 410, { at: j }));
    if (!startable(b.episode_id)) return void (outcomes[j] = refuse("stream.too-many-episodes", 503, { at: j }));
    const e = eps.get(b.episode_id) ?? fresh();
    if (e.waiting) return void (outcomes[j] = refuse("stream.act-waiting", 409, { at: j }));
    if (t <= e.lastAct) return void (outcomes[j] = refuse("stream.act-not-after-previous", 409, { last_act: e.lastAct, at: j }));
    const need = s === null ? [] : needed(s, t, e.lastAct);
    if (need.length > limits.MAX_STREAM_FRAMES) {
      return void (outcomes[j] = refuse("stream.act-over-limit", 413, { limit: "MAX_STREAM_FRAMES", at: j }));
    }
    e.seen = clock;
    eps.set(b.episode_id, e);
    if (need.every((u) => e.acc.has(u))) outcomes[j] = { handed: handOver(b.episode_id, e, t, b.inputs), at: j };
    else e.waiting = { j, t, own: b.inputs, need, deadline: clock + WAIT };
  }
  return operations.map((_, j) => outcomes[j] ?? { waiting: true });
}

// ---------------------------------------------------------------------------------------------------------------
// Random scenarios (fixed seed)

let seed = 20261203;
const rand = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
};
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));

const DECLARATIONS = [
  null,
  { every: 1 },
  { every: 3 },
  {},
  { streams: {} },
  { streams: { cam: { at: [-2, 0] } } },
  { streams: { cam: { at: [-4, -1] }, s: { every: 2 } } },
  { streams: { cam: { at: [-3, 0] }, st: {} }, pad: "drop" },
];
const INPUTS = () => pick([null, 0, 7, "ab", "é😀", [1, 2], { cam: int(0, 99) }, { cam: "x", s: [true] }, 1.5e-10, 1e21]);

function scenario() {
  const ids = ["e", "f", "g"].slice(0, int(1, 3));
  const operations = [];
  for (let k = 0; k < 40; k++) {
    const r = rand();
    const episode_id = pick(ids);
    if (r < 0.45) {
      const body = { episode_id };
      if (rand() < 0.8) body.frames = Array.from({ length: int(0, 4) }, () => ({ seq: int(0, 16) - (rand() < 0.02 ? 17 : 0), inputs: INPUTS() }));
      if (rand() < 0.35) body.skipped = Array.from({ length: int(1, 3) }, () => int(0, 16) - (rand() < 0.03 ? 17 : 0));
      operations.push({ observe: body });
    } else if (r < 0.8) {
      const body = { episode_id, inputs: INPUTS() };
      if (rand() < 0.95) body.seq = int(0, 20);
      operations.push({ act: body });
    } else operations.push({ advance: pick([0, 0.5, 2, 4.5, 9.5, 10, 10.5, 12]) });
  }
  return {
    declaration: pick(DECLARATIONS),
    episode_idle: pick([null, 10, 15]),
    limits: { MAX_STREAM_FRAMES: int(2, 10), MAX_STREAM_BYTES: int(8, 80), MAX_WORKER_STREAM_BYTES: int(10, 150),
      MAX_EPISODES: int(1, 3) },
    operations,
  };
}

const count = Number(process.argv[2] ?? 1500);
let passed = 0;
let failed = 0;
for (let n = 0; n < count; n++) {
  const input = scenario();
  const got = streamCase(input).outcomes;
  const want = naive({ ...input, limits: { ...input.limits } });
  if (jsonEqual(got, want)) passed++;
  else {
    failed++;
    if (failed <= 3) {
      const j = got.findIndex((g, k) => !jsonEqual(g, want[k]));
      console.log(`FAIL scenario ${n}, operation ${j}: ${toJsonLine(got[j])} != ${toJsonLine(want[j])}\n  ${toJsonLine(input)}`);
    }
  }
}
console.log(`keeper against the naive model: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
