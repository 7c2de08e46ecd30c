"""Phantom Magic Vision (東方VISION): an executable model of exactly the seed rules.

Seed: 000_fb81adb92f735097.txt (rule index: cases/vision/rules.yaml).
Vocabulary: docs/rulesets/vision.md.
One module per rule family: ``resolution`` (chapter 12), ``names`` (12.3),
``power`` (6.1.10), ``deathblow`` (9.2.2, 1.10.12.f), ``negation`` (2.12.3,
12.4), ``deck`` (3.2.5), ``costs`` (QA-269); ``rules`` names the switch points
and ``mutants`` the deliberately broken variants.
"""

from __future__ import annotations

from reference_engine.vision.game import VisionGame, new_game
from reference_engine.vision.mutants import MUTANTS

RULESET = "vision"

__all__ = ["MUTANTS", "RULESET", "VisionGame", "new_game"]
