"""Hypothesis strategies for Zatch scenarios, in the vocabulary only.

Every strategy draws ``{"setup": ..., "steps": [{"do": ...}, ...]}`` written in
docs/rulesets/zatch.md, with short stable card ids (``e``, ``j1``...) so a
shrunk counterexample reads like a hand-written case.  The properties work out
what should happen from the scenario itself (`expected`); `traits` labels
what a scenario exercises, for the generator-coverage counts.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

Scenario = dict[str, Any]
PLAYERS = ("p1", "p2")
PLAYER = st.sampled_from(PLAYERS)


def other(player: str) -> str:
    return "p2" if player == "p1" else "p1"


def use(cid: str, by: str, **extra: Any) -> dict[str, Any]:
    return {"do": {"use": cid, "by": by, **extra}}


def act(kind: str, by: str) -> dict[str, Any]:
    """A ``pass``, ``battle_in``, ``next_step`` or ``end_turn`` step."""
    return {"do": {kind: {"by": by}}}


INSTRUCTION = st.one_of(
    st.integers(1, 3).map(lambda n: {"damage": {"player": "opponent", "amount": n}}),
    st.integers(1, 2).map(lambda n: {"mp": {"player": "self", "amount": n}}),
)


@st.composite
def ordinary_effect(draw: Any, on_field: bool, lasting: bool = True,
                    battle_stays: bool = True) -> dict[str, Any]:
    """An effect used by declaring it: MP cost, discard-self cost (field cards), maybe a
    【ステイ】 or 【スタンバイ】, maybe 無効にならない.  ``battle_stays``: a stay may last until
    the end of battle; used outside battles, as here, it is in force after its use only by
    zatch/reading/end-of-battle-stay-outside-battle, so a property without that tag draws
    none."""
    effect: dict[str, Any] = {}
    cost: dict[str, Any] = {}
    if draw(st.booleans()):
        cost["mp"] = draw(st.integers(1, 2))
    if on_field and draw(st.booleans()):
        cost["discard_self"] = True
    if cost:
        effect["cost"] = cost
    shape = draw(st.sampled_from(["plain", "stay", "standby"] if lasting else ["plain"]))
    if shape == "stay":
        # an end-of-battle stay twice as often: the reading it rests on needs examples too
        until = ["end_of_turn", *["end_of_battle"] * 2] if battle_stays else ["end_of_turn"]
        effect["stay"] = {"until": draw(st.sampled_from(until))}
        effect["do"] = [{"cannot_use": {"player": "opponent", "what": "on_field"}}]
        effect["do"] += draw(st.lists(INSTRUCTION, max_size=1))
    elif shape == "standby":
        effect["standby"] = {"when": "end_of_turn"}
        effect["do"] = draw(st.lists(INSTRUCTION, min_size=1, max_size=2))
    else:
        effect["do"] = draw(st.lists(INSTRUCTION, min_size=1, max_size=2))
    return effect


@st.composite
def jammer(draw: Any, cid: str) -> dict[str, Any]:
    effect: dict[str, Any] = {"jammer": True}
    if draw(st.booleans()):
        effect["cost"] = {"mp": 1}
    return {"id": cid, "effect": effect}


def cost_of(effect: dict[str, Any]) -> int:
    mp: int = effect.get("cost", {}).get("mp", 0)
    return mp


# -- jammer •2: effects that discard a card or remove a lasting effect ----------------------

@st.composite
def touching_board(draw: Any, scenario: Scenario, effect: dict[str, Any]) -> Scenario:
    """``scenario`` (whose first step is a ``pass`` before ``e`` is used), where ``e`` may
    also discard a bystander card ``k`` (in either player's hand or field) and may remove
    the 【ステイ】 or 【スタンバイ】 of a card ``s`` some player used first: what a negation
    must then put back (jammer •2: the state before the effect resolved)."""
    shape = draw(st.sampled_from(["none", "none", "discard", "remove", "both"]))
    if shape in ("discard", "both"):
        owner, zone = draw(PLAYER), draw(st.sampled_from(["hand", "field"]))
        side = scenario["setup"].setdefault(owner, {})
        side[zone] = [*side.get(zone, []), {"id": "k"}]
        effect["do"] = [*effect.get("do", []), {"discard": {"card": "k"}}]
    if shape in ("remove", "both"):
        by = draw(PLAYER)
        lasting: dict[str, Any]
        if draw(st.booleans()):
            what, lasting = "stay", {"stay": {"until": "end_of_turn"},
                                     "do": [{"mp": {"player": "self", "amount": 1}}]}
        else:
            what, lasting = "standby", {"standby": {"when": "end_of_turn"},
                                        "do": [{"damage": {"player": "opponent", "amount": 1}}]}
        side = scenario["setup"].setdefault(by, {})
        side["hand"] = [*side.get("hand", []), {"id": "s", "effect": lasting}]
        effect["do"] = [*effect.get("do", []), {"remove": {"card": "s", "what": what}}]
        scenario["steps"] = [use("s", by), *scenario["steps"]]
    return scenario


def effect_step(scenario: Scenario) -> int:
    """The index of the step that uses ``e`` (after the prelude `touching_board` adds)."""
    return next(i for i, s in enumerate(scenario["steps"]) if s["do"].get("use") == "e")


# -- jammer •2, •1, nonbattle •6: one effect, one jammer, right after or later -------------

@st.composite
def negation_scenarios(draw: Any, battle_stays: bool = True) -> Scenario:
    user, turn = draw(PLAYER), draw(PLAYER)
    on_field = draw(st.booleans())
    # one effect in three is a non-battle spell, used in the battle phase it may be used in
    spell = draw(st.sampled_from([False, False, True]))
    effect = draw(ordinary_effect(on_field, battle_stays=battle_stays))
    if spell:
        effect = {"kind": "non_battle_spell",
                  "side": "attack" if user == turn else "defense", **effect}
    if draw(st.booleans()):
        effect["usable_anyway"] = draw(st.sampled_from(["cannot_use", "regardless"]))
    j = draw(jammer("j"))
    # nonbattle •6: mostly the jammer that can negate the effect, sometimes the other one
    right = "non_battle_spells" if spell else "effects"
    wrong = "effects" if spell else "non_battle_spells"
    negates = draw(st.sampled_from([right, wrong] if spell else [right] * 3 + [wrong]))
    if negates != "effects":
        j["effect"]["negates"] = negates
    setup: dict[str, Any] = {
        "turn": turn,
        user: {"mp": cost_of(effect) + draw(st.integers(0, 2)),
               "damage": draw(st.integers(0, 2)),
               "field" if on_field else "hand": [{"id": "e", "effect": effect}]},
        other(user): {"mp": cost_of(j["effect"]) + draw(st.integers(0, 2)), "hand": [j]}}
    if spell:
        setup["phase"] = "battle"
    steps = [act("pass", other(user)), use("e", user)]
    if draw(st.integers(0, 3)) == 0:
        steps += [act("pass", other(user)), act("pass", user)]
    steps.append(use("j", other(user)))
    scenario: Scenario = draw(touching_board({"setup": setup, "steps": steps}, effect))
    return scenario


# -- jammer •5: chains of jammers ------------------------------------------------------------

def chain_scenario(effect: dict[str, Any], user: str, on_field: bool,
                   costs: list[int]) -> Scenario:
    """An effect used by ``user`` and then len(costs) jammers, alternating players."""
    hands: dict[str, list[dict[str, Any]]] = {"p1": [], "p2": []}
    steps = [act("pass", other(user)), use("e", user)]
    by = user
    for i, cost in enumerate(costs, start=1):
        by = other(by)
        card: dict[str, Any] = {"id": f"j{i}", "effect": {"jammer": True}}
        if cost:
            card["effect"]["cost"] = {"mp": cost}
        hands[by].append(card)
        steps.append(use(f"j{i}", by))
    setup: dict[str, Any] = {}
    for player in PLAYERS:
        mp = sum(cost_of(c["effect"]) for c in hands[player]) + 1
        side: dict[str, Any] = {"mp": mp + (cost_of(effect) if player == user else 0)}
        if hands[player]:
            side["hand"] = hands[player]
        setup[player] = side
    zone = "field" if on_field else "hand"
    setup[user][zone] = [{"id": "e", "effect": effect}, *setup[user].get(zone, [])]
    return {"setup": setup, "steps": steps}


@st.composite
def chain_scenarios(draw: Any) -> Scenario:
    on_field = draw(st.booleans())
    effect = draw(ordinary_effect(on_field, battle_stays=False))
    costs = draw(st.lists(st.integers(0, 1), min_size=1, max_size=6))
    scenario: Scenario = draw(touching_board(chain_scenario(effect, draw(PLAYER), on_field,
                                                            costs), effect))
    return scenario


# -- jammer •3: fired standby and on-field effects -------------------------------------------

@st.composite
def fired_scenarios(draw: Any) -> Scenario:
    owner, turn = draw(PLAYER), draw(PLAYER)
    moment = draw(st.sampled_from(["end_of_turn", "end_of_battle", "battle_in"]))
    field = [{"id": f"f{i}", "effect": {"kind": "on_field", "when": moment,
                                         "do": [draw(INSTRUCTION)]}}
             for i in range(draw(st.integers(0, 2)))]
    standby = draw(st.booleans()) or not field
    phase = "main" if moment == "end_of_turn" else "battle"
    setup: dict[str, Any] = {"turn": turn, "phase": phase,
                             owner: {"field": field}, other(owner): {}}
    steps = [act("pass", other(owner))]
    if standby:
        setup[owner]["hand"] = [{"id": "t", "effect": {"standby": {"when": moment},
                                                       "do": [draw(INSTRUCTION)]}}]
        steps += [use("t", owner), act("pass", other(owner))]
    if moment == "end_of_turn":
        steps.append(act("end_turn", turn))
    else:
        steps.append(act("battle_in", turn))
        steps += [act("next_step", turn)] * (4 if moment == "end_of_battle" else 0)
    for player in PLAYERS:
        setup[player]["hand"] = setup[player].get("hand", []) + [
            {"id": f"j{player}{n}", "effect": {"jammer": True}} for n in (1, 2)]
    if draw(st.booleans()):
        # an on-field card that is not on the field (on-field •1): it never fires
        side, zone = setup[draw(PLAYER)], draw(st.sampled_from(["hand", "discard"]))
        side[zone] = [*side.get(zone, []), {"id": "h", "effect": {
            "kind": "on_field", "when": moment, "do": [draw(INSTRUCTION)]}}]
    window = other(turn)
    fired = (["t"] if standby else []) + [card["id"] for card in field]
    steps += [use(f"j{window}1", window, target=cid) for cid in fired]
    steps += [act("pass", turn), use(f"j{window}2", window, target=fired[0])]
    return {"setup": setup, "steps": steps}


# -- jammer •1 / 無効にする •2: random sequences with jammers -----------------------------------

@st.composite
def window_scenarios(draw: Any) -> Scenario:
    setup: dict[str, Any] = {"turn": draw(PLAYER)}
    for player in PLAYERS:
        setup[player] = {
            "mp": 9,
            "field": [{"id": f"{player}o{i}", "effect": {"do": [draw(INSTRUCTION)]}}
                      for i in (1, 2)],
            "hand": [{"id": f"{player}j{i}", "effect": {"jammer": True}} for i in (1, 2, 3, 4)]}
    jammers = {p: [f"{p}j{i}" for i in (1, 2, 3, 4)] for p in PLAYERS}
    steps = []
    for _ in range(draw(st.integers(1, 4))):
        # an effect, a few actions that may close the window, maybe a jammer
        by = draw(PLAYER)
        steps.append(use(f"{by}o{draw(st.sampled_from([1, 2]))}", by))
        for _ in range(draw(st.integers(0, 2))):
            steps.append(act("pass", draw(PLAYER)))
        answer = draw(PLAYER)
        if jammers[answer] and draw(st.integers(0, 3)):
            steps.append(use(jammers[answer].pop(0), answer))
    return {"setup": setup, "steps": steps}


# -- battle •2, •3, ※, nonbattle •2, •3, •5: timing ------------------------------------------

KINDS = ("battle", "non_battle_spell", "attack", "defense", "ordinary")


def _timing_effect(kind: str, side: str | None) -> dict[str, Any]:
    effect: dict[str, Any] = {"kind": kind, "do": [{"mp": {"player": "self", "amount": 1}}]}
    if side:
        effect["side"] = side
    if kind in ("attack", "defense"):
        effect["power"] = 1
    return effect


@st.composite
def timing_scenarios(draw: Any, spells_only: bool = False) -> Scenario:
    """Both players probe every effect kind (field cards, so each can be tried again) outside
    battles, then in each step of a battle, then in the next turn."""
    turn = draw(PLAYER)
    setup: dict[str, Any] = {"turn": turn, "phase": draw(st.sampled_from(["battle", "main"]))}
    kinds: list[tuple[str, str | None]] = [("non_battle_spell", "attack"),
                                           ("non_battle_spell", "defense")]
    if not spells_only:
        kinds = [("battle", None), ("attack", None), ("defense", None), ("ordinary", None),
                 *kinds]
    for player in PLAYERS:
        setup[player] = {"field": [
            {"id": f"{player}{k[:3]}{(s or '')[:1]}", "effect": _timing_effect(k, s)}
            for k, s in kinds]}

    def probes() -> list[dict[str, Any]]:
        return [use(card["id"], player) for player in draw(st.permutations(PLAYERS))
                for card in setup[player]["field"] if draw(st.integers(0, 3)) != 3]

    steps = probes()
    if setup["phase"] == "battle":
        steps += [act("battle_in", turn), *probes()]
        for _ in range(4):
            steps += [act("next_step", draw(PLAYER)), *probes()]
    steps += [act("end_turn", turn), *probes()]
    return {"setup": setup, "steps": steps}


# -- use-attack •1, •2, •3: a battle ----------------------------------------------------------

@st.composite
def battle_scenarios(draw: Any) -> Scenario:
    attacker = draw(PLAYER)
    defender = other(attacker)
    atk: list[dict[str, Any]]   # cards; their values are of several types
    dfn: list[dict[str, Any]]
    atk = [{"id": f"a{i}", "effect": {"kind": "attack", "power": draw(st.integers(0, 4)),
                                      "unnegatable": draw(st.booleans()),
                                      "do": [{"damage": {"player": "opponent",
                                                         "amount": draw(st.integers(1, 3))}}]}}
           for i in range(1, draw(st.integers(1, 2)) + 1)]
    dfn = [{"id": f"d{i}", "effect": {"kind": "defense", "power": draw(st.integers(0, 4)),
                                      "do": [{"mp": {"player": "self", "amount": 1}}]}}
           for i in range(1, draw(st.integers(0, 2)) + 1)]
    def battle_card(cid: str, *do: dict[str, Any], **more: Any) -> dict[str, Any]:
        return {"id": cid, "effect": {"kind": "battle", **more, "do": list(do)}}

    raises = [{"power": {"amount": draw(st.integers(1, 2))}} for _ in PLAYERS]
    extra = {attacker: [battle_card("ra", raises[0])],
             defender: [battle_card("rd", raises[1]), battle_card("bj", jammer=True),
                        battle_card("na", {"negate_in_battle": "attack"})]}
    setup = {"turn": attacker, "phase": "battle",
             attacker: {"hand": atk + extra[attacker]}, defender: {"hand": dfn + extra[defender]}}
    steps = [act("battle_in", attacker)]
    for card in atk:
        steps.append(use(card["id"], attacker))
        if draw(st.booleans()):
            steps.append(use("bj", defender, target=card["id"]))
    steps += [use(card["id"], defender) for card in dfn]
    steps.append(act("next_step", attacker))
    for cid, by in (("ra", attacker), ("rd", defender), ("na", defender)):
        if draw(st.booleans()):
            steps.append(use(cid, by))
    steps += [act("next_step", attacker), act("next_step", attacker)]
    return {"setup": setup, "steps": steps}


# -- stay •3, standby •4: a removal effect ------------------------------------------------------

@st.composite
def removal_scenarios(draw: Any) -> Scenario:
    """A few 【ステイ】 and 【スタンバイ】 effects put in force by either player, then a removal
    naming one of those cards and (mostly its own) kind, then maybe the end of the turn,
    where the stays still in force expire and the standbys still waiting fire."""
    turn = draw(PLAYER)
    setup: dict[str, Any] = {"turn": turn, "p1": {"hand": []}, "p2": {"hand": []}}
    steps = []
    lasting: dict[str, str] = {}
    for i in range(1, draw(st.integers(1, 3)) + 1):
        by, what = draw(PLAYER), draw(st.sampled_from(["stay", "standby"]))
        effect: dict[str, Any] = {"do": [draw(INSTRUCTION)]}
        effect[what] = {"until": "end_of_turn"} if what == "stay" else {"when": "end_of_turn"}
        setup[by]["hand"].append({"id": f"s{i}", "effect": effect})
        steps.append(use(f"s{i}", by))
        lasting[f"s{i}"] = what
    target = draw(st.sampled_from(sorted(lasting)))
    what = lasting[target]
    if draw(st.sampled_from([False, False, True])):   # sometimes the kind the card lacks
        what = "standby" if what == "stay" else "stay"
    remover = draw(PLAYER)
    setup[remover]["hand"].append({"id": "r", "effect": {"do": [
        {"remove": {"card": target, "what": what}}]}})
    steps += [act("pass", other(remover)), use("r", remover)]
    if draw(st.booleans()):
        steps.append(act("end_turn", turn))
    return {"setup": setup, "steps": steps}


# -- 使えない •2: a restriction after effects were used -----------------------------------------

@st.composite
def restriction_scenarios(draw: Any) -> Scenario:
    user = draw(PLAYER)
    effects = [{"id": f"e{i}", "effect": draw(ordinary_effect(False))}
               for i in range(1, draw(st.integers(1, 3)) + 1)]
    what = draw(st.sampled_from(["effects", "ordinary", "on_field", "jammers"]))
    until = draw(st.sampled_from(["end_of_turn", "end_of_battle"]))
    # WHO left out binds the opponent, as `player: opponent` does
    restriction = {"what": what, **draw(st.sampled_from([{}, {"player": "opponent"}]))}
    c = {"id": "c", "effect": {"stay": {"until": until}, "do": [{"cannot_use": restriction}]}}
    # x, tried under the restriction: an ordinary effect, or a jammer answering c right after
    x = {"id": "x", "effect": draw(st.sampled_from([{"do": [draw(INSTRUCTION)]},
                                                    {"jammer": True}]))}
    setup = {"turn": draw(PLAYER),
             user: {"mp": sum(e["effect"].get("cost", {}).get("mp", 0) for e in effects),
                    "hand": effects, "field": [x]},
             other(user): {"hand": [c]}}
    steps = [use(e["id"], user) for e in effects]
    steps += [act("pass", other(user)), use("c", other(user)), use("x", user)]
    return {"setup": setup, "steps": steps}


# -- 無効にならない •1 -------------------------------------------------------------------------

@st.composite
def unnegatable_scenarios(draw: Any) -> Scenario:
    scenario: Scenario = draw(negation_scenarios(battle_stays=False))
    u = effect_step(scenario)
    user = scenario["steps"][u]["do"]["by"]
    effect = next(c for c in scenario["setup"][user].get("field", [])
                  + scenario["setup"][user].get("hand", []) if c["id"] == "e")["effect"]
    effect["unnegatable"] = True
    j = next(c for c in scenario["setup"][other(user)]["hand"] if c["id"] == "j")["effect"]
    j.pop("negates", None)   # the jammer that could negate it, were it negatable
    if effect.get("kind") == "non_battle_spell":
        j["negates"] = "non_battle_spells"
    scenario["steps"] = [*scenario["steps"][:u + 1], use("j", other(user))]
    return scenario


# -- interrupt •1: interrupts are never accepted ---------------------------------------------

@st.composite
def interrupt_scenarios(draw: Any) -> Scenario:
    scenario: Scenario = draw(window_scenarios())
    used = [s["do"]["use"] for s in scenario["steps"] if "use" in s["do"]]
    for step in scenario["steps"]:
        if "use" in step["do"] and used and draw(st.booleans()):
            step["do"]["interrupt"] = draw(st.sampled_from(used))
    return scenario


# -- metamorphic: rename cards, swap players ---------------------------------------------------

MIXED = st.one_of(window_scenarios(), timing_scenarios(), chain_scenarios(),
                  restriction_scenarios(), fired_scenarios())


# -- what a scenario reaches, for the coverage counts -----------------------------------------

def traits(scenario: Scenario) -> set[str]:
    """The traits ``scenario`` uses: action kinds, effect kinds and keys,
    instructions, costs, lasting shapes, and which jammer answered which kind of effect
    (``negation:<negates>-vs-<kind>``: a jammer used right after the opponent used it)."""
    found: set[str] = set()
    previous: dict[str, Any] = {}
    for step in scenario["steps"]:
        do = step["do"]
        if "use" in do and "use" in previous and do["by"] != previous["by"]:
            answer, answered = _effect(scenario, do["use"]), _effect(scenario, previous["use"])
            if answer.get("jammer") and "target" not in do:
                found.add(f"negation:{answer.get('negates', 'effects')}-vs-"
                          f"{answered.get('kind', 'ordinary')}")
        previous = do
        found.add("action:" + next(iter(step["do"])))
        if "interrupt" in step["do"]:
            found.add("action:use.interrupt")
        if "target" in step["do"]:
            found.add("action:use.target")
    for player in PLAYERS:
        for zone in ("hand", "field", "discard"):
            for card in scenario["setup"].get(player, {}).get(zone, []):
                effect = card.get("effect", {})
                found.add(f"kind:{effect.get('kind', 'ordinary')}")
                found |= {f"effect:{k}" for k in effect if k not in ("kind", "do")}
                found |= {f"cost:{k}" for k in effect.get("cost", {})}
                found |= {f"do:{next(iter(p))}" for p in effect.get("do", [])}
                if effect.get("kind") == "on_field" and zone != "field":
                    found.add("on_field:off-field")
                for part in effect.get("do", []):
                    if "cannot_use" in part:
                        found.add(f"cannot_use:{part['cannot_use'].get('what', 'effects')}")
                        if "player" not in part["cannot_use"]:
                            found.add("cannot_use:default-player")
                    if "remove" in part:
                        named = part["remove"]
                        has = named["what"] in _effect(scenario, named["card"])
                        found.add(f"remove:{named['what']}" if has else "remove:other-kind")
                if "negates" in effect:
                    found.add(f"negates:{effect['negates']}")
                if "side" in effect:
                    found.add(f"side:{effect['side']}")
                if "stay" in effect:
                    found.add(f"stay:{effect['stay']['until']}")
                if "standby" in effect:
                    found.add(f"standby:{effect['standby']['when']}")
                if "when" in effect:
                    found.add(f"on_field:{effect['when']}")
    return found


def _effect(scenario: Scenario, cid: str) -> dict[str, Any]:
    for player in PLAYERS:
        for zone in ("hand", "field", "discard"):
            for card in scenario["setup"].get(player, {}).get(zone, []):
                if card["id"] == cid:
                    return dict(card.get("effect", {}))
    return {}
