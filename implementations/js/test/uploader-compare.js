// An uploader answer and a scenario's expectations in → the comparison of conformance/protocol.md ("Comparison",
// kind `uploader`) → null when they match, else the first difference in one sentence.
//
// Why a module of its own: the vectors' runner (test/run-vectors.js) and the hand-written self-check
// (test/uploader-selfcheck.js) must judge an answer by the same rule, and that rule has freedom in it (frames and
// skipped numbers are sets, a retry's reading a window) that a plain JSON equality would not grant.

import { jsonEqual, toJsonLine } from "../src/json.js";

const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const show = (v) => toJsonLine(v).slice(0, 300);

/** A list of numbers is the expected set: each member once, the same members. */
function sameSet(actual, expected) {
  if (!Array.isArray(actual) || new Set(actual).size !== actual.length) return false;
  return jsonEqual([...actual].sort((x, y) => x - y), [...expected].sort((x, y) => x - y));
}

/**
 * null when one sent request matches its expectation, else what differs.
 * @param {any} actual `{at, observe}` or `{at, act}`
 * @param {any} expected `{post: {frames?, skipped?}}` or `{act: {seq, inputs}}`, optionally with `at`
 * @param {number} reading the event's own reading, the default `at`
 * @param {string} episodeId
 */
export function requestDiff(actual, expected, reading, episodeId) {
  const at = has(expected, "at") ? expected.at : reading;
  const atOk = typeof at === "number" ? actual.at === at : actual.at >= at.from && actual.at <= at.to;
  if (!atOk) return `sent at ${actual.at}, expected ${toJsonLine(at)}`;
  if (has(expected, "act")) {
    const want = { episode_id: episodeId, ...expected.act };
    if (!has(actual, "act")) return `expected an act, got ${show(actual)}`;
    return jsonEqual(actual.act, want) ? null : `act ${show(actual.act)} != ${show(want)}`;
  }
  if (!has(actual, "observe")) return `expected a post, got ${show(actual)}`;
  const body = actual.observe;
  const extra = Object.keys(body).filter((k) => !["episode_id", "frames", "skipped"].includes(k));
  if (extra.length > 0 || body.episode_id !== episodeId) return `post body ${show(body)}`;
  const frames = body.frames ?? [];
  const wantFrames = expected.post.frames ?? [];
  const bySeq = new Map(frames.map((f) => [f.seq, f.inputs]));
  const framesOk = bySeq.size === frames.length && bySeq.size === wantFrames.length &&
    wantFrames.every((f) => bySeq.has(f.seq) && jsonEqual(bySeq.get(f.seq), f.inputs));
  if (!framesOk) return `frames ${show(frames)} != ${show(wantFrames)}`;
  const wantSkipped = expected.post.skipped ?? [];
  if (!sameSet(body.skipped ?? [], wantSkipped)) return `skipped ${show(body.skipped ?? [])} != ${show(wantSkipped)}`;
  return null;
}

/**
 * null when the answer's requests match every event's `expect` (absent: none), else the first difference.
 * @param {any[]} events the scenario's events, each optionally with `expect`
 * @param {any} requests the answer's `requests`, one list per event
 * @param {string} episodeId
 */
export function requestsDiff(events, requests, episodeId) {
  if (!Array.isArray(requests) || requests.length !== events.length) {
    return `${show(requests)} is not one list of requests per event (${events.length} events)`;
  }
  let clock = 0.0;
  for (let j = 0; j < events.length; j++) {
    const kind = Object.keys(events[j]).find((k) => k !== "expect");
    if (kind === "advance") clock = clock + events[j].advance; // one binary64 addition (UPL-CLOCK)
    const want = events[j].expect ?? [];
    const got = requests[j];
    if (!Array.isArray(got) || got.length !== want.length) {
      return `event ${j} (${kind}): sent ${show(got)}, expected ${show(want)}`;
    }
    for (let k = 0; k < got.length; k++) {
      const diff = requestDiff(got[k], want[k], clock, episodeId);
      if (diff !== null) return `event ${j} (${kind}), request ${k}: ${diff}`;
    }
  }
  return null;
}
