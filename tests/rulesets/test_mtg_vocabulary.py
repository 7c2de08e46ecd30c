"""The MTG vocabulary: the schema (conformance/rulesets/mtg/vocabulary.json), the doc
(docs/rulesets/mtg.md) and the reference engine say the same thing.

The schema must accept everything the catalogue and the property strategies write,
reject words outside the vocabulary where they are, and name no more and no less
than the doc; the reference engine must read exactly the schema's keys.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from vocabulary_doc import Vocabulary

from conformance.rulesets.mtg import PROPERTIES
from conformance.rulesets.mtg.strategies import walk
from reference_engine import create_engine
from reference_engine.mtg import game, instructions, vocabulary

ROOT = Path(__file__).parents[2]
VOCABULARY = Vocabulary("mtg")
SCHEMA, DEFS, DOC, CASES = VOCABULARY.schema, VOCABULARY.defs, VOCABULARY.doc, VOCABULARY.cases
validator, problems, mentioned = VOCABULARY.validator, VOCABULARY.problems, VOCABULARY.mentioned


# -- 1. the schema itself: test_pack_vocabularies.py, for every pack ----------------------

# -- 2. the catalogue and the generators -----------------------------------------------------

def case_values(case: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    yield "setup", case["setup"]
    for step in case["steps"]:
        yield "action", step["do"]
        expect = step.get("expect") or {}
        for key, entry in (("cards", "card_state"), ("players", "player_state")):
            for value in (expect.get(key) or {}).values():
                yield entry, value
        for kind in ("include", "exclude", "order"):
            for pattern in (expect.get("events") or {}).get(kind) or []:
                yield "event", pattern


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_case_is_in_the_vocabulary(path):
    case = yaml.safe_load(path.read_text("utf-8"))
    found = [p for entry, value in case_values(case) for p in problems(entry, value)]
    found += problems("scenario", {"setup": case["setup"], "steps": case["steps"]})
    assert not found, "\n".join(found)


def test_the_catalogue_uses_every_action_and_instruction():
    actions, operations = set(), set()
    for path in CASES:
        for node in walk(yaml.safe_load(path.read_text("utf-8"))):
            if isinstance(node, dict) and "do" in node:
                actions |= set(node["do"]) & set(action_keys())
            if isinstance(node, dict):
                for key in ("effect", "spell", "activated", "more", "tie"):
                    if isinstance(node.get(key), list):
                        operations |= {next(iter(i)) for i in node[key] if isinstance(i, dict)}
    assert actions == set(action_keys())
    assert operations == set(DEFS["instruction"]["properties"])


@pytest.mark.parametrize("prop", PROPERTIES, ids=[p.id for p in PROPERTIES])
@settings(max_examples=30, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_generated_scenarios_are_in_the_vocabulary(prop, data):
    scenario = data.draw(prop.scenarios, label="scenario")
    assert not problems("scenario", scenario)


# -- 3. words outside the vocabulary -----------------------------------------------------------

def _obj(**fields: Any) -> dict[str, Any]:
    return {"p1": {"battlefield": [{"id": "a", **fields}]}}


def _apply(*effect: Any) -> dict[str, Any]:
    return {"apply": {"by": "p1", "effect": list(effect)}}


OBJ = "p1/battlefield/0"
PART = "apply/effect/0"
#: (entry, value, where the best error must point): each is outside the vocabulary
#: (one test over every ruleset's list: test_pack_vocabularies.py).
INVALID: list[tuple[str, Any, str]] = [
    ("setup", {"p3": {}}, ""),
    ("setup", {"p1": {"feild": []}}, "p1"),
    ("setup", {"phase": "upkeep"}, "phase"),
    ("setup", {"p1": {"mana": {"X": 1}}}, "p1/mana"),
    ("setup", {"p1": {"stack": []}}, "p1"),
    ("setup", _obj(colour=["red"]), OBJ),
    ("setup", _obj(colors=["crimson"]), f"{OBJ}/colors/0"),
    ("setup", _obj(types=["tribal"]), f"{OBJ}/types/0"),
    ("setup", _obj(mana_cost={"generic": -1}), f"{OBJ}/mana_cost/generic"),
    ("setup", _obj(id="p1"), f"{OBJ}/id"),
    ("setup", _obj(abilities=[{"keyword": "flying"}]), f"{OBJ}/abilities/0"),
    ("setup", _obj(abilities=[{"static": {"grant": "hexproof"}}]),
     f"{OBJ}/abilities/0/static/grant"),
    ("action", {"cast": "s1", "by": "p1"}, ""),
    ("action", {"cast": "s1", "by": "me", "pay": {}}, "by"),
    ("action", {"resolve": "bottom"}, "resolve"),
    ("action", {"move": "a", "to": "stack"}, "to"),
    ("action", {"damage": {"source": "a", "to": "p1"}}, "damage"),
    ("action", _apply({"explode": {}}), PART),
    ("action", _apply({"discard": {"player": "p1", "count": 1}}), f"{PART}/discard/player"),
    ("action", _apply({"move_top": {"count": 1, "to": "battlefield"}}), f"{PART}/move_top/to"),
    ("action", _apply({"shield": {"to": "self", "amount": 0}}), f"{PART}/shield/amount"),
    ("action", _apply({"become": {"filter": {"zone": "deck"}}}), f"{PART}/become/filter/zone"),
    ("card_state", {"zone": "deck"}, "zone"),
    ("card_state", {"mana_spent": {"R": "1"}}, "mana_spent/R"),
    ("player_state", {"life": "20"}, "life"),
    ("player_state", {"shields": [{"source": "a", "remaining": "some"}]}, "shields/0/remaining"),
    ("event", {"type": "draw"}, "type"),
    ("event", {"type": "cast", "amount": 1}, ""),
]



# -- 4. schema, doc and engine agree --------------------------------------------------------------

def action_keys() -> list[str]:
    return [branch["required"][0] for branch in DEFS["action"]["oneOf"]]


def _table_keys(first: str, columns: int) -> set[str]:
    lines = DOC.splitlines()
    for i, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == columns and cells[0] == first:
            start = i + 2
            break
    else:
        raise AssertionError(f"no table headed {first!r}")
    keys = set()
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        key = re.match(r"\|\s*`\{?(\w+)", line)
        assert key, line
        keys.add(key.group(1))
    return keys


def test_the_docs_tables_are_the_schemas_and_the_engines_sets():
    assert _table_keys("key", 3) == set(DEFS["object"]["properties"]) == vocabulary.OBJECT_KEYS
    assert _table_keys("instruction", 3) == set(DEFS["instruction"]["properties"]) \
        == set(instructions.OPERATIONS)
    assert _table_keys("action", 2) == set(action_keys()) == set(game.ACTIONS)
    assert _table_keys("static", 2) == set(DEFS["static"]["properties"])
    assert set(DEFS["player_setup"]["properties"]) == vocabulary.PLAYER_KEYS


def test_the_event_table_is_the_schemas_event_fields():
    by_type = {rule["if"]["properties"]["type"]["const"]:
               set(rule["then"]["propertyNames"]["enum"]) - {"type"}
               for rule in DEFS["event"]["allOf"]}
    lines = DOC.split("| event | fields |")[1].split("\n\n")[0].splitlines()[2:]
    documented = {}
    for line in lines:
        kind, fields = [c.strip() for c in line.strip().strip("|").split("|")]
        documented[kind.strip("`")] = set(re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", fields)))
    assert documented == by_type


def test_the_engine_observes_exactly_the_schemas_keys():
    engine = create_engine()
    engine.start("mtg", {"p1": {"hand": [{"id": "a"}]}})
    state = engine.observe()
    assert set(state["cards"]["a"]) == set(DEFS["card_state"]["properties"])
    assert set(state["players"]["p1"]) == set(DEFS["player_state"]["properties"])
    assert not problems("card_state", state["cards"]["a"])
    assert not problems("player_state", state["players"]["p1"])


def test_engine_events_are_in_the_vocabulary():
    for path in CASES:
        case = yaml.safe_load(path.read_text("utf-8"))
        engine = create_engine()
        engine.start("mtg", case["setup"])
        for step in case["steps"]:
            for event in engine.act(step["do"])["events"]:
                assert not problems("event", event), (path.name, event)


def test_every_reading_of_the_index_is_documented():
    index = yaml.safe_load((ROOT / "cases" / "mtg" / "rules.yaml").read_text("utf-8"))
    readings = [r["id"] for r in index["rules"] if r["kind"] == "reading"]
    assert readings
    assert not [r for r in readings if f"`{r}`" not in DOC]
