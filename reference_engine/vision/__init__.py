"""Phantom Magic Vision (東方VISION): an executable model of exactly the seed rules.

Seed: 000_fb81adb92f735097.txt (rule index: cases/vision/rules.yaml).
Vocabulary: docs/rulesets/vision.md.

Layers, each importing only those before it, so the modules read in this
order without a forward reference: ``model`` (cards, clauses, effects) →
``state`` (zones, events) → one module per rule family: ``names`` (12.3),
``selectors`` (SELECTOR, FILTER), ``negation`` (2.12.3, 12.4), ``power``
(6.1.10), ``costs`` (QA-269), ``triggers`` (auto clauses), ``field`` (entering
and leaving it), ``deathblow`` (9.2.2, 1.10.12.f), ``deck`` (3.2.5),
``instructions`` (the effect language) → ``resolution`` (chapter 12) →
``vocabulary`` (setups and actions read) → ``actions`` → ``rules`` (the
switch points) → ``mutants`` (the deliberately broken variants) → ``game``.

The rule modules never import ``rules``: ``game`` builds the record (the
reference, or a mutant's patch of it) and injects it into the state as
``game.rules``, with the two rules lower layers must call but cannot import:
``game.resolve`` (chapter 12 resolves what deathblow sets off) and
``game.power_of`` (a FILTER may ask for combat power, which itself reads the
selectors of modifiers).  tests/rulesets/test_reference_layers.py checks the order.
"""

from __future__ import annotations

from reference_engine.vision.game import VisionGame, new_game
from reference_engine.vision.mutants import MUTANTS

RULESET = "vision"

__all__ = ["MUTANTS", "RULESET", "VisionGame", "new_game"]
