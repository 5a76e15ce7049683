// rows_of(answer, actions) of spec/schedule.md § 10.

import { isValid } from "./validation.js";
import { isObject, jsonType, carry } from "./json.js";
import { SpecError } from "./schedule.js";
import { present } from "./types.js";

/** @typedef {import("./types.js").Actions} Actions */
/** @typedef {import("./types.js").RowsOfResult} RowsOfResult */

const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * Returns the rows that play. `answerRef` = [container, key] where the answer is held, if any: integer literals
 * beyond 2^53 (see json.js) then travel into the rows unchanged.
 * @param {any} answer  what infer returned
 * @param {Actions | null | undefined} actions  refused at run time unless null or a valid Actions (ROWS-ACTIONS-VALID)
 * @param {[object, string | number] | null} [answerRef]
 * @returns {unknown[]}
 */
export function rowsOf(answer, actions, answerRef = null) {
  const single = () => {
    const rows = [answer];
    if (answerRef) carry(answerRef[0], answerRef[1], rows, 0);
    return rows;
  };
  const slice = (arr, n) => {
    const rows = arr.slice(0, n);
    for (let k = 0; k < rows.length; k++) carry(arr, k, rows, k);
    return rows;
  };
  if (actions !== null && actions !== undefined) {
    if (!isValid("Actions", actions)) {
      throw new SpecError("rows_of.invalid-actions", "actions is neither null nor a valid Actions"); // ROWS-ACTIONS-VALID
    }
    let source = answer;
    if (present(actions, "key")) {
      // ROWS-DECLARED-KEY
      if (!isObject(answer) || !has(answer, actions.key)) {
        throw new SpecError("rows_of.missing-key", `the answer is not an object holding ${JSON.stringify(actions.key)}`);
      }
      source = answer[actions.key];
    }
    if (!Array.isArray(source)) {
      throw new SpecError("rows_of.not-a-list", `the rows source is ${jsonType(source)}, not an array`); // ROWS-DECLARED-SOURCE
    }
    if (source.length === 0) throw new SpecError("rows_of.no-rows", "the rows source is empty"); // ROWS-DECLARED-EMPTY
    const h = present(actions, "open_loop_horizon") ? actions.open_loop_horizon : source.length;
    return slice(source, Math.min(h, source.length)); // ROWS-DECLARED-HORIZON
  }
  if (!Array.isArray(answer)) return single(); // ROWS-UNDECLARED-SINGLE
  const kinds = new Set(answer.map(jsonType));
  if ([...kinds].every((k) => k === "number" || k === "boolean")) return single(); // ROWS-UNDECLARED-NUMBERS
  if (kinds.size === 1 && kinds.has("array")) {
    // ROWS-UNDECLARED-ROWS
    const n = answer[0].length;
    if (answer.every((r) => r.length === n)) return slice(answer, answer.length);
    throw new SpecError("rows_of.ragged", "the answer's rows have different lengths; declare Actions to play them as they are");
  }
  if (kinds.size === 1 && kinds.has("object")) {
    throw new SpecError("rows_of.objects", "the answer is a list of objects: declare Actions (each object is then a row)"); // ROWS-UNDECLARED-OBJECTS
  }
  throw new SpecError(
    "rows_of.mixed",
    `the answer mixes ${[...kinds].sort().join(", ")}: declare Actions, or convert the answer to numbers or rows` // ROWS-UNDECLARED-OTHER
  );
}

/** @returns {RowsOfResult} */
export function rowsOfCase(input) {
  const actions = has(input, "actions") ? input.actions : null;
  return { rows: rowsOf(input.answer, actions, [input, "answer"]) };
}
