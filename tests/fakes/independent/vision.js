#!/usr/bin/env node
// An independent Vision engine over JSON Lines (docs/protocol.md), written from
// docs/rulesets/vision.md, vocabulary.json and the seed only, never from reference_engine/:
// mutation analysis and the catalogue are tested on an engine that is not the reference.
// It lists mutants of its own (MUTANTS), each one plausible bug breaking one seed rule.
//   node vision.js       (cmd:node tests/fakes/independent/vision.js)
"use strict";
const readline = require("readline");
// Each mutant is one plausible bug breaking one seed rule (cases/vision/rules.yaml).
const M = (name, rules, description) => ({name, ruleset: "vision", rules: rules.map((r) => `vision/${r}`), description});
const MUTANTS = [
  M("parts-applied-tail-first", ["IR-12/p1"], "applies the parts of an effect from its end"),
  M("first-part-only", ["IR-12/p1"], "takes the first instruction for the whole effect"),
  M("failed-part-continues", ["IR-12/p2"], "goes on with the parts after one that failed"),
  M("immune-part-not-a-failure", ["IR-12/p2"], "a part on an immune card is skipped as if applied"),
  M("all-fails-on-some", ["IR-12/p3"], "an \"all\" part that cannot affect one card fails"),
  M("all-stops-at-immune", ["IR-12/p3"], "an \"all\" part stops at the first card it cannot affect"),
  M("all-with-no-match-fails", ["IR-12/p4"], "an \"all\" part matching no card fails"),
  M("play-all-with-no-match-refused", ["IR-12/p4"], "refuses to play a card whose \"all\" matches nothing"),
  M("name-ref-needs-exact", ["IR-12.3.1"], "a name refers to A only when it is A"),
  M("name-ref-by-first-word", ["IR-12.3.1", "ex-12.3.1"], "a name refers to A when it contains A's first word"),
  M("same-name-by-containment", ["IR-12.3.2"], "two names are the same when one contains the other"),
  M("same-name-ignores-spaces", ["IR-12.3.2"], "compares names with their spaces removed"),
  M("disguise-drops-link-names", ["QA-2014-11-27"], "変装 also removes the 連結 names"),
  M("disguise-keeps-printed-name", ["QA-2014-11-27"], "変装 adds the new name beside the printed one"),
  M("x-includes-cost-modifier", ["QA-269"], "X is the nodes paid minus the cost modifier"),
  M("cost-modifier-ignored", ["QA-269"], "asks the printed cost, ignoring cost modifiers"),
  M("variable-overrides-change", ["QA-356"], "counts a power variable after the modifiers, over a change"),
  M("add-before-change", ["IR-6.1.10.a"], "applies additions before changes"),
  M("swap-before-change", ["IR-6.1.10.b"], "applies swaps before changes"),
  M("add-before-swap", ["IR-6.1.10.c"], "applies additions before swaps"),
  M("always-before-add", ["IR-6.1.10.d"], "applies \"always\" modifiers before additions"),
  M("first-change-wins", ["QA-298"], "of several changes, the first applied shows"),
  M("second-swap-ignored", ["IR-6.1.10.b"], "a character swaps its power once, however many swaps it has"),
  M("adds-do-not-stack", ["IR-6.1.10.c"], "only the first addition counts"),
  M("printed-durability-for-damage", ["IR-6.1.10"], "9.2.2.a compares damage with the printed durability"),
  M("modifier-outlives-its-source", ["IR-6.1.10"], "a continuous modifier stays when its card leaves the field"),
  M("battle-damage-not-battle", ["QA-363"], "records battle damage as effect damage"),
  M("instant-death-is-by-battle", ["QA-363"], "a deathblow by an effect set off in battle counts as by battle"),
  M("only-active-player-checked", ["IR-9.2.2"], "checks 9.2.2 only for the active player's (p1's) characters"),
  M("damage-must-exceed-durability", ["IR-9.2.2.a"], "9.2.2.a needs more damage than the durability"),
  M("damage-not-accumulated", ["IR-9.2.2.a"], "9.2.2.a looks only at the damage dealt since the last check"),
  M("durability-zero-survives", ["IR-9.2.2.b"], "9.2.2.b needs a durability below 0"),
  M("immunity-beats-durability-rule", ["IR-9.2.2.b"], "\"not put into 決死状態\" also stops 9.2.2.b"),
  M("deathblow-instruction-ignored", ["IR-9.2.2.c"], "a deathblow instruction succeeds and does nothing"),
  M("deathblow-immunity-ignored", ["IR-9.2.2.c"], "puts into 決死状態 a card immune to it"),
  M("cause-is-first-damage", ["IR-1.10.12.f"], "the cause is the source of the first damage on the card"),
  M("durability-cut-is-an-effect", ["QA-2013-11-13"], "counts a continuous durability cut as the effect that put it into 決死状態"),
  M("negated-text-keeps-continuous", ["IR-2.12.3"], "a negated text's continuous clauses still apply"),
  M("negated-text-keeps-auto", ["IR-2.12.3"], "a negated text's auto clauses still trigger"),
  M("triggered-effect-survives-negation", ["IR-2.12.3"], "resolves an effect set off before its text was negated"),
  M("negation-ignores-brackets", ["IR-12.4", "IR-12.4/p1"], "a plain negation also negates 【】 clauses"),
  M("total-negation-spares-brackets", ["IR-12.4"], "a negation including 【】 still spares them"),
  M("gained-brackets-negatable", ["IR-12.4/supplement"], "a gained 【】 clause loses its brackets"),
  M("bracketed-effect-not-negatable", ["IR-12.4/p2", "QA-102"], "an effect from a 【】 clause cannot be negated"),
  M("negate-auto-ignores-brackets", ["QA-020"], "negating auto effects also stops 【】 auto clauses"),
  M("negate-auto-hits-continuous", ["QA-020"], "negating auto effects also stops continuous clauses"),
  M("partial-view-shuffles", ["IR-3.2.5.a"], "shuffles after revealing part of the deck"),
  M("counted-whole-deck-shuffles", ["IR-3.2.5.b"], "shuffles after a counted reveal that reached the whole deck"),
  M("until-to-end-no-shuffle", ["IR-3.2.5.b"], "no shuffle after an until-reveal that reached the whole deck"),
  M("whole-deck-view-never-shuffled", ["IR-3.2.5"], "never shuffles after a whole-deck reveal"),
  M("shuffle-only-at-end", ["IR-3.2.5"], "never shuffles before another effect's deck operation"),
];

let mutant = null;
const bug = (name) => mutant === name;

// ---------------------------------------------------------------- the game state

let G = null;  // {cards, players, seq (arrival order), events, pending (auto jobs), shuffles}

const other = (p) => (p === "p1" ? "p2" : "p1");
const who = (w, controller) => (w === "opponent" ? other(controller) : controller);

function makeCard(spec, owner, zone) {
  const type = spec.type || "character";
  const power = spec.power !== undefined ? spec.power.split("/") : type === "character" ? null : ["0", "0"];
  const card = {
    id: spec.id, owner, zone, printed: spec.name || "", type, power, x: spec.x,
    cost: spec.cost === undefined ? 0 : spec.cost, link: spec.link_names || [],
    immune: spec.immune || [], texts: spec.texts || [], xPaid: 0,
  };
  freshen(card);
  card.damage = spec.damage || 0;
  return card;
}

// A card entering the field is a fresh card (vision/reading/fresh-card-on-entering-field).
function freshen(card) {
  Object.assign(card, {
    name: card.printed, damage: 0, modifiers: [], gained: [], negatedText: null, negatedAuto: null,
    deathblow: false, cause: null, byBattle: false, fresh: null, firstDamage: null,
    pendingC: null, dying: false, arrival: 0,
  });
}

function start(setup) {
  G = {cards: {}, players: {}, seq: 0, events: [], pending: [], shuffles: [], effects: 0};
  for (const p of ["p1", "p2"]) {
    const s = setup[p] || {};
    const pl = {nodes: s.nodes || 0, deck: [], hand: [], field: [], graveyard: []};
    G.players[p] = pl;
    for (const zone of ["deck", "hand", "field", "graveyard"]) {
      for (const spec of s[zone] || []) {
        const card = makeCard(spec, p, zone);
        G.cards[card.id] = card;
        pl[zone].push(card.id);
        if (zone === "field") card.arrival = ++G.seq;
      }
    }
  }
}

// Cards arriving in a list go to its end; "limbo" is a played command while it resolves.
function moveTo(card, zone) {
  const pl = G.players[card.owner];
  if (pl[card.zone]) {
    const i = pl[card.zone].indexOf(card.id);
    if (i >= 0) pl[card.zone].splice(i, 1);
  }
  card.zone = zone;
  if (zone !== "limbo") pl[zone].push(card.id);
}

const fieldCards = () => [...G.players.p1.field, ...G.players.p2.field].map((id) => G.cards[id]);
const onField = (id) => (G.cards[id] && G.cards[id].zone === "field" ? G.cards[id] : null);

function names(card) {
  const all = card.name !== "" ? [card.name] : [];
  if (bug("disguise-keeps-printed-name") && card.printed !== card.name && card.printed) all.push(card.printed);
  for (const n of card.link) if (!all.includes(n)) all.push(n);
  return all;
}

// ---------------------------------------------------------------- clauses and negation

// Every clause a card has now: {clause, gained}: its printed text, clauses it gained by a
// play, and clauses a continuous clause of a card on the field gives it.
function clausesOf(card, depth = 0) {
  const list = card.texts.map((clause) => ({clause, gained: false}));
  for (const clause of card.gained) list.push({clause, gained: true});
  if (card.zone !== "field" || depth > 2) return list;
  for (const giver of fieldCards()) {
    for (const {clause, gained} of clausesOf(giver, depth + 1)) {
      if (clause.kind !== "continuous" || !clause.gain || !active(giver, clause, gained)) continue;
      const ctx = {source: giver.id, controller: giver.owner, targets: []};
      if (!select(clause.applies_to || "this", ctx).ids.includes(card.id)) continue;
      for (const g of clause.gain) list.push({clause: g, gained: true});
    }
  }
  return list;
}

// Whether a clause of `card` works now: 2.12.3 and 12.4 (a 【】 clause survives a plain
// negation of the text, 12.4/p1; a gained 【】 clause too, the supplement), QA-020 (negating
// auto effects spares 【】 auto clauses and every continuous clause).
function active(card, clause, gained) {
  const brackets = clause.unnegatable === true && !(bug("gained-brackets-negatable") && gained);
  const text = card.negatedText;
  if (text) {
    const all = text.all && !bug("total-negation-spares-brackets");
    const spared = (bug("negated-text-keeps-continuous") && clause.kind === "continuous")
      || (bug("negated-text-keeps-auto") && clause.kind === "auto");
    if ((all || !brackets || bug("negation-ignores-brackets")) && !spared) return false;
  }
  const auto = card.negatedAuto;
  if (auto && (clause.kind === "auto" || bug("negate-auto-hits-continuous"))) {
    if (auto.all || !brackets || bug("negate-auto-ignores-brackets")) return false;
  }
  return true;
}

// The clauses of the cards on the field that work now: [{holder, clause, gained}].
function workingClauses(kind) {
  const out = [];
  for (const holder of fieldCards()) {
    for (const {clause, gained} of clausesOf(holder)) {
      if (clause.kind === kind && active(holder, clause, gained)) out.push({holder, clause, gained});
    }
  }
  return out;
}

// ---------------------------------------------------------------- combat power (6.1.10)

// X as `spec` says: an integer, {count: ZONE, player}, `cost`, or (none) the X paid.
function countX(spec, card, controller, xPaid) {
  if (spec === undefined || spec === null) return xPaid || 0;
  if (typeof spec === "number") return spec;
  if (spec === "cost") return typeof card.cost === "number" ? card.cost : card.xPaid;
  return G.players[who(spec.player, controller)][spec.count].length;
}

function modifiersOn(card) {
  const mods = [...card.modifiers];
  if (card.zone !== "field") return mods;
  const givers = workingClauses("continuous");
  if (bug("modifier-outlives-its-source")) {
    for (const id of [...G.players.p1.graveyard, ...G.players.p2.graveyard]) {
      const holder = G.cards[id];
      for (const clause of holder.texts) if (clause.kind === "continuous") givers.push({holder, clause});
    }
  }
  for (const {holder, clause} of givers) {
    const m = clause.modifier;
    if (!m || m.cost !== undefined) continue;
    const ctx = {source: holder.id, controller: holder.owner, targets: []};
    const ids = holder.zone === "field" ? select(clause.applies_to || "this", ctx).ids : [card.id];
    if (!ids.includes(card.id)) continue;
    mods.push({...m, controller: holder.owner, xPaid: holder.xPaid, arrival: holder.arrival});
  }
  return mods.sort((a, b) => a.arrival - b.arrival);
}

const ORDER = {
  normal: ["change", "swap", "add", "always"],
  "add-before-change": ["add", "change", "swap", "always"],
  "swap-before-change": ["swap", "change", "add", "always"],
  "add-before-swap": ["change", "add", "swap", "always"],
  "always-before-add": ["change", "swap", "always", "add"],
};

// Attack and durability after 6.1.10: the variable is fixed first, then change, swap,
// addition, "always", each kind in arrival order. null: a card with no power.
function power(card) {
  if (card.power === null) return null;
  if (card.type !== "character") return {attack: 0, durability: 0};
  const base = card.power.map((v) => (v === "X" ? countX(card.x, card, card.owner, card.xPaid) : Number(v)));
  let [attack, durability] = base;
  const mods = modifiersOn(card);
  for (const kind of ORDER[mutant] || ORDER.normal) {
    let list = mods.filter((m) => m.kind === kind);
    if (bug("first-change-wins") && kind === "change") list = list.reverse();
    list.forEach((m, i) => {
      const val = (v) => (v === "X" ? countX(m.x, card, m.controller, m.xPaid) : v);
      const a = m.attack === undefined ? undefined : val(m.attack);
      const d = m.durability === undefined ? undefined : val(m.durability);
      if (kind === "swap") {
        if (!(bug("second-swap-ignored") && i > 0)) [attack, durability] = [durability, attack];
      } else if (kind === "add") {
        if (bug("adds-do-not-stack") && i > 0) return;
        attack += a || 0;
        durability += d || 0;
      } else {
        if (a !== undefined) attack = a;
        if (d !== undefined) durability = d;
      }
    });
  }
  if (bug("variable-overrides-change")) {
    if (card.power[0] === "X") attack = base[0];
    if (card.power[1] === "X") durability = base[1];
  }
  return {attack, durability, printed: base[1]};
}

// ---------------------------------------------------------------- selectors and filters

function matches(card, filter, controller, zoneRequired = true) {
  const f = filter || {};
  if (zoneRequired ? card.zone !== (f.zone || "field") : f.zone && card.zone !== f.zone) return false;
  if (f.controller === "self" && card.owner !== controller) return false;
  if (f.controller === "opponent" && card.owner === controller) return false;
  if (f.type && card.type !== f.type) return false;
  if (f.not && card.id === f.not) return false;
  if (f.name_ref !== undefined && !names(card).some((n) => refersTo(n, f.name_ref))) return false;
  if (f.same_name_as !== undefined && !(G.cards[f.same_name_as] && sameName(card, G.cards[f.same_name_as]))) return false;
  if (f.durability_max !== undefined) {
    const pw = power(card);
    if (!pw || pw.durability > f.durability_max) return false;
  }
  return true;
}

// 12.3.1: a name refers to A when it contains A.
function refersTo(name, ref) {
  if (bug("name-ref-needs-exact")) return name === ref;
  if (bug("name-ref-by-first-word")) return name.includes(ref.split(/\s/)[0]);
  return name.includes(ref);
}

// 12.3.2: "the same name" is an exact match (vision/reading/same-name-any-name-exactly).
function sameName(a, b) {
  let eq = (x, y) => x === y;
  if (bug("same-name-by-containment")) eq = (x, y) => x.includes(y) || y.includes(x);
  if (bug("same-name-ignores-spaces")) eq = (x, y) => x.replace(/\s/g, "") === y.replace(/\s/g, "");
  return names(a).some((x) => names(b).some((y) => eq(x, y)));
}

// What a selector picks: {ids, all}; ids of cards off the field are kept so a part fails.
function select(sel, ctx) {
  if (sel === "chosen") return {ids: [...(ctx.targets || [])], all: false};
  if (sel === "this") return {ids: ctx.source ? [ctx.source] : [], all: false};
  if (sel.card !== undefined) return {ids: [sel.card], all: false};
  const f = sel.all || {};
  const zone = f.zone || "field";
  const ids = [...G.players.p1[zone], ...G.players.p2[zone]]
    .filter((id) => matches(G.cards[id], f, ctx.controller));
  return {ids, all: true};
}

// ---------------------------------------------------------------- damage and 9.2.2

const emit = (event) => G.events.push(event);

function dealDamage(card, amount, source, battle) {
  card.damage += amount;
  emit({type: "damage", card: card.id, amount, battle, source});
  if (amount > 0) {
    card.fresh = {source, battle, amount: (card.fresh && card.fresh.amount || 0) + amount};
    if (!card.firstDamage) card.firstDamage = {source};
  }
}

// Which condition of 9.2.2 a character meets now, with its cause: {kind, cause, battle} or null.
function condition(card) {
  const pw = power(card);
  if (card.pendingC) return {kind: "c", ...card.pendingC};
  if (!pw) return null;
  const immune = card.immune.includes("deathblow_state");
  if (bug("durability-zero-survives") ? pw.durability < 0 : pw.durability <= 0) {
    if (immune && bug("immunity-beats-durability-rule")) return null;
    return {kind: "b", cause: null, battle: false};  // 9.2.2.b takes precedence over effects
  }
  const durability = bug("printed-durability-for-damage") ? pw.printed : pw.durability;
  const damage = bug("damage-not-accumulated") ? (card.fresh ? card.fresh.amount : 0) : card.damage;
  const lethal = bug("damage-must-exceed-durability") ? damage > durability : damage >= durability;
  if (immune || damage <= 0 || !lethal) return null;
  // 1.10.12.f: the source of the damage that set the process off.
  if (!card.fresh) return {kind: "a", cause: null, battle: false};
  const cause = bug("cause-is-first-damage") ? card.firstDamage.source : card.fresh.source;
  return {kind: "a", cause, battle: card.fresh.battle};
}

// The 9.2.2 check, after every part and every action
// (vision/reading/deathblow-checked-after-each-instruction); context 9.2.3 orders it:
// would-be triggers, 決死状態, has-been triggers, then destruction.
function check() {
  for (let round = 0; round < 50; round++) {
    const dying = [];
    for (const card of fieldCards()) {
      if (bug("only-active-player-checked") && card.owner !== "p1") continue;
      const met = card.dying || card.type !== "character" ? null : condition(card);
      card.fresh = null;
      card.pendingC = null;
      if (met) dying.push({card, ...met});
    }
    if (dying.length === 0) return;
    for (const d of dying) d.card.dying = true;
    for (const d of dying) trigger("would_deathblow", d.card);
    const put = dying.filter((d) => d.card.zone === "field");
    for (const d of put) {
      Object.assign(d.card, {deathblow: true, cause: d.cause, byBattle: d.battle});
      emit({type: "deathblow", card: d.card.id, cause: d.cause, battle: d.battle});
    }
    for (const d of put) {
      if (d.battle) trigger("deathblow_by_battle", d.card);
      const byEffect = d.kind !== "b" && !d.battle && d.cause !== null;
      if (byEffect || (bug("durability-cut-is-an-effect") && d.kind === "b")) {
        trigger("deathblow_by_opponent_effect", d.card, d.kind === "b" ? lastCutBy(d.card) : d.cause);
      }
    }
    for (const d of put) {
      if (d.card.zone === "field" && d.card.deathblow) {
        moveTo(d.card, "graveyard");
        emit({type: "destroyed", card: d.card.id});
      }
    }
    for (const d of dying) d.card.dying = false;
  }
}

// For the mutant reading a durability cut as an effect: the card whose modifier made it.
function lastCutBy(card) {
  const cut = workingClauses("continuous").find(({clause}) => clause.modifier && clause.modifier.durability < 0);
  return cut ? cut.holder.id : null;
}

// ---------------------------------------------------------------- auto clauses

const AT_ONCE = ["would_deathblow", "deathblow_by_battle", "deathblow_by_opponent_effect"];

// Auto clauses set off by `event` about `card`: would/has-been ones resolve at once (inside
// the check), the others after the part or action that set them off and its check.
function trigger(event, card, cause) {
  for (const {holder, clause} of workingClauses("auto")) {
    if (!clause.when || clause.when.event !== event) continue;
    if (!matches(card, clause.when.filter, holder.owner, false)) continue;
    if (event === "deathblow_by_opponent_effect" && !(G.cards[cause] && G.cards[cause].owner !== holder.owner)) continue;
    const job = {holder, clause, chosen: [card.id]};
    if (AT_ONCE.includes(event)) runClause(job);
    else G.pending.push(job);
  }
}

function battleTrigger(source, target) {
  for (const {clause, gained} of clausesOf(source)) {
    if (clause.kind !== "auto" || !clause.when || clause.when.event !== "battle_damage_dealt") continue;
    if (!active(source, clause, gained) || !matches(target, clause.when.filter, source.owner, false)) continue;
    G.pending.push({holder: source, clause, chosen: [target.id], inBattle: true});
  }
}

function flush() {
  while (G.pending.length) {
    const job = G.pending.shift();
    // 2.12.3: an effect of a text negated since it was set off is not resolved.
    const stillWorks = clausesOf(job.holder).some(({clause, gained}) => clause === job.clause && active(job.holder, clause, gained));
    if (stillWorks || bug("triggered-effect-survives-negation")) runClause(job);
  }
}

function runClause(job) {
  resolveEffect({source: job.holder.id, controller: job.holder.owner, effect: job.clause.effect || [],
    targets: job.chosen, xPaid: job.holder.xPaid, trigger: job.trigger, inBattle: job.inBattle,
    bracketed: job.clause.unnegatable === true});
}

function afterStep() {
  check();
  flush();
}

// ---------------------------------------------------------------- 3.2.5 shuffles

function shuffleNow(entry) {
  G.shuffles.splice(G.shuffles.indexOf(entry), 1);
  emit({type: "shuffle", player: entry.player});
}

// Before a deck operation of one effect, the shuffle another effect owes that deck.
function beforeDeckOperation(ctx, player) {
  if (bug("shuffle-only-at-end")) return;
  for (const entry of [...G.shuffles]) {
    if (entry.player === player && entry.effect !== ctx.id) shuffleNow(entry);
  }
}

function owesShuffle(ctx, player) {
  if (G.players[player].deck.length === 0 || bug("whole-deck-view-never-shuffled")) return;
  if (!G.shuffles.some((e) => e.effect === ctx.id && e.player === player)) G.shuffles.push({effect: ctx.id, player});
}

// reveal/look: the whole deck, or until a match (no count named: 3.2.5.b shuffles when it
// reaches the whole deck), or a count (never shuffles, 3.2.5.a and 3.2.5.b's 但し).
function view(ctx, kind, spec) {
  const player = who(spec.player, ctx.controller);
  beforeDeckOperation(ctx, player);
  const deck = G.players[player].deck;
  let cards;
  let whole;
  if (spec.all) {
    cards = [...deck];
    whole = true;
  } else if (spec.until) {
    const i = deck.findIndex((id) => matches(G.cards[id], spec.until, ctx.controller, false));
    cards = i < 0 ? [...deck] : deck.slice(0, i + 1);
    whole = cards.length === deck.length && !bug("until-to-end-no-shuffle");
  } else {
    cards = deck.slice(0, spec.count === "X" ? ctx.xPaid : spec.count);
    whole = bug("counted-whole-deck-shuffles") && cards.length === deck.length;
  }
  if (bug("partial-view-shuffles")) whole = true;
  emit({type: kind, player, cards});
  if (whole) owesShuffle(ctx, player);
  return true;
}

// ---------------------------------------------------------------- instructions

// Apply `fn` to each card a selector picks. The part fails when it fails on the named card
// or on one of a chosen list (12/p2; it still reaches the others); never under "all"
// (12/p3, 12/p4).
function eachCard(sel, ctx, can, fn) {
  const picked = select(sel, ctx);
  let ok = picked.ids.length > 0;
  for (const id of picked.ids) {
    const card = onField(id);
    if (card && can(card)) {
      fn(card);
      continue;
    }
    ok = false;
    if (picked.all && bug("all-stops-at-immune")) break;
  }
  if (!picked.all) return ok;
  if (picked.ids.length === 0) return !bug("all-with-no-match-fails");
  return bug("all-fails-on-some") ? ok : true;
}

const immuneTo = (card, op) => card.immune.includes(op) && !bug("immune-part-not-a-failure");
const character = (card) => card.type === "character";

function apply(instr, ctx) {
  const [op] = Object.keys(instr);
  const arg = instr[op];
  const amountOf = (n) => (n === "X" ? ctx.xPaid : n);
  switch (op) {
    case "damage":
      return eachCard(arg.target, ctx, (c) => character(c) && !immuneTo(c, "damage"), (card) => {
        if (!card.immune.includes("damage")) dealDamage(card, amountOf(arg.amount), ctx.source, false);
      });
    case "destroy":
      return eachCard(arg.target, ctx, (c) => !immuneTo(c, "destroy"), (card) => {
        if (card.immune.includes("destroy")) return;
        moveTo(card, "graveyard");
        emit({type: "destroyed", card: card.id});
      });
    case "deathblow": {
      const can = (c) => character(c) && (bug("deathblow-immunity-ignored")
        || (!immuneTo(c, "deathblow") && !immuneTo(c, "deathblow_state")));
      return eachCard(arg.target, ctx, can, (card) => {
        if (bug("deathblow-instruction-ignored")) return;
        if (!bug("deathblow-immunity-ignored") && card.immune.some((i) => i === "deathblow" || i === "deathblow_state")) return;
        card.pendingC = {cause: ctx.source, battle: bug("instant-death-is-by-battle") && !!ctx.inBattle};
      });
    }
    case "return_to_hand":
      return eachCard(arg.target, ctx, (c) => !immuneTo(c, "return"), (card) => {
        if (card.immune.includes("return")) return;
        moveTo(card, "hand");
        emit({type: "returned", card: card.id});
      });
    case "draw": {
      const player = who(arg.player, ctx.controller);
      beforeDeckOperation(ctx, player);
      const n = amountOf(arg.count);
      if (G.players[player].deck.length < n) return false;
      for (let i = 0; i < n; i++) drawOne(player);
      return true;
    }
    case "discard": {
      const pl = G.players[who(arg.player, ctx.controller)];
      const n = amountOf(arg.count);
      if (pl.hand.length < n) return false;
      for (const id of pl.hand.slice(0, n)) moveTo(G.cards[id], "graveyard");
      return true;
    }
    case "reveal": case "look":
      return view(ctx, op, arg);
    case "shuffle": {
      const player = who(arg.player, ctx.controller);
      beforeDeckOperation(ctx, player);
      G.shuffles = G.shuffles.filter((e) => !(e.effect === ctx.id && e.player === player));
      emit({type: "shuffle", player});
      return true;
    }
    case "power":
      return eachCard(arg.target, ctx, () => true, (card) => {
        card.modifiers.push({kind: arg.kind, attack: arg.attack, durability: arg.durability, x: arg.x,
          controller: ctx.controller, xPaid: ctx.xPaid, arrival: ++G.seq});
      });
    case "change_name":
      return eachCard(arg.target, ctx, () => true, (card) => {
        card.name = arg.name;
        if (bug("disguise-drops-link-names")) card.link = [];
      });
    case "negate_text": case "negate_auto": {
      const key = op === "negate_text" ? "negatedText" : "negatedAuto";
      return eachCard(arg.target, ctx, () => true, (card) => {
        // a second, plainer negation takes nothing back
        card[key] = {all: arg.include_unnegatable === true || !!(card[key] && card[key].all)};
        emit({type: "negated", card: card.id, what: op === "negate_text" ? "text" : "auto"});
      });
    }
    case "negate_effect":
      if (!ctx.trigger || (bug("bracketed-effect-not-negatable") && ctx.trigger.bracketed)) return false;
      ctx.trigger.negated = true;
      return true;
    default:
      throw new Error(`engine: unknown instruction ${op}`);
  }
}

function drawOne(player) {
  const id = G.players[player].deck[0];
  moveTo(G.cards[id], "hand");
  emit({type: "draw", player, card: id});
}

// ---------------------------------------------------------------- resolving an effect

// What an effect targets (vision/reading/targeted-by-opponent-effect): the players whose
// deck, hand or 冥界 it operates on, and every card its selectors pick.
function targetsOf(ctx, gain) {
  const players = new Set();
  const cards = [];
  for (const instr of ctx.effect) {
    const arg = Object.values(instr)[0];
    if (arg.player !== undefined) players.add(who(arg.player, ctx.controller));
    if (arg.target !== undefined) cards.push(...select(arg.target, ctx).ids);
  }
  if (gain) cards.push(...select(gain.applies_to || "chosen", ctx).ids);
  return {players, cards: cards.filter((id) => G.cards[id])};
}

// No.445-style clauses of the other player, set off when an effect of a card targets them;
// they resolve first and may negate it.
function targetedBy(ctx, gain) {
  if (!G.cards[ctx.source]) return;
  const {players, cards} = targetsOf(ctx, gain);
  for (const {holder, clause} of workingClauses("auto")) {
    if (holder.owner === ctx.controller || !clause.when || clause.when.event !== "targeted") continue;
    const mine = cards.filter((id) => G.cards[id].owner === holder.owner
      && matches(G.cards[id], clause.when.filter, holder.owner, false));
    if (!players.has(holder.owner) && mine.length === 0) continue;
    runClause({holder, clause, chosen: mine, trigger: ctx});
    if (ctx.negated) return;
  }
}

// Resolve one effect: the whole text is one effect, applied from the head (12/p1),
// stopping at the first part that cannot be applied as instructed (12/p2).
function resolveEffect(ctx, gain = null) {
  ctx.id = ++G.effects;
  targetedBy(ctx, gain);
  if (ctx.negated) {
    emit({type: "negated", card: ctx.source, what: "effect"});
    return;
  }
  let parts = ctx.effect.map((instr) => () => apply(instr, ctx));
  if (gain) {  // a play clause's `gain` is its last part
    parts.push(() => eachCard(gain.applies_to || "chosen", ctx, () => true, (card) => card.gained.push(...gain.gain)));
  }
  if (bug("parts-applied-tail-first")) parts = parts.reverse();
  if (bug("first-part-only")) parts = parts.slice(0, 1);
  let completed = true;
  for (const part of parts) {
    const ok = part();
    afterStep();
    if (!ok) {
      completed = false;
      if (!bug("failed-part-continues")) break;
    }
  }
  for (const entry of G.shuffles.filter((e) => e.effect === ctx.id)) shuffleNow(entry);
  emit({type: "resolved", source: ctx.source || null, completed});
}

// ---------------------------------------------------------------- actions

function costModifier(player) {
  return workingClauses("continuous")
    .filter(({holder, clause}) => holder.owner === player && clause.modifier && clause.modifier.cost !== undefined)
    .reduce((total, {clause}) => total + clause.modifier.cost, 0);
}

const actsOnChosen = (clause) => (clause.effect || []).some((instr) => Object.values(instr)[0].target === "chosen")
  || (clause.gain !== undefined && (clause.applies_to || "chosen") === "chosen");

const actsOnNothing = (clause) => (clause.effect || []).some((instr) => {
  const target = Object.values(instr)[0].target;
  return target && target.all !== undefined && select(target, {controller: clause.by, targets: []}).ids.length === 0;
});

const refuse = (reason) => ({accepted: false, events: [], reason});

function enter(card) {
  moveTo(card, "field");
  const xPaid = card.xPaid;
  freshen(card);
  card.xPaid = xPaid;
  card.arrival = ++G.seq;
  trigger("enters_field", card);
}

function play(action) {
  const card = G.cards[action.play];
  if (!card) return refuse(`no card ${action.play}`);
  const by = action.by || card.owner;
  const pl = G.players[by];
  if (card.zone !== "hand" || card.owner !== by) return refuse(`${card.id} is not in ${by}'s hand`);
  const pay = action.pay_nodes;
  let x = 0;
  if (card.cost === "X") {
    // QA-269: X is what was actually paid from the nodes
    x = bug("x-includes-cost-modifier") ? pay - costModifier(by) : pay;
  } else {
    const due = bug("cost-modifier-ignored") ? card.cost : Math.max(0, card.cost + costModifier(by));
    if (pay !== due) return refuse(`the cost due is ${due}, not ${pay}`);
  }
  if (pay > pl.nodes) return refuse(`${by} has ${pl.nodes} nodes, not ${pay}`);
  const plays = card.type === "character" ? [] : card.texts.filter((c) => c.kind === "play");
  if (plays.some(actsOnChosen) && !(action.targets || []).length) return refuse("no target given for its chosen target");
  if (bug("play-all-with-no-match-refused") && plays.some((c) => actsOnNothing({...c, by}))) return refuse("nothing matches");
  pl.nodes -= pay;
  card.xPaid = x;
  if (card.type === "character") {
    enter(card);
    afterStep();
    return {accepted: true, events: G.events};
  }
  moveTo(card, "limbo");
  for (const clause of plays) {
    resolveEffect({source: card.id, controller: by, effect: clause.effect || [], targets: action.targets || [], xPaid: x},
      clause.gain ? clause : null);
  }
  moveTo(card, "graveyard");
  afterStep();
  return {accepted: true, events: G.events};
}

function battle(b) {
  const source = G.cards[b.source];
  const target = G.cards[b.target];
  if (!source || !target) throw new Error(`engine: no card ${source ? b.target : b.source}`);
  let amount = b.amount;
  if (amount === undefined) {
    const pw = power(source);
    amount = pw ? Math.max(0, pw.attack) : 0;  // the attack after 6.1.10
  }
  dealDamage(target, amount, source.id, !bug("battle-damage-not-battle"));
  battleTrigger(source, target);
  afterStep();
}

function act(action) {
  G.events = [];
  if (action.play !== undefined) return play(action);
  if (action.put_onto_field !== undefined) {
    const card = G.cards[action.put_onto_field];
    if (!card) return refuse(`no card ${action.put_onto_field}`);
    if (card.zone === "field") return refuse(`${card.id} is already on the field`);
    enter(card);
    afterStep();
  } else if (action.resolve !== undefined) {
    const r = action.resolve;
    const source = r.source ? G.cards[r.source] : null;
    resolveEffect({source: r.source || null, controller: r.by, effect: r.effect, targets: r.targets || [],
      xPaid: source ? source.xPaid : 0});
    afterStep();
  } else if (action.battle_damage !== undefined) {
    battle(action.battle_damage);
  } else if (action.draw !== undefined) {
    const {player, count} = action.draw;
    if (G.players[player].deck.length < count) return refuse(`${player}'s deck holds fewer than ${count} cards`);
    for (let i = 0; i < count; i++) drawOne(player);
  } else {
    throw new Error(`engine: unknown action ${JSON.stringify(action)}`);
  }
  return {accepted: true, events: G.events};
}

function observe() {
  const cards = {};
  for (const card of Object.values(G.cards)) {
    const pw = power(card);
    cards[card.id] = {
      zone: card.zone, owner: card.owner, names: names(card),
      attack: pw ? pw.attack : null, durability: pw ? pw.durability : null,
      damage: card.damage, deathblow: card.deathblow, deathblow_cause: card.cause,
      deathblow_by_battle: card.byBattle, negated: card.negatedText !== null,
    };
  }
  const players = {};
  for (const [p, pl] of Object.entries(G.players)) {
    players[p] = {nodes: pl.nodes, hand: [...pl.hand], field: [...pl.field],
      graveyard: [...pl.graveyard], deck_size: pl.deck.length};
  }
  return {cards, players};
}

// ---------------------------------------------------------------- the protocol

function hello(request) {
  if (request.mutant) {
    if (!MUTANTS.some((m) => m.name === request.mutant)) throw new Error(`engine: no mutant ${request.mutant}`);
    mutant = request.mutant;
  }
  const capabilities = {mutants: MUTANTS, play: true, observe_in_act: true};
  if (mutant) capabilities.mutant = mutant;
  return {name: "independent-vision-js", version: "1.0.0", rulesets: ["vision"],
    vocabulary: {vision: 2}, capabilities, protocol: 1};
}

const withState = (reply, wanted) => (wanted ? {...reply, state: observe()} : reply);

function answer(request) {
  switch (request.cmd) {
    case "hello": return hello(request);
    case "start": start(request.setup); return null;
    case "act": return withState(act(request.action), request.observe);
    case "observe": return observe();
    case "play":
      start(request.setup);
      return {replies: request.steps.map((step) => withState(act(step.action), step.observe))};
    default: return null;
  }
}

console.log = console.error;  // stdout is the protocol
const lines = readline.createInterface({input: process.stdin});
lines.on("line", (line) => {
  let request;
  let reply;
  try {
    request = JSON.parse(line);
    reply = {seq: request.seq, ok: answer(request)};
  } catch (err) {
    console.error(err.stack);
    reply = {seq: request ? request.seq : null, error: {message: String(err.message), traceback: String(err.stack)}};
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
  if (request && request.cmd === "stop") process.exit(0);
});
