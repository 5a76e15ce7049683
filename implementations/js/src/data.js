// Where this package's data is: the spec (schemas, contract.json, identifier-characters.json) and the conformance
// files (vectors.json, the protocol schemas).
//
// Inside the repository checkout (implementations/js/ with spec/ two levels up) the checkout's own files are read, so an
// edit there takes effect at once. An installed package (npm pack → npm install) reads the copy that
// scripts/bundle-data.js put into data/ at pack time. SEQ_IO_SPEC_DIR overrides the spec folder. Nothing here
// throws: `dataProblem()` says in one sentence what is missing, and the testee prints it and exits 2.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CHECKOUT = path.resolve(PACKAGE_ROOT, "../..");

/** True when this package is implementations/js of a checkout (the layout, not a guess from a folder name alone). */
function inCheckout() {
  return path.basename(path.dirname(PACKAGE_ROOT)) === "implementations" &&
    fs.existsSync(path.join(CHECKOUT, "spec", "contract.json")) &&
    fs.existsSync(path.join(CHECKOUT, "conformance", "protocol.md"));
}

/** The folder holding spec/ and conformance/: the checkout's, or the package's own data/. */
export const DATA_ROOT = inCheckout() ? CHECKOUT : path.join(PACKAGE_ROOT, "data");
/** Where the data came from, for messages: "checkout" or "package". */
export const DATA_SOURCE = inCheckout() ? "checkout" : "package";
export const SPEC_DIR = process.env.SEQ_IO_SPEC_DIR || path.join(DATA_ROOT, "spec");
export const SCHEMA_DIR = path.join(SPEC_DIR, "schemas");
export const CONFORMANCE_DIR = path.join(DATA_ROOT, "conformance");
export const VECTORS_JSON = path.join(CONFORMANCE_DIR, "vectors.json");
export const PROTOCOL_DIR = path.join(CONFORMANCE_DIR, "protocol");

/** null when the data this package reads is there, else one sentence saying what is missing and what to do. */
export function dataProblem() {
  const needed = [path.join(SPEC_DIR, "contract.json"), SCHEMA_DIR, path.join(SPEC_DIR, "identifier-characters.json")];
  const missing = needed.filter((p) => !fs.existsSync(p));
  if (missing.length === 0) return null;
  const override = process.env.SEQ_IO_SPEC_DIR;
  const where = override ? `SEQ_IO_SPEC_DIR=${override}` : `the ${DATA_SOURCE}'s data`;
  const fix = override ? "unset it or name a spec folder"
    : DATA_SOURCE === "package" ? "reinstall the package (npm pack copies the data in)" : "restore the checkout's spec/";
  return `the spec cannot be read: ${where} lacks ${missing.join(", ")}; ${fix}`;
}

/** The contract version of the spec in force (it lives only in spec/contract.json). */
export function contractVersion() {
  return JSON.parse(fs.readFileSync(path.join(SPEC_DIR, "contract.json"), "utf8")).contract_version;
}

/** This package's name and version, from its package.json. */
export const PACKAGE = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8"));
