// envelope(picked, frames, own, t) of spec/schedule.md § 9.

import { isObject, setMember, literalOf, carry, exactValue, compareExact } from "./json.js";
import { SpecError } from "./schedule.js";

const STEP_NAME = /^(0|[1-9][0-9]*)$/;

/**
 * picked: entries [step, keys]; frames: a JSON object whose member names are steps in canonical decimal (other
 * names name no step); own: the act's own observation; t: the act's step.
 * Returns {observations, steps}; refuses with envelope.frame-missing.
 *
 * `refs` (optional) = {own: [container, key], t: [container, key]} says where own and t are held, so that integer
 * literals beyond 2^53 (json.js) travel unchanged and steps compare exactly.
 */
const MAX_STEP = 2 ** 53 - 1;

/** A step given as a JSON number (3.0 is 3): an integer by value in 0 .. MAX_STEP, else envelope.invalid-input. */
function checkStep(u, literal, what) {
  const x = exactValue(u, literal);
  const ok = typeof x === "number" ? Number.isInteger(x) && x >= 0 && x <= MAX_STEP : false; // a BigInt is > MAX_STEP or < 0
  if (!ok) throw new SpecError("envelope.invalid-input", `${what} must be an integer from 0 to ${MAX_STEP}; got ${literal ?? JSON.stringify(u)}`);
}

/** ENV-INPUT: the forms of the arguments, checked before any entry is walked. */
function checkInput(picked, frames, t, tLiteral) {
  checkStep(t, tLiteral, "t");
  if (!Array.isArray(picked)) throw new SpecError("envelope.invalid-input", "picks must be a list of [step, keys] entries");
  picked.forEach((entry, k) => {
    if (!Array.isArray(entry) || entry.length !== 2)
      throw new SpecError("envelope.invalid-input", `picks[${k}] must be a [step, keys] pair`);
    checkStep(entry[0], literalOf(entry, 0), `the step of picks[${k}]`);
    const keys = entry[1];
    if (keys !== null && !(Array.isArray(keys) && keys.every((x) => typeof x === "string")))
      throw new SpecError("envelope.invalid-input", `the keys of picks[${k}] must be null or a list of strings`);
  });
  if (!isObject(frames)) throw new SpecError("envelope.invalid-input", "frames must be an object keyed by decimal steps");
}

export function envelope(picked, frames, own, t, refs = {}) {
  checkInput(picked, frames, t, refs.t ? literalOf(...refs.t) : undefined);
  const tExact = refs.t ? exactValue(t, literalOf(...refs.t)) : t;
  const observations = [];
  const steps = [];
  for (const entry of picked) {
    // ENV-WALK
    const [u, keys] = entry;
    const uExact = exactValue(u, literalOf(entry, 0));
    let holder; // [container, key] of the observation
    if (typeof u === "number" && compareExact(uExact, tExact) === 0) {
      holder = refs.own || [{ own }, "own"]; // ENV-OWN
    } else {
      const name = stepName(uExact);
      if (name === null || !isObject(frames) || !STEP_NAME.test(name) || !Object.prototype.hasOwnProperty.call(frames, name)) {
        throw new SpecError("envelope.frame-missing", `step ${uExact} is picked but has no frame`); // ENV-MISSING
      }
      holder = [frames, name];
    }
    let obs = holder[0][holder[1]];
    const idx = observations.length;
    if (Array.isArray(keys) && isObject(obs)) {
      // ENV-CUT: exactly the listed members the observation has; values unchanged
      const cut = {};
      for (const k of keys) {
        if (typeof k === "string" && Object.prototype.hasOwnProperty.call(obs, k)) {
          setMember(cut, k, obs[k]);
          carry(obs, k, cut, k);
        }
      }
      observations.push(cut);
    } else {
      observations.push(obs); // ENV-WHOLE
      carry(holder[0], holder[1], observations, idx);
    }
    steps.push(u);
    carry(entry, 0, steps, idx);
  }
  return { observations, steps };
}

/** The canonical decimal name of a step given as a number or BigInt, or null when it is not a whole number ≥ 0. */
function stepName(u) {
  if (typeof u === "bigint") return u >= 0n ? u.toString() : null;
  if (typeof u !== "number" || !Number.isInteger(u) || u < 0) return null;
  return BigInt(u).toString(); // exact decimal of the double, also beyond 2^53 (String() would use an exponent)
}

/** @returns {import("./types.js").EnvelopeResult} */
export function envelopeCase(input) {
  return envelope(input.picks, input.frames, input.own, input.t, { own: [input, "own"], t: [input, "t"] });
}
