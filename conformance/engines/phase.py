"""The phase.rs adapter: certify the open-source phase.rs MTG rules engine on ruleset mtg.

phase.rs (Rust, MIT) ships Python bindings as ``phase-python`` (``pip install
'card-conformance[phase]'``).  This adapter drives it only through that public API:

- **cards**: every object of a setup becomes a card face built by phase.rs's own
  Oracle parser (``phase.build_oracle_face``) from the suite's card language
  (`conformance.rulesets.mtg.oracle`): a real card's Oracle text where the object
  names one, the rendered text of its abilities otherwise.  Hand-built, as phase.rs's
  own typed data (`_typed_lines`; docs/engines/phase.md, "Typed lines"), are only three
  lines of the card language its parser fails on while its engine has the effect: the
  statics "You may spend mana as though it were mana of any type to cast spells." and
  "Mana of any type can be spent to cast spells." (the static phase.rs's parser makes of
  Vizier of the Menagerie's "You can spend mana of any type to cast creature spells.",
  for all spells) and "This turn, <cost change>." (phase.rs's parse of the cost change as
  a static, granted to its controller until end of turn as its parser types Yawgmoth's
  Will); tests/engines/test_phase_typed.py checks both structures against phase.rs's
  parse of those real cards;
- **a board**: phase.rs starts games only from decks, so the adapter starts one
  with every object in its owner's deck, keeps both hands, and then puts each
  object where the setup says by editing the game's state dict (``game.state()``)
  and resuming it (``Engine.load_game``): zones, life, mana pool, phase;
- **actions**: real game actions where the vocabulary has them (cast, activate and
  pay, pass priority to resolve and answer its choice, declare attackers, pass to the
  combat damage step; mtg vocabulary 3); a harness-only action (``apply``, ``damage``) is
  played as an activated ability ``{0}: <text>`` the adapter adds to its source
  (or, with no source, to an enchantment of its controller's), so phase.rs's own
  rules decide what it does (an ability of a card in exile, which phase.rs's list of legal
  actions omits, is applied and phase.rs's own activation check accepts or refuses it).
  Targets and choices phase.rs prompts for are answered from the action (its ``choose``,
  its card);
- **observations** are read back from the state; events from phase.rs's events.

Speed: ``game.state()`` and ``Engine.load_game`` are most of the time a certification
takes (about 1.5 and 1.8 ms a call), so the adapter asks for the state once after the game
changes and keeps it (`_view`); a step that edits the state edits that one (`_edit`) and
loads it as a JSON string (`_load`); `start`'s board is loaded only when first used, so
a first step that edits it loads once; the ``{0}`` ability of a harness step comes off its
source with the next edit.  Built once per process: phase.rs's engine for a set of cards
and the opening state of a game of the same decks (seed 1: the same game every time; kept
without the history and decklists that only got the game there, `_opening`: every load and
state is less than half the size), and each card face (by its card JSON).  `observe` and
the shield events are read off a ``game.state()`` taken after the last change; the reads
before the board is loaded (an object's zone, owner and controller; the shields already
there, none on a new board) are of the board as written, which phase.rs loads as it is.

Anything it cannot map raises `Unsupported` with the reason; it never makes up a
result.  docs/engines/phase.md is the certification and its judged failures.
"""

from __future__ import annotations

import copy
import json
from functools import cache, lru_cache
from typing import Any

from conformance import Unsupported
from conformance.rulesets.mtg import oracle

try:
    import phase
except ImportError:  # pragma: no cover - the suite runs without the extra
    phase = None  # type: ignore[assignment, unused-ignore]  # unused when phase is absent (Any)

SEATS = {"p1": 0, "p2": 1}
PLAYERS = ("p1", "p2")
ZONE_OF = {"Battlefield": "battlefield", "Hand": "hand", "Library": "library",
           "Graveyard": "graveyard", "Exile": "exile", "Stack": "stack", "Command": "command"}
PHASE_ZONE = {v: k for k, v in ZONE_OF.items()}
COLOR = {"White": "white", "Blue": "blue", "Black": "black", "Red": "red", "Green": "green"}
MANA_COLOR = {"W": "White", "U": "Blue", "B": "Black", "R": "Red", "G": "Green",
              "C": "Colorless"}
SHARD = {"White": "W", "Blue": "U", "Black": "B", "Red": "R", "Green": "G",
         "Colorless": "C"}
#: The vocabulary's timing: "main" is p1's precombat main phase, "combat" a step of combat
#: in which p1 has priority (beginning of combat: no attackers, only instant timing).
STEPS = {"main": "PreCombatMain", "combat": "BeginCombat"}
SETUP_KEYS = {"phase", "active", "p1", "p2"}
PLAYER_KEYS = {"life", "mana", "library", "hand", "battlefield", "graveyard", "exile",
               "command"}
#: Priority passes before giving up on reaching a prompt (a loop would be an engine bug).
MAX_PASSES = 20


def create() -> PhaseEngine:
    """The ``python:conformance.engines.phase:create`` factory (``--engine phase``)."""
    if phase is None:
        raise Unsupported("phase.rs is not installed: pip install 'card-conformance[phase]'")
    return PhaseEngine()


@cache
def _face(card_json: str) -> Any:
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


def _typed_lines(face: Any) -> Any:
    """Give phase.rs's own typed data for the lines of the suite's card language its parser
    marks ``Unimplemented`` while its engine has the effect (docs/engines/phase.md, "Typed
    lines"); every other line is the parser's.

    - the statics "You may spend mana as though it were mana of any type to cast spells."
      and "Mana of any type can be spent to cast spells." (`_any_type_static`);
    - an instruction "This turn, <cost change>." (the card language's resolved
      ``cost_change``): phase.rs's parse of the cost change as a static ability (the
      Thalia / Grand Arbiter Augustin IV wording its parser reads), for its controller
      until end of turn (`_one_turn`)."""
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
    if (len(statics) != 1 or parsed["abilities"] or _parse_problems(parsed)
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


def _parse_problems(face: Any) -> list[str]:
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
def _carrier(name: str) -> str:
    """phase.rs's object for an enchantment of that name (as JSON, for a fresh copy each
    time): the carrier of an effect with no source (`PhaseEngine._cast_effect`)."""
    card = oracle.card({"id": "e", "name": name, "types": ["enchantment"]})
    _checked_face(card)
    factory = _engine_for({name: card}).new_game([name], [name], seed=1, first_player=0)
    return json.dumps(next(o for o in factory.state()["state"]["objects"].values()
                           if o["name"] == name and o["owner"] == 0))


def _engine_for(cards: dict[str, dict[str, Any]]) -> Any:
    return _engine(json.dumps(cards, sort_keys=True))


@lru_cache(maxsize=256)
def _engine(cards_json: str) -> Any:
    """phase.rs's engine (its card database) for these cards, built once per process."""
    faces = {name.lower(): _face(json.dumps(c, sort_keys=True))
             for name, c in json.loads(cards_json).items()}
    return phase.Engine.from_json(json.dumps(faces))


@lru_cache(maxsize=256)
def _opening(cards_json: str, p1: tuple[str, ...], p2: tuple[str, ...]) -> str:
    """The state (as JSON, for a fresh copy each time) of a new game of these decks at p1's
    first main phase: the same every time (seed 1), so phase.rs plays it once per process.
    Without what only got the game there: the opening hands' draws (``zone_changes_this_turn``
    and the rules journal, a new game's empty one instead) and the decklists (the cards are
    the game's objects): about 60 % of the state's JSON, which every ``load_game`` and
    ``state()`` of the case would carry.  Every item's result is the same without them."""
    game = _engine(cards_json).new_game(list(p1), list(p2), seed=1, first_player=0)
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


def _mana(cost: Any) -> dict[str, int]:
    """phase.rs's ``{type: Cost, shards, generic}`` as vocabulary mana (no zero entries)."""
    if not isinstance(cost, dict) or cost.get("type") != "Cost":
        return {}
    found: dict[str, int] = {"generic": cost["generic"]} if cost.get("generic") else {}
    for shard in cost.get("shards", []):
        t = SHARD.get(shard)
        if t is None:
            raise Unsupported(f"phase.rs mana shard {shard!r} has no vocabulary type",
                              kind="not-mapped")
        found[t] = found.get(t, 0) + 1
    return found


class PhaseEngine:
    """One phase.rs game at a time, in the engine protocol (conformance/_engine.py)."""

    def __init__(self) -> None:
        self._game: Any = None
        self.engine: Any = None
        self.ids: dict[str, int] = {}           # case id -> phase object id
        self.names: dict[int, str] = {}         # phase object id -> case id
        self.setup_objects: dict[str, dict[str, Any]] = {}
        self.stack_ids: dict[int, str] = {}     # stack entry id -> the `as` of an activation
        self.ability_of: dict[str, str] = {}
        self.effects = 0                        # instants made for `apply` so far
        self.step = "PreCombatMain"              # the case's step (setup `phase`)
        # The game's state, asked for as rarely as a step allows (``game.state()`` and
        # ``Engine.load_game`` are most of the adapter's time): `_view`, `_edit`, `_load`.
        self._seen: dict[str, Any] | None = None    # game.state() since the game last changed
        self._loaded: str | None = None   # the state it was loaded from, if unchanged since
        self._loaded_shields = 0          # ... its pending damage replacements (`act`)
        self._snapshot: Any = None        # act's state to go back to (a refused action)
        self._tidy: int | None = None     # object still carrying the adapter's ability
        self._board: dict[str, Any] | None = None   # `start`'s board, loaded when first used
        self._rebuild: Any = None         # builds `start`'s board again (a refused action)
        self.active = 0                          # the case's active player (setup `active`)
        self.attackers: list[str] | None = None  # declared this turn (`attack`)

    # -- protocol -----------------------------------------------------------------------------

    def hello(self) -> dict[str, Any]:
        from importlib.metadata import version
        return {"name": "phase.rs (phase-python)", "version": version("phase-python"),
                "rulesets": ["mtg"], "vocabulary": {"mtg": 3}, "capabilities": {}}

    def close(self) -> None:
        self._game = self._board = None

    @property
    def game(self) -> Any:
        """The phase.rs game, with `start`'s board loaded (a first step that edits the
        state edits the board instead: one load, not two)."""
        if self._board is not None:
            self._load(self._board)
        return self._game

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        if ruleset != "mtg":
            raise Unsupported(f"phase.rs plays Magic only, not {ruleset!r}",
                              kind="engine-gap")
        unknown = set(setup) - SETUP_KEYS
        if unknown:
            raise Unsupported(f"setup keys {sorted(unknown)} are not mapped",
                              kind="not-mapped")
        self.ids, self.names, self.stack_ids, self.ability_of = {}, {}, {}, {}
        self.attackers = None
        self._seen = self._loaded = self._snapshot = self._tidy = self._board = None
        self.effects = 0    # carrier names repeat from game to game: their objects are cached
        self.setup_objects = {}
        placed: list[tuple[str, str, dict[str, Any]]] = []
        cards: dict[str, dict[str, Any]] = {}
        decks: dict[str, list[str]] = {"p1": [], "p2": []}
        for player in PLAYERS:
            side = setup.get(player) or {}
            if set(side) - PLAYER_KEYS:
                raise Unsupported(f"setup/{player} keys {sorted(set(side) - PLAYER_KEYS)}",
                                  kind="not-mapped")
            for zone in ("library", "hand", "battlefield", "graveyard", "exile", "command"):
                for obj in side.get(zone, []):
                    name, card = self._card(obj)
                    cards[name] = card
                    decks[player].append(name)
                    placed.append((player, zone, obj))
                    self.setup_objects[obj["id"]] = obj
        # a player with no cards still needs a deck to start a game; the filler card is
        # removed from the game before the first action
        filler = oracle.card({"id": "filler", "name": "Conformance Filler",
                              "types": ["artifact"]})
        cards[filler["name"]] = filler
        key = json.dumps(cards, sort_keys=True)
        self.engine = _engine(key)
        opening = _opening(key, (*decks["p1"], filler["name"]), (*decks["p2"], filler["name"]))
        self._rebuild = lambda: self._build_board(json.loads(opening), setup, placed)
        self._rebuild()

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        if self._board is not None:
            self._snapshot = REBUILD       # the board again, as start builds it
            before = _replacements(self._board)
        elif self._loaded is not None:
            # loaded and not changed since: the shields are those of the state it was loaded
            # from, read off the game's own state (no edit of the adapter touches them)
            before = self._loaded_shields
            self._snapshot = self._loaded
        else:
            self._snapshot = self._view()
            before = _replacements(self._snapshot)
        tidy = self._tidy   # what a refused action goes back to, as the snapshot
        try:
            events = self._act(action)
        except _Rejected as exc:
            if self._snapshot is REBUILD:
                self._rebuild()
            else:
                self._load(self._snapshot)
            self._tidy = tidy
            return {"accepted": False, "reason": str(exc)}
        finally:
            self._snapshot = None
        # phase.rs has no event for a new shield: it is read off the state
        for to, shield in self._shields(self._view()["state"])[before:]:
            events.append({"type": "shield", "to": to, "source": shield["source"]})
        return {"accepted": True, "events": events}

    # -- the game's state ---------------------------------------------------------------------

    def _view(self) -> dict[str, Any]:
        """The game's state now (``game.state()``), to read only: asked for once and kept
        until the game changes (an action applied, a state loaded).  The adapter's ability
        `_effect_of` leaves on its source changes nothing `observe` reads."""
        if self._seen is None:
            self._seen = self.game.state()
        return self._seen

    def _edit(self) -> dict[str, Any]:
        """The game's state now, to edit and `_load`: the kept one is handed over (with the
        adapter's ability taken off its source), so it is no longer kept."""
        if self._board is not None:
            state, self._board = self._board, None
        else:
            state = self._view()
        self._seen = None
        if state is self._snapshot:         # act's way back must not see the edits
            self._snapshot = json.dumps(state)
        if self._tidy is not None:
            obj = state["state"]["objects"][str(self._tidy)]
            obj["abilities"].pop()
            obj["base_abilities"].pop()
            self._tidy = None
        return state

    def _load(self, state: dict[str, Any] | str) -> None:
        """Resume the game from ``state`` (phase.rs reads a JSON string faster than a dict)."""
        if isinstance(state, str):
            text, shields = state, _replacements(json.loads(state))
        else:
            text, shields = json.dumps(state), _replacements(state)
        self._game = self.engine.load_game(text)
        self._seen, self._loaded, self._loaded_shields = None, text, shields
        self._board = None

    def _object(self, oid: int) -> dict[str, Any]:
        """One object of the game (its zone, owner, controller): off `start`'s board while
        that is not loaded yet (phase.rs keeps those as loaded), else ``game.object``."""
        obj: dict[str, Any] = (self._board["state"]["objects"][str(oid)]
                               if self._board is not None else self.game.object(oid))
        return obj

    def _actions(self) -> list[Any]:
        """The legal actions now (``game.actions()``), once the adapter's ability is off."""
        if self._tidy is not None:
            self._load(self._edit())
        return list(self.game.actions())

    def _shields(self, st: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The prevention shields in force (phase.rs's pending damage replacements), oldest
        first, as (protected player or card id, SHIELD)."""
        found = []
        for rep in st.get("pending_damage_replacements") or []:
            if rep.get("is_consumed"):      # used up: phase.rs keeps it, marked, until cleanup
                continue
            prevention = (rep.get("shield_kind") or {}).get("Prevention")
            if prevention is None:
                continue
            amount = prevention.get("amount")
            remaining = "all" if amount == "All" else (amount or {}).get("Next")
            source, limit = None, None
            flt = rep.get("damage_source_filter") or {}
            for part in flt.get("filters", [flt]):
                if part.get("type") == "SpecificObject":
                    source = self._name(part["id"])
                elif part.get("type") == "Typed":
                    for prop in part.get("properties", []):
                        if prop.get("type") == "HasColor":
                            limit = {"color": COLOR[prop["color"]]}
                    for t in part.get("type_filters", []):
                        if isinstance(t, str):
                            limit = {"type": t.lower()}
            target = rep.get("damage_target_filter") or {}
            if "Player" in target:
                to = PLAYERS[(target["Player"].get("player") or {}).get("data", 0)]
            else:
                to = self._name(next(iter(_ints(target)), None))
            found.append((to, {"source": source, "from": limit, "remaining": remaining}))
        return found

    def observe(self) -> dict[str, Any]:
        st = self._view()["state"]
        objects = st["objects"]
        cards = {}
        players: dict[str, dict[str, Any]] = {}
        for player, seat in SEATS.items():
            p = st["players"][seat]
            pool = {t: 0 for t in MANA_COLOR}
            for unit in p["mana_pool"]["mana"]:
                pool[SHARD[unit["color"]]] += 1
            players[player] = {"life": p["life"], "mana": pool,
                               **{z: [] for z in PLAYER_KEYS - {"life", "mana"}},
                               "shields": []}
        for cid, oid in self.ids.items():
            obj = objects.get(str(oid))
            if obj is None:
                continue
            zone = ZONE_OF.get(obj["zone"], obj["zone"])
            owner = PLAYERS[obj["owner"]]
            cards[cid] = {
                "zone": zone, "owner": owner, "controller": PLAYERS[obj["controller"]],
                "name": self.setup_objects[cid].get("name", ""),
                "types": [t.lower() for t in obj["card_types"]["core_types"]],
                "colors": [COLOR[c] for c in obj["color"]],
                "mana_cost": _mana(obj.get("mana_cost")),
                "power": obj.get("power"), "toughness": obj.get("toughness"),
                "damage": obj.get("damage_marked", 0),
                "keywords": sorted(_keyword(k) for k in obj.get("keywords", [])),
                "mana_spent": _spent(obj),
                "ability_of": None, "shields": []}
        for to, shield in self._shields(st):
            holder = players.get(to) or cards.get(to)
            if holder is not None:
                holder["shields"].append(shield)
        for entry_id, as_id in self.stack_ids.items():
            if any(e.get("id") == entry_id for e in st["stack"]):
                src = self.ability_of[as_id]
                cards[as_id] = {"zone": "stack", "owner": cards[src]["controller"],
                                "controller": cards[src]["controller"], "ability_of": src}
        # zone lists in the game's order, each card in its owner's list
        shared = {"battlefield": st["battlefield"], "exile": st["exile"],
                  "command": st["command_zone"]}
        for player, seat in SEATS.items():
            lists = dict(shared, **{z: st["players"][seat][z]
                                    for z in ("library", "hand", "graveyard")})
            for zone, oids in lists.items():
                players[player][zone] = [
                    self.names[o] for o in oids if o in self.names
                    and cards.get(self.names[o], {}).get("owner") == player]
        return {"cards": cards, "players": players}

    # -- building the board -------------------------------------------------------------------

    def _card(self, obj: dict[str, Any]) -> tuple[str, dict[str, Any]]:
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
        _checked_face(card, whose=f"{obj['id']}'s text: ")
        return card["name"], card

    def _build_board(self, state: dict[str, Any], setup: dict[str, Any],
                     placed: list[tuple[str, str, dict[str, Any]]]) -> None:
        st = state["state"]
        by_name: dict[tuple[int, str], list[int]] = {}
        for oid, obj in st["objects"].items():
            by_name.setdefault((obj["owner"], obj["name"]), []).append(int(oid))
        for ids in by_name.values():
            ids.sort()
        for seat in (0, 1):
            for oid in by_name.pop((seat, "Conformance Filler"), []):
                del st["objects"][str(oid)]
        for p in st["players"]:
            for zone in ("library", "hand", "graveyard"):
                p[zone] = []
        st["battlefield"], st["exile"], st["command_zone"] = [], [], []
        for player, zone, raw in placed:
            seat = SEATS[player]
            name = raw.get("oracle_name") or f"Conformance {raw['id'].upper()}"
            oid = by_name[(seat, name)].pop(0)
            self.ids[raw["id"]] = oid
            self.names[oid] = raw["id"]
            obj = st["objects"][str(oid)]
            obj["zone"] = PHASE_ZONE[zone]
            obj["damage_marked"] = raw.get("damage", 0)
            obj["face_down"] = bool(raw.get("face_down"))   # e.g. a hidden agenda (Conspiracy)
            if zone == "battlefield":
                controller = SEATS[raw.get("controller", player)]
                obj["controller"] = obj["base_controller"] = controller
                obj["entered_battlefield_turn"] = 0
                obj["summoning_sick"] = False
                obj["has_summoning_sickness"] = False
                st["battlefield"].append(oid)
            elif zone == "exile":
                st["exile"].append(oid)
            elif zone == "command":
                st["command_zone"].append(oid)
            else:
                st["players"][seat][zone].append(oid)
        pip = st.get("next_pip_id", 1)
        for player, seat in SEATS.items():
            side = setup.get(player) or {}
            p = st["players"][seat]
            p["life"] = side.get("life", 20)
            units = []
            for t, n in (side.get("mana") or {}).items():
                for _ in range(n):
                    units.append({"color": MANA_COLOR[t], "pip_id": pip, "restrictions": [],
                                  "snow": False, "source_id": 0,
                                  "source_could_produce_two_or_more_colors": False})
                    pip += 1
            p["mana_pool"]["mana"] = units
        st["next_pip_id"] = pip
        step = STEPS.get(setup.get("phase", "main"))
        if step is None:
            raise Unsupported(f"setup phase {setup.get('phase')!r} is not mapped",
                              kind="not-mapped")
        st["phase"] = self.step = step
        self.active = SEATS[setup.get("active", "p1")]   # the case's active player
        st["active_player"] = st["priority_player"] = self.active
        st["waiting_for"] = {"type": "Priority", "data": {"player": self.active}}
        self._board, self._seen, self._loaded = state, None, None

    # -- actions --------------------------------------------------------------------------------

    def _act(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        if "cast" in action:
            return self._cast(action)
        if "activate" in action:
            return self._activate(action)
        if action.get("resolve") == "top":
            return self._resolve(action.get("choose"))
        if "attack" in action:
            return self._attack(action)
        if action.get("step") == "combat_damage":
            return self._combat_damage()
        if "damage" in action:
            return self._damage(action["damage"])
        if "apply" in action:
            return self._apply(action["apply"])
        if "move" in action:
            return self._move(action)
        raise Unsupported(f"action {sorted(action)} is not mapped",
                          kind="not-mapped")

    def _seat(self, who: str) -> int:
        if who not in SEATS:
            raise Unsupported(f"player {who!r}",
                              kind="not-mapped")
        return SEATS[who]

    def _oid(self, cid: str) -> int:
        if cid not in self.ids:
            raise _Rejected(f"no object {cid!r}")
        return self.ids[cid]

    def _give_priority(self, seat: int, events: list[dict[str, Any]]) -> None:
        """Pass priority until ``seat`` holds it (p1 passing lets p2 act: CR 117.3d)."""
        for _ in range(2):
            if self.game.priority_player() == seat:
                return
            events += self._apply_raw(self.game.priority_player(), PASS)
        raise _Rejected(f"{PLAYERS[seat]} cannot get priority")

    def _apply_raw(self, seat: int, act: Any) -> list[dict[str, Any]]:
        if self._tidy is not None:
            self._load(self._edit())
        game = self.game
        self._seen = self._loaded = None    # the game changes (or may, if it refuses)
        try:
            result = game.apply(seat, act)
        except Exception as exc:  # phase.rs refuses an illegal action with an error
            raise _Rejected(f"phase.rs refused {_kind(act)}: {exc}") from exc
        return list(result.events)

    def _cast(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        seat, oid = self._seat(action.get("by", "p1")), self._oid(action["cast"])
        events: list[dict[str, Any]] = []
        self._give_priority(seat, events)
        offered = [a for a in self._actions()
                   if a.kind == "CastSpell" and a.data.get("object_id") == oid]
        if not offered:
            raise _Rejected(f"phase.rs offers no cast of {action['cast']}")
        cast = offered[0].to_dict()
        cast["data"]["payment_mode"] = {"type": "Manual"}
        pool_before = self._pool(seat)
        events += self._apply_raw(seat, cast)
        events += self._settle(seat, action, pay=action.get("pay", {}))
        spent = _minus(pool_before, self._pool(seat))
        if _nonzero(spent) != _nonzero(action.get("pay", {})):
            raise _Rejected(f"phase.rs took {spent} from the pool, the action pays "
                            f"{action.get('pay')}")
        return self._events(events)

    def _activate(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        seat, oid = self._seat(action.get("by", "p1")), self._oid(action["activate"])
        events: list[dict[str, Any]] = []
        self._give_priority(seat, events)
        offered = [a for a in self._actions()
                   if a.kind == "ActivateAbility" and a.data.get("source_id") == oid]
        n = action.get("ability", 0)
        if len(offered) <= n:
            raise _Rejected(f"phase.rs offers {len(offered)} activation(s) of "
                            f"{action['activate']}")
        events += self._apply_raw(seat, offered[n])
        events += self._settle(seat, action)
        top = self._view()["state"]["stack"][-1]
        if "as" in action:
            self.stack_ids[top["id"]] = action["as"]
            self.ability_of[action["as"]] = action["activate"]
        return self._events(events, ability=action.get("as"))

    def _resolve(self, choose: str | None) -> list[dict[str, Any]]:
        """Both players pass: the top of the stack resolves, and ``choose`` answers the
        choice its text asks for as it resolves (a source of your choice)."""
        if not self._view()["state"]["stack"]:
            raise _Rejected("the stack is empty")
        self.resolving = {"choose": choose}
        events = self._resolve_raw()
        if choose is not None and not self.resolving.get("asked"):
            raise _Rejected("the text asks for no choice (resolve without choose)")
        return self._events(events)

    def _attack(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """Declare attackers as a real game does: the active player, with an empty stack,
        passes priority from the beginning of combat to the declare attackers step and
        declares each creature as an attacker of the opponent (no blockers follow)."""
        seat = self._seat(action["by"])
        if seat != self.active:
            raise _Rejected(f"only the active player ({PLAYERS[self.active]}) declares "
                            "attackers")
        if self.attackers is not None:
            raise _Rejected("attackers were already declared this turn")
        oids = [self._oid(a) for a in action["attack"]]
        st = self._view()["state"]
        if st["stack"]:
            raise _Rejected("attackers are declared with an empty stack")
        pools = self._pools()
        state = self._edit()
        st = state["state"]
        st["phase"] = "BeginCombat"
        st["priority_player"] = seat
        st["waiting_for"] = {"type": "Priority", "data": {"player": seat}}
        self._load(state)
        events: list[dict[str, Any]] = []
        for _ in range(MAX_PASSES):
            kind = self.game.waiting_for()["type"]
            if kind == "DeclareAttackers":
                defender = {"type": "Player", "data": 1 - seat}
                events += self._apply_raw(seat, {"type": "DeclareAttackers", "data": {
                    "attacks": [[oid, defender] for oid in oids], "bands": []}})
                self.attackers = list(action["attack"])
                self.step = self.game.phase
                self._refill(pools)
                return self._events(events)
            if kind != "Priority":
                raise Unsupported(f"phase.rs prompt {kind} before attackers is not mapped",
                                  kind="not-mapped")
            events += self._apply_raw(self.game.priority_player(), PASS)
        raise Unsupported("phase.rs did not ask for attackers", kind="not-mapped")

    def _pools(self) -> list[Any]:
        return [copy.deepcopy(p["mana_pool"]) for p in self._view()["state"]["players"]]

    def _refill(self, pools: list[Any]) -> None:
        """Put back the pools a step change emptied (CR 500.4): the vocabulary's pool
        lasts the whole case, standing for mana a player could make (docs/rulesets/mtg.md)."""
        if self._pools() != pools:
            state = self._edit()
            for player, pool in zip(state["state"]["players"], pools, strict=True):
                player["mana_pool"] = pool
            self._load(state)

    def _combat_damage(self) -> list[dict[str, Any]]:
        """The combat damage step: both players pass through the declare blockers step
        (the defending player declares no blockers) until the attackers' combat damage is
        dealt."""
        if not self.attackers:
            raise _Rejected("no declared attackers are waiting to deal combat damage")
        if self._view()["state"]["stack"]:
            raise _Rejected("the combat damage step starts with an empty stack")
        pools = self._pools()
        events: list[dict[str, Any]] = []
        for _ in range(MAX_PASSES):
            waiting = self.game.waiting_for()
            kind = waiting["type"]
            if kind == "Priority":
                if self.game.phase in ("CombatDamage", "EndCombat", "PostCombatMain"):
                    break
                events += self._apply_raw(self.game.priority_player(), PASS)
            elif kind == "DeclareBlockers":
                events += self._apply_raw(1 - self.active, {"type": "DeclareBlockers",
                                                            "data": {"assignments": []}})
            else:
                raise Unsupported(f"phase.rs prompt {kind} in combat is not mapped",
                                  kind="not-mapped")
        else:
            raise Unsupported("phase.rs did not reach the combat damage step",
                              kind="not-mapped")
        attackers, self.attackers, self.step = self.attackers, [], self.game.phase
        self._refill(pools)
        out = [e for e in self._events(events) if e["type"] in ("damage", "prevented")]
        # phase.rs 0.103.0 reports a combat-damage prevention by a chosen-source shield
        # with source_id 0: it is the one attacker whose damage was not dealt
        dealt = {e["source"] for e in out if e["type"] == "damage"}
        silent = [a for a in attackers if a not in dealt]
        for e in out:
            if e["type"] == "prevented" and e["source"] == 0 and len(silent) == 1:
                e["source"] = silent[0]
        return out

    #: what the next resolution answers its prompts from (the action that made it)
    resolving: dict[str, Any] = {}  # noqa: RUF012 - replaced per instance, never mutated

    def _damage(self, damage: dict[str, Any]) -> list[dict[str, Any]]:
        if damage.get("combat"):
            return self._combat(damage)
        source = damage["source"]
        to = damage["to"]
        text = f"{{0}}: ~ deals {damage['amount']} damage to any target."
        obj = self._object(self._oid(source))
        where = ZONE_WORDS.get(obj["zone"])
        if where is None:
            by = self._controller(source)
        else:
            # a card's ability that works where the card is (CR 113.6k: an ability that says
            # it is activated from a zone other than the battlefield works there); its owner
            # activates it
            text += f" Activate only if ~ is {where}."
            by = PLAYERS[obj["owner"]]
        return self._effect_of(self._oid(source), by, text,
                               {"targets": [to]}, keep=frozenset({"damage", "prevented"}))

    def _move(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """`move` of a permanent to its owner's graveyard as a real game does it: its
        controller sacrifices it (an ability ``{0}: Sacrifice ~.`` on it, activated and
        resolved).  Other moves have no one real action and are not mapped."""
        cid, zone = action["move"], action["to"]
        oid = self._oid(cid)
        obj = self._object(oid)
        if obj["zone"] != "Battlefield" or zone != "graveyard":
            raise Unsupported(f"`move` from {ZONE_OF.get(obj['zone'], obj['zone'])} to "
                              f"{zone}: only a permanent put into its graveyard (a "
                              "sacrifice) is mapped",
                              kind="not-mapped")
        return self._effect_of(oid, PLAYERS[obj["controller"]], "{0}: Sacrifice ~.", {},
                               keep=frozenset({"moved"}))

    def _combat(self, damage: dict[str, Any]) -> list[dict[str, Any]]:
        """Combat damage as a real game deals it: the source's controller becomes the
        active player at the beginning of combat, declares the source as an attacker of
        the damaged player (or of the player controlling the damaged creature, which then
        blocks it), and both players pass priority through to the combat-damage step.
        Afterwards the game is put back at the case's step with the setup's active player
        (the vocabulary has one turn; docs/engines/phase.md)."""
        source, to, amount = damage["source"], damage["to"], damage["amount"]
        oid = self._oid(source)
        st = self._view()["state"]
        obj = st["objects"][str(oid)]
        if obj["zone"] != "Battlefield" or "Creature" not in obj["card_types"]["core_types"]:
            raise _Rejected(f"{source} is not a creature on the battlefield: it cannot "
                            "attack, so it deals no combat damage")
        if st["stack"]:
            raise Unsupported("combat damage with a non-empty stack: combat would resolve "
                              "the stack first",
                              kind="not-mapped")
        if obj.get("power") != amount:
            raise Unsupported(f"combat damage of {amount} from {source} with power "
                              f"{obj.get('power')}: a real combat deals its power",
                              kind="impossible")
        attacker = obj["controller"]
        if to in SEATS:
            defender, blocker = SEATS[to], None
        else:
            blocker = self._oid(to)
            defender = st["objects"][str(blocker)]["controller"]
        if defender == attacker:
            raise Unsupported(f"combat damage from {source} to its own controller's side: "
                              "no real combat has it",
                              kind="impossible")
        sick = obj.get("summoning_sick") or obj.get("has_summoning_sickness")
        if sick and "haste" not in {_keyword(k) for k in obj.get("keywords", [])}:
            raise Unsupported(f"{source} came under its controller's control this turn and "
                              "cannot attack (CR 302.6)",
                              kind="impossible")
        tapped = obj.get("tapped", False)
        events = self._play_combat(attacker, defender, oid, blocker)
        # back to the case's step: its active player, nothing in combat, the attacker as it was
        state = self._edit()
        st = state["state"]
        st["phase"], st["combat"] = self.step, None
        st["active_player"] = st["priority_player"] = self.active
        st["waiting_for"] = {"type": "Priority", "data": {"player": self.active}}
        attacked = st["objects"].get(str(oid))
        if attacked is not None:
            attacked["tapped"] = tapped
        self._load(state)
        out = [e for e in self._events(events) if e["type"] in ("damage", "prevented")]
        # phase.rs 0.103.0 reports a combat-damage prevention by a chosen-source shield
        # with source_id 0; in this combat the declared attacker is the one source of damage
        # to the attacked side, and the blocker the one source of damage to the attacker
        blocker_id = self.names.get(blocker) if blocker is not None else None
        for e in out:
            if e["type"] == "prevented" and e["source"] == 0:
                e["source"] = blocker_id if e["to"] == source else source
        return out

    def _play_combat(self, attacker: int, defender: int, oid: int,
                     blocker: int | None) -> list[dict[str, Any]]:
        state = self._edit()
        st = state["state"]
        st["phase"] = "BeginCombat"
        st["active_player"] = st["priority_player"] = attacker
        st["waiting_for"] = {"type": "Priority", "data": {"player": attacker}}
        self._load(state)
        events: list[dict[str, Any]] = []
        for _ in range(MAX_PASSES):
            waiting = self.game.waiting_for()
            kind = waiting["type"]
            if kind == "Priority":
                if self.game.phase in ("EndCombat", "PostCombatMain"):
                    return events
                events += self._apply_raw(self.game.priority_player(), PASS)
            elif kind == "DeclareAttackers":
                attack = {"type": "DeclareAttackers", "data": {
                    "attacks": [[oid, {"type": "Player", "data": defender}]], "bands": []}}
                events += self._apply_raw(attacker, attack)
            elif kind == "DeclareBlockers":
                blocks = [[blocker, oid]] if blocker is not None else []
                events += self._apply_raw(defender, {"type": "DeclareBlockers",
                                                     "data": {"assignments": blocks}})
            else:
                raise Unsupported(f"phase.rs prompt {kind} in combat is not mapped",
                                  kind="not-mapped")
        raise Unsupported("phase.rs did not finish the combat",
                          kind="not-mapped")

    def _apply(self, apply: dict[str, Any]) -> list[dict[str, Any]]:
        by = apply.get("by", "p1")
        try:
            text = oracle.effect_text(apply["effect"], "~")
        except oracle.NotRenderable as exc:
            raise Unsupported(f"the card language cannot write this effect: {exc}",
                              kind="not-mapped") from exc
        context = {"targets": _targets(apply["effect"]), "choose": _chosen(apply["effect"])}
        source = apply.get("source")
        if source is None:
            return self._cast_effect(by, text, context)
        if self._controller(source) != by:
            raise Unsupported(f"an effect of {source} controlled by {by}, who does not "
                              "control it: no real game action makes one",
                              kind="impossible")
        return self._effect_of(self._oid(source), by, "{0}: " + text, context, keep=EFFECT_EVENTS)

    def _controller(self, cid: str) -> str:
        obj = self._object(self._oid(cid))
        if obj["zone"] != "Battlefield":
            raise Unsupported(f"{cid} is in {ZONE_OF.get(obj['zone'], obj['zone'])}: only a "
                              "permanent's ability can deal damage or make an effect in a "
                              "real game",
                              kind="impossible")
        return PLAYERS[obj["controller"]]

    def _effect_of(self, oid: int, by: str, text: str, context: dict[str, Any],
                   keep: frozenset[str] | None = None, state: dict[str, Any] | None = None,
                   carrier: bool = False) -> list[dict[str, Any]]:
        """A harness step as an ability ``{0}: text`` of its source, activated by its
        controller and resolved: phase.rs's rules decide what the text does.  ``state``:
        the game's state already being edited (one load instead of two); ``carrier``: the
        source is the adapter's own object, so the ability need not be taken off again."""
        state = state or self._edit()
        obj = state["state"]["objects"][str(oid)]
        card = oracle.card({"id": "x", "name": obj["name"], "types": ["artifact"]}, (text,))
        face = _checked_face(card)
        ability = copy.deepcopy(face["abilities"][-1])
        if obj["zone"] != "Battlefield":
            # phase.rs reads "Activate only if ~ is in <zone>" as a condition only; the zone
            # an ability is activated from is its `activation_zone` (as for "Return ~ from
            # your graveyard to the battlefield")
            ability["activation_zone"] = obj["zone"]
        obj.setdefault("abilities", []).append(ability)
        obj.setdefault("base_abilities", []).append(copy.deepcopy(ability))
        self._load(state)
        seat = SEATS[by]
        events: list[dict[str, Any]] = []
        self._give_priority(seat, events)
        offered = [a for a in self._actions() if a.kind == "ActivateAbility"
                   and a.data.get("source_id") == oid]
        if offered:
            activation: Any = offered[-1]
        elif obj["zone"] == "Exile":
            # phase.rs's list of legal actions looks at no card in exile, but its rules
            # allow the activation of an ability whose activation zone is exile (CR 602.1;
            # Greater Gargadon's): the game's own check (zone, priority, cost) decides
            activation = {"type": "ActivateAbility", "data": {
                "source_id": oid, "ability_index": len(obj["abilities"]) - 1}}
        else:
            zone = ZONE_OF.get(obj["zone"], obj["zone"])
            raise Unsupported(f"phase.rs offers no activation of an ability of "
                              f"{self._name(oid)} in {zone} (an ability of a card in that "
                              "zone, as Greater Gargadon's works in exile)",
                              kind="engine-gap")
        try:
            events += self._apply_raw(seat, activation)
        except _Rejected as exc:
            if offered:
                raise
            raise Unsupported(f"phase.rs does not activate an ability of "
                              f"{self._name(oid)} in exile: {exc}",
                              kind="engine-gap") from exc
        events += self._settle(seat, context)
        self.resolving = context
        events += self._resolve_raw()
        if not carrier:
            # the ability was the adapter's way in: it goes again (the board is as before)
            # with the next edit of the state, or before the game goes on (`_edit`,
            # `_actions`, `_apply_raw`); `observe` reads nothing it changes
            self._tidy = oid
        return [e for e in self._events(events) if keep is None or e["type"] in keep]

    def _resolve_raw(self) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        for _ in range(MAX_PASSES):
            before = len(events)
            events += self._apply_raw(self.game.priority_player(), PASS)
            events += self._settle(self.game.priority_player(), self.resolving)
            if any(e["type"] == "StackResolved" for e in events[before:]):
                return events
        raise Unsupported("phase.rs did not resolve the top of the stack",
                          kind="engine-gap")

    def _cast_effect(self, by: str, text: str, context: dict[str, Any]) -> list[dict[str, Any]]:
        """An effect of no object as a real game has it: the ability ``{0}: text`` of an
        enchantment its controller controls (as Circle of Protection: Red makes its
        shield), activated and resolved.  (The same text on an instant does nothing in
        phase.rs 0.103.0: docs/engines/phase.md, bug 1.)"""
        seat = SEATS[by]
        self.effects += 1
        name = f"Conformance Effect {self.effects}"
        made = json.loads(_carrier(name))
        state = self._edit()
        st = state["state"]
        oid = st["next_object_id"]
        st["next_object_id"] = oid + 1
        st["objects"][str(oid)] = dict(made, id=oid, card_id=oid, owner=seat,
                                       controller=seat, base_controller=seat,
                                       zone="Battlefield", entered_battlefield_turn=0)
        st["battlefield"].append(oid)
        return self._effect_of(oid, by, "{0}: " + text, context, keep=EFFECT_EVENTS,
                               state=state, carrier=True)

    # -- prompts ------------------------------------------------------------------------------

    def _settle(self, seat: int, context: dict[str, Any],
                pay: dict[str, int] | None = None) -> list[dict[str, Any]]:
        """Answer phase.rs's prompts from the action until a player has priority again."""
        events: list[dict[str, Any]] = []
        targets = list(context.get("targets") or [])
        for _ in range(MAX_PASSES):
            waiting = self.game.waiting_for()
            kind, data = waiting["type"], waiting.get("data") or {}
            who = data.get("player", seat) if isinstance(data, dict) else seat
            if kind == "Priority" or kind == "GameOver":
                return events
            actions = self._actions()
            if kind == "TargetSelection":
                want = self._target(targets.pop(0) if targets else None)
                pick = [a for a in actions if a.kind == "ChooseTarget"
                        and a.data.get("target") == want]
                if not pick:
                    raise _Rejected(f"phase.rs does not allow the target {want}")
                events += self._apply_raw(who, pick[0])
            elif kind == "ManaPayment":
                for unit in self._units_for(who, pay or {}):
                    events += self._apply_raw(who, {"type": "SpendPoolMana",
                                                    "data": {"pip_id": unit}})
                pay = {}
                events += self._apply_raw(who, PASS)
                if self.game.waiting_for()["type"] == "ManaPayment":
                    raise _Rejected("the payment does not cover the cost")
            elif kind == "DamageSourceChoice":      # "a source of your choice"
                if context.get("choose") is None:
                    raise _Rejected("the text asks for a source of your choice; the action "
                                    "names none (choose)")
                context["asked"] = True
                want = self.ids.get(context["choose"])
                pick = [a for a in actions if a.kind == "ChooseDamageSource"
                        and a.data.get("source") == want]
                if not pick:
                    raise _Rejected(f"phase.rs does not offer {context.get('choose')} as the "
                                    f"source of your choice (options {data.get('options')})")
                events += self._apply_raw(who, pick[0])
            elif kind == "DiscardChoice":           # the vocabulary: from the front of the hand
                hand = self._view()["state"]["players"][who]["hand"]
                front = sorted(data["cards"], key=hand.index)[:data["count"]]
                pick = [a for a in actions if a.kind == "SelectCards"
                        and sorted(a.data["cards"]) == sorted(front)]
                if not pick:
                    raise Unsupported(f"phase.rs offers no discard of {front}",
                                      kind="not-mapped")
                events += self._apply_raw(who, pick[0])
            else:
                raise Unsupported(f"phase.rs prompt {kind} is not mapped "
                                  f"({[a.kind for a in actions][:4]})",
                                  kind="not-mapped")
        raise Unsupported("phase.rs kept prompting",
                          kind="not-mapped")

    def _target(self, want: Any) -> Any:
        if want in SEATS:
            return {"Player": SEATS[want]}
        if want is None:
            raise Unsupported("phase.rs asks for a target the action does not name",
                              kind="not-mapped")
        return {"Object": self._oid(want)}

    def _pool(self, seat: int) -> dict[str, int]:
        pool: dict[str, int] = {}
        for unit in self._view()["state"]["players"][seat]["mana_pool"]["mana"]:
            t = SHARD[unit["color"]]
            pool[t] = pool.get(t, 0) + 1
        return pool

    def _units_for(self, seat: int, pay: dict[str, int]) -> list[int]:
        units = self._view()["state"]["players"][seat]["mana_pool"]["mana"]
        chosen = []
        for t, n in pay.items():
            have = [u["pip_id"] for u in units if SHARD[u["color"]] == t]
            if len(have) < n:
                raise _Rejected(f"the pool has {len(have)} {t}, the payment needs {n}")
            chosen += have[:n]
        return chosen

    # -- events -------------------------------------------------------------------------------

    def _events(self, raw: list[dict[str, Any]], ability: str | None = None
                ) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for e in raw:
            kind, d = e["type"], e.get("data") or {}
            if kind == "DamageDealt":
                out.append({"type": "damage", "source": self._name(d["source_id"]),
                            "to": self._recipient(d["target"]), "amount": d["amount"],
                            "combat": d.get("is_combat", False)})
            elif kind == "DamagePrevented":
                out.append({"type": "prevented", "source": self._name(d.get("source_id")),
                            "to": self._recipient(d.get("target")),
                            "amount": d.get("amount")})
            elif kind == "SpellCast":
                out.append({"type": "cast", "card": self._name(d["object_id"]),
                            "player": PLAYERS[d["controller"]]})
            elif kind == "ZoneChanged":
                out.append({"type": "moved", "card": self._name(d["object_id"]),
                            "from": ZONE_OF.get(d["from"], d["from"]),
                            "to": ZONE_OF.get(d["to"], d["to"])})
            elif kind == "StackResolved":
                out.append({"type": "resolved", "card": self._name(d["object_id"])})
            elif kind == "Discarded" or kind == "CardDiscarded":
                out.append({"type": "discard", "card": self._name(d.get("object_id")),
                            "player": PLAYERS[d.get("player_id", 0)]})
            elif kind == "AbilityActivated" and d.get("kind") != "Mana":
                out.append({"type": "activated", "card": self._name(d["source_id"]),
                            "ability": ability, "player": PLAYERS[d["player_id"]]})
        for e in out:            # `cast` says where from: the `moved` before it
            if e["type"] == "cast":
                moved = [m for m in out if m["type"] == "moved" and m["card"] == e["card"]
                         and m["to"] == "stack"]
                e["from"] = moved[0]["from"] if moved else None
        return out

    def _name(self, oid: Any) -> Any:
        return self.names.get(oid, self.stack_ids.get(oid, oid))

    def _recipient(self, target: Any) -> Any:
        if isinstance(target, dict) and "Player" in target:
            return PLAYERS[target["Player"]]
        if isinstance(target, dict) and "Object" in target:
            return self._name(target["Object"])
        return target


PASS = {"type": "PassPriority", "data": None}
#: `act`'s snapshot when the board is not loaded yet: the board is built again instead.
REBUILD = object()
#: Zones a card's own ability can be activated from, as Oracle text says so.
ZONE_WORDS = {"Graveyard": "in your graveyard", "Exile": "in exile", "Hand": "in your hand",
              "Command": "in the command zone"}
#: What an `apply` reports: what its text did, not the adapter's ability that carried it.
EFFECT_EVENTS = frozenset({"damage", "prevented", "discard", "moved"})


def _spent(obj: dict[str, Any]) -> dict[str, int]:
    """The mana spent to cast an object, by type: phase.rs records the coloured mana
    (``colors_spent_to_cast``) and the amount of all of it (``mana_spent_to_cast_amount``);
    the rest of the amount is colourless (CR 106.1b: mana is one of the five colours or
    colourless)."""
    spent = {SHARD[c.capitalize()]: n for c, n in
             (obj.get("colors_spent_to_cast") or {}).items() if n}
    colourless = (obj.get("mana_spent_to_cast_amount") or 0) - sum(spent.values())
    if colourless > 0:
        spent["C"] = colourless
    return spent


def _replacements(state: dict[str, Any]) -> int:
    """How many damage replacements (shields, used up or not) a state holds."""
    return len(state["state"].get("pending_damage_replacements") or [])


def _kind(act: Any) -> str:
    kind: str = act["type"] if isinstance(act, dict) else act.kind
    return kind


def _checked_face(card: dict[str, Any], whose: str = "") -> Any:
    """The card's face; `Unsupported` (an engine gap) naming the first part of ``whose``
    text phase.rs's parser did not understand."""
    face = _face(json.dumps(card, sort_keys=True))
    problems = _parse_problems(face)
    if problems:
        raise Unsupported(f"phase.rs's Oracle parser does not implement {whose}{problems[0]}",
                          kind="engine-gap")
    return face


def _ints(node: Any) -> set[int]:
    if isinstance(node, bool):
        return set()
    if isinstance(node, int):
        return {node}
    if isinstance(node, dict):
        return set().union(*(_ints(v) for v in node.values())) if node else set()
    if isinstance(node, list):
        return set().union(*(_ints(v) for v in node)) if node else set()
    return set()


def _targets(effect: list[dict[str, Any]]) -> list[str]:
    """What an effect's text targets, in order: a shield's creature, a become's card."""
    found = []
    for instr in effect:
        (op, args), = instr.items()
        if op == "shield" and args["to"] not in ("self", "opponent"):
            found.append(args["to"])
        if op == "become" and "card" in args.get("filter", {}):
            found.append(args["filter"]["card"])
        if op == "damage" and args["to"] not in ("self", "opponent"):
            found.append(args["to"])
    return found


def _chosen(effect: list[dict[str, Any]]) -> str | None:
    return next((i["shield"].get("choose") for i in effect if "shield" in i), None)


def _minus(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    return {t: a.get(t, 0) - b.get(t, 0) for t in set(a) | set(b)}


def _nonzero(m: dict[str, int]) -> dict[str, int]:
    return {t: n for t, n in m.items() if n}


class _Rejected(Exception):
    """phase.rs refused the action: the game is put back as it was."""


def _keyword(k: Any) -> str:
    name = k if isinstance(k, str) else next(iter(k))
    return str(name).lower()


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


