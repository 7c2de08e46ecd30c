"""Partial matching of expectations: what passes, what fails, and the paths named."""

from conformance._matching import event_matches, match_step

OK = {"accepted": True, "events": [{"type": "shuffle", "player": "p1"},
                                   {"type": "draw", "player": "p1", "card": "c1"}]}


def paths(mismatches):
    return [m.path for m in mismatches]


def test_partial_state_match_ignores_unasked_keys():
    state = {"cards": {"t1": {"damage": 4, "zone": "field"}}, "players": {}}
    assert match_step({"cards": {"t1": {"damage": 4}}}, OK, state, "step 1") == []


def test_wrong_value_and_missing_key_are_named():
    state = {"cards": {"t1": {"damage": 3}}}
    found = match_step({"cards": {"t1": {"damage": 4, "deathblow": False}}}, OK, state, "step 1")
    assert paths(found) == ["step 1: cards.t1.damage", "step 1: cards.t1.deathblow"]
    assert found[0].expected == 4 and found[0].observed == 3
    assert found[1].observed == "<missing>"


def test_bool_is_not_int():
    state = {"cards": {"t1": {"deathblow": 1}}}
    assert match_step({"cards": {"t1": {"deathblow": True}}}, OK, state, "s")


def test_lists_match_exactly_in_length():
    state = {"players": {"p1": {"hand": ["a", "b"]}}}
    assert match_step({"players": {"p1": {"hand": ["a"]}}}, OK, state, "s")
    assert not match_step({"players": {"p1": {"hand": ["a", "b"]}}}, OK, state, "s")


def test_unordered_lists_match_as_sets_but_not_with_more_or_fewer_elements():
    names = {"cards": {"L1": {"names": ["Ｙ", "Ｂ", "Ｘ"]}}}
    want = {"cards": {"L1": {"names": {"unordered": ["Ｂ", "Ｘ", "Ｙ"]}}}}
    assert match_step(want, OK, names, "s") == []
    for wrong in (["Ｂ", "Ｘ"], ["Ｂ", "Ｘ", "Ｙ", "Ａ"], ["Ｂ", "Ｘ", "Ａ"]):
        found = match_step({"cards": {"L1": {"names": {"unordered": wrong}}}}, OK, names, "s")
        assert paths(found) == ["s: cards.L1.names"], wrong
    # a set: repeats on either side do not count (issue 41)
    assert match_step({"cards": {"L1": {"names": {"unordered": ["Ｘ", "Ｘ", "Ｙ"]}}}}, OK,
                      {"cards": {"L1": {"names": ["Ｘ", "Ｙ", "Ｙ"]}}}, "s") == []
    assert match_step({"cards": {"L1": {"names": {"unordered": ["Ｘ", "Ｙ"]}}}}, OK,
                      {"cards": {"L1": {"names": ["Ｘ", "Ｙ", "Ｙ"]}}}, "s") == []
    # not a list at all
    assert match_step(want, OK, {"cards": {"L1": {"names": "Ｂ"}}}, "s")


def test_outcome_rejected_expected_but_accepted():
    found = match_step({"outcome": "rejected"}, OK, None, "step 2")
    assert paths(found) == ["step 2: outcome"]


def test_unexpected_rejection_fails_even_without_outcome_key():
    found = match_step({}, {"accepted": False, "reason": "no nodes", "events": []}, None, "s")
    assert found and isinstance(found[0].observed, str) and "no nodes" in found[0].observed


def test_events_include_exclude_order():
    assert not match_step({"events": {"include": [{"type": "draw", "card": "c1"}]}}, OK, None, "s")
    assert match_step({"events": {"include": [{"type": "draw", "card": "c2"}]}}, OK, None, "s")
    assert match_step({"events": {"exclude": [{"type": "shuffle"}]}}, OK, None, "s")
    assert not match_step({"events": {"exclude": [{"type": "reveal"}]}}, OK, None, "s")
    assert not match_step({"events": {"order": [{"type": "shuffle"}, {"type": "draw"}]}},
                          OK, None, "s")
    assert match_step({"events": {"order": [{"type": "draw"}, {"type": "shuffle"}]}},
                      OK, None, "s")


def test_event_pattern_is_partial():
    assert event_matches({"type": "damage"}, {"type": "damage", "amount": 3})
    assert not event_matches({"type": "damage", "amount": 4}, {"type": "damage", "amount": 3})


def test_events_count_is_exact():
    twice = {"accepted": True, "events": [{"type": "shuffle"}, {"type": "shuffle"}]}
    rule = {"events": {"count": [{"match": {"type": "shuffle"}, "n": 1}]}}
    assert match_step(rule, twice, None, "s")
    assert not match_step(rule, OK, None, "s")
    assert not match_step({"events": {"count": [{"match": {"type": "reveal"}, "n": 0}]}},
                          OK, None, "s")
