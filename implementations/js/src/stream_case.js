// One conformance case of kind `stream`: a scenario (declaration, rate, episode_idle, limits, operations) in → a
// keeper (src/keeper.js) played operation by operation on a virtual clock → one outcome per operation.
//
// Why this shape: the keeper answers requests and reports later events (an act completed by a post, failed by an
// advance) by ticket; here the ticket is the act's operation index, so each act's outcome lands at its own place
// with `at`, the index of the operation during which it was answered (conformance/protocol/result-stream.schema.json).
// The virtual clock starts at 0.0 and moves only by `advance`, one binary64 addition each (spec/stream.md STR-CLOCK).

import fs from "node:fs";
import path from "node:path";
import { Keeper, MAX_EPISODES } from "./keeper.js";
import { SPEC_DIR } from "./data.js";
import { isObject, carry, compareCodePoints } from "./json.js";

const CONTRACT_LIMITS = JSON.parse(fs.readFileSync(path.join(SPEC_DIR, "contract.json"), "utf8")).limits;
const SCALABLE = ["MAX_STREAM_FRAMES", "MAX_STREAM_BYTES", "MAX_WORKER_STREAM_BYTES", "MAX_EPISODES"];
const DEFAULTS = { ...CONTRACT_LIMITS, MAX_EPISODES };

/**
 * A malformed scenario (spec/stream.md STR-SCENARIO): answered as the error stream.invalid-scenario, before the
 * keeper is made.
 */
export class CaseInputError extends Error {
  rule = "stream.invalid-scenario";
}

const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * The keeper's limits: the scenario's scaled ones, the contract's for the others and for STREAM_WAIT_S.
 * @param {any} input
 * @returns {import("./keeper.js").StreamLimits}
 */
function limitsOf(input) {
  /** @type {any} */
  const limits = { STREAM_WAIT_S: CONTRACT_LIMITS.STREAM_WAIT_S }; // never scaled (STR-SETUP)
  const given = has(input, "limits") ? input.limits : {};
  if (!isObject(given)) throw new CaseInputError("limits must be an object");
  for (const k of Object.keys(given)) if (!SCALABLE.includes(k)) throw new CaseInputError(`unknown limit ${k}`);
  for (const name of SCALABLE) {
    const v = has(given, name) ? given[name] : DEFAULTS[name];
    const most = name === "MAX_STREAM_FRAMES" ? 1000000 : Number.MAX_SAFE_INTEGER; // STR-SETUP
    if (!Number.isSafeInteger(v) || v < 1 || v > most) throw new CaseInputError(`${name} must be an integer from 1 to ${most}`);
    limits[name] = v;
  }
  return limits;
}

/** STR-SCENARIO, STR-CLOCK: every operation is one of three, every advance finite and ≥ 0, the clock finite. */
function checkOperations(ops) {
  if (!Array.isArray(ops)) throw new CaseInputError("operations must be a list");
  let clock = 0.0;
  ops.forEach((op, j) => {
    const keys = isObject(op) ? Object.keys(op) : [];
    if (keys.length !== 1 || !["observe", "act", "advance"].includes(keys[0])) {
      throw new CaseInputError(`operation ${j} must have exactly one of observe, act, advance`);
    }
    if (keys[0] !== "advance") return;
    if (!(typeof op.advance === "number" && op.advance >= 0 && Number.isFinite(op.advance))) {
      throw new CaseInputError(`operation ${j}: advance must be a finite number of seconds >= 0`);
    }
    clock += op.advance;
    if (!Number.isFinite(clock)) throw new CaseInputError(`operation ${j}: the virtual clock would not be finite`);
  });
}

/** The protocol outcome of a refusal: error id, status and the details the vectors compare (not `issues`). */
function refusalOutcome(r) {
  const out = { error: r.error, status: r.status };
  for (const k of ["missing", "limit", "last_act"]) if (has(r.details, k)) out[k] = r.details[k];
  return out;
}

function handedOutcome(result, at) {
  const out = { handed: result.handed, at };
  carry(result, "handed", out, "handed");
  return out;
}

/**
 * input: {declaration, rate?, episode_idle?, limits?, operations}. Returns {outcomes}; throws CaseInputError for a
 * malformed scenario (STR-SCENARIO, checked first), SpecError when `of` refuses (STR-SETUP).
 */
export function streamCase(input) {
  if (!isObject(input) || !has(input, "declaration")) throw new CaseInputError("a stream input needs a declaration");
  const ops = input.operations;
  checkOperations(ops);
  const idle = has(input, "episode_idle") ? input.episode_idle : null;
  if (idle !== null && !(Number.isInteger(idle) && idle >= 10 && idle <= 86400)) {
    throw new CaseInputError("episode_idle must be null or an integer from 10 to 86400");
  }
  const limits = limitsOf(input);
  const keeper = new Keeper({
    declaration: input.declaration,
    rate: has(input, "rate") ? input.rate : undefined,
    episodeIdle: idle,
    limits,
  });

  const outcomes = new Array(ops.length).fill(null);
  let clock = 0.0;
  ops.forEach((op, j) => {
    let events;
    if (has(op, "advance")) {
      clock = clock + op.advance; // STR-CLOCK: one binary64 addition
      ({ events } = keeper.tick(clock));
      const ended = events.filter((ev) => ev.kind === "ended").map((ev) => ev.id);
      outcomes[j] = { ended: ended.sort(compareCodePoints) };
    } else if (has(op, "observe")) {
      const r = keeper.post(op.observe, clock);
      events = r.events;
      outcomes[j] = "error" in r.answer ? refusalOutcome(r.answer) : { through: r.answer.through };
    } else {
      const r = keeper.act(op.act, clock, j);
      events = r.events;
      if ("error" in r.answer) outcomes[j] = { ...refusalOutcome(r.answer), at: j };
      else if ("waiting" in r.answer) outcomes[j] = null; // answered later, or {waiting: true} at the end
      else outcomes[j] = handedOutcome(r.answer, j);
    }
    for (const ev of events) {
      if (ev.kind === "failed") outcomes[ev.ticket] = { ...refusalOutcome(ev.refusal), at: j };
      else if (ev.kind === "handed") outcomes[ev.ticket] = handedOutcome(ev.result, j);
      else if (ev.kind === "ended" && !has(op, "advance")) {
        // The virtual clock only moves by advance, and everything due at a reading expires at the advance to it.
        throw new Error(`internal: episode ${ev.id} ended during a request, not an advance`);
      }
    }
  });
  return { outcomes: outcomes.map((o) => o ?? { waiting: true }) };
}
