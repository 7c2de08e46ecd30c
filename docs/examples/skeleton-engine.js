#!/usr/bin/env node
// A skeleton engine in JavaScript speaking the JSON Lines protocol (docs/protocol.md).
// It claims the "vision" ruleset and answers every game with "skipped", so a first
// certification runs end to end and reports every case as skipped with the reason.
// Replace the bodies of start/act/observe with calls into your engine.
//
//   conformance certify --engine 'cmd:node docs/examples/skeleton-engine.js' --out out/
"use strict";
const readline = require("readline");

function reply(message) {
  process.stdout.write(JSON.stringify(message) + "\n");  // one line per reply, then flush
}

const handlers = {
  hello: () => ({ok: {name: "skeleton-js", version: "0.0.1", rulesets: ["vision"],
                      capabilities: {}, protocol: 1}}),
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
