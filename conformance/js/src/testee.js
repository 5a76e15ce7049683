#!/usr/bin/env node
// A testee of conformance/protocol.md (version 1): JSON Lines on stdin/stdout.
//
//   node conformance/js/src/testee.js
//
// Kinds: validation, schedule, envelope, rows_of, stream. Logging goes to stderr only.

import readline from "node:readline";
import fs from "node:fs";
import path from "node:path";
import { parseWire, isObject, toJsonLine } from "./json.js";
import { SPEC_DIR } from "./validation.js";
import { answer, KINDS } from "./dispatch.js";

const PROTOCOL = 1;
const CONTRACT_VERSION = JSON.parse(fs.readFileSync(path.join(SPEC_DIR, "contract.json"), "utf8")).contract_version;
const PKG = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));

function send(msg) {
  process.stdout.write(toJsonLine(msg) + "\n");
}

function main() {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  let greeted = false;
  rl.on("line", (line) => {
    if (line.trim() === "") return;
    const parsed = parseWire(line, { lenient: true });
    if (!parsed.ok || !isObject(parsed.value)) {
      console.error(`not a protocol message: ${line.slice(0, 200)}`);
      return;
    }
    const msg = parsed.value;
    if (msg.type === "hello") {
      if (msg.protocol !== PROTOCOL) console.error(`runner speaks protocol ${msg.protocol}, this testee ${PROTOCOL}`);
      if (msg.contract_version !== undefined && msg.contract_version !== CONTRACT_VERSION) {
        console.error(`runner has contract ${msg.contract_version}, this testee ${CONTRACT_VERSION}`);
      }
      greeted = true;
      send({
        type: "hello",
        protocol: PROTOCOL,
        implementation: { name: PKG.name, version: PKG.version },
        contract_version: CONTRACT_VERSION,
        kinds: KINDS,
      });
      return;
    }
    if (msg.type === "case") {
      if (!greeted) console.error("a case before the hello");
      const a = answer(msg.kind, msg.input);
      send({ type: a.type, id: msg.id, ...a });
      return;
    }
    console.error(`unknown message type ${JSON.stringify(msg.type)}`);
  });
  rl.on("close", () => process.exit(0));
}

main();
