// The types this implementation shares with the schemas: JSDoc names for the TypeScript binding generated from
// spec/schemas and conformance/protocol (generated/ts/, `make generate`). Nothing runs here; `tsc -p .`
// (make check) checks every JSDoc use against them, so a schema change that breaks this code fails the check.
// In the npm package the binding ships as data/types/ (`seq-io-js/types`).

/** @typedef {import("../../../generated/ts/contract.js").Observations} Observations */
/** @typedef {import("../../../generated/ts/contract.js").Stream} Stream */
/** @typedef {import("../../../generated/ts/contract.js").Actions} Actions */
/** @typedef {import("../../../generated/ts/contract.js").DeploymentPolicy} DeploymentPolicy */
/** @typedef {import("../../../generated/ts/contract.js").ActionContract} ActionContract */
/** @typedef {import("../../../generated/ts/contract.js").InferParam} InferParam */
/** @typedef {import("../../../generated/ts/contract.js").Lease} Lease */
/** @typedef {import("../../../generated/ts/protocol.js").ValidationResult} ValidationResult */
/** @typedef {import("../../../generated/ts/protocol.js").ScheduleResult} ScheduleResult */
/** @typedef {import("../../../generated/ts/protocol.js").EnvelopeResult} EnvelopeResult */
/** @typedef {import("../../../generated/ts/protocol.js").RowsOfResult} RowsOfResult */
/** @typedef {import("../../../generated/ts/protocol.js").StreamResult} StreamResult */
/** @typedef {import("../../../generated/ts/protocol.js").Outcome} StreamOutcome */
/** @typedef {import("../../../generated/ts/protocol.js").TesteeHello} TesteeHello */
/** @typedef {import("../../../generated/ts/protocol.js").Error} Refusal one refusal: path, rule id, message */

/**
 * What `answer` gives for one case, without the id (conformance/protocol.md, Answers).
 * @typedef {{type: "result", result: ValidationResult | ScheduleResult | EnvelopeResult | RowsOfResult | StreamResult
 *     | import("./uploader.js").UploaderResult}
 *   | {type: "error", rule: string, message: string}
 *   | {type: "skipped", reason: string}} AnswerBody
 */

/**
 * `o` has an own member `k` that is neither null nor undefined; tells the type checker so, and checks `k` against
 * the member names of `o`'s type (a renamed member in a schema fails `tsc`).
 * @template {object} T
 * @template {keyof T & string} K
 * @param {T} o
 * @param {K} k
 * @returns {o is T & {[P in K]-?: NonNullable<T[P]>}}
 */
export function present(o, k) {
  return Object.prototype.hasOwnProperty.call(o, k) && o[k] !== null && o[k] !== undefined;
}

export {};
