#!/usr/bin/env node
// A testee of conformance/protocol.md (version 1): JSON Lines on stdin/stdout.
//
//   node implementations/js/src/testee.js          (in the checkout)
//   seq-io-testee [--version]                   (the npm package's bin)
//
// Kinds: validation, schedule, envelope, rows_of, stream, uploader (src/dispatch.js answers each case). Logging goes
// to stderr only. The spec is read when the implementation is imported, so the data is checked first: missing data
// is one line on stderr and exit 2.

import readline from "node:readline";
import { contractVersion, dataProblem, PACKAGE as PKG } from "./data.js";

const PROTOCOL = 1;
const problem = dataProblem();
if (problem !== null) {
  console.error(`seq-io-testee: ${problem}`);
  process.exit(2);
}
const CONTRACT_VERSION = contractVersion();
if (process.argv.includes("--version")) {
  console.log(`${PKG.name} ${PKG.version}, contract ${CONTRACT_VERSION}`);
  process.exit(0);
}
const { parseWire, isObject, toJsonLine } = await import("./json.js");
const { answer, KINDS } = await import("./dispatch.js");

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
      /** @type {import("./types.js").TesteeHello} */
      const hello = {
        type: "hello",
        protocol: PROTOCOL,
        implementation: { name: PKG.name, version: PKG.version },
        contract_version: CONTRACT_VERSION,
        kinds: KINDS,
      };
      send(hello);
      return;
    }
    if (msg.type === "case") {
      if (!greeted) console.error("a case before the hello");
      const a = answer(msg.kind, msg.input);
      const { type, ...rest } = a;
      send({ type, id: msg.id, ...rest });
      return;
    }
    console.error(`unknown message type ${JSON.stringify(msg.type)}`);
  });
  rl.on("close", () => process.exit(0));
}

main();
