"""Hypothesis strategies for Vision scenarios, in the vocabulary only.

Every strategy draws a scenario ``{"setup": ..., "steps": [{"do": ...}, ...]}``
written in docs/rulesets/vision.md.  Boards are small (a handful of cards) so
each example runs in milliseconds.  Card ids are short and stable (``t1``,
``d0``...), so a shrunk counterexample reads like a hand-written case.

The properties work out what should happen from the scenario itself (see
`conformance.rulesets.vision.expected`), so the strategies carry no hidden
metadata: a counterexample YAML is the whole story.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance.rulesets.vision.expected import MODIFIER_ORDER, base_power, power_after

Scenario = dict[str, Any]

#: Names for the name-reference property: the seed's own example (12.3.1) and
#: short strings over a tiny alphabet so that substrings and duplicates are common.
SEED_NAMES = ("博麗 霊夢", "符ノ壱“博麗 霊夢”", "博麗神社")
NAMES = st.one_of(
    st.sampled_from(SEED_NAMES),
    st.lists(st.sampled_from(["A", "B", "AB"]), min_size=1, max_size=2).map(" ".join))


def character(cid: str, power: str = "0/9", **fields: Any) -> dict[str, Any]:
    """A character CARD; empty lists are left out, as the vocabulary's defaults."""
    return {"id": cid, "power": power, **{k: v for k, v in fields.items() if v != []}}


def resolve(effect: list[dict[str, Any]], by: str = "p1", source: str | None = None,
            targets: list[str] | None = None) -> dict[str, Any]:
    """A ``resolve`` step."""
    action: dict[str, Any] = {"by": by, "effect": effect}
    if source is not None:
        action["source"] = source
    if targets is not None:
        action["targets"] = targets
    return {"do": {"resolve": action}}


def enters_field_auto(effect: list[dict[str, Any]], unnegatable: bool) -> dict[str, Any]:
    return {"kind": "auto", "unnegatable": unnegatable,
            "when": {"event": "enters_field", "filter": {"type": "character"}},
            "effect": effect}


# -- 1. 【】 text survives negation --------------------------------------------------------

NEGATIONS = ("none", "negate_text", "negate_text_including_unnegatable", "negate_auto")


def negation_instruction(kind: str, target: str) -> dict[str, Any]:
    """The instruction for one of ``NEGATIONS`` other than ``"none"``."""
    if kind == "negate_auto":
        return {"negate_auto": {"target": {"card": target}}}
    return {"negate_text": {"target": {"card": target},
                            "include_unnegatable": kind.endswith("including_unnegatable")}}


@st.composite
def unnegatable_text_scenarios(draw: st.DrawFn) -> Scenario:
    """A character n1 whose clauses each mark one dummy; its text is negated
    none, one or two times (plain, including 【】, or auto only); a character
    enters the field.

    Clause i is an auto clause (when a character enters, deal 1 damage to d_i)
    or a continuous clause (d_i gets attack +1), either in 【】 or not.
    """
    clauses = draw(st.lists(st.tuples(st.sampled_from(["auto", "continuous"]), st.booleans()),
                            min_size=1, max_size=4))
    negations = draw(st.lists(st.sampled_from(NEGATIONS[1:]), max_size=2))
    texts = []
    for i, (kind, unnegatable) in enumerate(clauses):
        if kind == "auto":
            texts.append(enters_field_auto(
                [{"damage": {"target": {"card": f"d{i}"}, "amount": 1}}], unnegatable))
        else:
            texts.append({"kind": "continuous", "unnegatable": unnegatable,
                          "applies_to": {"card": f"d{i}"},
                          "modifier": {"kind": "add", "attack": 1}})
    setup = {
        "p1": {"field": [character("n1", "1/5", name="negated", texts=texts)],
               "hand": [character("e1", "1/1", name="entering")]},
        "p2": {"field": [character(f"d{i}", "0/9", name=f"dummy{i}")
                         for i in range(len(clauses))]},
    }
    steps = [resolve([negation_instruction(kind, "n1")], by="p2") for kind in negations]
    steps.append({"do": {"put_onto_field": "e1", "by": "p1"}})
    return {"setup": setup, "steps": steps}


@st.composite
def unnegatable_effect_scenarios(draw: st.DrawFn) -> Scenario:
    """p1 plays a card whose play clause (in 【】 or not) targets p2's t1; p2 may
    have a card that negates an effect of the opponent targeting its cards."""
    unnegatable = draw(st.booleans())
    guard = draw(st.one_of(st.none(), st.booleans()))  # None: no guard; else its own 【】 flag
    amount = draw(st.integers(1, 3))
    then_draw = draw(st.booleans())
    card_type = draw(st.sampled_from(["command", "spell"]))
    effect: list[dict[str, Any]] = [{"damage": {"target": "chosen", "amount": amount}}]
    if then_draw:
        effect.append({"draw": {"player": "self", "count": 1}})
    p2_field = [character("t1", "0/9", name="target")]
    if guard is not None:
        p2_field.append(character("w1", "0/9", name="guard", texts=[{
            "kind": "auto", "unnegatable": guard,
            "when": {"event": "targeted", "filter": {"controller": "self"}},
            "effect": [{"negate_effect": {}}]}]))
    setup = {
        "p1": {"nodes": 3, "deck": [character("k1", "1/1"), character("k2", "1/1")],
               "hand": [{"id": "s1", "name": "bolt", "type": card_type, "cost": 1,
                         "texts": [{"kind": "play", "unnegatable": unnegatable,
                                    "effect": effect}]}]},
        "p2": {"field": p2_field},
    }
    steps = [{"do": {"play": "s1", "by": "p1", "pay_nodes": 1, "targets": ["t1"]}}]
    return {"setup": setup, "steps": steps}


# -- 2. shuffle after the whole deck was revealed or looked at ----------------------------

@st.composite
def shuffle_scenarios(draw: st.DrawFn) -> Scenario:
    """One effect of p1 reveals or looks at one player's deck (count, all or
    until); then maybe says to shuffle, maybe puts p2's v1 into 決死状態 (p1's
    w1 then draws from that deck: another effect operating the deck mid-
    resolution), maybe draws itself; then maybe a game draw."""
    who = draw(st.sampled_from(["self", "opponent"]))
    op = draw(st.sampled_from(["reveal", "look"]))
    form = draw(st.sampled_from(["count", "all", "until"]))
    decks = {}
    for player, prefix in (("p1", "a"), ("p2", "b")):
        names = draw(st.lists(st.sampled_from(["hit", "miss"]), min_size=1, max_size=4))
        decks[player] = [character(f"{prefix}{i}", "1/1", name=name)
                         for i, name in enumerate(names)]
    deck = decks["p1" if who == "self" else "p2"]
    args: dict[str, Any] = {"player": who}
    if form == "count":
        args["count"] = draw(st.integers(1, len(deck) + 2))
    elif form == "all":
        args["all"] = True
    else:
        args["until"] = {"zone": "deck", "name_ref": "hit"}
    effect: list[dict[str, Any]] = [{op: args}]
    if draw(st.booleans()):
        effect.append({"shuffle": {"player": who}})
    setup: dict[str, Any] = {"p1": {"deck": decks["p1"]}, "p2": {"deck": decks["p2"]}}
    if draw(st.booleans()):
        effect.append({"deathblow": {"target": {"card": "v1"}}})
        setup["p1"]["field"] = [character("w1", "0/9", name="watcher", texts=[{
            "kind": "auto",
            "when": {"event": "would_deathblow", "filter": {"controller": "opponent"}},
            "effect": [{"draw": {"player": who, "count": 1}}]}])]
        setup["p2"]["field"] = [character("v1", "0/3", name="victim")]
    if draw(st.booleans()):
        effect.append({"draw": {"player": who, "count": 1}})
    steps = [resolve(effect)]
    draws = sum("draw" in ins or "deathblow" in ins for ins in effect)
    if len(deck) > draws and draw(st.booleans()):
        steps.append({"do": {"draw": {"player": "p1" if who == "self" else "p2", "count": 1}}})
    return {"setup": setup, "steps": steps}


# -- 3. combat power: 6.1.10 -----------------------------------------------------------

def _modifier(kind: str) -> st.SearchStrategy[dict[str, Any]]:
    if kind == "swap":
        return st.just({"kind": "swap"})
    if kind == "add":
        sides = {"attack": st.integers(-1, 3), "durability": st.integers(-1, 3)}
    else:
        sides = {"attack": st.integers(1, 6), "durability": st.integers(1, 6)}
    return (st.fixed_dictionaries({}, optional=sides).filter(bool)
            .map(lambda v: {"kind": kind, **v}))


@st.composite
def _modifiers(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A few modifiers of each kind, interleaved at random."""
    counts = {"change": draw(st.integers(0, 2)), "swap": draw(st.integers(0, 2)),
              "add": draw(st.integers(0, 2)), "always": draw(st.integers(0, 2))}
    of_kind = {kind: [draw(_modifier(kind)) for _ in range(n)] for kind, n in counts.items()}
    labels = draw(st.permutations([kind for kind, n in counts.items() for _ in range(n)]))
    return [of_kind[kind].pop(0) for kind in labels]


def grouped_order(mods: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Another arrival order: kinds grouped in reverse 6.1.10 order, each kind's
    own modifiers kept in their relative order."""
    return [m for kind in ("always", "add", "swap", "change") for m in mods
            if m["kind"] == kind]


def rule_order(mods: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Another arrival order: kinds grouped in the 6.1.10 order itself (change, swap,
    add, always), each kind's own modifiers kept in their relative order."""
    return [m for kind in MODIFIER_ORDER for m in mods if m["kind"] == kind]


def arrival_orders(mods: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The arrival orders `metamorphic-modifier-arrival` compares with ``mods``: those
    of the two grouped orders that differ from it in the sequence of kinds."""
    kinds = [m["kind"] for m in mods]
    orders = []
    for order in (grouped_order(mods), rule_order(mods)):
        if [m["kind"] for m in order] != kinds and order not in orders:
            orders.append(order)
    return orders


def stays_alive(base: tuple[int, int], standing: list[dict[str, Any]],
                mods: list[dict[str, Any]]) -> bool:
    """Durability 0 or less puts the card into 決死状態 (9.2.2.b) and a negative
    attack is outside this property: every intermediate value stays positive, in
    the generated order and in every order the arrival property compares it with
    (a card destroyed part way keeps no power to compare)."""
    return all(
        a >= 0 and d >= 1
        for order in (mods, *arrival_orders(mods))
        for a, d in (power_after(base, standing + order[:i]) for i in range(len(order) + 1))
    )


@st.composite
def power_scenarios(draw: st.DrawFn) -> Scenario:
    """A character t1 (maybe with a variable X) gets modifiers of mixed kinds, one
    per step, each from its own effect.  It may instead enter the field under a
    continuous modifier of p1's m1 that is already in force (QA-356: No.770
    putting No.774 onto the field)."""
    base = draw(st.sampled_from(["fixed", "x_hand", "x_cost"]))
    hand = [character(f"h{i}", "1/1") for i in range(draw(st.integers(1, 3)))]
    if base == "fixed":
        card = character("t1", f"{draw(st.integers(1, 5))}/{draw(st.integers(1, 6))}")
    elif base == "x_hand":
        card = character("t1", f"X/{draw(st.integers(1, 6))}",
                         x={"count": "hand", "player": "self"})
    else:
        card = character("t1", "X/X", cost=draw(st.integers(1, 4)), x="cost")
    card["name"] = "modified"
    start = base_power(card, {"hand": hand})
    p1: dict[str, Any] = {"field": [card], "hand": hand}
    steps = []
    standing: list[dict[str, Any]] = []
    if draw(st.booleans()):
        standing = [draw(st.one_of(_modifier("change"), _modifier(
            draw(st.sampled_from(["swap", "add", "always"])))))]
        p1 = {"field": [character("m1", "0/9", name="holder", texts=[
                  {"kind": "continuous", "applies_to": {"card": "t1"},
                   "modifier": standing[0]}])],
              "hand": [*hand, card]}
        steps.append({"do": {"put_onto_field": "t1", "by": "p1"}})
    mods = draw(_modifiers().filter(lambda ms: stays_alive(start, standing, ms)
                                    and bool(ms or standing)))
    return {"setup": {"p1": p1}, "steps": steps + [power_step(m) for m in mods]}


def power_step(mod: dict[str, Any], target: str = "t1") -> dict[str, Any]:
    return resolve([{"power": {"target": {"card": target}, **mod}}])


# -- 4. deathblow ---------------------------------------------------------------------

def _deathblow_step(kind: str, source: str, amount: int) -> dict[str, Any]:
    if kind == "battle":
        return {"do": {"battle_damage": {"target": "t1", "amount": amount, "source": source}}}
    if kind == "effect":
        return resolve([{"damage": {"target": {"card": "t1"}, "amount": amount}}],
                       source=source)
    if kind == "deathblow":
        return resolve([{"deathblow": {"target": {"card": "t1"}}}], source=source)
    return resolve([{"power": {"target": {"card": "t1"}, "kind": "add",
                               "durability": -amount}}], source=source)


@st.composite
def deathblow_scenarios(draw: st.DrawFn) -> Scenario:
    """p2's t1 takes battle damage, effect damage, a deathblow instruction or a
    durability cut from p1's s1/s2; p1's watcher draws when a card is put into
    決死状態 by battle.  A few steps that should leave t1 standing, then one
    that should put it into 決死状態 (unless it is an instruction t1 is immune to),
    maybe followed in the same effect by returning t1 to hand; the scenario ends
    there."""
    durability = draw(st.integers(1, 5))
    immune = draw(st.sampled_from([False, False, True]))   # a deathblow instruction hits 2/3
    # Whether immunity to 決死状態 stops 9.2.2.a is not settled by the seed; only
    # 9.2.2.b (durability 0 or less) is said to override card effects.  So an
    # immune card never gets damage here.
    damage = 0 if immune else draw(st.integers(0, durability - 1))
    kinds = ["deathblow", "shrink"] if immune else ["battle", "effect", "deathblow", "shrink"]
    sources = st.sampled_from(["s1", "s2"])
    ops = draw(st.lists(st.tuples(st.sampled_from(kinds), sources, st.integers(1, 2)),
                        max_size=3))
    finisher = draw(st.tuples(st.sampled_from(kinds), sources))
    target: dict[str, Any] = character("t1", f"1/{durability}", name="victim")
    if damage:
        target["damage"] = damage
    if immune:
        target["immune"] = ["deathblow"]
    watcher = character("w1", "0/9", name="watcher", texts=[{
        "kind": "auto",
        "when": {"event": "deathblow_by_battle", "filter": {"controller": "opponent"}},
        "effect": [{"draw": {"player": "self", "count": 1}}]}])
    setup = {
        "p1": {"field": [character("s1", "3/3", name="striker"),
                         character("s2", "2/2", name="caster"), watcher],
               "deck": [character("k1", "1/1"), character("k2", "1/1")]},
        "p2": {"field": [target]},
    }
    steps = []
    dmg, dur = damage, durability
    for kind, source, amount in ops:
        steps.append(_deathblow_step(kind, source, amount))
        dmg += amount if kind in ("battle", "effect") else 0
        dur -= amount if kind == "shrink" else 0
        if dmg >= dur or dur <= 0 or (kind == "deathblow" and not immune):
            return {"setup": setup, "steps": steps}
    kind, source = finisher
    amount = dur if kind == "shrink" else max(dur - dmg, 1)
    steps.append(_deathblow_step(kind, source, amount))
    if kind != "battle" and not (kind == "deathblow" and immune) and draw(st.booleans()):
        # the same effect then acts on t1 again: by then it is in 決死状態 and gone
        steps[-1]["do"]["resolve"]["effect"].append({"return_to_hand": {"target": {"card": "t1"}}})
    return {"setup": setup, "steps": steps}


# -- 5. name reference ---------------------------------------------------------------

@st.composite
def name_scenarios(draw: st.DrawFn) -> Scenario:
    """Cards with names (and maybe link names, 連結) on both fields; maybe one is
    renamed (変装); then an ``all`` effect refers to a name or to the same name
    as one card, and deals 1 damage to each card it refers to.  Names come from
    a tiny alphabet with spaces ("A B" vs "AB") and the seed's 符ノ壱“…” title,
    so partial, spaced and titled near-misses are common."""
    mode = draw(st.sampled_from(["name_ref", "same_name_as"]))
    count = draw(st.integers(2, 5))
    cards = []
    for i in range(count):
        card = character(f"c{i}", "0/9", name=draw(NAMES))
        links = draw(st.lists(NAMES, max_size=2, unique=True))
        if links:
            card["link_names"] = links
        cards.append(card)
    split = draw(st.integers(0, count))
    setup = {"p1": {"field": cards[:split]}, "p2": {"field": cards[split:]}}
    steps = []
    if draw(st.booleans()):
        renamed = draw(st.sampled_from(cards))["id"]
        steps.append(resolve([{"change_name": {"target": {"card": renamed},
                                               "name": draw(NAMES)}}]))
    if mode == "name_ref":
        some = draw(st.sampled_from(cards))["name"]
        start = draw(st.integers(0, len(some) - 1))
        end = draw(st.integers(start + 1, len(some)))
        ref = draw(st.one_of(st.just(some[start:end]), NAMES, st.sampled_from(["博麗 霊夢"])))
        flt: dict[str, Any] = {"name_ref": ref}
    else:
        ref_id = draw(st.sampled_from(cards))["id"]
        flt = {"same_name_as": ref_id, "not": ref_id}
    steps.append(resolve([{"damage": {"target": {"all": flt}, "amount": 1}}]))
    return {"setup": setup, "steps": steps}


# -- 6. resolution stops at the first failing part ----------------------------------------

#: Filters an ``all`` instruction may use: several cards, one card (a1; p2's spell w1, which
#: damage cannot be applied to), none at all.
ALL_FILTERS = (
    {"controller": "opponent"},
    {"controller": "self", "not": "src"},
    {"name_ref": "nothing-has-this-name"},
    {"type": "spell"},
    {"type": "command"},
)


@st.composite
def resolution_scenarios(draw: st.DrawFn) -> Scenario:
    """One effect of 2-5 instructions: damage/return to a named card, to the chosen
    card(s), to ``this`` or to ``all`` (matching none, one or several), whose
    targets may be immune, off the field or not a character (p2's spell w1); draw
    and discard 1 or 2 (which fail on a short deck or hand)."""
    immunities = st.sampled_from([[], [], [], ["damage"], ["return"], ["damage", "return"]])
    p1_field = [character("src", "0/9", name="source", immune=draw(immunities)),
                character("a1", "0/9", name="ally", immune=draw(immunities))]
    # foe two leans immune and foe one not, so an 'all' part often reaches a card it
    # cannot be applied to beside one it can (IR-12/p3's partial 'all')
    leaning = st.sampled_from([["damage"], ["return"], [], ["damage", "return"]])
    # and a spell of p2's stands on the field: a non-character, which damage cannot be
    # applied to (vision/reading/what-cannot-be-applied)
    p2_field = [character("t1", "0/9", name="foe one", immune=draw(immunities)),
                character("t2", "0/9", name="foe two", immune=draw(leaning)),
                {"id": "w1", "name": "standing spell", "type": "spell"}]
    deck = [character(f"k{i}", "1/1") for i in range(draw(st.integers(0, 3)))]
    hand = [character(f"h{i}", "1/1") for i in range(draw(st.integers(0, 3)))]
    ids = ["a1", "t1", "t2", "w1", "x1"]  # x1 is in p2's hand
    targets = draw(st.one_of(st.lists(st.sampled_from(ids), min_size=2, max_size=3,
                                      unique=True),
                             st.sampled_from(ids).map(lambda c: [c])))
    every = st.sampled_from(ALL_FILTERS).map(lambda f: {"all": f})
    selector = st.one_of(every, st.sampled_from(ids).map(lambda c: {"card": c}), every,
                         st.sampled_from(["chosen", "chosen", "this"]))
    count = st.integers(1, 2)
    instruction = st.one_of(
        st.builds(lambda t: {"damage": {"target": t, "amount": 1}}, selector),
        st.builds(lambda t: {"return_to_hand": {"target": t}}, selector),
        st.builds(lambda n: {"draw": {"player": "self", "count": n}}, count),
        st.builds(lambda n: {"discard": {"player": "self", "count": n}}, count),
    )
    # a text in three opens with an "all" part (on both foes more often): always reached, so
    # 12/p3, p4 and the every-card-failing reading come up in a small budget
    head_all = st.sampled_from([ALL_FILTERS[0], *ALL_FILTERS]).map(lambda f: {"all": f})
    on_all = st.one_of(st.builds(lambda t: {"damage": {"target": t, "amount": 1}}, head_all),
                       st.builds(lambda t: {"return_to_hand": {"target": t}}, head_all))
    head = draw(st.one_of(on_all, instruction, instruction))
    effect = [head, *draw(st.lists(instruction, min_size=1, max_size=4))]
    setup = {"p1": {"field": p1_field, "deck": deck, "hand": hand},
             "p2": {"field": p2_field, "hand": [character("x1", "0/9", name="in hand")]}}
    return {"setup": setup, "steps": [resolve(effect, source="src", targets=targets)]}


# -- 7. X is the nodes actually paid -------------------------------------------------

@st.composite
def x_cost_scenarios(draw: st.DrawFn) -> Scenario:
    """p1 plays an X-cost card paying some nodes while cost modifiers of either
    player are in force; its effect deals X damage and maybe draws X."""
    nodes = draw(st.integers(1, 7))
    pay = draw(st.integers(1, nodes))
    mine = draw(st.lists(st.sampled_from([-2, -1, 1, 2]), min_size=1, max_size=3))
    theirs = draw(st.lists(st.sampled_from([-2, -1, 1, 2]), max_size=2))
    effect: list[dict[str, Any]] = [{"damage": {"target": "chosen", "amount": "X"}}]
    if draw(st.booleans()):
        effect.append({"draw": {"player": "self", "count": "X"}})

    def holders(prefix: str, mods: list[int]) -> list[dict[str, Any]]:
        return [character(f"{prefix}{i}", "0/5", name=f"cost {m:+d}",
                          texts=[{"kind": "continuous", "modifier": {"cost": m}}])
                for i, m in enumerate(mods)]

    setup = {
        "p1": {"nodes": nodes,
               "hand": [{"id": "s1", "name": "X-bolt",
                         "type": draw(st.sampled_from(["spell", "command"])), "cost": "X",
                         "texts": [{"kind": "play", "effect": effect}]}],
               "deck": [character(f"k{i}", "1/1") for i in range(7)],
               "field": holders("m", mine)},
        "p2": {"field": [character("t1", "0/20", name="target"), *holders("o", theirs)]},
    }
    steps = [{"do": {"play": "s1", "by": "p1", "pay_nodes": pay, "targets": ["t1"]}}]
    return {"setup": setup, "steps": steps}


# -- 8. differential -------------------------------------------------------------------

def any_scenarios() -> st.SearchStrategy[Scenario]:
    """Every kind of scenario above, for the differential property."""
    return st.one_of(unnegatable_text_scenarios(), unnegatable_effect_scenarios(),
                     shuffle_scenarios(), power_scenarios(), deathblow_scenarios(),
                     name_scenarios(), resolution_scenarios(), x_cost_scenarios())
