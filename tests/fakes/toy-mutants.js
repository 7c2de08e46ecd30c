#!/usr/bin/env node
// The toy ruleset (tests/support/toy.py) over JSON Lines, in another language, with two
// mutants of its own: mutation analysis must score these, whatever engine it runs.
//   node toy-mutants.js [--no-echo]   (--no-echo: never says which mutant it is)
"use strict";
const readline = require("readline");

const MUTANTS = [
  {name: "adds-one-more", ruleset: "toy", rules: ["toy/R-1"], description: "adds K + 1"},
  {name: "accepts-negatives", ruleset: "toy", rules: ["toy/R-2"],
   description: "accepts a negative add"},
];
const echo = !process.argv.includes("--no-echo");
let mutant = null;
let count = 0;

function answer(request) {
  switch (request.cmd) {
    case "hello": {
      if (request.mutant) mutant = request.mutant;
      const capabilities = {mutants: MUTANTS};
      if (mutant && echo) capabilities.mutant = mutant;
      return {name: "toy-js", version: "1", rulesets: ["toy"], capabilities, protocol: 1};
    }
    case "start":
      count = request.setup.start;
      return null;
    case "act": {
      const k = request.action.add;
      if (k < 0 && mutant !== "accepts-negatives") return {accepted: false, reason: "negative"};
      count += mutant === "adds-one-more" ? k + 1 : k;
      return {accepted: true, events: [{type: "added", amount: k}]};
    }
    case "observe":
      return {cards: {}, players: {p1: {count}}};
    default:
      return null;
  }
}

const lines = readline.createInterface({input: process.stdin});
lines.on("line", (line) => {
  const request = JSON.parse(line);
  process.stdout.write(JSON.stringify({seq: request.seq, ok: answer(request)}) + "\n");
  if (request.cmd === "stop") process.exit(0);
});
