"""Magic: The Gathering, comprehensive rule 609 (Effects): an executable model of
exactly the seed rules and the page's general statements.

Vocabulary: docs/rulesets/mtg.md.  Layers, each importing only those before it:
``model`` (data) → ``state`` (zones, events) → rule families (``characteristics``
609.1/609.2, ``casting`` 609.2/609.4/609.4a/609.4b, ``prevention`` 609.7–609.7c,
``instructions`` 609.3/609.5) → ``combat`` (attackers, the combat damage
step) → ``resolution`` → ``vocabulary`` (setups and
actions read) → ``rules`` (the switch points, injected into the state) →
``mutants`` (the broken variants) → ``game``.  tests/rulesets/test_reference_layers.py
checks the order.
"""

from __future__ import annotations

from reference_engine.mtg.game import MtgGame, new_game
from reference_engine.mtg.mutants import MUTANTS

RULESET = "mtg"

__all__ = ["MUTANTS", "RULESET", "MtgGame", "new_game"]
