"""The phase.rs adapter: certify the open-source phase.rs MTG rules engine on ruleset mtg.

phase.rs (Rust, MIT) ships Python bindings as ``phase-python`` (``pip install
'card-conformance[phase]'``).  This adapter drives it only through that public API.
docs/engines/phase.md is the certification and its judged failures.  Which module holds
what (each imports only those above it):

- `mapping`: the vocabulary's words as phase.rs's (zones, colours, mana, steps, seats);
- `cards`: the card-language renderer: each object as a card face of phase.rs's own Oracle
  parser from its Oracle text (a real card's, or its abilities' rendered), with the few
  lines its parser fails on given as phase.rs's typed data; phase.rs's engine for a set of
  cards and the opening state of a game (kept once built);
- `state`: `GameState`, the game the adapter plays: the board a setup asks for, the case's
  ids of phase.rs's objects, the state asked for as rarely as a step allows, and the way
  back for a refused action;
- `observation`: the observation read back from the state, shields, events;
- `prompts`: answers to phase.rs's prompts (targets, payment, choices) from the action;
- `combat`: declared attackers, the combat damage step, a harness step's combat damage;
- `actions`: the action mapping (real game actions, harness steps as ``{0}`` abilities);
- `engine`: `PhaseEngine`, the engine protocol over the modules above.

Anything it cannot map raises `Unsupported` with the reason; it never makes up a result.
"""

from __future__ import annotations

from conformance import Unsupported

from . import cards
from .engine import PhaseEngine

__all__ = ["PhaseEngine", "create"]


def create() -> PhaseEngine:
    """The ``python:conformance.engines.phase:create`` factory (``--engine phase``)."""
    if not cards.installed():
        raise Unsupported("phase.rs is not installed: pip install 'card-conformance[phase]'")
    return PhaseEngine()
