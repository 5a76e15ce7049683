// Answers one conformance case of conformance/protocol.md, for the testee and the in-process self-check.

import { isObject, setLiteral } from "./json.js";
import { validateText, knownType } from "./validation.js";
import { scheduleCase, SpecError } from "./schedule.js";
import { envelopeCase } from "./envelope.js";
import { rowsOfCase } from "./rows_of.js";
import { streamCase, CaseInputError } from "./stream_case.js";
import { uploaderCase, UploaderScenarioError } from "./uploader.js";

/** @typedef {import("./types.js").AnswerBody} AnswerBody */
/** @typedef {import("./types.js").ValidationResult} ValidationResult */

export const KINDS = ["validation", "schedule", "envelope", "rows_of", "stream", "uploader"];

/**
 * Answers one case: {type: "result"|"error"|"skipped", ...} without the id.
 * @param {string} kind
 * @param {any} input
 * @returns {AnswerBody}
 */
export function answer(kind, input) {
  try {
    switch (kind) {
      case "validation": {
        if (!isObject(input) || typeof input.type_name !== "string" || typeof input.json !== "string") {
          return { type: "skipped", reason: "a validation input needs type_name and json (a string)" };
        }
        if (!knownType(input.type_name)) return { type: "skipped", reason: `unknown contract type ${input.type_name}` };
        const r = validateText(input.type_name, input.json);
        if (!r.valid) {
          // A refusal always names at least one error (the protocol's result schema says minItems 1).
          const errors = /** @type {ValidationResult["errors"]} */ (r.errors);
          return { type: "result", result: { valid: false, errors } };
        }
        /** @type {ValidationResult} */
        const result = { valid: true, normalized: r.normalized };
        setLiteral(result, "normalized", r.literal);
        return { type: "result", result };
      }
      case "schedule":
        return { type: "result", result: scheduleCase(input) };
      case "envelope":
        return { type: "result", result: envelopeCase(input) };
      case "rows_of":
        return { type: "result", result: rowsOfCase(input) };
      case "stream":
        return { type: "result", result: streamCase(input) };
      case "uploader":
        return { type: "result", result: uploaderCase(input) };
      default:
        return { type: "skipped", reason: `kind ${kind} is not supported` };
    }
  } catch (e) {
    if (e instanceof SpecError) return { type: "error", rule: e.rule, message: e.message };
    if (e instanceof CaseInputError) return { type: "error", rule: e.rule, message: e.message };
    if (e instanceof UploaderScenarioError) return { type: "error", rule: e.rule, message: e.message };
    const err = /** @type {any} */ (e);
    console.error(err && err.stack ? err.stack : err);
    return { type: "error", rule: "internal.exception", message: `internal error: ${err && err.message}` };
  }
}

