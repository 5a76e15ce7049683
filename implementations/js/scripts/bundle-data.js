#!/usr/bin/env node
// npm pack's prepack/postpack step: the checkout's spec and conformance data → data/ inside this package, and away
// again after packing (`--clean`).
//
// WHY a copy at pack time: the schemas and vectors live once, in spec/ and conformance/ of the repository, and npm
// packs only files inside the package folder. Whole folders are copied (spec/ without the release snapshots, and
// conformance/ without the YAML vectors, which conformance/vectors.json carries as one JSON file, nor their index,
// which only the Python runner reads beside them),
// so a file added there later ships without touching this script, plus the generated TypeScript types. data/ is
// ignored by git and removed after packing, and src/data.js prefers the checkout's own files whenever the package
// sits in a checkout, so a copy left behind can never shadow the spec being edited.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CHECKOUT = path.resolve(PACKAGE_ROOT, "../..");
const DATA = path.join(PACKAGE_ROOT, "data");

/** @type {Array<[string, string, Set<string>]>} from (in the checkout), to (under data/), names left out */
const COPIES = [
  ["spec", "spec", new Set(["releases"])],
  ["conformance", "conformance", new Set(["vectors", "vectors-index.json"])],
  ["generated/ts", "types", new Set()],
];

function copy(from, to, leftOut) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (leftOut.has(entry.name)) continue;
    fs.cpSync(path.join(from, entry.name), path.join(to, entry.name), { recursive: true });
  }
}

function main(argv) {
  fs.rmSync(DATA, { recursive: true, force: true });
  if (argv.includes("--clean")) return 0;
  if (!fs.existsSync(path.join(CHECKOUT, "spec", "contract.json"))) {
    console.error(`bundle-data: ${CHECKOUT} is not the repository checkout (no spec/contract.json): pack from there`);
    return 2;
  }
  for (const [from, to, leftOut] of COPIES) copy(path.join(CHECKOUT, from), path.join(DATA, to), leftOut);
  const files = fs.readdirSync(DATA, { recursive: true }).length;
  console.error(`bundle-data: copied spec/, conformance/ and generated/ts/ into data/ (${files} entries)`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
