"""Every installed pack's vocabulary.json is a sound JSON Schema, whatever the ruleset.

The same three checks held each ruleset's schema in its own test file
(test_<ruleset>_vocabulary.py, which keeps what is particular to the ruleset:
its catalogue, its generators, its doc tables and its reference engine): the
schema is a valid 2020-12 schema entered at each $def the catalogue loader
reads, every ``$ref`` names a $def and every $def is used or an entry point,
and every $def says what it is.
"""

from __future__ import annotations

import importlib
from functools import cache

import jsonschema
import pytest
from vocabulary_doc import FRAME, Vocabulary, walk

from conformance._discovery import ruleset_names

#: The entry points the catalogue loader validates against (FRAME: the case frame's).
ENTRIES = ("setup", "action", "card_state", "player_state", "event")
RULESETS = ruleset_names()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_schema_is_a_valid_2020_12_schema_with_the_entry_points(ruleset):
    schema = Vocabulary(ruleset).schema
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    for entry in ENTRIES + FRAME:
        assert entry in schema["$defs"], entry
        jsonschema.Draft202012Validator.check_schema({**schema, "$ref": f"#/$defs/{entry}"})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_ref_points_at_a_def_and_every_def_is_used_or_an_entry(ruleset):
    schema = Vocabulary(ruleset).schema
    refs = {n["$ref"] for n in walk(schema) if isinstance(n, dict) and "$ref" in n}
    assert all(r.startswith("#/$defs/") for r in refs), refs
    named = {r.removeprefix("#/$defs/") for r in refs}
    assert named <= set(schema["$defs"]), named - set(schema["$defs"])
    unused = set(schema["$defs"]) - named - set(ENTRIES) - set(FRAME)
    assert not unused, unused


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_def_is_described(ruleset):
    defs = Vocabulary(ruleset).defs
    undescribed = [name for name, sub in defs.items() if "description" not in sub]
    assert not undescribed, undescribed


#: Each ruleset's words outside its vocabulary, kept with the rest of what is particular
#: to it (INVALID of test_<ruleset>_vocabulary.py); a pack without such a list has none.
INVALID = [(ruleset, *word) for ruleset in RULESETS
           for word in getattr(importlib.import_module(f"test_{ruleset}_vocabulary"),
                               "INVALID", [])]
_vocabulary = cache(Vocabulary)   # one schema and its compiled validators a ruleset


@pytest.mark.parametrize(("ruleset", "entry", "value", "where"), INVALID,
                         ids=[f"{r}-{e}-{i}" for i, (r, e, _, _) in enumerate(INVALID)])
def test_words_outside_the_vocabulary_are_rejected_where_they_are(ruleset, entry, value, where):
    errors = list(_vocabulary(ruleset).validator(entry).iter_errors(value))
    assert errors, f"{value!r} should not be {ruleset} {entry} vocabulary"
    best = jsonschema.exceptions.best_match(errors)
    assert "/".join(map(str, best.absolute_path)) == where, best.message
