"""The card-language renderer: each object of a setup as a card face built by phase.rs's own
Oracle parser (``phase.build_oracle_face``) from the suite's card language
(`conformance.rulesets.mtg.oracle`): a real card's Oracle text where the object names one,
the rendered text of its abilities otherwise.  Hand-built, as phase.rs's own typed data
(`_typed_lines`; docs/engines/phase.md, "Typed lines"), are only three lines of the card
language its parser fails on while its engine has the effect: the statics "You may spend
mana as though it were mana of any type to cast spells." and "Mana of any type can be spent
to cast spells." (the static phase.rs's parser makes of Vizier of the Menagerie's "You can
spend mana of any type to cast creature spells.", for all spells) and "This turn, <cost
change>." (phase.rs's parse of the cost change as a static, granted to its controller until
end of turn as its parser types Yawgmoth's Will); tests/engines/test_phase_typed.py checks
both structures against phase.rs's parse of those real cards.

Also here: phase.rs's engine for a set of cards (`engine`) and the opening state of a game
of those decks (`opening`).  Kept once built, because benchmarks/run.py --phase shows each
pays: the faces (`face`), the openings and the carriers of effects (`carrier`)."""

from __future__ import annotations

import copy
import json
from functools import cache, lru_cache
from typing import Any

from conformance import Unsupported
from conformance.rulesets.mtg import oracle

from .mapping import MAX_PASSES

try:
    import phase
except ImportError:  # pragma: no cover - the suite runs without the extra
    phase = None  # type: ignore[assignment, unused-ignore]  # unused when phase is absent (Any)


def installed() -> bool:
    """Whether phase-python is installed (the suite runs without the extra)."""
    return phase is not None


@cache
def face(card_json: str) -> Any:
    """phase.rs's card face for an MTGJSON card (cached: parsing is the slow part), with
    the lines its parser fails on but its engine has typed (`_typed_lines`) given as that
    typed data."""
    return _typed_lines(phase.build_oracle_face(json.loads(card_json), None))


#: The card language's two any-type statics, "You may spend mana as though it were mana of
#: any type to cast spells." (`grant: spend_as_any_type`) and "Mana of any type can be spent
#: to cast spells." (`grant: any_type_can_be_spent`; CR 609.4b: the same permission), as
#: phase.rs's typed static: the one its parser makes of Vizier of the Menagerie's "You can
#: spend mana of any type to cast creature spells." (the any-type concession,
#: ``AnyTypeOrColor``, of its controller: the grant's controller), with the spells of
#: Vedalken Orrery's "cast spells" (``Typed Card``) for creature spells.  phase.rs's parser
#: fails on both lines; tests/engines/test_phase_typed.py checks the structure against its
#: parse of the two real cards.
SPELLS = {"type": "Typed", "type_filters": ["Card"], "controller": None, "properties": []}
ANY_TYPE_LINES = frozenset(oracle.GRANTS[g]["static"]
                           for g in ("spend_as_any_type", "any_type_can_be_spent"))


def _any_type_static(line: str) -> dict[str, Any]:
    return {"mode": {"SpendManaAsAnyColor": {"spell_filter": copy.deepcopy(SPELLS),
                                             "concession": "AnyTypeOrColor"}},
            "affected": {"type": "Controller"}, "modifications": [], "condition": None,
            "affected_zone": None, "effect_zone": None, "active_zones": [],
            "characteristic_defining": False, "description": line}


#: "This turn, <static ability>": that static ability for its controller until end of turn,
#: in the shape phase.rs's parser gives Yawgmoth's Will ("Until end of turn, you may play
#: lands and cast spells from your graveyard."): a player-granted static
#: (``GrantStaticAbility``) of a ``GenericEffect`` until end of turn.
ONE_TURN_PREFIX = "This turn, "
#: The static modes phase.rs 0.103.0 honours when granted to a player that way (checked by
#: playing them): cost changes.  (A granted ``SpendManaAsAnyColor`` is never consulted by a
#: payment: "Mana of any type can be spent to cast spells this turn" stays an engine gap.)
ONE_TURN_MODES = frozenset({"ModifyCost"})


def _one_turn(static: dict[str, Any]) -> dict[str, Any]:
    """The effect "this turn, <static>" as phase.rs types a one-turn player static."""
    return {"type": "GenericEffect", "duration": "UntilEndOfTurn",
            "target": {"type": "Controller"},
            "static_abilities": [{
                "mode": "Continuous", "affected": {"type": "Controller"},
                "modifications": [{"type": "GrantStaticAbility", "definition": static}],
                "condition": None, "affected_zone": None, "effect_zone": None,
                "active_zones": [], "characteristic_defining": False, "description": None}]}


#: The first phase-python release whose data model `_typed_lines` builds for; before it a
#: line the parser leaves unimplemented stays so (an engine gap), as docs/engines/phase.md
#: says under "Older releases".
TYPED_SINCE = (0, 103, 0)


@cache
def release() -> tuple[int, ...]:
    """The installed phase-python release, e.g. (0, 103, 0)."""
    from importlib.metadata import version

    return tuple(int(part) for part in version("phase-python").split(".")[:3] if part.isdigit())


def _typed_lines(face: Any) -> Any:
    """Give phase.rs's own typed data for the lines of the suite's card language its parser
    marks ``Unimplemented`` while its engine has the effect (docs/engines/phase.md, "Typed
    lines"); every other line is the parser's.  Only from `TYPED_SINCE` on.

    - the statics "You may spend mana as though it were mana of any type to cast spells."
      and "Mana of any type can be spent to cast spells." (`_any_type_static`);
    - an instruction "This turn, <cost change>." (the card language's resolved
      ``cost_change``): phase.rs's parse of the cost change as a static ability (the
      Thalia / Grand Arbiter Augustin IV wording its parser reads), for its controller
      until end of turn (`_one_turn`)."""
    if release() < TYPED_SINCE:
        return face
    abilities = []
    for ability in face["abilities"]:
        effect = ability.get("effect") or {}
        if effect.get("type") != "Unimplemented":
            abilities.append(ability)
            continue
        line = str(ability.get("description") or "")
        if ability.get("kind") == "Spell" and line in ANY_TYPE_LINES:
            face["static_abilities"].append(_any_type_static(line))
            continue
        static = _one_turn_static(line) if ability.get("sub_ability") is None else None
        if static is not None:
            ability = dict(ability, effect=_one_turn(static), duration="UntilEndOfTurn")
        abilities.append(ability)
    face["abilities"] = abilities
    return face


def _one_turn_static(line: str) -> dict[str, Any] | None:
    """The static ability of a line "[{cost}: ]This turn, <static sentence>" as phase.rs's
    parser reads the static sentence, if it is one of `ONE_TURN_MODES`."""
    _, _, sentence = line.rpartition(": ") if line.startswith("{") else ("", "", line)
    if not sentence.startswith(ONE_TURN_PREFIX):
        return None
    static_line = sentence.removeprefix(ONE_TURN_PREFIX)
    static_line = static_line[:1].upper() + static_line[1:]
    parsed = phase.build_oracle_face(oracle.card(
        {"id": "static", "name": "Conformance Static", "types": ["enchantment"]},
        (static_line,)), None)
    statics = parsed["static_abilities"]
    if (len(statics) != 1 or parsed["abilities"] or parse_problems(parsed)
            or not isinstance(statics[0]["mode"], dict)
            or set(statics[0]["mode"]) - ONE_TURN_MODES):
        return None
    static: dict[str, Any] = statics[0]
    return static


#: What an ``Unimplemented`` part of a face means for the engine, where more than the text is
#: known (docs/engines/phase.md, "Skips"): keyed by its name and text (None: any text).
GAP_NOTES: dict[tuple[str, str | None], str] = {
    ("unrecognized_clause_head", "play lands"):
        "Shaman's Trance: the rest of its second sentence parses as a cast of a card from the "
        "caster's own graveyard (CastFromZone), and phase.rs has no effect letting a player "
        "cast another player's graveyard cards as though they were in their own graveyard",
    ("standalone_mana_spend_concession", None):
        "phase.rs has no one-turn mana-spend permission: its any-type static granted to the "
        "player until end of turn is not consulted by a payment",
}


def parse_problems(face: Any) -> list[str]:
    """The parts of a face phase.rs's parser did not understand (quoted, with what that means
    for the engine where `GAP_NOTES` knows)."""
    found = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "Unimplemented":
                text = str(node.get("description") or node.get("name"))
                name = str(node.get("name"))
                note = GAP_NOTES.get((name, text)) or GAP_NOTES.get((name, None))
                found.append(f"{text!r} ({note})" if note else repr(text))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk([face["abilities"], face["static_abilities"], face["replacements"],
          face["triggers"]])
    return found


@cache
def carrier(name: str) -> str:
    """phase.rs's object for an enchantment of that name (as JSON, for a fresh copy each
    time): the carrier of an effect with no source (`actions.cast_effect`)."""
    card = oracle.card({"id": "e", "name": name, "types": ["enchantment"]})
    checked_face(card)
    factory = _engine_for({name: card}).new_game([name], [name], seed=1, first_player=0)
    return json.dumps(next(o for o in factory.state()["state"]["objects"].values()
                           if o["name"] == name and o["owner"] == 0))


def _engine_for(cards: dict[str, dict[str, Any]]) -> Any:
    return engine(json.dumps(cards, sort_keys=True))


def engine(cards_json: str) -> Any:
    """phase.rs's engine (its card database) for these cards (not kept: building one from
    the kept faces costs no more than keeping it: benchmarks/run.py --phase)."""
    faces = {name.lower(): face(json.dumps(c, sort_keys=True))
             for name, c in json.loads(cards_json).items()}
    return phase.Engine.from_json(json.dumps(faces))


@lru_cache(maxsize=256)
def opening(cards_json: str, p1: tuple[str, ...], p2: tuple[str, ...]) -> str:
    """The state (as JSON, for a fresh copy each time) of a new game of these decks at p1's
    first main phase: the same every time (seed 1), so phase.rs plays it once per process.
    Without what only got the game there: the opening hands' draws (``zone_changes_this_turn``
    and the rules journal, a new game's empty one instead) and the decklists (the cards are
    the game's objects): about 60 % of the state's JSON, which every ``load_game`` and
    ``state()`` of the case would carry.  Every item's result is the same without them."""
    game = engine(cards_json).new_game(list(p1), list(p2), seed=1, first_player=0)
    _advance_to_main(game)
    state = game.state()
    st = state["state"]
    st["zone_changes_this_turn"] = []
    for pool in st.get("deck_pools") or []:
        pool["registered_main"] = pool["current_main"] = []
    journal = st.get("resolved_rules_journal")
    if journal:     # an empty journal, as a new game's (phase.rs checks it on load)
        st["resolved_rules_journal"] = dict(journal, entries=[], nodes=[],
                                            next_command_ordinal=0,
                                            next_settlement_node_ordinal=0)
    return json.dumps(state)


def card_for(obj: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The card phase.rs gets for a case object: a real card by its Oracle name, or
    the object's rendered text under a name of its own (case names such as "red ward"
    would be read as rules text by phase.rs's self-reference matching)."""
    try:
        card = oracle.card(obj if obj.get("oracle_name")
                           else dict(obj, name=f"Conformance {obj['id'].upper()}"))
    except (oracle.NotRenderable, KeyError) as exc:
        raise Unsupported(f"{obj['id']}: the card language cannot write it: "
                          f"{exc}",
                          kind="not-mapped") from exc
    checked_face(card, whose=f"{obj['id']}'s text: ")
    return card["name"], card


def checked_face(card: dict[str, Any], whose: str = "") -> Any:
    """The card's face; `Unsupported` (an engine gap) naming the first part of ``whose``
    text phase.rs's parser did not understand."""
    parsed = face(json.dumps(card, sort_keys=True))
    problems = parse_problems(parsed)
    if problems:
        raise Unsupported(f"phase.rs's Oracle parser does not implement {whose}{problems[0]}",
                          kind="engine-gap")
    return parsed


def _advance_to_main(game: Any) -> None:
    """Keep both opening hands and pass to p1's first main phase."""
    for _ in range(MAX_PASSES):
        waiting = game.waiting_for()
        if waiting["type"] == "Priority" and game.phase == "PreCombatMain":
            return
        actions = game.actions()
        if waiting["type"] == "MulliganDecision":
            seat = waiting["data"]["pending"][0]["player"]
            keep = next(a for a in actions if a.data["choice"]["type"] == "Keep")
            game.apply(seat, keep)
        else:
            game.apply(game.priority_player(), actions[0])
    raise Unsupported("phase.rs did not reach the first main phase",
                      kind="engine-gap")
