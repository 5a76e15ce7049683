// The keeper of spec/stream.md: POST /observe and POST /act bodies with a clock reading in → the rules of that page
// → answers (through, the value an act is handed, or a refusal) and events (acts handed over or failed later,
// episodes that ended).
//
// Why this shape: the page defines the keeper as a pure state machine, so this module reads no clock and does no
// I/O; the caller passes the clock with every call (`post`, `act`, `tick`) and says which act is which with an opaque
// `ticket`, so that an HTTP worker, a test double and the conformance testee (src/stream_case.js) drive the same
// code. Work per frame is O(log n) (src/intervals.js): accounted numbers as runs in a skip list, each run counting
// the held frames inside it, and the held numbers in a min-heap for retention. Everything that expires is kept in
// insertion-ordered Maps whose order is also the order of the deadlines (readings never decrease, so deadlines and
// idle ends grow in the order they are set): expiry looks at the head only. A post is checked against the limits on
// a computed summary of the state it would leave (no copy of the episode), then applied, so a refused post changes
// nothing (STR-POST-ATOMIC); an act's own frame is offered to the same check (STR-ACT-OWN), so no quantity ever
// exceeds its limit (spec/stream.md § 6).
//
// No kind is kept per accounted number (STR-ACCOUNTED): an act is handed exactly the picked frames the episode holds
// (STR-ACT-SKIPPED), and `through` needs only the accounted numbers.

import { of, picks, neededFrom, keepsFrom } from "./schedule.js";
import { envelope } from "./envelope.js";
import { validateValue } from "./validation.js";
import { setMember, carry, literalOf, formatPath, isObject } from "./json.js";
import { canonicalSize } from "./canonical.js";
import { RunSet, MinHeap } from "./intervals.js";

/** @typedef {import("./schedule.js").Entry} Entry */
/**
 * A refusal or failure of spec/stream.md § 10: the error id, its HTTP status, and the StreamError details it carries
 * besides `reason` (issues, missing, limit, last_act).
 * @typedef {{error: string, status: number, details: {[k: string]: any}}} StreamRefusal
 */
/**
 * The limits of a keeper (STR-SETUP).
 * @typedef {{MAX_STREAM_FRAMES: number, MAX_STREAM_BYTES: number, MAX_WORKER_STREAM_BYTES: number,
 *   MAX_EPISODES?: number, STREAM_WAIT_S: number}} StreamLimits
 */
/**
 * Something that happened besides the answer: an act failed or handed over later (named by its ticket), an episode
 * that ended.
 * @typedef {{kind: "failed", ticket: any, refusal: StreamRefusal} | {kind: "handed", ticket: any, result: {handed: any}}
 *   | {kind: "ended", id: string}} StreamEvent
 */

/** Each error id of spec/stream.md § 10 with its HTTP status and StreamError code. */
export const STREAM_ERRORS = {
  "stream.invalid-body": [400, "invalid_request"],
  "stream.invalid-skipped": [400, "invalid_request"],
  "stream.seq-required": [400, "invalid_request"],
  "stream.episode-required": [400, "invalid_request"],
  "stream.act-not-after-previous": [409, "conflict"],
  "stream.act-waiting": [409, "conflict"],
  "stream.frames-missing": [409, "conflict"],
  "stream.episode-ended": [410, "gone"],
  "stream.frames-over-limit": [413, "payload_too_large"],
  "stream.act-over-limit": [413, "payload_too_large"],
  "stream.too-many-episodes": [503, "unavailable"],
};

/** This keeper's MAX_EPISODES (spec/stream.md STR-LIMIT-EPISODES: an implementation limit of at least 1,024). */
export const MAX_EPISODES = 1024;

/**
 * The largest MAX_STREAM_FRAMES a keeper takes (STR-SETUP): the least result bound of a schedule implementation
 * (spec/schedule.md SCH-RESULT-BOUND), so that STR-ACT-BOUND refuses an act before `picks` could.
 */
export const FRAMES_CEILING = 1000000;

const MESSAGES = {
  "stream.invalid-body": "The body is not a valid request of this endpoint.",
  "stream.invalid-skipped": "A skipped number is negative; numbers count from 0.",
  "stream.seq-required": "An observation schedule is declared, so the act must carry seq.",
  "stream.episode-required": "An act that carries seq must name its episode by an id of 1 to 256 code points.",
  "stream.act-not-after-previous": "The act's seq is not above the episode's previous act.",
  "stream.act-waiting": "Another act of this episode is still waiting for frames.",
  "stream.frames-missing": "Earlier observations the act needs did not arrive in time.",
  "stream.episode-ended": "The episode ended after being idle; start a new episode under a new id.",
  "stream.frames-over-limit": "The frames would exceed a stream limit.",
  "stream.act-over-limit": "The act needs more earlier observations than an episode may hold.",
  "stream.too-many-episodes": "This worker holds as many episodes as it may; a new one can start when another ends.",
};

/**
 * A refusal or failure: {error, status, details} (details as in StreamError, without `reason`).
 * @param {string} error
 * @param {{[k: string]: any}} [details]
 * @returns {StreamRefusal}
 */
function refusal(error, details = {}) {
  const [status] = STREAM_ERRORS[error];
  return { error, status, details };
}

/**
 * The StreamError body of a refusal (spec/stream.md STR-HTTP, spec/schemas/StreamError.json).
 * @param {StreamRefusal} r
 */
export function streamErrorBody(r) {
  const [, code] = STREAM_ERRORS[r.error];
  const reason = r.error.replace(/^stream\./, "").replace(/-/g, "_");
  return { error: { code, message: MESSAGES[r.error], details: { reason, ...r.details } } };
}

const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

/** The refusals of spec/validation.md for a body of `typeName`, or null when it is valid. */
function bodyIssues(typeName, body) {
  const nonFinite = nonFiniteAt(body);
  if (nonFinite !== null) {
    return [{ path: formatPath(nonFinite), rule: "wire.non-finite-number", message: "a number is not finite" }];
  }
  const r = validateValue(typeName, body, { normalize: false });
  return r.valid ? null : r.errors.map(({ path, rule, message }) => ({ path, rule, message }));
}

/**
 * The path of the first non-finite number in a parsed value, or null. The testee's protocol reader lets the NaN and
 * Infinity tokens through (conformance/protocol.md); a body is held to the wire rule all the same. Iterative.
 */
function nonFiniteAt(root) {
  /** @type {Array<[any, Array<string | number>]>} */
  const work = [[root, []]];
  while (work.length) {
    const [v, segs] = /** @type {[any, Array<string | number>]} */ (work.pop());
    if (typeof v === "number" && !Number.isFinite(v)) return segs;
    if (Array.isArray(v)) v.forEach((x, k) => work.push([x, [...segs, k]]));
    else if (isObject(v)) for (const k of Object.keys(v)) work.push([v[k], [...segs, k]]);
  }
  return null;
}

/** An integer-valued number as a plain number (-0 becomes 0). */
const step = (v) => (v === 0 ? 0 : v);

/** An id an act on the stream may name: a string of 1 to 256 code points, as a post's (STR-ACT-EPISODE). */
function isEpisodeId(id) {
  if (typeof id !== "string" || id.length === 0 || id.length > 512) return false;
  let points = 0;
  for (const _ of id) points += 1; // code points, not UTF-16 units
  return points <= 256;
}

/**
 * A value and its recorded literal, moved into a fresh one-member holder {[as]: value}.
 * @param {any} container
 * @param {string} key
 * @param {string} [as]
 * @returns {any}
 */
function boxed(container, key, as = key) {
  const box = {};
  setMember(box, as, container[key]);
  carry(container, key, box, as);
  return box;
}

/** The state of one episode (spec/stream.md § 2). */
class Episode {
  constructor(now) {
    this.acc = new RunSet(); // the accounted numbers (STR-ACCOUNTED)
    this.held = new Map(); // number -> {box: {inputs}, size}: the frames the episode holds
    this.heldNumbers = new MinHeap(); // the keys of `held`, for release in ascending order
    this.bytes = 0; // the sum of the sizes of the held frames (STR-LIMIT-BYTES)
    this.line = 0; // the release line (§ 8)
    this.lastAct = -1; // the last act handed over
    this.waiting = null; // the waiting act, or null
    this.seen = now; // the clock of the last activity (§ 9)
  }

  get through() {
    return this.acc.prefixEnd(); // STR-THROUGH
  }

  /** How many held frames lie above through: all but those in the run [0, through]. */
  heldAbove() {
    const r = this.acc.first();
    return this.held.size - (r !== null && r.lo === 0 ? r.held : 0);
  }

  /** The remembered numbers of STR-LIMIT-FRAMES: the held ones, and the accounted ones above through not held. */
  remembered() {
    return this.held.size + (this.acc.count - (this.through + 1)) - this.heldAbove();
  }

  /**
   * The remembered numbers once `fresh` (ascending, none accounted yet) are accounted and, of them, `heldFresh`
   * held too.
   * @param {number[]} fresh
   * @param {number[]} heldFresh
   */
  rememberedAfter(fresh, heldFresh) {
    const { through, passedHeld } = throughAfter(this.acc, fresh);
    const heldAbove = this.heldAbove() - passedHeld + heldFresh.filter((u) => u > through).length;
    return this.held.size + heldFresh.length + (this.acc.count + fresh.length - (through + 1)) - heldAbove;
  }
}

/**
 * `through` once the ascending fresh numbers (none of them accounted yet) are accounted too, and how many held
 * frames the old runs it passes over hold: walk up from through + 1, over whole old runs and fresh numbers.
 */
function throughAfter(acc, fresh) {
  let run = acc.first();
  let c = 0;
  if (run !== null && run.lo === 0) {
    c = run.hi + 1;
    run = run.next[0];
  }
  let passedHeld = 0;
  let i = 0;
  for (;;) {
    if (run !== null && run.lo === c) {
      passedHeld += run.held;
      c = run.hi + 1;
      run = run.next[0];
    } else if (i < fresh.length && fresh[i] === c) {
      c++;
      i++;
    } else return { through: c - 1, passedHeld };
  }
}

/**
 * Whether one fed key, or the whole observation every `s.every` steps, alone reads more than `limit` numbers
 * strictly between `lastAct` and `t` (STR-ACT-BOUND): then the act needs more than the limit, decided without
 * listing the steps. A fed key of period k reads t − k, t − 2k, … above lastAct: ⌊(t − lastAct − 1) / k⌋ numbers.
 */
function readsMoreThan(s, t, lastAct, limit) {
  const span = BigInt(t - lastAct - 1); // exact: both are integers within 0 … 2^53
  const periods = [...s.fed.values()];
  if (s.whole && s.every !== null) periods.push(s.every);
  return periods.some((k) => span / BigInt(k) > BigInt(limit));
}

export class Keeper {
  /**
   * STR-SETUP. `episodeIdle`: seconds (10 … 86400) or null. Throws schedule.js's SpecError when `of` refuses the
   * declaration or rate.
   * @param {{declaration: any, rate?: any, episodeIdle?: number | null, limits: StreamLimits}} options
   */
  constructor({ declaration, rate, episodeIdle = null, limits: given }) {
    const limits = { MAX_EPISODES, ...given }; // MAX_EPISODES may be left out: this keeper's own (STR-LIMIT-EPISODES)
    for (const name of ["MAX_STREAM_FRAMES", "MAX_STREAM_BYTES", "MAX_WORKER_STREAM_BYTES", "MAX_EPISODES"]) {
      const most = name === "MAX_STREAM_FRAMES" ? FRAMES_CEILING : Number.MAX_SAFE_INTEGER;
      if (!Number.isSafeInteger(limits[name]) || limits[name] < 1 || limits[name] > most) {
        throw new RangeError(`${name} must be an integer from 1 to ${most}`);
      }
    }
    if (!(limits.STREAM_WAIT_S > 0)) throw new RangeError("STREAM_WAIT_S must be positive");
    if (episodeIdle !== null && !(episodeIdle >= limits.STREAM_WAIT_S && Number.isFinite(episodeIdle))) {
      // STR-IDLE relies on idle ≥ STREAM_WAIT_S: an episode never ends while one of its acts waits.
      throw new RangeError(`episode_idle must be null or at least STREAM_WAIT_S (${limits.STREAM_WAIT_S} s)`);
    }
    this.s = of(declaration, rate);
    this.idle = episodeIdle;
    this.limits = limits;
    this.episodes = new Map(); // id -> Episode, in order of last activity (so of idle end)
    this.ended = new Map(); // id -> the reading past which it is forgotten, in order of ending
    this.waits = new Map(); // waiting act -> its Episode, in order of arrival (so of deadline)
    this.workerBytes = 0; // STR-LIMIT-WORKER
    this.clock = -Infinity;
  }

  /**
   * The clock moves without a request (STR-EXPIRY).
   * @param {number} now
   * @returns {{events: StreamEvent[]}}
   */
  tick(now) {
    /** @type {StreamEvent[]} */
    const events = [];
    this.#expire(now, events);
    return { events };
  }

  /**
   * POST /observe (spec/stream.md § 3). Returns {answer, events}: answer {through} or a refusal {error, status,
   * details}. events: what expired first ({kind: "failed", ticket, refusal}, {kind: "ended", id}), then the act
   * this post completed ({kind: "handed", ticket, result: {handed}}).
   * @param {any} body
   * @param {number} now
   * @returns {{answer: {through: number} | StreamRefusal, events: StreamEvent[]}}
   */
  post(body, now) {
    /** @type {StreamEvent[]} */
    const events = [];
    this.#expire(now, events);
    const answer = this.#post(body, now, events);
    return { answer, events };
  }

  /**
   * POST /act (spec/stream.md § 4). `ticket` names this act in later events. Returns {answer, events}: answer
   * {handed} (the value the policy is handed, its literal carried, src/json.js), {waiting: true}, or a refusal.
   */
  act(body, now, ticket) {
    /** @type {StreamEvent[]} */
    const events = [];
    this.#expire(now, events);
    const answer = this.#act(body, now, ticket);
    return { answer, events };
  }

  // -------------------------------------------------------------------------------------------------------------

  /**
   * STR-EXPIRY: failed acts, then ended episodes, then forgotten ids.
   * @param {number} now
   * @param {StreamEvent[]} events
   */
  #expire(now, events) {
    if (typeof now !== "number" || !(now >= this.clock) || !Number.isFinite(now)) {
      throw new RangeError(`clock readings are finite and must not decrease (STR-CLOCK): ${now} after ${this.clock}`);
    }
    this.clock = now;
    for (const [w, e] of this.waits) {
      if (!(now > w.deadline)) break;
      this.waits.delete(w);
      e.waiting = null; // STR-ACT-MISSING: nothing else changes
      const missing = w.missing.filter((u) => !e.acc.has(u));
      events.push({ kind: "failed", ticket: w.ticket, refusal: refusal("stream.frames-missing", { missing }) });
    }
    if (this.idle !== null) {
      for (const [id, e] of this.episodes) {
        const end = e.seen + this.idle; // STR-IDLE: one binary64 addition
        if (!(now > end)) break;
        this.episodes.delete(id);
        this.workerBytes -= e.bytes; // all its frames are released
        this.ended.set(id, end + this.idle); // STR-ENDED
        events.push({ kind: "ended", id });
      }
    }
    for (const [id, forgetAt] of this.ended) {
      if (!(now > forgetAt)) break;
      this.ended.delete(id);
    }
  }

  /**
   * The episode a request names, or a new one (STR-EPISODE); a refusal when it ended (STR-ENDED) or would be one
   * too many (STR-LIMIT-EPISODES).
   * @param {string} id
   * @param {number} now
   * @returns {Episode | StreamRefusal}
   */
  #episode(id, now) {
    if (this.ended.has(id)) return refusal("stream.episode-ended");
    const e = this.episodes.get(id);
    if (e !== undefined) return e;
    if (this.episodes.size >= this.limits.MAX_EPISODES) return refusal("stream.too-many-episodes");
    return new Episode(now);
  }

  /**
   * An accepted request of episode `id` at `now`: it becomes the most recently active (STR-IDLE).
   * @param {string} id
   * @param {Episode} e
   * @param {number} now
   */
  #touch(id, e, now) {
    e.seen = now;
    this.episodes.delete(id);
    this.episodes.set(id, e);
  }

  /**
   * @param {any} body
   * @param {number} now
   * @param {StreamEvent[]} events
   * @returns {{through: number} | StreamRefusal}
   */
  #post(body, now, events) {
    const issues = bodyIssues("ObserveRequest", body); // STR-POST-BODY
    if (issues !== null) return refusal("stream.invalid-body", { issues });
    const frames = has(body, "frames") ? body.frames : [];
    const skipped = has(body, "skipped") ? body.skipped : [];
    if (skipped.some((n) => n < 0)) return refusal("stream.invalid-skipped"); // STR-POST-SKIPPED
    const id = body.episode_id;
    const e = this.#episode(id, now);
    if (!(e instanceof Episode)) return e;

    // The numbers this post accounts first (STR-FIRST-WINS): frames, then skipped numbers, each in array order.
    const fresh = new Map(); // number -> its frame, or null for a skipped number
    for (const f of frames) {
      const u = step(f.seq);
      if (!e.acc.has(u) && !fresh.has(u)) fresh.set(u, f);
    }
    for (const n of skipped) {
      const u = step(n);
      if (!e.acc.has(u) && !fresh.has(u)) fresh.set(u, null);
    }
    const toHold = []; // [number, frame, size]: frames at or above the line (STR-POST-LINE)
    let addedBytes = 0;
    for (const [u, f] of fresh) {
      if (f === null || u < e.line) continue;
      const size = canonicalSize(f.inputs, literalOf(f, "inputs")); // STR-SIZE
      toHold.push([u, f, size]);
      addedBytes += size;
    }
    const freshSorted = [...fresh.keys()].sort((a, b) => a - b);

    // STR-LIMIT-CHECK on the state the post would leave.
    const crossed = this.#crossed(e, freshSorted, toHold.map(([u]) => u), addedBytes);
    if (crossed !== null) return refusal("stream.frames-over-limit", { limit: crossed });

    // Accepted.
    for (const u of freshSorted) e.acc.add(u);
    for (const [u, f, size] of toHold) this.#hold(e, u, boxed(f, "inputs"), size);
    this.#touch(id, e, now);
    const answer = { through: e.through }; // STR-POST-ANSWER: before a hand-over
    const w = e.waiting;
    if (w !== null) {
      for (const u of fresh.keys()) if (w.missingSet.has(u)) w.remaining--;
      if (w.remaining === 0) {
        // STR-ACT-COMPLETE
        this.waits.delete(w);
        events.push({ kind: "handed", ticket: w.ticket, result: this.#handOver(e, w.t, w.own, w.picked) });
      }
    }
    return answer;
  }

  /**
   * STR-LIMIT-CHECK: the first limit the episode's state would be above once `fresh` (ascending, not accounted yet)
   * are accounted and `heldFresh` of them held, adding `addedBytes`; null when none. No quantity is ever above its
   * limit (spec/stream.md § 6), so "above the limit" is the whole test.
   * @param {Episode} e
   * @param {number[]} fresh
   * @param {number[]} heldFresh
   * @param {number} addedBytes
   * @returns {string | null}
   */
  #crossed(e, fresh, heldFresh, addedBytes) {
    /** @type {Array<[string, number]>} */
    const after = [
      ["MAX_STREAM_FRAMES", e.rememberedAfter(fresh, heldFresh)],
      ["MAX_STREAM_BYTES", e.bytes + addedBytes],
      ["MAX_WORKER_STREAM_BYTES", this.workerBytes + addedBytes],
    ];
    for (const [name, quantity] of after) if (quantity > this.limits[name]) return name;
    return null;
  }

  /**
   * @param {any} body
   * @param {number} now
   * @param {any} ticket
   * @returns {{handed: any} | {waiting: true} | StreamRefusal}
   */
  #act(body, now, ticket) {
    const issues = bodyIssues("ActRequest", body); // STR-ACT-BODY
    if (issues !== null) return refusal("stream.invalid-body", { issues });
    const t = has(body, "seq") && body.seq !== null ? step(body.seq) : null;
    if (t === null) {
      if (this.s === null) return boxed(body, "inputs", "handed"); // STR-ACT-UNDECLARED: not on the stream
      return refusal("stream.seq-required"); // STR-ACT-SEQ
    }
    if (!isEpisodeId(body.episode_id)) return refusal("stream.episode-required"); // STR-ACT-EPISODE
    const e = this.#episode(body.episode_id, now);
    if (!(e instanceof Episode)) return e;
    const id = body.episode_id;
    if (e.waiting !== null) return refusal("stream.act-waiting"); // STR-ACT-BUSY
    if (t <= e.lastAct) return refusal("stream.act-not-after-previous", { last_act: e.lastAct }); // STR-ACT-ORDER
    /** @type {Entry[] | null} */
    let picked = null;
    /** @type {number[]} */
    let need = [];
    if (this.s !== null) {
      const limit = this.limits.MAX_STREAM_FRAMES;
      if (readsMoreThan(this.s, t, e.lastAct, limit)) return refusal("stream.act-over-limit", { limit: "MAX_STREAM_FRAMES" });
      picked = picks(this.s, t, e.lastAct);
      need = neededFrom(picked, t); // STR-ACT-NEED
      if (need.length > limit) return refusal("stream.act-over-limit", { limit: "MAX_STREAM_FRAMES" }); // STR-ACT-BOUND
    }
    this.#touch(id, e, now); // accepted
    const own = boxed(body, "inputs");
    const missing = need.filter((u) => !e.acc.has(u));
    if (missing.length === 0) return this.#handOver(e, t, own, picked);
    // STR-ACT-WAIT
    const w = { ticket, t, own, picked, missing, missingSet: new Set(missing), remaining: missing.length,
      deadline: now + this.limits.STREAM_WAIT_S };
    e.waiting = w;
    this.waits.set(w, e);
    return { waiting: true };
  }

  /**
   * STR-ACT-HANDOVER, STR-RETENTION, STR-ACT-OWN. Returns {handed} with its literal carried.
   * @param {Episode} e
   * @param {number} t
   * @param {{inputs: any}} own
   * @param {Entry[] | null} picked  null exactly when nothing is declared
   * @returns {{handed: any}}
   */
  #handOver(e, t, own, picked) {
    let out;
    if (this.s === null) out = boxed(own, "inputs", "handed");
    else {
      const entries = /** @type {Entry[]} */ (picked).filter(([u]) => u === t || e.held.has(u)); // STR-ACT-SKIPPED
      const frames = {};
      for (const [u] of entries) {
        const name = String(u);
        if (u === t || has(frames, name)) continue;
        const h = e.held.get(u);
        if (h === undefined) throw new Error(`internal: picked step ${u} kept but not held`);
        setMember(frames, name, h.box.inputs);
        carry(h.box, "inputs", frames, name);
      }
      out = {};
      setMember(out, "handed", envelope(entries, frames, own.inputs, t, { own: [own, "inputs"] }));
    }
    e.waiting = null;
    e.lastAct = t;
    const line = keepsFrom(this.s, t); // STR-RETENTION
    if (line > e.line) {
      e.line = line;
      while (e.heldNumbers.size > 0 && e.heldNumbers.peek() < line) {
        const u = e.heldNumbers.pop();
        const h = e.held.get(u);
        e.held.delete(u);
        e.acc.addHeld(u, -1);
        e.bytes -= h.size;
        this.workerBytes -= h.size;
      }
    }
    if (!e.acc.has(t)) {
      // STR-ACT-OWN: the frame held, else t accounted alone, else nothing, whichever first crosses no limit
      const size = t >= e.line ? canonicalSize(own.inputs, literalOf(own, "inputs")) : 0;
      if (t >= e.line && this.#crossed(e, [t], [t], size) === null) {
        e.acc.add(t);
        this.#hold(e, t, own, size);
      } else if (this.#crossed(e, [t], [], 0) === null) e.acc.add(t);
    }
    return out;
  }

  /**
   * Holds the frame of u, an accounted number.
   * @param {Episode} e
   * @param {number} u
   * @param {{inputs: any}} box
   * @param {number} size
   */
  #hold(e, u, box, size) {
    e.held.set(u, { box, size });
    e.heldNumbers.push(u);
    e.acc.addHeld(u, 1);
    e.bytes += size;
    this.workerBytes += size;
  }
}
