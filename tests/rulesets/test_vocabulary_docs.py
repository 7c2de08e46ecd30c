"""Every word of every installed pack's vocabulary is described in its ruleset's doc.

An engine author writes from docs/rulesets/<ruleset>.md alone: a key, enum value,
event type or observed field the schema accepts and the doc never names is a guess
the cases will then test.
"""

from __future__ import annotations

import pytest
from vocabulary_doc import Vocabulary, words

from conformance._discovery import ruleset_names


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_every_word_of_the_vocabulary_is_in_its_rulesets_doc(ruleset):
    vocabulary = Vocabulary(ruleset)
    missing = vocabulary.undescribed()
    assert not missing, f"in the schema, not in docs/rulesets/{ruleset}.md: {missing}"


def test_words_are_keys_enum_values_event_types_and_observed_fields():
    schema = {"$defs": {
        "event": {"oneOf": [{"properties": {"type": {"const": "moved"}, "to": {"enum": ["grave"]}},
                             "required": ["type"]}]},
        "card_state": {"properties": {"tapped": {"type": "boolean"}},
                       "propertyNames": {"enum": ["tapped", "counters"]}},
    }}
    assert words(schema) == {"type", "moved", "to", "grave", "tapped", "counters"}


def test_a_word_only_in_prose_is_not_described():
    vocabulary = Vocabulary("vision")
    assert vocabulary.mentioned("moved", "the event `moved` says so")
    assert not vocabulary.mentioned("moved", "the card is moved to the grave")
    assert not vocabulary.mentioned("moved", "`unmoved` only")
