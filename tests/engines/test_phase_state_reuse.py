"""The phase.rs adapter keeps the last state it asked phase.rs for, loads its board only
when first used and takes its own ``{0}`` ability off with the next edit: what it observes
and what a refused action goes back to are what phase.rs's own state says, step by step
over every mtg case.  Runs only where the extra is installed (pip install '.[phase]')."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("phase")

from conformance import Unsupported
from conformance._catalogue import load_catalogue
from conformance.engines.phase import PhaseEngine


def fresh_observation(engine: PhaseEngine) -> dict[str, Any]:
    """What `observe` says from a state asked for now, with the adapter's ability off."""
    assert engine.state is not None
    engine.state.load(engine.state.edit())      # board loaded, ability off, nothing kept
    return engine.observe()


def mtg_cases() -> list[Any]:
    return [c for c in load_catalogue().cases if c.ruleset == "mtg"]


@pytest.mark.slow
def test_kept_state_observes_what_a_fresh_state_says():
    checked = 0
    for case in mtg_cases():
        kept, fresh = PhaseEngine(), PhaseEngine()
        try:
            kept.start(case.ruleset, case.setup)
            fresh.start(case.ruleset, case.setup)
            assert kept.observe() == fresh_observation(fresh), case.id
            for step in case.steps:
                reply = kept.act(step["do"])
                again = fresh.act(step["do"])
                assert reply == again, (case.id, step)
                assert kept.observe() == fresh_observation(fresh), (case.id, step)
                checked += 1
        except Unsupported:
            continue
    assert checked > 50


def test_a_refused_action_leaves_the_board_as_it_was():
    case = next(c for c in mtg_cases() if c.steps)
    engine = PhaseEngine()
    engine.start(case.ruleset, case.setup)
    before = fresh_observation(engine)
    reply = engine.act({"cast": "no-such-card"})
    assert reply["accepted"] is False
    assert engine.observe() == before == fresh_observation(engine)


def test_the_opening_carries_nothing_of_the_way_to_the_board():
    """The opening state every board is built from has no history (the opening hands' draws)
    and no decklists: the loads and states of a case carry only its board."""
    case = next(c for c in mtg_cases() if c.steps)
    engine = PhaseEngine()
    engine.start(case.ruleset, case.setup)
    assert engine.state is not None and engine.state._board is not None
    st = engine.state._board["state"]
    assert st["zone_changes_this_turn"] == []
    journal = st["resolved_rules_journal"]
    assert (journal["entries"], journal["nodes"]) == ([], [])
    assert all(p["current_main"] == p["registered_main"] == [] for p in st["deck_pools"])
    assert engine.act(case.steps[0]["do"]) is not None      # phase.rs loads it
