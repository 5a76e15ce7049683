// The package's public API (package.json "exports" "."): validation, the schedule, envelope, rows_of, the stream
// keeper, the robot's uploader (spec/uploader.md), the canonical size of a frame, the wire reader and serializer,
// one conformance case → its answer, and where the bundled spec and vectors are.

export { validateText, validateValue, isValid, knownType, TYPE_NAMES } from "./validation.js";
export {
  of, picks, needed, wanted, keepsFrom, readsPastDeclaration, readsPastSchedule, roundHalfEven, SpecError, MAX_STEP,
} from "./schedule.js";
export { envelope } from "./envelope.js";
export { rowsOf } from "./rows_of.js";
export { Keeper, streamErrorBody, STREAM_ERRORS, MAX_EPISODES, FRAMES_CEILING } from "./keeper.js";
export { Uploader, uploaderCase } from "./uploader.js";
export { canonicalText, canonicalSize } from "./canonical.js";
export { parseWire, toJsonLine, jsonEqual, WireError } from "./json.js";
export { answer, KINDS } from "./dispatch.js";
export {
  DATA_ROOT, SPEC_DIR, SCHEMA_DIR, CONFORMANCE_DIR, VECTORS_JSON, PROTOCOL_DIR, contractVersion, dataProblem,
} from "./data.js";
