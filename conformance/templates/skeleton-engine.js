#!/usr/bin/env node
// A skeleton engine in JavaScript speaking the JSON Lines protocol (docs/protocol.md).
// It claims the rulesets in RULESETS and answers every game with "skipped", so a first
// certification runs end to end and reports every case as skipped with the reason.
// Replace the bodies of start/act/observe with calls into your engine.
//
//   conformance init --lang node my-engine/     (writes this file as my-engine/engine.js)
//   conformance certify --engine 'cmd:node engine.js' --allow-no-verdict --out out/
"use strict";
const readline = require("readline");

const RULESETS = ["vision"];   // the rulesets you claim (`conformance init --ruleset` sets it)
// the vocabulary version you speak, per claimed ruleset (docs/protocol.md): `init` writes
// the latest; keep it when the catalogue moves on, until you map the newer words
const VOCABULARY = {"vision": 2};

function reply(message) {
  process.stdout.write(JSON.stringify(message) + "\n");  // one line per reply, then flush
}
// stdout is the protocol: anything you want to print goes to stderr
console.log = console.error;

const handlers = {
  hello: () => ({ok: {name: "skeleton-js", version: "0.0.1", rulesets: RULESETS,
                      vocabulary: VOCABULARY, capabilities: {}, protocol: 1}}),
  start: (req) => ({skipped: {reason: `setups of ${req.ruleset} are not mapped yet`}}),
  act: () => ({skipped: {reason: "actions are not mapped yet"}}),
  observe: () => ({skipped: {reason: "observations are not mapped yet"}}),
  stop: () => ({ok: {}}),
};

const lines = readline.createInterface({input: process.stdin});
lines.on("line", (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch (err) {
    reply({seq: null, error: {message: `not JSON: ${err.message}`}});
    return;
  }
  const handler = handlers[request.cmd];
  if (!handler) {
    reply({seq: request.seq, error: {message: `unknown command ${request.cmd}`}});
    return;
  }
  reply({seq: request.seq, ...handler(request)});
  if (request.cmd === "stop") process.exit(0);
});
