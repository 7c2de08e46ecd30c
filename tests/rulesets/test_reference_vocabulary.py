"""The reference engine speaks exactly the vocabulary of each ruleset's vocabulary.json.

The schema is the one statement of the vocabulary: the words the Vision
reference engine reads (its key sets in reference_engine/vision/vocabulary.py)
are tested against it here (the other packs test theirs in
tests/rulesets/test_<ruleset>_vocabulary.py), and everything the engine answers over
the whole catalogue, every installed ruleset (every event, every observed
card and player) must be valid vocabulary of the case's ruleset, so an engine author
mapping the schema maps what the reference does.
"""

from __future__ import annotations

from typing import Any

import pytest

import reference_engine
from conformance import Unsupported, _schemas, vocabulary
from conformance._catalogue import load_catalogue
from conformance._discovery import find_ruleset, ruleset_names
from reference_engine.vision import vocabulary as words
from reference_engine.vision.model import PLAYERS, ZONES

VOCABULARY = ("rulesets", "vision", "vocabulary.json")
DEFS: dict[str, Any] = _schemas.load(*VOCABULARY)["$defs"]


def resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = DEFS[node["$ref"].rsplit("/", 1)[1]]
    return node


def keys(entry: str) -> set[str]:
    return set(DEFS[entry]["properties"])


def enum(node: dict[str, Any]) -> set[str]:
    node = resolve(node)
    node = resolve(node["items"]) if "items" in node else node
    return set(node["enum"])


@pytest.mark.parametrize(("engine_reads", "schema_says"), [
    (set(PLAYERS), keys("setup")),
    (words.PLAYER_KEYS, keys("player_setup")),
    (set(ZONES), enum(DEFS["zone"])),
    (words.CARD_KEYS, keys("card")),
    (words.CARD_TYPES, enum(DEFS["card_type"])),
    (words.IMMUNITIES, enum(DEFS["card"]["properties"]["immune"])),
    (words.CLAUSE_KEYS, keys("clause")),
    (words.CLAUSE_KINDS, enum(DEFS["clause"]["properties"]["kind"])),
    (set(words.MODIFIER_KINDS), enum(DEFS["modifier_kind"])),
    (words.MODIFIER_KEYS, keys("modifier")),
    (words.TRIGGER_EVENTS, enum(DEFS["trigger"]["properties"]["event"])),
    (words.FILTER_KEYS, keys("filter")),
    (words.WHO, enum(DEFS["who"])),
    (set(words.OPERATIONS), keys("instruction")),
], ids=["players", "player", "zones", "card", "card types", "immunities", "clause",
        "clause kinds", "modifier kinds", "modifier", "triggers", "filter", "who", "operations"])
def test_the_words_the_engine_reads_are_the_schemas(engine_reads, schema_says):
    assert set(engine_reads) == schema_says


@pytest.mark.parametrize("operation", sorted(words.OPERATIONS))
def test_each_operation_takes_the_schemas_arguments(operation):
    required, optional = words.OPERATIONS[operation]
    schema = resolve(DEFS["instruction"]["properties"][operation])
    assert required | optional == set(schema.get("properties", {}))
    # the engine may default an argument the vocabulary requires, never demand more
    assert required <= set(schema.get("required", []))


def as_sets(observed: dict[str, Any], ruleset: str, entry: str) -> dict[str, Any]:
    """``observed`` with each list its vocabulary compares as a set (``"x-compare": "set"``,
    stated ``{unordered: [...]}``: Vision's names, Zatch's piles) read as one."""
    return {**observed, **{key: {"unordered": observed[key]}
                           for key in vocabulary.set_valued(ruleset)[entry]
                           if isinstance(observed.get(key), list)}}


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_everything_the_engine_answers_over_the_catalogue_is_vocabulary(ruleset):
    catalogue = load_catalogue(rulesets=[ruleset])
    engine = reference_engine.create_engine()
    pack = find_ruleset(ruleset)
    assert pack is not None
    vocabulary = str(pack.vocabulary)
    seen = {"event": 0, "card_state": 0, "player_state": 0}

    def check(value: Any, entry: str, where: str) -> None:
        # every ruleset pack names these three entries of its vocabulary alike
        error = _schemas.best_error(value, vocabulary, entry=entry)
        assert error is None, f"{where}: {error.message if error else ''} in {value!r:.200}"
        seen[entry] += 1

    for case in catalogue.cases:
        try:
            engine.start(case.ruleset, case.setup)
            for n, step in enumerate(case.steps, start=1):
                where = f"{case.id} step {n}"
                for event in engine.act(step["do"]).get("events", []):
                    check(event, "event", where)
                state = engine.observe()
                for card, observed in state["cards"].items():
                    check(as_sets(observed, case.ruleset, "card_state"), "card_state",
                          f"{where} card {card}")
                for player, observed in state["players"].items():
                    check(as_sets(observed, case.ruleset, "player_state"), "player_state",
                          f"{where} player {player}")
        except Unsupported:
            continue
    # a ruleset without cards has no card states to see
    assert seen["event"] and seen["player_state"], seen
