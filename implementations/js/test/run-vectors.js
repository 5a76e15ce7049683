#!/usr/bin/env node
// In-process self-check: runs every case of conformance/vectors/**/*.yaml through src/dispatch.js with the
// comparison rules of conformance/README.md and conformance/protocol.md.
//
//   node test/run-vectors.js [--verbose] [--max-failures N] [FILTER...]
//
// FILTER: substrings of a case id or file path; a case runs when it matches one (all cases without a filter).

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import YAML from "yaml";
import { answer, KINDS } from "../src/dispatch.js";
import { parseWire, jsonEqual, isObject, toJsonLine, setLiteral, setMember, carry } from "../src/json.js";
import { requestsDiff } from "./uploader-compare.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const VECTORS = process.env.SEQ_IO_VECTORS_DIR || path.resolve(HERE, "../../../conformance/vectors");

const args = process.argv.slice(2);
const verbose = args.includes("--verbose");
let maxFailures = 10;
const filters = [];
for (let k = 0; k < args.length; k++) {
  if (args[k] === "--verbose") continue;
  if (args[k] === "--max-failures") maxFailures = Number(args[++k]);
  else filters.push(args[k]);
}

function yamlFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...yamlFiles(p));
    else if (/\.ya?ml$/.test(e.name)) out.push(p);
  }
  return out;
}

const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * YAML is read with integers as BigInt (YAML 1.2 core schema), so that an integer beyond 2^53 keeps its exact value:
 * it becomes a number with its literal recorded (src/json.js), as the testee's reader would record it.
 */
function fromYaml(v) {
  const conv = (x, container, key) => {
    if (typeof x === "bigint") {
      const n = Number(x);
      if (!Number.isSafeInteger(n) && container) setLiteral(container, key, x.toString());
      return n;
    }
    if (Array.isArray(x)) {
      const out = [];
      x.forEach((e, k) => out.push(conv(e, out, k)));
      return out;
    }
    if (x !== null && typeof x === "object") {
      const out = {};
      for (const k of Object.keys(x)) setMember(out, k, conv(x[k], out, k));
      return out;
    }
    return x;
  };
  return conv(v, null, null);
}

/** As the runner does: the input travels as JSON text. */
function overTheWire(v) {
  const r = parseWire(toJsonLine(v), { lenient: true });
  if (!r.ok) throw new Error(`cannot send ${JSON.stringify(v)}`);
  return r.value;
}

function inputOf(kind, file, group, c) {
  switch (kind) {
    case "validation":
      return { type_name: file.type, json: has(c, "json") ? c.json : toJsonLine(c.instance) };
    case "schedule": {
      const input = { declaration: group.declaration, t: c.t, t_prev: has(c, "t_prev") ? c.t_prev : -1 };
      carry(c, "t", input, "t");
      if (has(c, "t_prev")) carry(c, "t_prev", input, "t_prev");
      if (has(group, "rate")) {
        input.rate = group.rate;
        carry(group, "rate", input, "rate");
      }
      return input;
    }
    case "envelope":
      return { picks: c.picks, frames: c.frames, own: c.own, t: c.t };
    case "rows_of":
      return { answer: c.answer, actions: c.actions };
    case "stream": {
      const input = { declaration: c.declaration, operations: c.operations.map(withoutExpect) };
      for (const k of ["rate", "episode_idle", "limits"]) {
        if (!has(c, k)) continue;
        input[k] = c[k];
        carry(c, k, input, k);
      }
      return input;
    }
    case "uploader": {
      // A group may give the setup for all its cases; a case's own value wins (conformance/README.md).
      const input = { events: c.events.map(withoutExpect) };
      for (const k of ["declaration", "rate", "episode_id", "backlog"]) {
        const from = has(c, k) ? c : has(group, k) ? group : null;
        if (from === null) continue;
        input[k] = from[k];
        carry(from, k, input, k);
      }
      return input;
    }
    default:
      throw new Error(`unknown kind ${kind}`);
  }
}

/** A stream operation or uploader event as sent: its one member (observe, act, advance, …), without its expect. */
function withoutExpect(op) {
  const out = {};
  for (const k of Object.keys(op)) {
    if (k === "expect") continue;
    setMember(out, k, op[k]);
    carry(op, k, out, k);
  }
  return out;
}

/**
 * The expected outcome of stream operation j as the answer states it: an act's outcome (handed or refused) carries
 * `at`, the index of the operation during which it was answered; a vector leaves it out when that is the act's own.
 */
function expectedOutcome(op, j) {
  const e = op.expect;
  if (!has(op, "act") || !isObject(e) || has(e, "waiting") || has(e, "at")) return e;
  const out = { ...e, at: j };
  carry(e, "handed", out, "handed");
  return out;
}

/** Returns null when the answer passes, else a sentence. */
function judge(kind, group, c, ans) {
  if (kind === "validation") {
    if (ans.type !== "result") return `expected a result, got ${toJsonLine(ans)}`;
    const r = ans.result;
    if (r.valid !== c.valid) return `expected valid=${c.valid}, got ${toJsonLine(r)}`;
    if (c.valid) {
      const expected = has(c, "normalized")
        ? c.normalized
        : has(c, "json")
          ? /** @type {any} */ (parseWire(c.json, { lenient: true })).value
          : c.instance;
      if (!jsonEqual(r.normalized, expected))
        return `normalized ${toJsonLine(r.normalized)} != expected ${toJsonLine(expected)}`;
      return null;
    }
    const errs = Array.isArray(r.errors) ? r.errors : [];
    if (errs.some((e) => e.path === c.error.path && e.rule === c.error.rule)) return null;
    return `expected error ${toJsonLine(c.error)}, got ${toJsonLine(errs.map(({ path, rule }) => ({ path, rule })))}`;
  }
  const expect = c.expect;
  if (isObject(expect) && has(expect, "error")) {
    if (ans.type === "error" && ans.rule === expect.error) return null;
    return `expected error ${expect.error}, got ${toJsonLine(ans).slice(0, 400)}`;
  }
  if (ans.type !== "result") return `expected a result, got ${toJsonLine(ans)}`;
  const r = ans.result;
  if (kind === "schedule") {
    const diffs = [];
    if (!jsonEqual(r.picks, expect.picks)) diffs.push(`picks ${toJsonLine(r.picks)} != ${toJsonLine(expect.picks)}`);
    if (!jsonEqual(r.needed, expect.needed)) diffs.push(`needed ${toJsonLine(r.needed)} != ${toJsonLine(expect.needed)}`);
    if (!jsonEqual(r.wanted, expect.wanted)) diffs.push(`wanted ${toJsonLine(r.wanted)} != ${toJsonLine(expect.wanted)}`);
    if (!jsonEqual(r.keeps_from, expect.keeps_from)) diffs.push(`keeps_from ${r.keeps_from} != ${expect.keeps_from}`);
    if (has(group, "reads_past") && !jsonEqual(r.reads_past, group.reads_past))
      diffs.push(`reads_past ${toJsonLine(r.reads_past)} != ${toJsonLine(group.reads_past)}`);
    return diffs.length ? diffs.join("; ").slice(0, 1500) : null;
  }
  if (kind === "stream") {
    const outcomes = Array.isArray(r.outcomes) ? r.outcomes : [];
    if (outcomes.length !== c.operations.length)
      return `${outcomes.length} outcomes for ${c.operations.length} operations`;
    for (let j = 0; j < outcomes.length; j++) {
      const want = expectedOutcome(c.operations[j], j);
      if (!jsonEqual(outcomes[j], want))
        return `operation ${j}: ${toJsonLine(outcomes[j]).slice(0, 600)} != ${toJsonLine(want).slice(0, 600)}`;
    }
    return null;
  }
  if (kind === "uploader") {
    const episodeId = has(c, "episode_id") ? c.episode_id : group.episode_id;
    return requestsDiff(c.events, r.requests, episodeId);
  }
  if (!jsonEqual(r, expect)) return `${toJsonLine(r).slice(0, 600)} != ${toJsonLine(expect).slice(0, 600)}`;
  return null;
}

const counts = {}; // kind -> {passed, failed}
const failures = [];
for (const f of yamlFiles(VECTORS)) {
  const rel = path.relative(VECTORS, f);
  const file = fromYaml(
    YAML.parse(fs.readFileSync(f, "utf8"), { schema: "core", uniqueKeys: true, merge: false, intAsBigInt: true })
  );
  const kind = file.kind;
  if (!KINDS.includes(kind)) continue; // a kind this implementation does not play
  counts[kind] ||= { passed: 0, failed: 0 };
  for (const group of file.groups) {
    for (const c of group.cases) {
      if (filters.length && !filters.some((x) => c.id.includes(x) || rel.includes(x))) continue;
      let why;
      try {
        const input = overTheWire(inputOf(kind, file, group, c));
        const ans = overTheWire(answer(kind, input));
        why = judge(kind, group, c, ans);
      } catch (e) {
        why = `crash: ${/** @type {any} */ (e)?.stack ?? e}`;
      }
      if (why === null) counts[kind].passed++;
      else {
        counts[kind].failed++;
        failures.push({ id: c.id, file: rel, group: group.group, why });
      }
      if (verbose) console.log(`${why === null ? "ok  " : "FAIL"} ${c.id}`);
    }
  }
}

// Texts no vector file can carry (vector files are UTF-8): a lone surrogate written as the code point itself, not as
// an escape, is refused as wire.json-syntax at $ (spec/validation.md, "A lone surrogate however it is written").
const RAW_LONE_SURROGATES = ['"\ud800"', '{"a\udc00": 1}', '["ok", "x\ud83d"]'];
if (!filters.length) {
  counts.validation ||= { passed: 0, failed: 0 };
  RAW_LONE_SURROGATES.forEach((text, k) => {
    const ans = answer("validation", { type_name: "ObserveFrame", json: `{"seq": 0, "inputs": ${text}}` });
    const refused = ans.type === "result" && ans.result.valid === false &&
      /** @type {{path: string, rule: string}[]} */ (ans.result.errors).some((e) => e.path === "$" && e.rule === "wire.json-syntax");
    if (refused) counts.validation.passed++;
    else {
      counts.validation.failed++;
      failures.push({ id: `raw-lone-surrogate-${k}`, file: "(in this file)", group: "-", why: toJsonLine(ans) });
    }
  });
}

// Stream bodies holding lone surrogates as parsed values (spec/stream.md STR-POST-BODY): no YAML vector can hold one,
// so the scenario is here (tests/test_wire.py sends the same one to the reference).
if (!filters.length) {
  counts.stream ||= { passed: 0, failed: 0 };
  const scenario = {
    declaration: null,
    operations: [
      { observe: { episode_id: "e", frames: [{ seq: 0, inputs: "\ud800" }] } },
      { observe: { episode_id: "e", frames: [{ seq: 0, inputs: { "a\udc00": 1 } }] } },
      { act: { episode_id: "e", seq: 0, inputs: ["ok", "x\ud83d"] } },
      { observe: { episode_id: "e" } },
    ],
  };
  const want = [
    { error: "stream.invalid-body", status: 400 },
    { error: "stream.invalid-body", status: 400 },
    { error: "stream.invalid-body", status: 400, at: 2 },
    { through: -1 },
  ];
  const ans = answer("stream", scenario);
  if (ans.type === "result" && jsonEqual(ans.result.outcomes, want)) counts.stream.passed++;
  else {
    counts.stream.failed++;
    failures.push({ id: "raw-stream-lone-surrogates", file: "(in this file)", group: "-", why: toJsonLine(ans) });
  }
}

let passed = 0;
let failed = 0;
for (const [kind, { passed: p, failed: q }] of Object.entries(counts)) {
  console.log(`${kind}: ${p} passed, ${q} failed`);
  passed += p;
  failed += q;
}
for (const x of failures.slice(0, maxFailures)) console.log(`\nFAIL ${x.id} (${x.file}, group ${x.group})\n  ${x.why}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
