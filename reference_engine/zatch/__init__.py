"""Zatch Bell (金色のガッシュベル!! THE CARD BATTLE) 真ルール: an executable model of the seed.

Vocabulary: docs/rulesets/zatch.md.  Layers, each importing only those before it:
``model`` (cards, effects) → ``state`` (board, history) → rule families
(``timing``, ``negation``, ``lasting``, ``battle``) → ``resolution`` →
``actions`` → ``rules`` (the switch points, gathered into the record injected
into each game) → ``mutants`` (which patch it) → ``game``.
tests/rulesets/test_reference_layers.py checks the order.
"""

from __future__ import annotations

from reference_engine.zatch.game import ZatchGame, new_game
from reference_engine.zatch.mutants import MUTANTS

RULESET = "zatch"

__all__ = ["MUTANTS", "RULESET", "ZatchGame", "new_game"]
