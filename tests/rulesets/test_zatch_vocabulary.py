"""The Zatch vocabulary: docs/rulesets/zatch.md, the JSON Schema and the reference engine agree.

The schema accepts every case and every generated scenario, rejects words
outside the vocabulary at the offending value, and names exactly the keys,
words, actions, instructions and events the doc tables and the reference
engine (`reference_engine.zatch`) name.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from vocabulary_doc import Vocabulary, walk

from conformance._matching import match_step
from conformance.rulesets.zatch import PROPERTIES
from reference_engine import create_engine
from reference_engine.zatch import actions, model, resolution

ROOT = Path(__file__).parents[2]
VOCABULARY = Vocabulary("zatch")
SCHEMA, DEFS, DOC, CASES = VOCABULARY.schema, VOCABULARY.defs, VOCABULARY.doc, VOCABULARY.cases
validator, problems, mentioned = VOCABULARY.validator, VOCABULARY.problems, VOCABULARY.mentioned
_walk = walk


# -- the schema itself: test_pack_vocabularies.py, for every pack ---------------------------

# -- the catalogue and the generators speak the vocabulary ---------------------------------

@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_case_is_in_the_vocabulary(path):
    case = yaml.safe_load(path.read_text("utf-8"))
    assert not problems("scenario", {"setup": case["setup"], "steps": case["steps"]})


def test_the_catalogue_uses_every_action_and_instruction():
    used_actions, used_instructions = set(), set()
    for path in CASES:
        for node in _walk(yaml.safe_load(path.read_text("utf-8"))):
            if isinstance(node, dict) and isinstance(node.get("do"), dict):
                used_actions |= set(node["do"]) & set(actions.HANDLERS)
            if isinstance(node, dict) and isinstance(node.get("do"), list):
                used_instructions |= {next(iter(part)) for part in node["do"]}
    assert used_actions == set(actions.HANDLERS)
    assert used_instructions == set(resolution.INSTRUCTIONS)


SAMPLED = [p for p in PROPERTIES if p.exhaustive is None]


@pytest.mark.parametrize("prop", SAMPLED, ids=[p.id for p in SAMPLED])
@settings(max_examples=25, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_generated_scenarios_are_in_the_vocabulary(prop, data):
    assert not problems("scenario", data.draw(prop.scenarios))


@pytest.mark.parametrize("prop", [p for p in PROPERTIES if p.exhaustive is not None],
                         ids=lambda p: p.id)
def test_every_exhaustive_scenario_is_in_the_vocabulary(prop):
    walked = [(label, problems("scenario", scenario)) for label, scenario in prop.exhaustive()]
    assert walked and not [(label, found) for label, found in walked if found]


# -- words outside the vocabulary are errors at their place --------------------------------

def _effect(zone: str = "hand", **effect: Any) -> dict[str, Any]:
    return {"p1": {zone: [{"id": "a", "effect": effect}]}}


E0 = "p1/hand/0/effect"

#: (entry, value, where the best error must point): each is outside the vocabulary
#: (one test over every ruleset's list: test_pack_vocabularies.py).
INVALID: list[tuple[str, Any, str]] = [
    ("setup", {"p3": {}}, ""),
    ("setup", {"phase": "battle_phase"}, "phase"),
    ("setup", {"p1": {"mp": -1}}, "p1/mp"),
    ("setup", {"p1": {"graveyard": []}}, "p1"),
    ("setup", {"p1": {"hand": [{"name": "no id"}]}}, "p1/hand/0"),
    ("setup", _effect(kind="jammer"), f"{E0}/kind"),
    ("setup", _effect(kind="non_battle_spell"), E0),
    ("setup", _effect(side="attack"), E0),
    ("setup", _effect("field", kind="on_field"), "p1/field/0/effect"),
    ("setup", _effect(negates="effects"), E0),
    ("setup", _effect(stay={"until": "forever"}), f"{E0}/stay/until"),
    ("setup", _effect(do=[{"heal": {}}]), f"{E0}/do/0"),
    ("setup", _effect(usable_anyway=True), f"{E0}/usable_anyway"),
    ("action", {"use": "a"}, ""),
    ("action", {"play": "a", "by": "p1"}, ""),
    ("action", {"pass": {}}, "pass"),
    ("card_state", {"zone": "deck"}, "zone"),
    ("player_state", {"nodes": 1}, ""),
    ("player_state", {"discard": ["a", "b"]}, "discard"),   # piles are sets: no order
    ("player_state", {"hand": {"unordered": "a"}}, "hand/unordered"),
    ("event", {"type": "interrupt"}, "type"),
    ("event", {"type": "contest", "card": "a"}, ""),
]



def test_the_engine_refuses_what_the_schema_refuses():
    engine = create_engine()
    from conformance import Unsupported

    with pytest.raises(Unsupported):
        engine.start("zatch", {"p1": {"hand": [{"id": "a", "effect": {"kinds": "battle"}}]}})
    with pytest.raises(Unsupported, match="unique"):
        engine.start("zatch", {"p1": {"hand": [{"id": "a"}]}, "p2": {"field": [{"id": "a"}]}})
    engine.start("zatch", {})
    with pytest.raises(Unsupported):
        engine.act({"play": "a", "by": "p1"})


# -- doc, schema and engine name the same words -------------------------------------------

def _table(first: str) -> list[list[str]]:
    lines = DOC.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if line.startswith("| " + first + " |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def _group(pattern: str, text: str, flags: int = 0) -> str:
    """The first group of ``pattern`` searched in ``text``; the test fails without it."""
    found = re.search(pattern, text, flags)
    assert found, (pattern, text)
    return found.group(1)


def _keys(first: str) -> set[str]:
    return {_group(r"^`\{?(\w+)", row[0]) for row in _table(first)}


def test_the_doc_tables_are_the_schema_and_the_engine():
    action_keys = {next(iter(b["required"])) for b in DEFS["action"]["oneOf"]}
    assert _keys("action") == action_keys == set(actions.HANDLERS)
    assert _keys("instruction") == set(DEFS["instruction"]["properties"]) \
        == set(resolution.INSTRUCTIONS)
    card_rows = DOC.split("A CARD:")[1].split("An EFFECT:")[0]
    documented = set(re.findall(r"^\| `(\w+)`", card_rows, flags=re.M))
    assert documented == set(DEFS["card"]["properties"]) == model._CARD_KEYS


def test_effect_table_and_kinds_agree_with_the_engine():
    rows = [r for r in DOC.split("An EFFECT:")[1].split("A MOMENT")[0].splitlines()
            if r.startswith("| `")]
    documented = {_group(r"^\| `(\w+)`", r) for r in rows}
    assert documented == set(DEFS["effect"]["properties"]) == model._EFFECT_KEYS
    assert set(DEFS["effect"]["properties"]["kind"]["enum"]) == set(model.KINDS)
    assert set(DEFS["moment"]["enum"]) == set(model.TRIGGERS)
    assert set(DEFS["step_name"]["enum"]) == set(model.STEPS)


def test_the_event_table_is_the_schema_and_what_the_engine_emits():
    by_type = {rule["if"]["properties"]["type"]["const"]:
               set(rule["then"]["propertyNames"]["enum"]) - {"type"}
               for rule in DEFS["event"]["allOf"]}
    documented: dict[str, set[str]] = {}
    for kinds, fields in _table("event"):
        names = set(re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", fields)))
        for kind in re.findall(r"`(\w+)`", kinds):
            documented[kind] = names
    assert documented == by_type
    engine_kinds = set(re.findall(r'emit\(\s*"(\w+)"',
                                  "".join(p.read_text("utf-8") for p in
                                          (ROOT / "reference_engine" / "zatch").glob("*.py"))))
    assert engine_kinds == set(by_type)


def test_observations_are_the_schemas_states():
    engine = create_engine()
    engine.start("zatch", {"p1": {"hand": [{"id": "a"}]}})
    state = engine.observe()
    assert set(state["cards"]["a"]) == set(DEFS["card_state"]["properties"])
    assert set(state["players"]["p1"]) == set(DEFS["player_state"]["properties"])
    assert not problems("card_state", state["cards"]["a"])
    # observe() lists each pile; a case may compare it only as a set
    piles = {k: {"unordered": v} for k, v in state["players"]["p1"].items()
             if k in ("hand", "field", "discard")}
    assert not problems("player_state", {**state["players"]["p1"], **piles})


def test_every_observed_field_is_in_the_observations_block():
    """The doc's Observations block names every field observe() returns, with its values."""
    section = DOC.split("## Observations")[1].split("\n## ")[0]
    block = _group(r"```yaml\n(.*?)```", section, flags=re.S)
    for entry in ("card_state", "player_state"):
        missing = [f for f in DEFS[entry]["properties"] if not re.search(rf"\b{f}:", block)]
        assert not missing, f"{entry} fields not in the Observations block: {missing}"
    for field, enum in (("zone", DEFS["card_state"]["properties"]["zone"]),
                        ("phase", DEFS["phase"])):
        values = enum.get("enum") or _resolve(enum).get("enum", [])
        line = next(x for x in block.splitlines() if f"{field}:" in x)
        assert all(v in line for v in values), (field, values, line)


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref", "")
    return DEFS[ref.rsplit("/", 1)[-1]] if ref else schema


def test_a_pile_matches_in_any_order_and_only_as_a_set():
    """docs/rulesets/zatch.md: piles are compared as sets, whatever order an engine keeps."""
    engine = create_engine()
    setup = {"p1": {"hand": [{"id": "ev", "effect": {"do": []}}],
                    "field": [{"id": "dis", "effect": {"cost": {"discard_self": True}, "do": []}}]}}
    engine.start("zatch", setup)
    for card in ("dis", "ev"):
        assert engine.act({"use": card, "by": "p1"})["accepted"]
    observed = engine.observe()
    reply = {"accepted": True, "events": []}
    for order in (["dis", "ev"], ["ev", "dis"]):
        shuffled = {**observed, "players": {**observed["players"], "p1": {
            **observed["players"]["p1"], "discard": order}}}
        expect = {"players": {"p1": {"discard": {"unordered": ["ev", "dis"]}}}}
        assert not problems("expect", expect)
        assert match_step(expect, reply, shuffled, "s") == []
        assert match_step({"players": {"p1": {"discard": {"unordered": ["ev"]}}}}, reply,
                          shuffled, "s")
