"""The Vision vocabulary schema (conformance/rulesets/vision/vocabulary.json).

It must accept everything the catalogue and the property strategies legitimately
write, reject typos and words outside the vocabulary with an error that points
at the offending value, and say no more and no less than docs/rulesets/vision.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from vocabulary_doc import Vocabulary, walk

from conformance.rulesets.vision import PROPERTIES

ROOT = Path(__file__).parents[2]
VOCABULARY = Vocabulary("vision")
SCHEMA, DOC, CASES = VOCABULARY.schema, VOCABULARY.doc, VOCABULARY.cases
validator, problems = VOCABULARY.validator, VOCABULARY.problems
_walk = walk


# -- 1. the schema itself: test_pack_vocabularies.py, for every pack ----------------------

# -- 2. the catalogue ----------------------------------------------------------------------

def case_values(case: dict[str, Any]) -> Iterator[tuple[str, str, Any]]:
    """(where, entry, value) for everything the catalogue loader checks in a case."""
    yield "setup", "setup", case["setup"]
    for i, step in enumerate(case["steps"]):
        at = f"steps/{i}"
        yield f"{at}/do", "action", step["do"]
        expect = step.get("expect") or {}
        for key, entry in (("cards", "card_state"), ("players", "player_state")):
            for name, value in (expect.get(key) or {}).items():
                yield f"{at}/expect/{key}/{name}", entry, value
        events = expect.get("events") or {}
        for kind in ("include", "exclude", "order"):
            for j, pattern in enumerate(events.get(kind) or []):
                yield f"{at}/expect/events/{kind}/{j}", "event", pattern
        for j, rule in enumerate(events.get("count") or []):
            yield f"{at}/expect/events/count/{j}/match", "event", rule["match"]


def test_there_are_cases():
    assert CASES


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_case_is_in_the_vocabulary(path):
    case = yaml.safe_load(path.read_text("utf-8"))
    found = [f"{where}/{p}" for where, entry, value in case_values(case)
             for p in problems(entry, value)]
    found += [f"scenario: {p}" for p in problems(
        "scenario", {"setup": case["setup"], "steps": case["steps"]})]
    assert not found, "\n".join(found)


def test_the_catalogue_uses_every_action_and_instruction():
    """The cases exercise the whole action set and the whole instruction set."""
    actions: set[str] = set()
    operations: set[str] = set()
    for path in CASES:
        for node in _walk(yaml.safe_load(path.read_text("utf-8"))):
            if isinstance(node, dict) and "do" in node:
                actions |= set(node["do"]) & set(action_keys())
            if isinstance(node, dict) and "effect" in node and isinstance(node["effect"], list):
                operations |= {next(iter(i)) for i in node["effect"] if isinstance(i, dict)}
    assert actions == set(action_keys())
    assert operations == set(instruction_keys())


# -- 3. the property strategies ------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("prop", PROPERTIES, ids=[p.id for p in PROPERTIES])
@settings(max_examples=30, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.data_too_large])
@given(data=st.data())
def test_generated_scenarios_are_in_the_vocabulary(prop, data):
    scenario = data.draw(prop.scenarios, label="scenario")
    found = problems("setup", scenario["setup"])
    for i, step in enumerate(scenario["steps"]):
        found += [f"steps/{i}/do/{p}" for p in problems("action", step["do"])]
    found += problems("scenario", scenario)
    assert not found, "\n".join(found)


# -- 4. words outside the vocabulary ---------------------------------------------------------

def _card(**fields: Any) -> dict[str, Any]:
    return {"p1": {"field": [{"id": "a", **fields}]}}


def _resolve(*effect: Any) -> dict[str, Any]:
    return {"resolve": {"by": "p1", "effect": list(effect)}}


def _clause(**fields: Any) -> dict[str, Any]:
    return _card(texts=[fields])


ENTERS = {"event": "enters_field"}
CARD0 = "p1/field/0"
PART0 = "resolve/effect/0"

#: (entry, value, where the best error must point): each is outside the vocabulary
#: (one test over every ruleset's list: test_pack_vocabularies.py).
INVALID: list[tuple[str, Any, str]] = [
    # setup
    ("setup", {"p1": {"feild": []}}, "p1"),
    ("setup", {"p3": {}}, ""),
    ("setup", {"p1": {"nodes": "6"}}, "p1/nodes"),
    ("setup", {"p1": {"nodes": -1}}, "p1/nodes"),
    ("setup", {"p1": {"hand": {"id": "h1"}}}, "p1/hand"),
    ("setup", {"p1": {"hand": [{"name": "no id"}]}}, "p1/hand/0"),
    ("setup", _card(damge=1), CARD0),
    ("setup", _card(damage="1"), f"{CARD0}/damage"),
    ("setup", _card(type="creature"), f"{CARD0}/type"),
    ("setup", _card(name=3), f"{CARD0}/name"),
    ("setup", _card(cost="Y"), f"{CARD0}/cost"),
    ("setup", _card(power="3-4"), f"{CARD0}/power"),
    ("setup", _card(power=34), f"{CARD0}/power"),
    ("setup", _card(immune=["burn"]), f"{CARD0}/immune/0"),
    ("setup", _card(link_names="X"), f"{CARD0}/link_names"),
    ("setup", _card(x="hand"), f"{CARD0}/x"),
    ("setup", _card(x={"count": "library", "player": "self"}), f"{CARD0}/x/count"),
    ("setup", _card(x={"count": "hand", "player": "p1"}), f"{CARD0}/x/player"),
    ("setup", _card(texts={"kind": "play"}), f"{CARD0}/texts"),
    ("setup", _clause(kind="static"), f"{CARD0}/texts/0/kind"),
    ("setup", _clause(effect=[]), f"{CARD0}/texts/0"),
    ("setup", _clause(kind="auto", effect=[]), f"{CARD0}/texts/0"),
    ("setup", _clause(kind="play", when=ENTERS), f"{CARD0}/texts/0"),
    ("setup", _clause(kind="auto", when=ENTERS, modifier={"cost": 1}), f"{CARD0}/texts/0"),
    ("setup", _clause(kind="auto", when=ENTERS, gain=[]), f"{CARD0}/texts/0"),
    ("setup", _clause(kind="continuous", efect=[]), f"{CARD0}/texts/0"),
    ("setup", _clause(kind="play", unnegatable="yes"), f"{CARD0}/texts/0/unnegatable"),
    ("setup", _clause(kind="auto", when={"event": "leaves_field"}),
     f"{CARD0}/texts/0/when/event"),
    ("setup", _clause(kind="auto", when={"event": "targeted", "filter": {"controler": "self"}}),
     f"{CARD0}/texts/0/when/filter"),
    ("setup", _clause(kind="continuous", modifier={"target": "this", "kind": "add"}),
     f"{CARD0}/texts/0/modifier"),
    ("setup", _clause(kind="continuous", modifier={"cost": 1, "kind": "add"}),
     f"{CARD0}/texts/0/modifier"),
    ("setup", _clause(kind="continuous", modifier={"cost": "-1"}),
     f"{CARD0}/texts/0/modifier/cost"),
    ("setup", _clause(kind="continuous", applies_to="everyone"),
     f"{CARD0}/texts/0/applies_to"),
    ("setup", _clause(kind="continuous", gain=[{"kind": "auto"}]),
     f"{CARD0}/texts/0/gain/0"),
    # actions
    ("action", {"plya": "s1", "by": "p1", "pay_nodes": 1}, ""),
    ("action", {}, ""),
    ("action", "play s1", ""),
    ("action", {"play": "s1", "pay_nodes": 1, "draw": {"player": "p1", "count": 1}}, ""),
    ("action", {"play": "s1", "by": "p1"}, ""),
    ("action", {"play": "s1", "pay_nodes": -1}, "pay_nodes"),
    ("action", {"play": "s1", "pay_nodes": 1, "targets": "t1"}, "targets"),
    ("action", {"play": "s1", "pay_nodes": 1, "by": "me"}, "by"),
    ("action", {"put_onto_field": "e1", "by": "p3"}, "by"),
    ("action", {"put_onto_field": "e1", "by": "p1", "pay_nodes": 0}, ""),
    ("action", {"resolve": {"effect": []}}, "resolve"),
    ("action", {"resolve": {"by": "p1", "effect": [], "sorce": "a"}}, "resolve"),
    ("action", {"resolve": {"by": "p1", "effect": {"draw": {"player": "self", "count": 1}}}},
     "resolve/effect"),
    ("action", {"resolve": {"by": "p1", "effect": []}, "by": "p1"}, ""),
    ("action", {"battle_damage": {"target": "t1", "amount": 2}}, "battle_damage"),
    ("action", {"battle_damage": {"target": "t1", "amount": "X", "source": "s1"}},
     "battle_damage/amount"),
    ("action", {"draw": {"player": "p1", "count": -1}}, "draw/count"),
    ("action", {"draw": {"player": "self", "count": 1}}, "draw/player"),
    # instructions
    ("action", _resolve({"explode": {"target": "this"}}), PART0),
    ("action", _resolve({}), PART0),
    ("action", _resolve("draw"), PART0),
    ("action", _resolve({"damage": {"target": "this", "amount": 1},
                         "destroy": {"target": "this"}}), PART0),
    ("action", _resolve({"damage": {"target": "this", "amount": 1, "extra": 1}}),
     f"{PART0}/damage"),
    ("action", _resolve({"damage": {"target": "this"}}), f"{PART0}/damage"),
    ("action", _resolve({"damage": {"target": "this", "amount": "Y"}}), f"{PART0}/damage/amount"),
    ("action", _resolve({"damage": {"target": "this", "amount": -1}}), f"{PART0}/damage/amount"),
    ("action", _resolve({"draw": {"player": "p1", "count": 1}}), f"{PART0}/draw/player"),
    ("action", _resolve({"draw": {"count": 1}}), f"{PART0}/draw"),
    ("action", _resolve({"discard": {"player": "self", "count": "1"}}),
     f"{PART0}/discard/count"),
    ("action", _resolve({"reveal": {"player": "self", "count": 1, "all": True}}),
     f"{PART0}/reveal"),
    ("action", _resolve({"reveal": {"player": "self"}}), f"{PART0}/reveal"),
    ("action", _resolve({"look": {"player": "self", "all": False}}), f"{PART0}/look/all"),
    ("action", _resolve({"look": {"player": "self", "until": "hit"}}), f"{PART0}/look/until"),
    ("action", _resolve({"shuffle": {}}), f"{PART0}/shuffle"),
    ("action", _resolve({"negate_effect": {"what": "effect"}}), f"{PART0}/negate_effect"),
    ("action", _resolve({"negate_text": {"target": "this", "include_unnegatable": "no"}}),
     f"{PART0}/negate_text/include_unnegatable"),
    ("action", _resolve({"change_name": {"target": "this"}}), f"{PART0}/change_name"),
    ("action", _resolve({"power": {"kind": "add", "attack": 1}}), f"{PART0}/power"),
    ("action", _resolve({"power": {"target": "this", "kind": "set", "attack": 1}}),
     f"{PART0}/power/kind"),
    ("action", _resolve({"power": {"target": "this", "kind": "add", "attack": "3"}}),
     f"{PART0}/power/attack"),
    ("action", _resolve({"power": {"target": "this", "kind": "change", "x": "hand"}}),
     f"{PART0}/power/x"),
    # selectors and filters
    ("action", _resolve({"destroy": {"target": "everyone"}}), f"{PART0}/destroy/target"),
    ("action", _resolve({"destroy": {"target": "all"}}), f"{PART0}/destroy/target"),
    ("action", _resolve({"destroy": {"target": "a1"}}), f"{PART0}/destroy/target"),
    ("action", _resolve({"destroy": {"target": 5}}), f"{PART0}/destroy/target"),
    ("action", _resolve({"destroy": {"target": ["a"]}}), f"{PART0}/destroy/target"),
    ("action", _resolve({"destroy": {"target": {}}}), f"{PART0}/destroy/target"),
    ("action", _resolve({"destroy": {"target": {"cards": "a"}}}), f"{PART0}/destroy/target"),
    ("action", _resolve({"destroy": {"target": {"card": "a", "all": {}}}}),
     f"{PART0}/destroy/target"),
    ("action", _resolve({"destroy": {"target": {"card": 7}}}), f"{PART0}/destroy/target/card"),
    ("action", _resolve({"destroy": {"target": {"all": "characters"}}}),
     f"{PART0}/destroy/target/all"),
    ("action", _resolve({"destroy": {"target": {"all": {"colour": "red"}}}}),
     f"{PART0}/destroy/target/all"),
    ("action", _resolve({"destroy": {"target": {"all": {"controller": "both"}}}}),
     f"{PART0}/destroy/target/all/controller"),
    ("action", _resolve({"destroy": {"target": {"all": {"zone": "library"}}}}),
     f"{PART0}/destroy/target/all/zone"),
    ("action", _resolve({"destroy": {"target": {"all": {"durability_max": "2"}}}}),
     f"{PART0}/destroy/target/all/durability_max"),
    # observations
    ("card_state", {"damge": 4}, ""),
    ("card_state", {"zone": "library"}, "zone"),
    ("card_state", {"owner": "me"}, "owner"),
    ("card_state", {"deathblow": "yes"}, "deathblow"),
    ("card_state", {"deathblow_cause": 3}, "deathblow_cause"),
    ("card_state", {"attack": "3"}, "attack"),
    ("card_state", {"damage": -1}, "damage"),
    ("card_state", {"names": "A"}, "names"),
    ("card_state", {"names": ["A", "B"]}, "names"),          # names are a set: no order
    ("card_state", {"names": {"unordered": "A"}}, "names/unordered"),
    ("card_state", "t1", ""),
    ("player_state", {"nodes": "6"}, "nodes"),
    ("player_state", {"deck": 3}, ""),
    ("player_state", {"hand": "h1"}, "hand"),
    ("player_state", {"deck_size": 1.5}, "deck_size"),
    # events
    ("event", {"type": "explosion"}, "type"),
    ("event", {"colour": "red"}, ""),
    ("event", {"type": "damage", "cards": ["a"]}, ""),
    ("event", {"type": "shuffle", "card": "a"}, ""),
    ("event", {"type": "draw", "amount": 1}, ""),
    ("event", {"type": "damage", "battle": "yes"}, "battle"),
    ("event", {"type": "damage", "amount": "2"}, "amount"),
    ("event", {"type": "negated", "what": "all"}, "what"),
    ("event", {"type": "reveal", "cards": "d1"}, "cards"),
    ("event", {"type": "draw", "player": "self"}, "player"),
]



#: Valid words the catalogue does not happen to use: the schema must not be narrower
#: than the doc.
VALID: list[tuple[str, Any]] = [
    ("setup", {}),
    ("setup", {"p1": {}, "p2": {"nodes": 0, "deck": [], "hand": [], "field": [], "graveyard": []}}),
    ("setup", _card(number="085", name="", type="spell", cost="X", power="X/X", x="cost",
                    link_names=["A", "B"], damage=0, immune=["destroy", "damage", "return"],
                    texts=[])),
    ("setup", _card(x=2, power="0/X")),
    ("setup", _card(x={"count": "deck", "player": "opponent"}, power="X/1")),
    ("setup", _clause(kind="play", unnegatable=True, effect=[], applies_to="chosen",
                      gain=[{"kind": "continuous", "modifier": {"kind": "swap"}}])),
    ("setup", _clause(kind="continuous", modifier={"cost": -1})),
    ("setup", _clause(kind="continuous", applies_to={"all": {"type": "character"}},
                      modifier={"kind": "always", "attack": "X", "durability": 1, "x": 3})),
    ("setup", _clause(kind="auto", when={"event": "targeted"}, effect=[{"negate_effect": {}}])),
    ("setup", _clause(kind="auto", when={"event": "would_deathblow",
                                         "filter": {"controller": "any", "durability_max": 2}},
                      effect=[])),
    ("action", {"play": "s1", "pay_nodes": 0}),
    ("action", {"play": "s1", "by": "p2", "pay_nodes": 3, "targets": []}),
    ("action", {"put_onto_field": "e1", "by": "p2"}),
    ("action", {"resolve": {"by": "p2", "effect": [], "targets": ["a", "b"], "source": "s"}}),
    ("action", {"battle_damage": {"target": "t1", "amount": 0, "source": "s1"}}),
    ("action", {"battle_damage": {"target": "t1", "source": "s1"}}),   # amount: its attack
    ("setup", _card(immune=["deathblow_state"])),
    ("setup", _clause(kind="auto", when={"event": "deathblow_by_opponent_effect",
                                         "filter": {"controller": "self"}},
                      effect=[{"return_to_hand": {"target": "chosen"}}])),
    ("setup", _clause(kind="auto", when={"event": "battle_damage_dealt"},
                      effect=[{"deathblow": {"target": "chosen"}}])),
    ("action", {"draw": {"player": "p2", "count": 2}}),
    ("action", _resolve(
        {"reveal": {"player": "opponent", "until": {"zone": "deck", "name_ref": "hit"}}},
        {"look": {"player": "self", "count": "X"}},
        {"look": {"player": "self", "until": {}}},
        {"discard": {"player": "opponent", "count": "X"}},
        {"destroy": {"target": {"all": {"zone": "hand", "controller": "self",
                                        "type": "command", "same_name_as": "a", "not": "a"}}}},
        {"deathblow": {"target": "chosen"}},
        {"return_to_hand": {"target": "this"}},
        {"negate_auto": {"target": {"card": "a"}, "include_unnegatable": True}},
        {"negate_text": {"target": {"all": {}}}},
        {"change_name": {"target": "chosen", "name": "Ｂ"}},
        {"power": {"target": "chosen", "kind": "swap"}},
        {"power": {"target": "this", "kind": "change", "attack": "X", "durability": "X",
                   "x": {"count": "graveyard", "player": "self"}}},
        {"power": {"target": "this", "kind": "add", "attack": -2}},
        {"shuffle": {"player": "opponent"}},
    )),
    ("card_state", {}),
    ("card_state", {"zone": "deck", "owner": "p2", "names": {"unordered": []}, "attack": -1,
                    "durability": 0, "damage": 0, "deathblow": True, "deathblow_cause": None,
                    "deathblow_by_battle": True, "negated": False}),
    ("card_state", {"attack": None, "deathblow_cause": "s1"}),
    ("player_state", {}),
    ("player_state", {"nodes": 0, "hand": [], "field": ["a"], "graveyard": ["b"],
                      "deck_size": 0}),
    ("event", {}),
    ("event", {"card": "t1"}),
    ("event", {"card": "t1", "amount": 2, "player": "p1", "cards": [], "completed": True}),
    ("event", {"type": "damage", "card": "t1", "amount": 0, "battle": False, "source": None}),
    ("event", {"type": "deathblow", "card": "t1", "cause": None, "battle": False}),
    ("event", {"type": "destroyed", "card": "t1"}),
    ("event", {"type": "returned"}),
    ("event", {"type": "draw", "player": "p2", "card": "k1"}),
    ("event", {"type": "look", "player": "p2", "cards": []}),
    ("event", {"type": "negated", "card": "a", "what": "auto"}),
    ("event", {"type": "resolved", "source": None, "completed": False}),
]


@pytest.mark.parametrize(("entry", "value"), VALID,
                         ids=[f"{e}-{i}" for i, (e, _) in enumerate(VALID)])
def test_the_rest_of_the_doc_is_accepted(entry, value):
    assert not problems(entry, value)


# -- 5. schema and doc do not drift ----------------------------------------------------------

def action_keys() -> list[str]:
    return [next(iter(branch["required"])) for branch in SCHEMA["$defs"]["action"]["oneOf"]]


def instruction_keys() -> list[str]:
    return list(SCHEMA["$defs"]["instruction"]["properties"])


def mentioned(word: str, markdown: str) -> bool:
    return VOCABULARY.mentioned(word, markdown)


def _names_in(node: Any) -> set[str]:
    """Every key the schema accepts in an instance ($defs' own names excluded)."""
    found: set[str] = set()
    for sub in _walk(node):
        if isinstance(sub, dict):
            found |= set(sub.get("properties", {}))
            if isinstance(sub.get("propertyNames"), dict):
                found |= set(sub["propertyNames"].get("enum", []))
            found |= set(sub.get("required", []))
    return found


def _words_in(node: Any) -> set[str]:
    """Every string value the schema accepts by name (enums and consts)."""
    found: set[str] = set()
    for sub in _walk(node):
        if isinstance(sub, dict):
            values = list(sub.get("enum", [])) + ([sub["const"]] if "const" in sub else [])
            found |= {v for v in values if isinstance(v, str)}
    return found


def test_the_case_frame_is_the_case_schemas():
    """scenario/step/expect only type what conformance/schemas/case.json frames."""
    case = json.loads((ROOT / "conformance" / "schemas" / "case.json").read_text("utf-8"))
    defs = SCHEMA["$defs"]
    assert set(defs["scenario"]["properties"]) <= set(case["properties"])
    assert _names_in(defs["step"]) == _names_in(case["properties"]["steps"]["items"])
    assert _names_in(defs["expect"]) == _names_in(case["$defs"]["expect"])
    assert _words_in(defs["expect"]) == _words_in(case["$defs"]["expect"])


def _table_rows(first: str, columns: int) -> list[list[str]]:
    """The rows (cells) of the doc's table whose header has ``columns`` cells, the first
    ``first``."""
    lines = DOC.splitlines()
    for i, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == columns and cells[0] == first:
            start = i
            break
    else:
        raise AssertionError(f"no table headed {first!r} with {columns} columns")
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def _first_key(cell: str) -> str:
    match = re.match(r"`\{?(\w+)", cell)
    assert match, cell
    return match.group(1)


def test_the_docs_tables_are_exactly_the_schemas_sets():
    defs = SCHEMA["$defs"]
    for (first, columns), keys in {
        ("instruction", 3): instruction_keys(),
        ("action", 2): action_keys(),
        ("key", 3): defs["card"]["properties"],  # the CARD table (with defaults)
        ("key", 2): defs["clause"]["properties"],  # the CLAUSE table
    }.items():
        documented = {_first_key(row[0]) for row in _table_rows(first, columns)}
        assert documented == set(keys), (first, columns)


def test_the_event_table_is_exactly_the_schemas_event_fields():
    by_type: dict[str, set[str]] = {}
    for rule in SCHEMA["$defs"]["event"]["allOf"]:
        kind = rule["if"]["properties"]["type"]["const"]
        by_type[kind] = set(rule["then"]["propertyNames"]["enum"]) - {"type"}
    documented: dict[str, set[str]] = {}
    for kinds, fields in _table_rows("event", 2):
        names = set(re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", fields)))
        for kind in re.findall(r"`(\w+)`", kinds):
            documented[kind] = names
    assert documented == by_type
    assert set(SCHEMA["$defs"]["event"]["properties"]["type"]["enum"]) == set(documented)
    union = set().union(*documented.values())
    assert set(SCHEMA["$defs"]["event"]["properties"]) == union | {"type"}
