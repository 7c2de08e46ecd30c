"""The Zatch rule invariants, each tagged with the rule ids it checks.

Every expectation comes from the seed through `expected` (arithmetic on
earlier observations of the same run) or from a metamorphic relation; no
property asks another engine for the answer.
"""

from __future__ import annotations

from typing import Any

from conformance.ruleset import Play, Trace, Violation, invariant
from conformance.rulesets.zatch import expected as ex
from conformance.rulesets.zatch import strategies as gen
from conformance.rulesets.zatch._checks import (
    _by,
    accepted,
    by_reading,
    can_negate,
    effect_of,
    note,
    outcomes,
    prelude,
    same,
    short,
    unchanged,
)
from conformance.rulesets.zatch.metamorphic import renaming

P, Z = "zatch/prop/", "zatch/"
READING = Z + "reading/"
State = dict[str, Any]


# -- jammer •2 (and use-most •1, •2, stay •2, standby •2) ------------------------------------

def negation_exercised(scenario: gen.Scenario, trace: Trace) -> set[str]:
    """Every example uses an effect that resolves at once (use-most •1; a non-battle spell,
    nonbattle •4).  A jammer the engine accepted right after it, able to negate it, exercises
    the negation (jammer •2, use-most •2; usable-anyway •2 for an effect usable anyway); a
    jammer answering a spell, or a spell-only jammer, nonbattle •6; one used later, the
    reading that a jammer is the very next action.  A 【ステイ】 or 【スタンバイ】 effect exercises
    stay •2 / standby •2 either way (negatable right after, not later); a stay until the end
    of a battle, used outside one, its reading."""
    steps = scenario["steps"]
    u, jam = gen.effect_step(scenario), len(steps) - 1
    effect, jammer = effect_of(scenario, "e"), effect_of(scenario, "j")
    found = {Z + "use-most.1"}
    if effect.get("kind") == "non_battle_spell":
        found.add(Z + "nonbattle.4")
    if effect.get("kind") == "non_battle_spell" or jammer.get("negates") == "non_battle_spells":
        found.add(Z + "nonbattle.6")
    if jam != u + 1:
        found.add(READING + "jammer-right-after")
    elif can_negate(jammer, effect) and trace.replies[jam]["accepted"]:
        found |= {Z + "jammer.2", Z + "use-most.2"}
        if "usable_anyway" in effect:
            found.add(Z + "usable-anyway.2")
    if "stay" in effect:
        found.add(Z + "stay.2")
        if effect["stay"]["until"] == "end_of_battle":
            found.add(READING + "end-of-battle-stay-outside-battle")
    if "standby" in effect:
        found.add(Z + "standby.2")
    return found


@invariant(P + "negation-restores-keeps-costs",
           rules=[Z + "jammer.2", Z + "use-most.1", Z + "use-most.2", Z + "stay.2",
                  Z + "standby.2", Z + "usable-anyway.2", Z + "nonbattle.4", Z + "nonbattle.6",
                  Z + "reading/jammer-right-after",
                  Z + "reading/end-of-battle-stay-outside-battle"],
           scenarios=gen.negation_scenarios(),
           exercises=negation_exercised)
def negation_restores(play: Play, scenario: gen.Scenario) -> None:
    """An effect resolves at once; jammed right after by a jammer that may negate it, the
    state is the state before it resolved with its costs still paid and it counted as
    used; jammed later, or by the wrong kind of jammer, nothing."""
    note(scenario)
    trace = play.run(scenario)
    steps = scenario["steps"]
    u = gen.effect_step(scenario)
    user, jam = steps[u]["do"]["by"], len(steps) - 1
    effect, jammer = effect_of(scenario, "e"), effect_of(scenario, "j")
    legal = jam == u + 1 and can_negate(jammer, effect)
    with outcomes([] if legal else [jam]):
        for i in range(u + 1):
            accepted(trace, scenario, i)
        before = prelude(scenario, u)
        paid = ex.used_once_more(ex.pay(before, "e", user, effect), "e")
        same(trace.states[u], ex.resolve(paid, "e", user, effect), u,
             "the effect did not resolve at once (use-most •1)", seed=True,
             unplaced=by_reading(scenario, u))
        if not legal:
            accepted(trace, scenario, jam, want=False)
            unchanged(trace, scenario, jam)
            return
        accepted(trace, scenario, jam)
        want = ex.used_once_more(ex.pay(paid, "j", ex.opponent(user), jammer), "j")
        want = ex.used_once_more(want, "e", negated=True)
        want["cards"]["e"]["used"] -= 1   # counted once, when it was used
        same(trace.states[jam], want, jam,
             "a negated effect must leave the state as before it resolved, costs paid, used",
             seed=True, unplaced=by_reading(scenario, jam))


# -- jammer •5: chains of any depth ----------------------------------------------------------

def check_chain(play: Play, scenario: gen.Scenario) -> None:
    """After each jammer of the chain, the state is the effect's (if it stands) or the
    state before it, with every cost paid; who is negated alternates from the last."""
    trace = play.run(scenario)
    for i in range(len(scenario["steps"])):
        accepted(trace, scenario, i)
    u = gen.effect_step(scenario)
    user = scenario["steps"][u]["do"]["by"]
    effect = effect_of(scenario, "e")
    depth = len(scenario["steps"]) - u - 1
    before = prelude(scenario, u)
    for k in range(1, depth + 1):
        if k % 2 == 0:
            want = ex.use(before, "e", user, effect)
        else:
            want = ex.used_once_more(ex.pay(before, "e", user, effect), "e")
        by = user
        for i in range(1, k + 1):
            by = ex.opponent(by)
            want = ex.used_once_more(ex.pay(want, f"j{i}", by, effect_of(scenario, f"j{i}")),
                                     f"j{i}")
        want = ex.used_once_more(want, "e", negated=ex.chain_negated(k, 0))
        want["cards"]["e"]["used"] -= 1
        for i in range(1, k + 1):
            want["cards"][f"j{i}"]["negated"] = ex.chain_negated(k, i)
        same(trace.states[u + k], want, u + k,
             f"after {k} jammer(s) the chain must stand as jammer •5 says", seed=True,
             unplaced=by_reading(scenario, u + k))


def chain_exercised(scenario: gen.Scenario, trace: Trace) -> set[str]:
    """Every chain negates the effect and keeps its costs (jammer •2); a jammer jamming a
    jammer (two or more) exercises jammer •5."""
    depth = len(scenario["steps"]) - gen.effect_step(scenario) - 1
    return {Z + "jammer.2"} | ({Z + "jammer.5"} if depth > 1 else set())


@invariant(P + "jammer-chain-revives",
           rules=[Z + "jammer.5", Z + "jammer.2"], scenarios=gen.chain_scenarios(),
           exercises=chain_exercised)
def jammer_chain(play: Play, scenario: gen.Scenario) -> None:
    """Negating the negating jammer gives the state as if the first effect had never been
    negated, for chains of any depth."""
    note(scenario)
    check_chain(play, scenario)


# -- jammer •3: fired standby and on-field effects ---------------------------------------------

#: The action that makes each moment, as the fired property drives it (docs/rulesets/zatch.md,
#: 'A battle, step by step'), named in its failure's message.
MOMENT_FACTS = {
    "end_turn": "the end_of_turn moment comes with the end_turn action",
    "battle_in": "the battle_in moment comes with the battle_in action",
    "next_step": "the end_of_battle moment comes with the next_step after the resolution step",
}


def fired_exercised(scenario: gen.Scenario, trace: Trace) -> set[str]:
    """What the engine reported firing: the standby ``t`` (standby •1, •3), an on-field
    card (on-field •1, •2), either (jammer •3); an on-field card in a hand or the discard
    pile exercises on-field •1 (it must not fire)."""
    cards = {e["card"] for e in trace.find(type="fired")}
    found: set[str] = set()
    if "t" in cards:
        found |= {Z + "standby.1", Z + "standby.3", Z + "jammer.3"}
    if any(c.startswith("f") for c in cards):
        found |= {Z + "on-field.1", Z + "on-field.2", Z + "jammer.3"}
    if any(c["id"] == "h" for p in gen.PLAYERS for zone in ("hand", "discard")
           for c in scenario["setup"].get(p, {}).get(zone, [])):
        found.add(Z + "on-field.1")
    return found


@invariant(P + "fired-effects-never-jammed",
           rules=[Z + "jammer.3", Z + "standby.3", Z + "on-field.2", Z + "standby.1",
                  Z + "on-field.1"],
           scenarios=gen.fired_scenarios(),
           exercises=fired_exercised)
def fired_never_jammed(play: Play, scenario: gen.Scenario) -> None:
    """Standby effects fire at their moment, on-field effects whenever their moment comes
    while their card is on the field (one in a hand or the discard pile never fires); no
    jammer negates either, right after or later."""
    note(scenario)
    trace = play.run(scenario)
    steps = scenario["steps"]
    targets = [i for i, s in enumerate(steps) if "target" in s["do"]]
    trigger = targets[0] - 1
    with outcomes(targets):   # no jammer may target a fired effect
        for i in range(trigger + 1):
            accepted(trace, scenario, i)
        fired = {e["card"] for i in range(trigger - 3, trigger + 1)
                 for e in trace.find(i, type="fired")}
        for i in range(trigger + 1):
            if trace.find(i, type="fired", card="h"):
                raise Violation(f"step {i + 1}: h fired, but its card is not on the field "
                                f"(on-field •1: it works while the card is on the field)",
                                expect={i: {"events": {"exclude": [
                                    {"type": "fired", "card": "h"}]}}})
        for i in targets:
            cid = steps[i]["do"]["target"]
            if cid not in fired:
                # every standby and on-field effect waiting for this moment fires at it
                raise Violation(f"{cid} did not fire at its moment (step {trigger + 1}: "
                                f"{MOMENT_FACTS[next(iter(steps[trigger]['do']))]})",
                                expect={trigger: {"events": {"include": [
                                    {"type": "fired", "card": c}
                                    for c in dict.fromkeys(s["do"]["target"]
                                                           for s in steps[trigger + 1:]
                                                           if "target" in s["do"])]}}})
            accepted(trace, scenario, i, want=False)
            unchanged(trace, scenario, i)


# -- jammer •1, 無効にする •1, •2: the jammer window -------------------------------------------

def window_plan(scenario: gen.Scenario) -> list[bool]:
    """For each step, whether the seed allows it: from the steps alone, no engine asked."""
    last: tuple[str, str] | None = None
    plan = []
    for step in scenario["steps"]:
        do = step["do"]
        by = do.get("by") or next(iter(do.values()))["by"]
        if "interrupt" in do:
            legal = False
        elif "use" in do and effect_of(scenario, do["use"]).get("jammer"):
            legal = last is not None and last == (ex.opponent(by), "use")
        else:
            legal = True
        if legal:
            last = (by, "use" if "use" in do else "pass")
        plan.append(legal)
    return plan


def check_window(play: Play, scenario: gen.Scenario) -> None:
    trace = play.run(scenario)
    plan = window_plan(scenario)
    with outcomes(i for i, legal in enumerate(plan) if not legal):
        for i, legal in enumerate(plan):
            accepted(trace, scenario, i, want=legal)
            if not legal:
                unchanged(trace, scenario, i)


def window_exercised(scenario: gen.Scenario, trace: Trace) -> set[str]:
    """A jammer the seed allows (right after the opponent's effect) exercises what a jammer
    is and does (jammer def, •1, negate •1); one it refuses, that a negation is never used
    in advance (negate •2) and that the window is the very next action (the reading)."""
    found: set[str] = set()
    for step, legal in zip(scenario["steps"], window_plan(scenario), strict=True):
        do = step["do"]
        if "use" not in do or "interrupt" in do or not effect_of(scenario, do["use"]).get("jammer"):
            continue
        found |= ({Z + "jammer.def", Z + "jammer.1", Z + "negate.1"} if legal else
                  {Z + "negate.2", READING + "jammer-right-after"})
    return found


@invariant(P + "jammer-exactly-right-after-opponent",
           rules=[Z + "jammer.def", Z + "jammer.1", Z + "negate.1", Z + "negate.2",
                  Z + "reading/jammer-right-after"],
           scenarios=gen.window_scenarios(),
           exercises=window_exercised)
def jammer_window(play: Play, scenario: gen.Scenario) -> None:
    """A jammer is legal exactly as the action right after an opponent's effect; a refused
    jammer changes nothing."""
    note(scenario)
    check_window(play, scenario)


def interrupts_exercised(scenario: gen.Scenario, trace: Trace) -> set[str]:
    """An effect used as an interrupt (interrupt •1); of the opponent's effect, example 1."""
    found: set[str] = set()
    for step in scenario["steps"]:
        do = step["do"]
        if "interrupt" in do:
            found.add(Z + "interrupt.1")
            if ex.card_of(scenario["setup"], do["interrupt"])[0] != do["by"]:
                found.add(Z + "interrupt.ex1")
    return found


@invariant(P + "no-interrupts", rules=[Z + "interrupt.1", Z + "interrupt.ex1"],
           scenarios=gen.interrupt_scenarios(),
           exercises=interrupts_exercised)
def no_interrupts(play: Play, scenario: gen.Scenario) -> None:
    """An effect used as an interrupt is always refused and changes nothing."""
    note(scenario)
    check_window(play, scenario)


# -- battle •2, •3, ※, nonbattle •2, •3, •5: when effects may be used --------------------------

#: What decides whether each kind of action is legal (named in a failure's message).
TIMING_FACTS = {
    "battle_in": "only the turn player enters a battle, in their battle phase, with no battle "
                 "going on, and again after one ended (zatch/reading/battles-per-phase)",
    "next_step": "either player moves a battle on to its next step "
                 "(zatch/reading/either-player-advances); there is none outside a battle",
    "end_turn": "only the turn player ends the turn, outside a battle",
}


def use_fact(effect: dict[str, Any], battle: dict[str, Any] | None) -> str:
    """What decides whether an effect of this kind may be used now (battle: the one going
    on, or None)."""
    kind = effect.get("kind", "ordinary")
    if battle is None:
        return {"non_battle_spell": "nonbattle •2: 攻 in your own battle phase, 防 in the "
                                    "opponent's, outside battles (•3)",
                "ordinary": "zatch/reading/plain-effects-outside-battle: usable outside "
                            "battles in either player's turn and phase"}.get(
            kind, f"no {kind} effect is used outside a battle (battle •3, "
                  "zatch/reading/battle-steps)")
    return {"attack_defense": "zatch/reading/battle-steps: the attack/defense step takes the "
                              "attacker's attack and the defender's defense effects only",
            "effects": "battle •2, ※: the use-of-effects step takes battle effects only"}.get(
        battle["step"], f"zatch/reading/battle-steps: no effect is used in the "
                        f"{battle['step']} step")


def timing_plan(scenario: gen.Scenario) -> list[tuple[bool, str | None, str]]:
    """For each step, whether the seed allows it, (when it does) the battle step after it,
    and the fact that decides it: worked out from the setup and the steps alone, no engine
    asked."""
    setup = scenario["setup"]
    turn, phase = setup.get("turn", "p1"), setup.get("phase", "main")
    battle: dict[str, Any] | None = None
    plan: list[tuple[bool, str | None, str]] = []
    for step in scenario["steps"]:
        (kind, spec), = ((k, v) for k, v in step["do"].items() if k != "by")
        by = step["do"].get("by") or spec["by"]
        if kind == "use":
            legal = ex.usable(effect_of(scenario, spec), by, turn, phase, battle)
            fact = use_fact(effect_of(scenario, spec), battle)
        else:
            fact = TIMING_FACTS[kind]
            if kind == "battle_in":
                legal = battle is None and phase == "battle" and by == turn
            elif kind == "next_step":
                legal = battle is not None
            else:
                legal = battle is None and by == turn
        if legal and kind == "battle_in":
            battle = {"attacker": by, "step": "attack_defense"}
        elif legal and kind == "next_step":
            assert battle is not None   # next_step is legal only during a battle
            at = ex.STEPS.index(battle["step"])
            battle = None if at == 3 else {**battle, "step": ex.STEPS[at + 1]}
        elif legal and kind == "end_turn":
            turn, phase = ex.opponent(turn), "main"
        plan.append((legal, battle["step"] if battle else None, fact))
    return plan


def refused(plan: list[tuple[bool, str | None, str]]) -> list[int]:
    return [i for i, (legal, _, _) in enumerate(plan) if not legal]


def check_timing(play: Play, scenario: gen.Scenario) -> Trace:
    trace = play.run(scenario)
    plan = timing_plan(scenario)
    with outcomes(refused(plan)):
        for i, (legal, step_now, fact) in enumerate(plan):
            accepted(trace, scenario, i, want=legal, because=fact)
            if not legal:
                unchanged(trace, scenario, i)
                continue
            for player in ("p1", "p2"):
                if trace.states[i]["players"][player]["battle_step"] != step_now:
                    ends = (" (the battle ends with the next_step after its resolution step; "
                            "the phase stays battle: zatch/reading/battles-per-phase)"
                            if step_now is None else "")
                    raise Violation(f"after step {i + 1} {player}'s battle_step should be "
                                    f"{step_now!r}{ends}", expect={i: {"players": {player: {
                                        "battle_step": step_now}}}})
    return trace


def timing_exercised(scenario: gen.Scenario, trace: Trace) -> set[str]:
    """Each effect kind tried where it is decided: a battle effect in the use-of-effects step
    (battle •2) or outside a battle (•3); another kind in that step (※); a non-battle spell
    outside a battle (nonbattle •2; accepted, •5: it enters no battle) or in one (•3); any
    effect in a battle step (the battle-steps reading); an ordinary effect (its reading); a
    battle moved on by the player who is not the turn player (either-player-advances)."""
    turn = scenario["setup"].get("turn", "p1")
    battle: str | None = None   # the battle step before each action, as the seed runs it
    found: set[str] = set()
    for i, (step, (legal, after, _)) in enumerate(zip(scenario["steps"], timing_plan(scenario),
                                                      strict=True)):
        do = step["do"]
        if "use" in do:
            kind = effect_of(scenario, do["use"]).get("kind", "ordinary")
            if kind == "battle" and battle in ("effects", None):
                found.add(Z + ("battle.2" if battle else "battle.3"))
            elif battle == "effects":
                found.add(Z + "battle.note")
            if kind == "non_battle_spell":
                found.add(Z + ("nonbattle.2" if battle is None else "nonbattle.3"))
                if battle is None and trace.replies[i]["accepted"]:
                    found.add(Z + "nonbattle.5")
            if kind == "ordinary":
                found.add(READING + "plain-effects-outside-battle")
            if battle is not None:
                found.add(READING + "battle-steps")
        elif "next_step" in do and battle is not None and _by(do) != turn:
            found.add(READING + "either-player-advances")
        elif "end_turn" in do and legal:
            turn = ex.opponent(turn)
        battle = after
    return found


@invariant(P + "battle-and-non-battle-timing",
           rules=[Z + "battle.2", Z + "battle.3", Z + "battle.note", Z + "nonbattle.2",
                  Z + "nonbattle.3", Z + "reading/battle-steps",
                  Z + "reading/plain-effects-outside-battle",
                  Z + "reading/either-player-advances"],
           scenarios=gen.timing_scenarios(),
           exercises=timing_exercised)
def battle_timing(play: Play, scenario: gen.Scenario) -> None:
    """Each effect kind is usable exactly where the seed puts it: battle effects in the
    use-of-effects step, non-battle spells outside battles in the right battle phase."""
    note(scenario)
    check_timing(play, scenario)


@invariant(P + "non-battle-spell-never-enters-battle",
           rules=[Z + "nonbattle.5", Z + "nonbattle.3", Z + "nonbattle.2"],
           scenarios=gen.timing_scenarios(spells_only=True), exercises=timing_exercised)
def non_battle_no_battle(play: Play, scenario: gen.Scenario) -> None:
    """Using a non-battle spell never enters a battle (no battle_in, no battle step)."""
    note(scenario)
    trace = check_timing(play, scenario)
    with outcomes(refused(timing_plan(scenario))):
        for i, step in enumerate(scenario["steps"]):
            if ("use" in step["do"] and trace.replies[i]["accepted"]
                    and trace.find(i, type="battle_in")):
                raise Violation(f"step {i + 1} {short(step)} made a battle-in",
                                expect={i: {"events": {"exclude": [{"type": "battle_in"}]}}})


# -- use-attack •1-•4, 無効にならない •1: a battle ---------------------------------------------

def _battle_expectations(scenario: gen.Scenario) -> dict[str, Any]:
    """Powers, negations and the contest as the seed computes them from the scenario."""
    attacker = scenario["setup"]["turn"]
    used = {s["do"]["use"] for s in scenario["steps"] if "use" in s["do"]}
    attacks = [c for c in scenario["setup"][attacker]["hand"] if c["id"][0] == "a"]
    defender = ex.opponent(attacker)
    defenses = [c for c in scenario["setup"][defender]["hand"] if c["id"][0] == "d"]
    negated = {c["id"] for c in attacks if "na" in used and not c["effect"]["unnegatable"]}
    raise_of = {cid: effect_of(scenario, cid)["do"][0]["power"]["amount"] for cid in ("ra", "rd")}
    attack = sum(c["effect"]["power"] for c in attacks if c["id"] not in negated)
    defense = sum(c["effect"]["power"] for c in defenses)
    attack += raise_of["ra"] if "ra" in used else 0
    defense += raise_of["rd"] if "rd" in used else 0
    return {"attacker": attacker, "defender": defender, "attacks": attacks,
            "defenses": defenses, "negated": negated, "attack": attack, "defense": defense,
            "winner": ex.contest_winner(attack, defense, attacker)}


def _battle_steps(trace: Trace, scenario: gen.Scenario) -> None:
    """No jammer touches the battle; every other step is accepted, and attack/defense
    effects do not resolve when used."""
    for i, step in enumerate(scenario["steps"]):
        if "target" in step["do"]:
            accepted(trace, scenario, i, want=False)
            unchanged(trace, scenario, i)
            continue
        accepted(trace, scenario, i)
        if "use" in step["do"] and step["do"]["use"][0] in "ad" and trace.find(i, type="resolved"):
            raise Violation(f"step {i + 1}: {step['do']['use']} resolved when used; attack and "
                            f"defense effects wait for the contest",
                            expect={i: {"events": {"exclude": [{"type": "resolved"}]}}})


def battle_exercised(scenario: gen.Scenario, trace: Trace) -> set[str]:
    """Every battle's attacks wait for the contest and its winner's resolve (use-attack •1,
    the contest-winner reading); a raise used (use-attack •2); a jammer tried on an attack
    (•3); 「攻撃を無効にする」 used (•4), on a negatable attack (negate •1) or one that is not
    (無効にならない •1)."""
    used = {s["do"]["use"] for s in scenario["steps"] if "use" in s["do"]}
    found = {Z + "use-attack.1", READING + "contest-winner"}
    if used & {"ra", "rd"}:
        found.add(Z + "use-attack.2")
    if any("target" in s["do"] for s in scenario["steps"]):
        found.add(Z + "use-attack.3")
    if "na" in used:
        found.add(Z + "use-attack.4")
        attacks = [effect_of(scenario, c) for c in used if c[0] == "a"]
        if any(not a["unnegatable"] for a in attacks):
            found.add(Z + "negate.1")
        if any(a["unnegatable"] for a in attacks):
            found.add(Z + "unnegatable.1")
    return found


@invariant(P + "attack-defense-after-won-contest",
           rules=[Z + "use-attack.1", Z + "use-attack.2", Z + "use-attack.3", Z + "use-attack.4",
                  Z + "unnegatable.1", Z + "negate.1", Z + "reading/contest-winner"],
           scenarios=gen.battle_scenarios(),
           exercises=battle_exercised)
def attack_defense(play: Play, scenario: gen.Scenario) -> None:
    """Attack/defense effects wait, no jammer touches them, 「攻撃を無効にする」 negates the
    negatable attacks, and at resolution only the contest winner's effects resolve."""
    note(scenario)
    trace = play.run(scenario)
    want = _battle_expectations(scenario)
    steps = scenario["steps"]
    with outcomes(i for i, step in enumerate(steps) if "target" in step["do"]):
        _battle_steps(trace, scenario)
    contest = trace.find(len(steps) - 2, type="contest")
    got = (contest[0].get("attack"), contest[0].get("defense"),
           contest[0].get("winner")) if contest else None
    if got != (want["attack"], want["defense"], want["winner"]):
        decided = ("the contest event comes with the next_step that enters the contest step "
                   "(docs/rulesets/zatch.md, 'A battle, step by step')" if contest else
                   "each side's power is its attack or defense effects not negated plus its "
                   "raises (use-attack •1, •2, •4)")
        if want["winner"] is None:
            decided += "; a tie has no winner (zatch/reading/contest-winner)"
        raise Violation(f"the contest should be {want['attack']} against {want['defense']}, "
                        f"won by {want['winner']}; observed {got}: {decided}",
                        expect={len(steps) - 2: {"events": {"include": [
                            {"type": "contest", "attack": want["attack"],
                             "defense": want["defense"], "winner": want["winner"]}]}}})
    final = trace.states[-1]
    for card in want["attacks"]:
        negated = card["id"] in want["negated"]
        if final["cards"][card["id"]]["negated"] != negated:
            raise Violation(f"{card['id']} negated should be {negated}",
                            expect={len(steps) - 1: {"cards": {card["id"]: {"negated": negated}}}})
    # nothing before the resolution step touches the defender's damage or MP: attack and
    # defense effects wait (checked above), the rest only raise power or negate
    start = ex.start(scenario["setup"])["players"][want["defender"]]
    damage = sum(c["effect"]["do"][0]["damage"]["amount"] for c in want["attacks"]
                 if c["id"] not in want["negated"]) if want["winner"] == want["attacker"] else 0
    gain = len(want["defenses"]) if want["winner"] == want["defender"] else 0
    wanted = {want["defender"]: {"damage": start["damage"] + damage, "mp": start["mp"] + gain}}
    same(final, {"cards": {}, "players": wanted}, len(steps) - 1,
         "only the winner's attack/defense effects resolve", seed=True)


# -- 使えない •1, •2 --------------------------------------------------------------------------

def cannot_use_binds(scenario: gen.Scenario) -> bool:
    """Does c's 使えない bind x, tried last?  x is an ordinary effect or a plain jammer (whose
    kind is ordinary), under a restriction binding the opponent of its user, named or by
    default."""
    what = effect_of(scenario, "c")["do"][0]["cannot_use"]["what"]
    names = ("effects", "ordinary", "jammers") if effect_of(scenario, "x").get("jammer") \
        else ("effects", "ordinary")
    return what in names


def restriction_exercised(scenario: gen.Scenario, trace: Trace) -> set[str]:
    """Every example sets up a 使えない after effects were used (使えない •2) and tries x
    under it, in force as the lasting reading says; x bound by it, 使えない •1; a stay
    until the end of a battle used outside one (c or an effect before it), its reading."""
    found = {Z + "cannot.2", READING + "lasting-in-force"}
    if cannot_use_binds(scenario):
        found.add(Z + "cannot.1")
    if any(effect_of(scenario, s["do"]["use"]).get("stay", {}).get("until") == "end_of_battle"
           for s in scenario["steps"] if "use" in s["do"]):
        found.add(READING + "end-of-battle-stay-outside-battle")
    return found


@invariant(P + "cannot-use-never-undoes",
           rules=[Z + "cannot.2", Z + "cannot.1", Z + "reading/lasting-in-force",
                  Z + "reading/end-of-battle-stay-outside-battle"],
           scenarios=gen.restriction_scenarios(),
           exercises=restriction_exercised)
def cannot_use(play: Play, scenario: gen.Scenario) -> None:
    """A 使えない changes nothing already used (staying, standing by, resolved) and
    binds the effects it names from then on."""
    note(scenario)
    trace = play.run(scenario)
    steps = scenario["steps"]
    c_at = len(steps) - 2
    restrictor = steps[c_at]["do"]["by"]
    c = effect_of(scenario, "c")
    bound = cannot_use_binds(scenario)
    with outcomes([c_at + 1] if bound else []):
        for i in range(c_at + 1):
            accepted(trace, scenario, i)
        want = ex.use(prelude(scenario, c_at), "c", restrictor, c)
        same(trace.states[c_at], want, c_at, "a 使えない must not undo effects already used",
             seed=True, unplaced=by_reading(scenario, c_at))
        accepted(trace, scenario, c_at + 1, want=not bound)


# -- stay •3, standby •4: removal ----------------------------------------------------------

def removal_exercised(scenario: gen.Scenario, trace: Trace) -> set[str]:
    """A removal naming a card of the kind it removes (stay •3, standby •4); a stay in force
    (stay •1, the lasting reading); a standby the engine reported firing at the end of the
    turn (standby •1)."""
    remove = effect_of(scenario, "r")["do"][0]["remove"]
    found: set[str] = set()
    if remove["what"] in effect_of(scenario, remove["card"]):
        found.add(Z + ("stay.3" if remove["what"] == "stay" else "standby.4"))
    used = [effect_of(scenario, s["do"]["use"]) for s in scenario["steps"] if "use" in s["do"]]
    if any("stay" in e for e in used):
        found |= {Z + "stay.1", READING + "lasting-in-force"}
    if trace.find(len(scenario["steps"]) - 1, type="fired") and "end_turn" in \
            scenario["steps"][-1]["do"]:
        found.add(Z + "standby.1")
    return found


@invariant(P + "removal-removes-what-it-names",
           rules=[Z + "stay.3", Z + "standby.4", Z + "stay.1", Z + "standby.1",
                  Z + "reading/lasting-in-force"],
           scenarios=gen.removal_scenarios(),
           exercises=removal_exercised)
def removal(play: Play, scenario: gen.Scenario) -> None:
    """A removal takes away the staying or standing-by effect of the card it names, that
    kind only, and nothing else; a removed standby no longer fires at its moment, the
    others do, and the stays still in force expire then."""
    note(scenario)
    trace = play.run(scenario)
    steps = scenario["steps"]
    r = next(i for i, s in enumerate(steps) if s["do"].get("use") == "r")
    for i in range(len(steps)):
        accepted(trace, scenario, i)
    want = prelude(scenario, r + 1)
    same(trace.states[r], want, r, "a removal must take away exactly what it names",
         seed=True, unplaced=by_reading(scenario, r))
    if len(steps) == r + 1:
        return
    waiting = sorted(c for c, card in want["cards"].items() if card["standing_by"])
    staying = sorted(c for c, card in want["cards"].items() if card["staying"])
    gone = sorted(c for c in want["cards"] if c[0] == "s" and c not in waiting + staying)
    events = trace.find(r + 1)
    fired = sorted(e["card"] for e in events if e.get("type") == "fired")
    expired = sorted(e["card"] for e in events if e.get("type") == "expired")
    if fired != waiting or expired != staying:
        raise Violation(
            f"at the end of the turn {waiting} should fire and {staying} expire; "
            f"observed fired {fired}, expired {expired}",
            expect={r + 1: {"events": {
                "include": [{"type": "fired", "card": c} for c in waiting]
                + [{"type": "expired", "card": c} for c in staying],
                "exclude": [{"type": t, "card": c} for c in gone for t in ("fired", "expired")]}}})


# -- 無効にならない •1 ------------------------------------------------------------------------

# every example answers a 無効にならない effect with a jammer right after it, which must
# not negate it yet is used and paid: each exercises both rules (the default)
@invariant(P + "unnegatable-survives", rules=[Z + "unnegatable.1", Z + "jammer.2"],
           scenarios=gen.unnegatable_scenarios())
def unnegatable(play: Play, scenario: gen.Scenario) -> None:
    """A 無効にならない effect is not negated by a jammer; the jammer is still used and paid."""
    note(scenario)
    trace = play.run(scenario)
    steps = scenario["steps"]
    u = gen.effect_step(scenario)
    for i in range(len(steps)):
        accepted(trace, scenario, i)
    user = steps[u]["do"]["by"]
    used = ex.use(prelude(scenario, u), "e", user, effect_of(scenario, "e"))
    want = ex.used_once_more(ex.pay(used, "j", ex.opponent(user), effect_of(scenario, "j")),
                             "j")
    same(trace.states[u + 1], want, u + 1, "a 無効にならない effect must survive the jammer",
         seed=True, unplaced=by_reading(scenario, u + 1))


RULE_PROPERTIES = [negation_restores, jammer_chain, fired_never_jammed, jammer_window,
                   no_interrupts, battle_timing, non_battle_no_battle, attack_defense,
                   cannot_use, removal, unnegatable, renaming]
