// The robot's uploader of spec/uploader.md: events (plan, observe, drop, act, the worker's answers and failures, the
// clock's advances) in → the state machine of §§ 2–7 (what is wanted, pending, in flight or backing off) → the
// requests sent during each event (posts to /observe, acts to /act), each with the clock reading it is sent at.
//
// Why this shape: the page defines the uploader as a state machine, so, like the keeper (src/keeper.js), this module
// reads no clock and does no I/O: the caller hands it every event and gets back what would go on the wire. The same
// object can then play a conformance scenario on a virtual clock (conformance/protocol.md, kind `uploader`) or sit
// under an SDK's HTTP client. What spec/uploader.md § 9 leaves free is fixed here once: a post lists its frames and
// skipped numbers in ascending order, and a retry leaves in the middle of its backoff window, so that a window end
// written in decimal and one computed in binary64 can never disagree about it.

import fs from "node:fs";
import path from "node:path";
import { SPEC_DIR } from "./data.js";
import { of, wanted, readsPastSchedule } from "./schedule.js";
import { isObject, literalOf, setLiteral, carry, setMember } from "./json.js";
import { present } from "./types.js";

/** @typedef {import("./types.js").Observations} Observations */
/**
 * One request the uploader sent: its clock reading and its body, a post's (ObserveRequest) or an act's (ActRequest).
 * @typedef {{at: number, observe: {[k: string]: any}} | {at: number, act: {[k: string]: any}}} UploaderRequest
 */
/**
 * One list of requests per event; open like the protocol's generated result types (generated/ts/protocol.d.ts).
 * @typedef {{requests: UploaderRequest[][], [member: string]: unknown}} UploaderResult
 */
/** @typedef {{inputs: any, literal: string | undefined}} PendingFrame a frame's cut inputs and their exact literal */
/**
 * The post of the episode that is in flight (`due` null) or backing off until the reading `due` (UPL-POST-ONE).
 * @typedef {{body: {[k: string]: any}, attempt: number, due: number | null}} Post
 */

const CONTRACT = JSON.parse(fs.readFileSync(path.join(SPEC_DIR, "contract.json"), "utf8"));
const CONSTANTS = JSON.parse(fs.readFileSync(path.join(SPEC_DIR, "uploader.json"), "utf8"));

export const MAX_STREAM_FRAMES = CONTRACT.limits.MAX_STREAM_FRAMES;
export const OBSERVE_FORMAT = CONTRACT.observe_format;
export const UPLOAD_ATTEMPTS = CONSTANTS.UPLOAD_ATTEMPTS;
export const UPLOAD_FIRST_BACKOFF_S = CONSTANTS.UPLOAD_FIRST_BACKOFF_S;
export const UPLOAD_BACKOFF_FACTOR = CONSTANTS.UPLOAD_BACKOFF_FACTOR;
export const UPLOAD_BACKOFF_SPREAD = CONSTANTS.UPLOAD_BACKOFF_SPREAD;
export const MAX_POST_DEPTH = CONSTANTS.MAX_POST_DEPTH;

/** Where in its window [b_k, SPREAD · b_k] a retry leaves, as a multiple of b_k: the middle (§ 9 leaves it free). */
const RETRY_POINT = (1 + UPLOAD_BACKOFF_SPREAD) / 2;
const FORMATS_HEADER = "seq-accept-formats";

const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

/** b_k, the start of the k-th retry's window (UPL-RETRY-BACKOFF): UPLOAD_FIRST_BACKOFF_S · FACTOR^(k−1). */
export function backoffStart(k) {
  return UPLOAD_FIRST_BACKOFF_S * UPLOAD_BACKOFF_FACTOR ** (k - 1);
}

/**
 * An observation's own depth (spec/stream.md STR-DEPTH): the largest number of its own arrays and objects enclosing
 * one of its values; 0 for a scalar, `[]` and `{}`. Iterative, so no observation can overflow the call stack.
 */
export function ownDepth(observation) {
  let deepest = 0;
  /** @type {Array<[any, number]>} */
  const work = [[observation, 0]];
  while (work.length > 0) {
    const [value, enclosing] = /** @type {[any, number]} */ (work.pop());
    if (value === null || typeof value !== "object") continue;
    const members = Array.isArray(value) ? value : Object.values(value);
    if (members.length === 0) continue;
    deepest = Math.max(deepest, enclosing + 1);
    for (const member of members) work.push([member, enclosing + 1]);
  }
  return deepest;
}

/**
 * The observation cut to `keys` as envelope cuts it (UPL-CUT; spec/schedule.md ENV-CUT, ENV-WHOLE): with a list of
 * keys and an object, a new object of exactly its listed members (values unchanged, exact literals carried along);
 * otherwise the observation whole.
 * @param {any} observation
 * @param {string[] | null} keys
 */
export function cut(observation, keys) {
  if (keys === null || !isObject(observation)) return observation;
  const out = {};
  for (const name of keys) {
    if (!has(observation, name)) continue;
    setMember(out, name, observation[name]);
    carry(observation, name, out, name);
  }
  return out;
}

/**
 * Whether an answer's headers list the observe format (UPL-FORMATS): names matched without regard to (ASCII) case,
 * each value a comma-separated list whose items are compared exactly after trimming spaces and horizontal tabs.
 * @param {{[name: string]: any}} headers
 */
export function listsObserveFormat(headers) {
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (name.replace(/[A-Z]/g, (c) => c.toLowerCase()) !== FORMATS_HEADER || typeof value !== "string") continue;
    if (value.split(",").some((item) => item.replace(/^[ \t]+|[ \t]+$/g, "") === OBSERVE_FORMAT)) return true;
  }
  return false;
}

/** The status class of an HTTP status: 2 for 2xx, 4 for 4xx, 5 for 5xx. */
const statusClass = (status) => Math.floor(status / 100);

export class Uploader {
  /**
   * UPL-SETUP: `of` is computed once; when it refuses, its SpecError (`schedule.…`) propagates and no uploader is
   * made.
   * @param {{declaration: Observations | null, rate: any, episodeId: string, backlog?: number}} setup
   */
  constructor({ declaration, rate, episodeId, backlog = MAX_STREAM_FRAMES }) {
    this.schedule = of(declaration, rate);
    this.episodeId = episodeId;
    this.backlog = backlog;
    this.dropsOldest = declaration !== null && present(declaration, "when_behind") &&
      declaration.when_behind === "drop_oldest";
    /** Posts may be sent: the schedule reads the past (UPL-STREAM-OFF) and no answer turned that off (UPL-FORMATS). */
    this.streaming = readsPastSchedule(this.schedule);
    this.ended = false; // UPL-ENDED
    this.clock = 0.0; // UPL-CLOCK: moved only by advance
    this.tPrev = -1; // the last act answered 200 (spec/uploader.md § 5)
    /** @type {number | null} the planned act's step T */
    this.planned = null;
    /** @type {{tPrev: number, planned: number, keysAt: Map<number, string[] | null>} | null} */
    this.wantedNow = null;
    /** @type {Map<number, PendingFrame>} pending frames by number; observations come in ascending order (UPL-EVENTS) */
    this.frames = new Map();
    /** @type {Set<number>} */
    this.urgent = new Set();
    /** @type {Set<number>} */
    this.lazy = new Set();
    /** @type {Post | null} */
    this.post = null;
    /** @type {number | null} the step of the act in flight */
    this.actInFlight = null;
  }

  /** @param {number} t the step of the robot's next act */
  plan(t) {
    if (!this.ended) this.planned = t;
    return [];
  }

  /**
   * @param {number} n
   * @param {any} inputs
   * @param {string} [literal] the exact text of `inputs` when it is an integer beyond 2^53 (src/json.js)
   * @returns {UploaderRequest[]}
   */
  observe(n, inputs, literal) {
    return this.made(n, { inputs, literal });
  }

  /**
   * @param {number} n the step whose observation the robot lost
   * @returns {UploaderRequest[]}
   */
  drop(n) {
    return this.made(n, null);
  }

  /**
   * UPL-ACT-BODY, UPL-ACT-ONCE: one request per act event, at once, whatever posts are pending or in flight.
   * @param {number} t
   * @param {any} inputs the robot's own observation, sent whole
   * @param {string} [literal]
   * @returns {UploaderRequest[]}
   */
  act(t, inputs, literal) {
    if (this.ended) return [];
    const body = { episode_id: this.episodeId, seq: t, inputs };
    if (literal !== undefined) setLiteral(body, "inputs", literal);
    this.actInFlight = t;
    return [{ at: this.clock, act: body }];
  }

  /**
   * The worker answered the request in flight (§ 6). An answer with nothing of its sort in flight is ignored.
   * @param {"post" | "act"} to
   * @param {number} status
   * @param {{[name: string]: any}} headers
   * @returns {UploaderRequest[]}
   */
  answer(to, status, headers) {
    if (this.ended) return [];
    return to === "act" ? this.actAnswered(status, headers) : this.postAnswered(status, headers);
  }

  /**
   * The request in flight failed without an answer: a post is retried (UPL-RETRY), an act is not (UPL-ACT-ONCE).
   * @param {"post" | "act"} to
   * @returns {UploaderRequest[]}
   */
  fail(to) {
    if (this.ended) return [];
    if (to === "act") {
      this.actInFlight = null;
      return [];
    }
    const done = this.takePostInFlight();
    if (done === null || !this.streaming) return [];
    return this.attemptFailed(done);
  }

  /**
   * UPL-CLOCK: one binary64 addition; a retry whose reading the new clock reaches is sent at that reading.
   * @param {number} seconds
   * @returns {UploaderRequest[]}
   */
  advance(seconds) {
    if (this.ended) return [];
    this.clock = this.clock + seconds;
    const post = this.post;
    if (post === null || post.due === null || post.due > this.clock) return [];
    const at = post.due;
    post.due = null;
    return [{ at, observe: post.body }];
  }

  // -------------------------------------------------------------------------------------------------------------
  // § 3: what to upload

  /**
   * An observation made (`observation` given) or lost (null): the item it becomes joins pending (§ 3).
   * @param {number} n
   * @param {{inputs: any, literal: string | undefined} | null} observation
   * @returns {UploaderRequest[]}
   */
  made(n, observation) {
    if (this.ended || !this.streaming) return []; // UPL-STREAM-OFF, UPL-FORMATS
    const keysAt = this.keysWanted();
    const keys = keysAt.get(n);
    if (keys === undefined) this.lazy.add(n); // UPL-SKIP-UNWANTED
    else if (observation === null) this.urgent.add(n); // UPL-DROPPED
    else {
      const inputs = cut(observation.inputs, keys); // UPL-CUT
      if (ownDepth(inputs) > MAX_POST_DEPTH) this.urgent.add(n); // UPL-DEPTH
      else this.frames.set(n, { inputs, literal: inputs === observation.inputs ? observation.literal : undefined });
    }
    this.applyBacklog();
    return this.sendIfDue();
  }

  /**
   * UPL-WANTED: `wanted(s, t_prev, T)` as a map step → keys, computed once per (t_prev, T). A gap too long for the
   * schedule's result bound is refused by `wanted` itself (schedule.result-too-large).
   */
  keysWanted() {
    const cached = this.wantedNow;
    if (cached !== null && cached.tPrev === this.tPrev && cached.planned === this.planned) return cached.keysAt;
    const keysAt = new Map(wanted(this.schedule, this.tPrev, this.planned));
    this.wantedNow = { tPrev: this.tPrev, planned: /** @type {number} */ (this.planned), keysAt };
    return keysAt;
  }

  /**
   * UPL-BEHIND: under drop_oldest, while the pending frames outnumber the backlog, the lowest-numbered one becomes an
   * urgent skip. Frames are inserted in ascending number, so the Map's first key is the lowest.
   */
  applyBacklog() {
    if (!this.dropsOldest) return;
    while (this.frames.size > this.backlog) {
      const oldest = /** @type {number} */ (this.frames.keys().next().value);
      this.frames.delete(oldest);
      this.urgent.add(oldest);
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // § 4: when to post, and what a post carries

  /**
   * UPL-POST-ONE, UPL-POST-PROMPT, UPL-POST-BATCH, UPL-POST-BODY: with no post in flight or backing off and a frame or
   * an urgent skip pending, every pending item leaves now, as attempt 1.
   * @returns {UploaderRequest[]}
   */
  sendIfDue() {
    if (this.post !== null || !this.streaming) return [];
    if (this.frames.size === 0 && this.urgent.size === 0) return [];
    /** @type {{[k: string]: any}} */
    const body = { episode_id: this.episodeId };
    if (this.frames.size > 0) {
      body.frames = [...this.frames].map(([seq, { inputs, literal }]) => {
        const frame = { seq, inputs };
        if (literal !== undefined) setLiteral(frame, "inputs", literal);
        return frame;
      });
    }
    const skipped = [...this.urgent, ...this.lazy].sort((a, b) => a - b);
    if (skipped.length > 0) body.skipped = skipped;
    this.frames.clear();
    this.urgent.clear();
    this.lazy.clear();
    this.post = { body, attempt: 1, due: null };
    return [{ at: this.clock, observe: body }];
  }

  /** The post in flight, which is then no longer in flight; null when none is (a backing-off post stays). */
  takePostInFlight() {
    const post = this.post;
    if (post === null || post.due !== null) return null;
    this.post = null;
    return post;
  }

  // -------------------------------------------------------------------------------------------------------------
  // § 6: what to do with each answer

  /**
   * @param {number} status
   * @param {{[name: string]: any}} headers
   * @returns {UploaderRequest[]}
   */
  postAnswered(status, headers) {
    const done = this.takePostInFlight();
    if (done === null) return [];
    if (status === 410) return this.end(); // UPL-ENDED
    if (!this.streaming) return []; // the stream went off while this post was on its way
    const kind = statusClass(status);
    if (kind !== 2 && kind !== 4) return this.attemptFailed(done); // UPL-RETRY: a 5xx says nothing about the worker
    if (!listsObserveFormat(headers) || (kind === 4 && status !== 400 && status !== 413)) {
      return this.streamOff(); // UPL-FORMATS
    }
    if (kind === 4) return this.lost(done); // 400 (UPL-REFUSED) or 413 (UPL-OVER-LIMIT)
    return this.sendIfDue(); // 2xx: done, what is pending leaves now
  }

  /**
   * UPL-LOST: a post given up or refused (400, 413) is never sent again; its numbers, frames and skips alike, join
   * pending as urgent skips, and pending leaves at once. A lost post of skips alone is dropped, so that a loss never
   * repeats itself.
   * @param {Post} done
   * @returns {UploaderRequest[]}
   */
  lost(done) {
    if (has(done.body, "frames")) {
      for (const frame of done.body.frames) this.urgent.add(frame.seq);
      for (const n of done.body.skipped ?? []) this.urgent.add(n);
    }
    return this.sendIfDue();
  }

  /**
   * @param {number} status
   * @param {{[name: string]: any}} headers
   * @returns {UploaderRequest[]}
   */
  actAnswered(status, headers) {
    const t = this.actInFlight;
    if (t === null) return [];
    this.actInFlight = null;
    if (status === 410) return this.end(); // UPL-ENDED
    const kind = statusClass(status);
    if ((kind === 2 || kind === 4) && !listsObserveFormat(headers)) this.streamOff(); // UPL-FORMATS
    if (status === 200) this.tPrev = t; // handed over (§ 5); another 2xx changes nothing
    return []; // UPL-ACT-ONCE: never retried here
  }

  /**
   * Attempt k of a post ended in a failure or a 5xx: the same body is retried after its backoff (UPL-RETRY,
   * UPL-RETRY-BACKOFF), or, after attempt UPLOAD_ATTEMPTS, given up: it is lost (UPL-GIVE-UP, UPL-LOST).
   * @param {Post} done
   * @returns {UploaderRequest[]}
   */
  attemptFailed(done) {
    if (done.attempt >= UPLOAD_ATTEMPTS) return this.lost(done);
    const due = this.clock + backoffStart(done.attempt) * RETRY_POINT;
    this.post = { body: done.body, attempt: done.attempt + 1, due };
    return [];
  }

  /**
   * UPL-FORMATS: no further post. Pending items and a backing-off post are dropped; a post in flight stays so, only
   * to take its answer.
   * @returns {UploaderRequest[]}
   */
  streamOff() {
    this.streaming = false;
    this.dropPending();
    if (this.post !== null && this.post.due !== null) this.post = null;
    return [];
  }

  /** UPL-ENDED: nothing more is sent, and every later event is ignored. @returns {UploaderRequest[]} */
  end() {
    this.ended = true;
    this.dropPending();
    this.post = null;
    this.actInFlight = null;
    return [];
  }

  dropPending() {
    this.frames.clear();
    this.urgent.clear();
    this.lazy.clear();
  }
}

// -----------------------------------------------------------------------------------------------------------------
// The conformance case of kind `uploader` (conformance/protocol.md)

/**
 * A scenario that is not one (an event of no known form, a backlog out of range, …): answered with the error
 * `uploader.invalid-scenario` before the uploader is made, as a malformed stream scenario is (spec/stream.md
 * STR-SCENARIO).
 */
export class UploaderScenarioError extends Error {
  rule = "uploader.invalid-scenario";
}

const EVENTS = ["plan", "observe", "drop", "act", "answer", "fail", "advance"];
const DEFAULT_HEADERS = Object.freeze({ "Seq-Accept-Formats": OBSERVE_FORMAT });

/** @param {any} v @param {number} least */
const isStep = (v, least) => Number.isSafeInteger(v) && v >= least;

/**
 * Refuses, with one sentence, a scenario whose setup or events have no meaning (not one that breaks UPL-EVENTS,
 * which conformance/protocol.md lets a testee assume).
 * @param {any} input
 */
function checkScenario(input) {
  if (!isObject(input) || !has(input, "declaration")) {
    throw new UploaderScenarioError("an uploader input needs a declaration");
  }
  const id = input.episode_id;
  if (typeof id !== "string" || [...id].length < 1 || [...id].length > 256) {
    throw new UploaderScenarioError("episode_id must be a string of 1 to 256 code points");
  }
  const backlog = has(input, "backlog") ? input.backlog : MAX_STREAM_FRAMES;
  if (!(Number.isSafeInteger(backlog) && backlog >= 1 && backlog <= MAX_STREAM_FRAMES)) {
    throw new UploaderScenarioError(`backlog must be an integer from 1 to ${MAX_STREAM_FRAMES}`);
  }
  if (!Array.isArray(input.events)) throw new UploaderScenarioError("events must be a list");
  let clock = 0.0;
  input.events.forEach((event, j) => {
    const names = isObject(event) ? Object.keys(event) : [];
    if (names.length !== 1 || !EVENTS.includes(names[0])) {
      throw new UploaderScenarioError(`event ${j} must have exactly one of ${EVENTS.join(", ")}`);
    }
    const problem = eventProblem(names[0], event[names[0]]);
    if (problem !== null) throw new UploaderScenarioError(`event ${j} (${names[0]}): ${problem}`);
    if (names[0] === "advance") {
      clock += event.advance;
      if (!Number.isFinite(clock)) throw new UploaderScenarioError(`event ${j}: the virtual clock would not be finite`);
    }
  });
}

/**
 * What is wrong with one event's value, or null.
 * @param {string} name
 * @param {any} v
 */
function eventProblem(name, v) {
  switch (name) {
    case "plan":
    case "drop":
      return isStep(v, 0) ? null : "a step must be an integer >= 0";
    case "observe":
      return isObject(v) && isStep(v.n, 0) && has(v, "inputs") ? null : "needs n (an integer >= 0) and inputs";
    case "act":
      return isObject(v) && isStep(v.t, 0) && has(v, "inputs") ? null : "needs t (an integer >= 0) and inputs";
    case "answer":
      if (!isObject(v) || !["post", "act"].includes(v.to)) return "needs to: post or act";
      if (!(Number.isInteger(v.status) && v.status >= 100 && v.status <= 599)) return "status must be an HTTP status";
      return !has(v, "headers") || isObject(v.headers) ? null : "headers must be an object";
    case "fail":
      return isObject(v) && ["post", "act"].includes(v.to) ? null : "needs to: post or act";
    default:
      return typeof v === "number" && Number.isFinite(v) && v >= 0 ? null : "must be a finite number of seconds >= 0";
  }
}

/**
 * One event played on the uploader: the requests it sent during it.
 * @param {Uploader} uploader
 * @param {any} event
 * @returns {UploaderRequest[]}
 */
function play(uploader, event) {
  const [name] = Object.keys(event);
  const v = event[name];
  switch (name) {
    case "plan":
      return uploader.plan(v);
    case "observe":
      return uploader.observe(v.n, v.inputs, literalOf(v, "inputs"));
    case "drop":
      return uploader.drop(v);
    case "act":
      return uploader.act(v.t, v.inputs, literalOf(v, "inputs"));
    case "answer":
      return uploader.answer(v.to, v.status, has(v, "headers") ? v.headers : DEFAULT_HEADERS);
    case "fail":
      return uploader.fail(v.to);
    default:
      return uploader.advance(v);
  }
}

/**
 * input: {declaration, rate?, episode_id, backlog?, events}. Returns {requests}, one list per event; throws
 * UploaderScenarioError for a malformed scenario (checked first) and SpecError when `of` (or `wanted`) refuses.
 * @param {any} input
 * @returns {UploaderResult}
 */
export function uploaderCase(input) {
  checkScenario(input);
  const uploader = new Uploader({
    declaration: input.declaration,
    rate: has(input, "rate") ? input.rate : undefined,
    episodeId: input.episode_id,
    backlog: has(input, "backlog") ? input.backlog : MAX_STREAM_FRAMES,
  });
  return { requests: input.events.map((event) => play(uploader, event)) };
}
