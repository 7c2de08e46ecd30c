"""Hypothesis strategies for MTG scenarios, in the vocabulary only.

Every strategy draws ``{"setup": ..., "steps": [{"do": ...}, ...]}`` written in
docs/rulesets/mtg.md.  Boards are small and ids short (``c0``, ``h1``...), so a
shrunk counterexample reads like a hand-written case.  The properties work out
what should happen from the scenario itself (`expected`); `traits` names the
traits a scenario reaches (labels of what it exercises), for the generator-coverage test.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

Scenario = dict[str, Any]

COLORS = ("white", "blue", "black", "red", "green")
MANA_TYPES = ("W", "U", "B", "R", "G", "C")
COLOR_OF = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
ZONES = ("library", "hand", "battlefield", "graveyard", "exile")
ORRERY = {"id": "orrery", "name": "Vedalken Orrery", "oracle_name": "Vedalken Orrery",
          "types": ["artifact"], "mana_cost": {"generic": 4},
          "abilities": [{"static": {"grant": "flash"}}]}


def apply(effect: list[dict[str, Any]], by: str = "p1",
          source: str | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"by": by, "effect": effect}
    if source is not None:
        action["source"] = source
    return {"do": {"apply": action}}


# -- prevention shields (609.7, 609.7b) ----------------------------------------------------

#: Few colours, so that a source often has, loses or regains a shield's colour.
SHIELD_COLORS = ("red", "green", "white")

@st.composite
def shield_scenarios(draw: st.DrawFn, recolor: bool = False) -> Scenario:
    """p1 makes one or two shields; p2's creatures deal damage (some 0, some combat);
    with ``recolor``, colour changes happen between the damage steps and every damage is
    at least 1 (what 0 damage does is a reading, left to the plain shield scenarios)."""
    n = draw(st.integers(1, 2))
    creatures: list[dict[str, Any]] = [{"id": f"c{i}", "types": ["creature"],
                  "colors": [draw(st.sampled_from(SHIELD_COLORS))],
                  "power": 2, "toughness": 2} for i in range(n)]
    ids = [c["id"] for c in creatures]
    steps = []
    for _ in range(draw(st.integers(1, 2))):
        shield: dict[str, Any] = {"to": "self"}
        kind = draw(st.sampled_from(["chosen", "chosen_color", "filter"]))
        if kind != "filter":
            chosen = draw(st.sampled_from(creatures))
            shield["choose"] = chosen["id"]
            if kind == "chosen_color":
                shield["from"] = {"color": chosen["colors"][0]}
        else:
            shield["from"] = draw(st.sampled_from(
                [{"type": "creature"}, *({"color": c} for c in SHIELD_COLORS)]))
        if draw(st.booleans()):
            shield["amount"] = draw(st.integers(1, 4))
        steps.append(apply([{"shield": shield}]))
    for _ in range(draw(st.integers(1, 4))):
        if recolor and draw(st.booleans()):
            steps.append(apply([{"become": {"filter": {"card": draw(st.sampled_from(ids))},
                                            "colors": [draw(st.sampled_from(SHIELD_COLORS))]}}],
                               by="p2"))
        steps.append({"do": {"damage": {
            "source": draw(st.sampled_from(ids)), "to": draw(st.sampled_from(["p1", "p2"])),
            "amount": draw(st.integers(1 if recolor else 0, 5)),
            "combat": draw(st.booleans())}}})
    return {"setup": {"p2": {"battlefield": creatures}}, "steps": steps}


# -- do as much as possible (609.3) ------------------------------------------------------------

@st.composite
def partial_instruction_scenarios(draw: st.DrawFn) -> Scenario:
    """Discards and library moves asking for 0-4 cards of hands and libraries of 0-3; in
    half the scenarios the first asks for 4, more than any of them holds (what 609.3 is
    about: small counts alone seldom ask for too much)."""
    setup: dict[str, Any] = {"p1": {"battlefield": [{"id": "src", "types": ["enchantment"]}]}}
    for player in ("p1", "p2"):
        side = setup.setdefault(player, {})
        side["hand"] = [{"id": f"{player}h{i}", "types": ["instant"]}
                        for i in range(draw(st.integers(0, 3)))]
        side["library"] = [{"id": f"{player}k{i}", "types": ["land"]}
                           for i in range(draw(st.integers(0, 3)))]
    parts = []
    too_much = draw(st.booleans())
    for i in range(draw(st.integers(1, 3))):
        who = draw(st.sampled_from(["self", "opponent"]))
        count = 4 if too_much and i == 0 else draw(st.integers(0, 4))
        if draw(st.booleans()):
            parts.append({"discard": {"player": who, "count": count}})
        else:
            parts.append({"move_top": {"player": who, "count": count,
                                       "to": draw(st.sampled_from(["graveyard", "exile"]))}})
    parts.append({"damage": {"to": "opponent", "amount": 1}})
    return {"setup": setup, "steps": [apply(parts, source="src")]}


# -- permanents only (609.2) ---------------------------------------------------------------------

@st.composite
def become_scenarios(draw: st.DrawFn) -> Scenario:
    """Land, creature and artifact cards in every zone; one become effect, naming a zone
    or not.  Half the scenarios hold the seed's example (ex. 609.2/1): lands becoming
    creatures, a land card in p1's graveyard."""
    setup: dict[str, Any] = {}
    seed_example = draw(st.booleans())
    n = 0
    for player in ("p1", "p2"):
        for zone in ZONES:
            cards = []
            for _ in range(draw(st.integers(0, 2))):
                cards.append({"id": f"o{n}", "types": [draw(st.sampled_from(
                    ["land", "creature", "artifact"]))],
                    "colors": [draw(st.sampled_from(COLORS))]})
                n += 1
            if cards:
                setup.setdefault(player, {})[zone] = cards
    if seed_example:
        graveyard = setup.setdefault("p1", {}).setdefault("graveyard", [])
        graveyard.append({"id": f"o{n}", "types": ["land"],
                          "colors": [draw(st.sampled_from(COLORS))]})
    flt: dict[str, Any] = {"type": "land" if seed_example else draw(st.sampled_from(
        ["land", "creature", "artifact"]))}
    if not seed_example and draw(st.integers(0, 3)) == 0:
        flt["zone"] = draw(st.sampled_from(["graveyard", "hand", "library", "exile"]))
    become = {"filter": flt, "types": ["creature"], "power": 3, "toughness": 3}
    if draw(st.booleans()):
        become["colors"] = [draw(st.sampled_from(COLORS))]
    return {"setup": setup, "steps": [apply([{"become": become}])]}


# -- "as though" permissions (609.4, 609.4a) -----------------------------------------------------

@st.composite
def permission_scenarios(draw: st.DrawFn) -> Scenario:
    """A sorcery or instant, with flashback or not, in p1's hand, p1's graveyard or p2's
    graveyard; an Orrery (p1's, p2's or none); the Trance permission or not; main phase
    or combat.  p1 casts it paying its (flashback) cost.  Half the scenarios are the
    seed's 609.4a example: with both permissions, one, or neither."""
    seed_example = draw(st.booleans())
    kind = "sorcery" if seed_example else draw(st.sampled_from(["sorcery", "instant"]))
    flashback = seed_example or draw(st.booleans())
    card: dict[str, Any] = {"id": "s1", "types": [kind], "colors": ["red"],
                            "mana_cost": {"generic": 1, "R": 1}, "abilities": []}
    if flashback:
        card["abilities"].append({"keyword": "flashback", "cost": {"generic": 2, "R": 1}})
    owner, zone = ("p2", "graveyard") if seed_example else draw(st.sampled_from(
        [("p1", "hand"), ("p1", "graveyard"), ("p2", "graveyard")]))
    setup: dict[str, Any] = {"phase": draw(st.sampled_from(["main", "combat"])),
                             "p1": {"mana": {"R": 3}}}
    setup.setdefault(owner, {})[zone] = [card]
    if seed_example:   # 609.4a proper (both permissions) in two of five, then the contrasts
        given = draw(st.sampled_from(["both", "both", "orrery", "trance", "neither"]))
        orrery = "p1" if given in ("both", "orrery") else None
        trance = given in ("both", "trance")
    else:
        orrery, trance = draw(st.sampled_from(["p1", "p2", None])), draw(st.booleans())
    if orrery:
        setup.setdefault(orrery, {})["battlefield"] = [ORRERY]
    steps = [apply([{"grant": "other_graveyards"}])] if trance else []
    use_flashback = flashback if seed_example or draw(st.integers(0, 3)) else not flashback
    pay = {"R": 3} if use_flashback else {"R": 2}
    steps.append({"do": {"cast": "s1", "by": "p1", "pay": pay, "flashback": use_flashback}})
    return {"setup": setup, "steps": steps}


# -- paying "as though any type" (609.4b) ------------------------------------------------------

@st.composite
def payment_scenarios(draw: st.DrawFn) -> Scenario:
    """A spell with a random cost; p1 pays a random mix of types adding up to its total,
    with or without a permission (static or resolved, either wording).  The permission comes
    first: a small budget's examples lean to the first choice, and 609.4b is the permission's
    rule (the scenario without one is the control)."""
    generic = draw(st.integers(0, 2))
    # canonical form (docs/rulesets/mtg.md): no zero entries, so no {generic: 0}
    cost = {"generic": generic} if generic else {}
    for t in draw(st.lists(st.sampled_from(MANA_TYPES), min_size=1, max_size=2)):
        cost[t] = cost.get(t, 0) + 1
    total = sum(cost.values())
    pay: dict[str, int] = {}
    for t in draw(st.lists(st.sampled_from(MANA_TYPES), min_size=total, max_size=total)):
        pay[t] = pay.get(t, 0) + 1
    colors = sorted({COLOR_OF[t] for t in cost if t in COLOR_OF})
    setup: dict[str, Any] = {"p1": {"mana": dict(pay), "hand": [
        {"id": "s1", "types": ["instant"], "colors": colors, "mana_cost": cost}]}}
    steps = []
    how = draw(st.sampled_from(["static", "resolved", "none"]))
    wording = draw(st.sampled_from(["spend_as_any_type", "any_type_can_be_spent"]))
    if how == "static":
        setup["p1"]["battlefield"] = [{"id": "prism", "types": ["artifact"],
                                       "abilities": [{"static": {"grant": wording}}]}]
    elif how == "resolved":
        steps.append(apply([{"grant": wording}]))
    steps.append({"do": {"cast": "s1", "by": "p1", "pay": pay}})
    return {"setup": setup, "steps": steps}


# -- metamorphic relations ----------------------------------------------------------------------

RELATIONS = ("rename", "swap_players", "add_bystander")
RELATION_NOTE = "metamorphic relation: "


def relation_of(scenario: Scenario) -> str:
    note: str = scenario["steps"][0]["note"]
    return note.removeprefix(RELATION_NOTE)


@st.composite
def metamorphic_scenarios(draw: st.DrawFn) -> Scenario:
    """A scenario of another property; its first step's note names the relation to check.
    The kind is drawn first, each as often as the others: each is the only one that
    exercises its rule."""
    kind = draw(st.sampled_from(["shield", "partial", "become"]))
    scenario = draw({"shield": shield_scenarios(recolor=True),
                     "partial": partial_instruction_scenarios(),
                     "become": become_scenarios()}[kind])
    relation = draw(st.sampled_from(RELATIONS))
    first = {**scenario["steps"][0], "note": f"{RELATION_NOTE}{relation}"}
    return {"setup": scenario["setup"], "steps": [first, *scenario["steps"][1:]]}


# -- what a scenario reaches ------------------------------------------------------------------

def walk(node: Any) -> Any:
    yield node
    if isinstance(node, dict):
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def traits(scenario: Scenario) -> set[str]:
    """The traits a scenario uses (for `hypothesis.event` and the coverage test)."""
    found: set[str] = set()
    setup = scenario["setup"]
    found.add(f"phase:{setup.get('phase', 'main')}")
    for player in ("p1", "p2"):
        for zone, cards in (setup.get(player) or {}).items():
            if isinstance(cards, list) and cards:
                found.add(f"zone:{zone}")
    note = scenario["steps"][0].get("note", "")
    if note.startswith(RELATION_NOTE):
        found.add(f"relation:{relation_of(scenario)}")
    for node in walk(scenario["steps"]):
        if not isinstance(node, dict):
            continue
        if "damage" in node and isinstance(node["damage"], dict) and "source" in node["damage"]:
            d = node["damage"]
            found.add("damage:zero" if d["amount"] == 0 else "damage:positive")
            found.add("damage:combat" if d.get("combat") else "damage:noncombat")
            found.add(f"damage:to-{d['to']}")
        if "shield" in node:
            s = node["shield"]
            found.add("shield:chosen" if "choose" in s else "shield:unchosen")
            found.add("shield:limited" if "from" in s else "shield:unlimited")
            found.add("shield:numeric" if "amount" in s else "shield:next-time")
        if "become" in node:
            b = node["become"]
            found.add("become:zone-named" if "zone" in b["filter"] else "become:no-zone")
            if "card" in b["filter"]:
                found.add("become:recolor")
        for op in ("discard", "move_top"):
            if op in node:
                found.add(f"instruction:{op}")
        if "grant" in node:
            found.add(f"grant:{node['grant']}")
        if "cast" in node:
            found.add("cast:flashback" if node.get("flashback") else "cast:normal")
    for player in ("p1", "p2"):
        for card in (setup.get(player) or {}).get("battlefield", []):
            for ability in card.get("abilities", []):
                if "static" in ability and "grant" in ability["static"]:
                    found.add(f"static:{ability['static']['grant']}:{player}")
    return found
