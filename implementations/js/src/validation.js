// Validation of contract instances (spec/validation.md): wire rules, JSON Schema (ajv, draft 2020-12), rules
// beyond the schema, normalization.
//
// Two ajv instances are built from spec/schemas/:
//   - `ajvRefs` loads every schema file as it is, with its cross-file $refs; it decides validity;
//   - `ajvInlined` compiles, per type, a copy in which every $ref is replaced by the schema it names (the schemas
//     have no reference cycle). ajv's schemaPath then runs from the type's root through every $ref, which is what
//     the rule-id mapping needs ("the nearest x-rule on the way from the type's root schema to the keyword,
//     following $refs"). Both must agree on validity; a disagreement is an internal error.

import fs from "node:fs";
import path from "node:path";
import Ajv2020Module from "ajv/dist/2020.js";
import { parseWire, formatPath, jsonType, isObject, jsonEqual, setMember, literalOf, setLiteral, exactValue, compareExact, isWellFormed, MAX_JSON_DEPTH } from "./json.js";

import { present } from "./types.js";

/** @typedef {import("./types.js").Stream} Stream */
/** @typedef {import("./types.js").DeploymentPolicy} DeploymentPolicy */
/** @typedef {import("./types.js").ActionContract} ActionContract */
/** @typedef {import("./types.js").InferParam} InferParam */
/** @typedef {import("./types.js").Lease} Lease */
/** @typedef {import("./types.js").Refusal} Refusal */
/** @typedef {(segs: Array<string | number>, rule: string, message: string) => void} Report */
/**
 * The outcome of validating one instance: accepted (normalized in place, with the literal of a top-level integer
 * beyond 2^53 when there is one) or refused with every refusal found.
 * @typedef {{valid: true, normalized?: unknown, literal?: string} | {valid: false, errors: Refusal[]}} Outcome
 */

const Ajv2020 = Ajv2020Module.default || Ajv2020Module;

import { SPEC_DIR, SCHEMA_DIR } from "./data.js";

const CUSTOM_KEYWORDS = ["x-rule", "x-limits", "x-enum-varnames", "x-type"];

function newAjv() {
  const ajv = new Ajv2020({
    allErrors: true,
    verbose: false,
    strict: true,
    strictTypes: false, // `properties` without `type: object` inside if/then/else is intended
    strictTuples: false, // bounds pairs: prefixItems with minItems/maxItems 2 and no `items`
    strictRequired: false,
    allowUnionTypes: true, // InferParam: "type": ["number", "boolean", "string"]
    unicodeRegExp: true, // patterns read as ECMA-262 with the u flag (code points)
    // stdout belongs to the testee protocol: anything ajv has to say goes to stderr.
    logger: { log: (...a) => console.error(...a), warn: (...a) => console.error(...a), error: (...a) => console.error(...a) },
    // minLength/maxLength count code points (ajv's default `unicode` behaviour).
  });
  ajv.addVocabulary(CUSTOM_KEYWORDS);
  return ajv;
}

// ---------------------------------------------------------------------------------------------------------------
// Loading

const rawSchemas = new Map(); // $id -> schema
const typeIds = new Map(); // type name -> $id
for (const f of fs.readdirSync(SCHEMA_DIR).sort()) {
  if (!f.endsWith(".json")) continue;
  const s = JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, f), "utf8"));
  const id = s.$id || new URL(f, "file:///schemas/").href;
  rawSchemas.set(id, s);
  typeIds.set(f.replace(/\.json$/, ""), id);
}

export const TYPE_NAMES = [...typeIds.keys()];

const ajvRefs = newAjv();
for (const s of rawSchemas.values()) ajvRefs.addSchema(s);

function resolvePointer(doc, pointer) {
  if (!pointer || pointer === "") return doc;
  let node = doc;
  for (const raw of pointer.replace(/^\//, "").split("/")) {
    const seg = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    node = node[seg];
    if (node === undefined) throw new Error(`unresolvable JSON pointer ${pointer}`);
  }
  return node;
}

function titleOf(id) {
  for (const [name, tid] of typeIds) if (tid === id) return name;
  return null;
}

/** A deep copy of `node` with every $ref replaced by (an inlined copy of) its target. */
function inline(node, baseId, seen) {
  if (Array.isArray(node)) return node.map((x) => inline(x, baseId, seen));
  if (!isObject(node)) return node;
  let out = {};
  /** @type {any} */
  let target = null;
  for (const [k, v] of Object.entries(node)) {
    if (k === "$ref") {
      const url = new URL(v, baseId);
      const docId = url.href.replace(/#.*$/, "");
      const doc = rawSchemas.get(docId);
      if (!doc) throw new Error(`unresolvable $ref ${v} from ${baseId}`);
      const key = url.href;
      if (seen.has(key)) throw new Error(`reference cycle through ${key}`);
      const sub = resolvePointer(doc, url.hash.replace(/^#/, ""));
      const next = new Set(seen).add(key);
      target = inline(sub, docId, next);
      delete target.$id;
      delete target.$schema;
      if (sub === doc) {
        const t = titleOf(docId);
        if (t) target["x-type"] = t;
      }
      continue;
    }
    if (k === "$id" || k === "$schema") continue;
    // Keywords whose value is a map of subschemas or a subschema or a list of them: copy recursively. Other
    // keywords (enum, const, default, x-*) hold plain data, which `inline` leaves as it is (no $ref in data).
    out[k] = inline(v, baseId, seen);
  }
  if (target) {
    if (Object.keys(out).filter((k) => k !== "description" && k !== "$comment").length === 0) return target;
    out.allOf = [...(out.allOf || []), target];
  }
  return out;
}

const inlinedSchemas = new Map(); // type -> inlined schema
const ajvInlined = newAjv();
for (const [name, id] of typeIds) {
  const s = inline(rawSchemas.get(id), id, new Set([id]));
  s["x-type"] = name;
  s.$id = `urn:seq-io-js:inlined:${name}`;
  inlinedSchemas.set(name, s);
  ajvInlined.addSchema(s);
}

const compiled = new Map();
function validators(typeName) {
  let v = compiled.get(typeName);
  if (!v) {
    v = {
      refs: ajvRefs.getSchema(typeIds.get(typeName)),
      inlined: ajvInlined.getSchema(`urn:seq-io-js:inlined:${typeName}`),
    };
    compiled.set(typeName, v);
  }
  return v;
}

// ---------------------------------------------------------------------------------------------------------------
// Rule-id mapping of ajv errors

function splitPointer(p) {
  if (!p) return [];
  return p
    .replace(/^#?\//, "")
    .split("/")
    .map((s) => decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Instance path segments of a JSON pointer, with indices as numbers where the instance holds an array. */
function instanceSegments(root, pointer) {
  const segs = [];
  let node = root;
  for (const raw of splitPointer(pointer)) {
    if (Array.isArray(node)) {
      const i = Number(raw);
      segs.push(i);
      node = node[i];
    } else {
      segs.push(raw);
      node = isObject(node) ? node[raw] : undefined;
    }
  }
  return { segs, node };
}

/**
 * Whether an anyOf branch admits an instance (spec/validation.md, "anyOf"): unless the branch's own `type` keyword
 * (at its root; an inlined $ref with siblings sits in an allOf) refuses the instance's JSON type. "integer" admits a
 * number whose value is whole.
 */
function admits(s, value) {
  if (!isObject(s)) return true;
  if (s.type !== undefined) {
    const t = jsonType(value);
    const ok = [].concat(s.type).some((x) => x === t || (x === "integer" && t === "number" && Number.isInteger(value)));
    if (!ok) return false;
  }
  for (const b of Array.isArray(s.allOf) ? s.allOf : []) if (isObject(b) && b["x-type"] && !admits(b, value)) return false;
  return true;
}

/** The set of JSON types a subschema can accept, or null when it does not say (for the walk of typed nodes). */
function branchTypes(s) {
  if (!isObject(s)) return null;
  const norm = (t) => (t === "integer" ? "number" : t);
  if (s.type !== undefined) return new Set([].concat(s.type).map(norm));
  if (Array.isArray(s.enum)) return new Set(s.enum.map(jsonType));
  if (s.const !== undefined) return new Set([jsonType(s.const)]);
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
    const out = new Set();
    for (const b of s.anyOf || s.oneOf) {
      const t = branchTypes(b);
      if (t === null) return null;
      for (const x of t) out.add(x);
    }
    return out;
  }
  if (Array.isArray(s.allOf)) {
    for (const b of s.allOf) {
      const t = branchTypes(b);
      if (t !== null) return t;
    }
  }
  return null;
}

const PRIORITY = { type: 1, required: 2, additionalProperties: 3 };
const priority = (rule) => (rule.startsWith("wire.") ? 0 : PRIORITY[rule] || 4);

function mapAjvErrors(typeName, instance, ajvErrors) {
  const root = inlinedSchemas.get(typeName);
  // 1. anyOf (spec/validation.md, "anyOf"): the anyOf itself is never reported; the errors of the branches that
  //    admit the instance's type are; when no branch admits it, only one `type` error (the first branch's) is.
  const drop = new Set();
  const under = (f, e, idx) =>
    (f.instancePath === e.instancePath || f.instancePath.startsWith(e.instancePath + "/")) &&
    f.schemaPath.startsWith(`${e.schemaPath}/${idx}/`);
  for (const e of ajvErrors) {
    if (e.keyword !== "anyOf") continue;
    drop.add(e);
    const node = resolvePointer(root, e.schemaPath.replace(/^#/, ""));
    const { node: value } = instanceSegments(instance, e.instancePath);
    const admitting = node.map((b, idx) => idx).filter((idx) => admits(node[idx], value));
    let keptType = admitting.length > 0;
    for (let idx = 0; idx < node.length; idx++) {
      if (admitting.includes(idx)) continue;
      for (const f of ajvErrors) {
        if (f === e || !under(f, e, idx)) continue;
        if (!keptType && f.keyword === "type" && f.instancePath === e.instancePath) {
          keptType = true; // the one `type` refusal at the instance
          continue;
        }
        drop.add(f);
      }
    }
  }
  const out = [];
  const seen = new Set();
  for (const e of ajvErrors) {
    // The inner keyword of a refused key is reported (spec/validation.md), never `propertyNames` itself.
    if (drop.has(e) || e.keyword === "propertyNames") continue;
    // 2. the nearest x-rule on the schema path from the root to the keyword
    const segs = splitPointer(e.schemaPath);
    let node = root;
    /** @type {string | null} */
    let rule = null;
    for (let k = 0; k < segs.length - 1; k++) {
      if (isObject(node) && typeof node["x-rule"] === "string") rule = node["x-rule"];
      node = node[segs[k]];
    }
    if (isObject(node) && typeof node["x-rule"] === "string") rule = node["x-rule"];
    rule = rule || e.keyword;
    const p = formatPath(instanceSegments(instance, e.instancePath).segs);
    const key = `${p}\u0000${rule}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let message = `${e.keyword}: ${e.message}`;
    if (e.params && e.params.propertyName !== undefined) message += ` (key ${JSON.stringify(e.params.propertyName)})`;
    if (e.params && e.params.additionalProperty !== undefined) message += ` (${JSON.stringify(e.params.additionalProperty)})`;
    out.push({ path: p, rule, message });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Nodes of a named type, wherever they are nested in a schema-valid instance

/** Pre-order list of {type, value, segs} for every node of the instance that is an instance of a contract type. */
function typedNodes(schema, value, segs = [], out = [], seen = new Set()) {
  if (!isObject(schema)) return out;
  if (typeof schema["x-type"] === "string") {
    const key = `${schema["x-type"]}\u0000${JSON.stringify(segs)}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ type: schema["x-type"], value, segs });
    }
  }
  if (isObject(value)) {
    const props = isObject(schema.properties) ? schema.properties : {};
    for (const k of Object.keys(value)) {
      if (Object.prototype.hasOwnProperty.call(props, k)) typedNodes(props[k], value[k], [...segs, k], out, seen);
      else if (isObject(schema.additionalProperties))
        typedNodes(schema.additionalProperties, value[k], [...segs, k], out, seen);
    }
  }
  if (Array.isArray(value)) {
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    value.forEach((x, idx) => {
      if (idx < prefix.length) typedNodes(prefix[idx], x, [...segs, idx], out, seen);
      else if (isObject(schema.items)) typedNodes(schema.items, x, [...segs, idx], out, seen);
    });
  }
  for (const b of schema.allOf || []) typedNodes(b, value, segs, out, seen);
  for (const b of [...(schema.anyOf || []), ...(schema.oneOf || [])]) {
    const bt = branchTypes(b);
    if (bt === null || bt.has(jsonType(value))) typedNodes(b, value, segs, out, seen);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Rules beyond the schema

const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const isNumber = (v) => typeof v === "number";
/** The exact value of the number container[key] (a BigInt for an integer literal beyond 2^53). */
const exact = (container, key) => exactValue(container[key], literalOf(container, key));

// DeploymentPolicy.param-name: the key as sent (not normalized) is XID_Start then XID_Continue code points, with the
// properties of Unicode 14.0.0 as spec/identifier-characters.json lists them (not the engine's newer tables), and
// does not start with "_".
const IDENTIFIER_RANGES = JSON.parse(fs.readFileSync(path.join(SPEC_DIR, "identifier-characters.json"), "utf8"));

/** Is the code point inside one of the ascending, inclusive [first, last] ranges? (binary search) */
function inRanges(ranges, cp) {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < ranges[mid][0]) hi = mid - 1;
    else if (cp > ranges[mid][1]) lo = mid + 1;
    else return true;
  }
  return false;
}

function isParamName(key) {
  const cps = [...key].map((c) => c.codePointAt(0));
  if (cps.length === 0 || !inRanges(IDENTIFIER_RANGES.xid_start, cps[0])) return false; // "_" is refused here too
  return cps.every((cp, k) => k === 0 || inRanges(IDENTIFIER_RANGES.xid_continue, cp));
}

function daysInMonth(y, m) {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

// Each rule receives one schema-valid node of its type, typed by the binding generated from the same schema.
const BEYOND = {
  /** @param {DeploymentPolicy} node @param {Array<string | number>} segs @param {Report} err */
  DeploymentPolicy(node, segs, err) {
    if (present(node, "params") && isObject(node.params)) {
      const bad = Object.keys(node.params).filter((k) => !isParamName(k));
      if (bad.length)
        err([...segs, "params"], "DeploymentPolicy.param-name",
          `parameter names must be identifiers not starting with "_": ${bad.map((k) => JSON.stringify(k)).join(", ")}`);
    }
  },
  /** @param {ActionContract} node @param {Array<string | number>} segs @param {Report} err */
  ActionContract(node, segs, err) {
    if (present(node, "bounds") && Array.isArray(node.bounds)) {
      if (node.bounds.length !== node.action_dim) {
        err([...segs, "bounds"], "ActionContract.bounds-count",
          `bounds has ${node.bounds.length} pairs, action_dim is ${node.action_dim}`);
      } else {
        node.bounds.forEach((pair, idx) => {
          if (compareExact(exact(pair, 0), exact(pair, 1)) > 0)
            err([...segs, "bounds", idx], "ActionContract.bounds-order", `low ${pair[0]} is above high ${pair[1]}`);
        });
      }
    }
    if (present(node, "max_delta") && Array.isArray(node.max_delta) && node.max_delta.length !== node.action_dim) {
      err([...segs, "max_delta"], "ActionContract.max-delta-count",
        `max_delta has ${node.max_delta.length} values, action_dim is ${node.action_dim}`);
    }
  },
  /** @param {InferParam} node @param {Array<string | number>} segs @param {Report} err */
  InferParam(node, segs, err) {
    const min = present(node, "min") ? exact(node, "min") : null;
    const max = present(node, "max") ? exact(node, "max") : null;
    if (min !== null && max !== null && compareExact(min, max) > 0)
      err(segs, "InferParam.min-not-above-max", `min ${min} is above max ${max}`);
    if (present(node, "default")) {
      const d = node.default;
      const problems = [];
      if (present(node, "choices") &&
          !node.choices.some((c, idx) => jsonEqual(c, d, literalOf(node.choices, idx), literalOf(node, "default"))))
        problems.push("is not one of choices");
      if (min !== null || max !== null) {
        if (!isNumber(d)) problems.push("is not a number, but min/max are set");
        else {
          const dx = exact(node, "default");
          if (min !== null && compareExact(dx, min) < 0) problems.push(`is below min ${min}`);
          if (max !== null && compareExact(dx, max) > 0) problems.push(`is above max ${max}`);
        }
      }
      if (problems.length) err([...segs, "default"], "InferParam.default-allowed", `default ${JSON.stringify(d)} ${problems.join(", ")}`);
    }
  },
  /** @param {Lease} node @param {Array<string | number>} segs @param {Report} err */
  Lease(node, segs, err) {
    if (typeof node.expires_at !== "string") return;
    const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})/.exec(node.expires_at);
    if (!m) return;
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo))
      err([...segs, "expires_at"], "Lease.expires-at-real-date", `${m[0]} is not a date of the proleptic Gregorian calendar`);
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Normalization (in place, on a value we own)

const NORMALIZE = {
  /** @param {Stream} node */
  Stream(node) {
    const at = node.at;
    if (!Array.isArray(at)) return;
    // Ascending by exact value; stable. Recorded literals follow their numbers.
    const items = at.map((v, idx) => ({ v, lit: literalOf(at, idx), x: exactValue(v, literalOf(at, idx)) }));
    items.sort((a, b) => compareExact(a.x, b.x));
    items.forEach(({ v, lit }, idx) => {
      at[idx] = v;
      setLiteral(at, idx, lit);
    });
  },
  /** @param {DeploymentPolicy} node */
  DeploymentPolicy(node) {
    if (has(node, "streaming")) {
      if (node.streaming === true) setMember(node, "episodes", "own");
      delete node.streaming;
    }
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Public API

export function knownType(typeName) {
  return typeIds.has(typeName);
}

/**
 * Validates an already-parsed value (no wire rules). Returns {valid: true, normalized} or {valid: false, errors}.
 * With `normalize` (the default) the value itself is normalized in place and returned as `normalized`; pass
 * `{normalize: false}` to leave it untouched.
 * @param {string} typeName
 * @param {unknown} value
 * @param {{normalize?: boolean}} [options]
 * @returns {Outcome}
 */
export function validateValue(typeName, value, { normalize = true } = {}) {
  if (!typeIds.has(typeName)) throw new Error(`unknown contract type ${typeName}`);
  const wire = wireIssueOfValue(value);
  if (wire !== null) return { valid: false, errors: [wire] };
  const { refs, inlined } = validators(typeName);
  const okRefs = refs(value);
  const okInlined = inlined(value);
  if (okRefs !== okInlined) throw new Error(`internal: the inlined schema of ${typeName} disagrees with the original`);
  if (!okRefs) {
    const errors = mapAjvErrors(typeName, value, inlined.errors || []);
    errors.sort((a, b) => priority(a.rule) - priority(b.rule));
    return { valid: false, errors };
  }
  const nodes = typedNodes(inlinedSchemas.get(typeName), value);
  const errors = [];
  for (const { type, value: node, segs } of nodes) {
    const rule = BEYOND[type];
    if (rule && isObject(node)) rule(node, segs, (s, id, message) => errors.push({ path: formatPath(s), rule: id, message }));
  }
  if (errors.length) return { valid: false, errors };
  if (!normalize) return { valid: true };
  // Normalize the deepest nodes first so that removing keys never invalidates a node found earlier.
  // Normalization only touches nodes the schemas describe (never opaque values), so it works in place.
  for (let k = nodes.length - 1; k >= 0; k--) {
    const { type, value: node } = nodes[k];
    const f = NORMALIZE[type];
    if (f && isObject(node)) f(node);
  }
  return { valid: true, normalized: value };
}

/**
 * An already-parsed value is held to the wire rules a text would be (spec/validation.md): a string or member name
 * holding a lone surrogate (wire.json-syntax, at its path), a value enclosed by more than MAX_JSON_DEPTH arrays and
 * objects (wire.too-deep, path $). The first such issue, or null. Iterative.
 */
function wireIssueOfValue(root) {
  const work = [[root, []]];
  while (work.length) {
    const [v, segs] = /** @type {[any, Array<string | number>]} */ (work.pop());
    if (segs.length > MAX_JSON_DEPTH) {
      return { path: "$", rule: "wire.too-deep", message: `nested more deeply than ${MAX_JSON_DEPTH} arrays and objects` };
    }
    if (typeof v === "string") {
      if (!isWellFormed(v)) return { path: formatPath(segs), rule: "wire.json-syntax", message: "a string holds a lone surrogate" };
    } else if (Array.isArray(v)) {
      v.forEach((x, k) => work.push([x, [...segs, k]]));
    } else if (isObject(v)) {
      for (const k of Object.keys(v)) {
        if (!isWellFormed(k)) return { path: formatPath(segs), rule: "wire.json-syntax", message: "a member name holds a lone surrogate" };
        work.push([v[k], [...segs, k]]);
      }
    }
  }
  return null;
}

/**
 * Validates JSON text under the wire rules, then as validateValue. A valid result carries `literal`, the literal
 * text of a top-level integer beyond 2^53 (for the serializer), when there is one.
 * @param {string} typeName
 * @param {string} text
 * @returns {Outcome}
 */
export function validateText(typeName, text) {
  const parsed = parseWire(text);
  if (!parsed.ok) return { valid: false, errors: parsed.errors };
  const r = validateValue(typeName, parsed.value);
  if (r.valid) r.literal = parsed.literal;
  return r;
}

/** Whether a parsed value is a valid instance of the type (schema and rules beyond it). */
export function isValid(typeName, value) {
  return validateValue(typeName, value, { normalize: false }).valid;
}

