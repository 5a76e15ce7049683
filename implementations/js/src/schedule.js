// The observation schedule of spec/schedule.md: of, picks, needed, wanted, keeps_from, reads_past.
//
// Steps are JavaScript numbers holding integers. Every step this module computes lies within ±2^53 (inputs are
// within ±MAX_STEP, see spec/schedule.md § 1), where a double is exact, so plain arithmetic is exact integer
// arithmetic here.

import { isValid } from "./validation.js";
import { isObject, compareCodePoints } from "./json.js";
import { present } from "./types.js";

/** @typedef {import("./types.js").Observations} Observations */
/** @typedef {import("./types.js").ScheduleResult} ScheduleResult */

export const MAX_STEP = Number.MAX_SAFE_INTEGER; // 2^53 - 1, MAX_SAFE_INTEGER in spec/contract.json

/** A refusal with an error id of spec/schedule.md § 2. */
export class SpecError extends Error {
  constructor(rule, message) {
    super(message);
    this.rule = rule;
  }
}

const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

// ---------------------------------------------------------------------------------------------------------------
// Rounding

/** Rounds a finite double to the nearest integer, an exact half to the even neighbour (never Math.round). */
export function roundHalfEven(p) {
  const a = Math.abs(p);
  const f = Math.floor(a);
  const d = a - f; // exact (Sterbenz)
  let n;
  if (d < 0.5) n = f;
  else if (d > 0.5) n = f + 1;
  else if (f % 2 === 0) n = f;
  else n = f + 1;
  const r = p < 0 ? -n : n;
  return r === 0 ? 0 : r; // no negative zero
}

// ---------------------------------------------------------------------------------------------------------------
// of(declaration, rate)

function checkRate(rate) {
  if (rate === undefined || rate === null || rate === 0) {
    throw new SpecError("schedule.rate-required", "a count in seconds must be converted to steps, and no rate (or a rate of 0) was given");
  }
  if (typeof rate !== "number" || Number.isNaN(rate) || !Number.isFinite(rate) || rate < 0) {
    throw new SpecError("schedule.invalid-rate", `the rate must be a finite number > 0, got ${describe(rate)}`);
  }
}

function describe(v) {
  if (typeof v === "number") return Number.isNaN(v) ? "NaN" : String(v);
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

/** Refuses unless `declaration` is null or a valid Observations (schema and rules beyond it). */
function checkDeclaration(declaration) {
  if (declaration === null) return;
  if (declaration === undefined || !isValid("Observations", declaration)) {
    throw new SpecError("schedule.invalid-declaration", "the declaration is neither null nor a valid Observations");
  }
}

/**
 * The schedule of a declaration: null, or
 * {windows: Map key -> ascending distinct offsets (<= 0), fed: Map key -> period, alone: key[], every, whole, pad}.
 * A declaration that is not a valid Observations is refused at run time (SCH-INPUT-DECLARATION).
 * @param {Observations | null} declaration
 * @param {any} rate  checked before its first use (SCH-INPUT-RATE)
 */
export function of(declaration, rate) {
  if (declaration === null) return null; // SCH-OF-NULL
  checkDeclaration(declaration); // SCH-INPUT-DECLARATION
  const unit = present(declaration, "unit") ? declaration.unit : "steps"; // SCH-OF-UNIT
  const pad = present(declaration, "pad") ? declaration.pad : "repeat_first"; // SCH-OF-PAD
  let rateChecked = false;
  const steps = (x) => {
    if (unit === "steps") return x === 0 ? 0 : x; // whole by validation, within ±MAX_STEP
    if (!rateChecked) {
      checkRate(rate); // SCH-INPUT-RATE, before the first conversion
      rateChecked = true;
    }
    const p = x * rate; // one binary64 multiplication, round to nearest even
    if (!Number.isFinite(p)) throw new SpecError("schedule.step-overflow", `${x} s at ${rate} Hz overflows`);
    const n = roundHalfEven(p); // SCH-OF-SECONDS-ROUND
    if (Math.abs(n) > MAX_STEP) {
      throw new SpecError("schedule.step-overflow", `${x} s at ${rate} Hz is ${n} steps, beyond ±${MAX_STEP}`);
    }
    return n;
  };
  const streams = present(declaration, "streams") ? declaration.streams : null;
  const windows = new Map();
  const fed = new Map();
  const alone = [];
  if (streams !== null) {
    for (const key of Object.keys(streams)) {
      const stream = streams[key];
      if (present(stream, "at")) {
        // SCH-OF-WINDOW: convert, clamp to <= 0, merge equal results, sort ascending
        const set = new Set();
        for (const x of stream.at) {
          const v = Math.min(0, steps(x));
          set.add(v === 0 ? 0 : v);
        }
        windows.set(key, [...set].sort((a, b) => a - b));
      } else if (present(stream, "every")) {
        fed.set(key, Math.max(1, steps(stream.every))); // SCH-OF-FED
      } else {
        alone.push(key); // SCH-OF-ALONE
      }
    }
  }
  const whole = streams === null; // SCH-OF-WHOLE
  /** @type {number | null} */
  let every = null;
  if (present(declaration, "every")) every = Math.max(1, steps(declaration.every)); // SCH-OF-EVERY
  // Every key name in code-point order, with its rank: lists of keys are built in this order.
  const names = [...windows.keys(), ...fed.keys(), ...alone].sort(compareCodePoints);
  const rank = new Map(names.map((k, idx) => [k, idx]));
  return { windows, fed, alone, every, whole, pad, names, rank };
}

// ---------------------------------------------------------------------------------------------------------------
// Step arguments

function checkStep(v, lo, name) {
  if (typeof v !== "number" || !Number.isInteger(v) || v < lo || v > MAX_STEP) {
    throw new SpecError("schedule.invalid-step", `${name} must be an integer in ${lo} … ${MAX_STEP}, got ${describe(v)}`);
  }
}

function checkPair(earlier, later, earlierName, laterName) {
  checkStep(later, 0, laterName);
  checkStep(earlier, -1, earlierName);
  if (!(earlier < later)) {
    throw new SpecError("schedule.t-prev-not-before-t", `${earlierName} (${earlier}) must be smaller than ${laterName} (${later})`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// picks, needed

/** @typedef {[number, string[] | null]} Entry a step and the keys read there (null: the whole observation) */

// SCH-RESULT-BOUND: a picks, needed or wanted result of more than MAX_RESULT_ENTRIES entries is refused with
// schedule.result-too-large (spec/schedule.md § 2), decided before it is built: each loop below first counts the
// distinct steps it would add (the result holds at least that many) and stops when the steps gathered already
// outnumber the bound. GATHER_LIMIT leaves room for the entries a result does not keep (picks' own step and padded
// steps when wanted reuses picks), so no result of at most MAX_RESULT_ENTRIES is ever refused.
export const MAX_RESULT_ENTRIES = 1000000;
const GATHER_LIMIT = MAX_RESULT_ENTRIES + 1024;

function refuseBeyond(entries, limit = MAX_RESULT_ENTRIES) {
  if (entries > limit) {
    throw new SpecError("schedule.result-too-large",
      `the result would hold more than ${MAX_RESULT_ENTRIES} entries (${entries} at least)`);
  }
}

/** How many of t, t − k, t − 2k, … lie above tPrev (tPrev < t). */
const stepsDown = (t, tPrev, k) => Math.floor((t - tPrev - 1) / k) + 1;

/**
 * picks without argument checks; entries [step, keys] (keys a sorted array or null).
 * @returns {Entry[]}
 */
function picksUnchecked(s, t, tPrev) {
  if (s === null) return [[t, null]]; // SCH-PICKS-NULL
  // asked: step -> keys, filled key by key in code-point order, so each list is sorted and has no duplicate
  // (a key is a window, fed or alone, and reads each step once).
  const asked = new Map();
  const add = (u, key) => {
    let l = asked.get(u);
    if (!l) asked.set(u, (l = []));
    l.push(key);
  };
  for (const key of s.names) {
    const offsets = s.windows.get(key);
    if (offsets) {
      for (const off of offsets) add(t + off, key); // SCH-PICKS-WINDOW
      continue;
    }
    const k = s.fed.get(key);
    if (k !== undefined) {
      refuseBeyond(stepsDown(t, tPrev, k), GATHER_LIMIT);
      for (let u = t; u > tPrev; u -= k) add(u, key); // SCH-PICKS-FED
      refuseBeyond(asked.size, GATHER_LIMIT);
      continue;
    }
    add(t, key); // SCH-PICKS-ALONE
  }
  const wholeSteps = new Set();
  if (s.whole) {
    // SCH-PICKS-WHOLE
    if (s.every === null) wholeSteps.add(t);
    else {
      refuseBeyond(stepsDown(t, tPrev, s.every), GATHER_LIMIT);
      for (let u = t; u > tPrev; u -= s.every) wholeSteps.add(u);
    }
  }
  const allSteps = new Set([...asked.keys(), ...wholeSteps]);
  const ordered = [...allSteps].sort((a, b) => a - b); // SCH-PICKS-ORDER
  /** @type {Entry[]} */
  const result = [];
  for (const u of ordered) {
    if (u < 0 && s.pad === "drop") continue; // SCH-PICKS-DROP
    const keys = wholeSteps.has(u) ? null : asked.get(u);
    result.push([u < 0 ? 0 : u, keys]); // SCH-PICKS-REPEAT-FIRST
  }
  return result;
}

export function picks(s, t, tPrev = -1) {
  checkPair(tPrev, t, "t_prev", "t"); // SCH-INPUT-STEPS
  const result = picksUnchecked(s, t, tPrev);
  refuseBeyond(result.length); // SCH-RESULT-BOUND
  return result;
}

/** The distinct steps of picks other than t, ascending. */
export function neededFrom(picked, t) {
  const out = [];
  let last = null;
  for (const [u] of picked) {
    if (u !== t && u !== last) out.push(u); // picks' steps are non-decreasing
    last = u;
  }
  return out;
}

export function needed(s, t, tPrev = -1) {
  return neededFrom(picks(s, t, tPrev), t); // SCH-NEEDED
}

// ---------------------------------------------------------------------------------------------------------------
// keeps_from

export function keepsFrom(s, t) {
  checkStep(t, 0, "t");
  let reach = 0;
  if (s !== null) for (const offsets of s.windows.values()) reach = Math.min(reach, offsets[0]);
  return Math.max(0, t + 1 + Math.min(0, reach)); // SCH-KEEPS-FROM
}

// ---------------------------------------------------------------------------------------------------------------
// wanted

/** @returns {Entry[]} */
export function wanted(s, t, tNext) {
  checkPair(t, tNext, "t", "t_next"); // SCH-INPUT-STEPS
  if (s === null) return [];
  // out: step -> null (whole) or Set of keys
  const out = new Map();
  const merge = (u, keys) => {
    // SCH-WANTED-MERGE
    if (!out.has(u)) {
      out.set(u, keys === null ? null : new Set(keys));
      return;
    }
    const cur = out.get(u);
    if (cur === null) return;
    if (keys === null) {
      out.set(u, null);
      return;
    }
    for (const k of keys) cur.add(k);
  };
  for (const [u, keys] of picksUnchecked(s, tNext, t)) {
    if (t < u && u < tNext) merge(u, keys); // SCH-WANTED-PICKS
  }
  for (const [key, offsets] of s.windows) {
    // SCH-WANTED-REACH
    const from = Math.max(t + 1, tNext + 1 + offsets[0]);
    refuseBeyond(tNext - from); // SCH-RESULT-BOUND: each of these steps is wanted
    for (let u = from; u <= tNext - 1; u++) merge(u, [key]);
    refuseBeyond(out.size);
  }
  refuseBeyond(out.size); // SCH-RESULT-BOUND
  const steps = [...out.keys()].sort((a, b) => a - b);
  return steps.map((u) => {
    /** @type {Set<string> | null | undefined} */
    const keys = out.get(u);
    if (!keys) return [u, null];
    return [u, [...keys].sort((a, b) => s.rank.get(a) - s.rank.get(b))];
  });
}

// ---------------------------------------------------------------------------------------------------------------
// reads_past

export function readsPastSchedule(s) {
  if (s === null) return false; // SCH-READS-PAST-SCHEDULE
  for (const offsets of s.windows.values()) if (offsets[0] < 0) return true;
  return s.fed.size > 0 || (s.whole && s.every !== null);
}

/** @param {Observations | null} declaration */
export function readsPastDeclaration(declaration) {
  if (declaration === null) return false; // SCH-READS-PAST-DECLARATION
  checkDeclaration(declaration);
  if (present(declaration, "every")) return true;
  const streams = present(declaration, "streams") ? declaration.streams : null;
  if (streams === null) return false;
  for (const key of Object.keys(streams)) {
    const st = streams[key];
    if (present(st, "every")) return true;
    if (present(st, "at") && st.at.some((x) => x < 0)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------------------
// The conformance case of kind "schedule"

/**
 * input: {declaration, rate?, t, t_prev}. Returns the result object, or throws SpecError.
 * @returns {ScheduleResult}
 */
export function scheduleCase(input) {
  if (!isObject(input)) throw new SpecError("schedule.invalid-input", "the input is not an object");
  const declaration = has(input, "declaration") ? input.declaration : null;
  const rate = has(input, "rate") ? input.rate : undefined;
  const t = input.t;
  const tPrev = has(input, "t_prev") ? input.t_prev : -1;
  const s = of(declaration, rate);
  const p = picks(s, t, tPrev);
  return {
    picks: p,
    needed: neededFrom(p, t),
    wanted: wanted(s, tPrev, t),
    keeps_from: keepsFrom(s, t),
    reads_past: { declaration: readsPastDeclaration(declaration), schedule: readsPastSchedule(s) },
  };
}
