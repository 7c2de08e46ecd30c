"""The state of one phase.rs game as the adapter plays it (`GameState`): the case's ids of
phase.rs's objects, the board a setup asks for, and phase.rs's game state, asked for as
rarely as a step allows.

**A board**: phase.rs starts games only from decks, so a game starts with every object in
its owner's deck (`cards.opening`), keeps both hands, and then each object is put where the
setup says by editing the game's state dict (``game.state()``) and resuming it
(``Engine.load_game``): zones, life, mana pool, phase.

**Speed**: ``game.state()`` and ``Engine.load_game`` are most of the time a certification
takes (about 1.5 and 1.8 ms a call), so the state is asked for once after the game changes
and kept (`view`); a step that edits the state edits that one (`edit`) and loads it as a
JSON string (`load`); the board is loaded only when first used, so a first step that edits
it loads once; the ``{0}`` ability of a harness step comes off its source with the next
edit (`tidy`).  Each of the three pays in benchmarks/run.py --phase.  The reads before the
board is loaded (an object's zone, owner and controller; the shields already there, none
on a new board) are of the board as written, which phase.rs loads as it is."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from conformance import Unsupported

from .mapping import MANA_COLOR, PASS, PHASE_ZONE, PLAYERS, SEATS, STEPS

#: A case object placed by the setup: (its owner, its zone, the object).
Placed = tuple[str, str, dict[str, Any]]


class Rejected(Exception):
    """phase.rs refused the action: the game is put back as it was."""


#: `checkpoint`'s snapshot when the board is not loaded yet: the board is built again instead.
REBUILD = object()


class GameState:
    """One phase.rs game, started from a setup's board: the state every module of the
    adapter reads and changes (`actions`, `combat`, `prompts`, `observation`)."""

    def __init__(self, engine: Any, opening: str, setup: dict[str, Any],
                 placed: list[Placed], setup_objects: dict[str, dict[str, Any]]) -> None:
        self.engine = engine                    # phase.rs's engine for the case's cards
        self._game: Any = None
        self.ids: dict[str, int] = {}           # case id -> phase object id
        self.names: dict[int, str] = {}         # phase object id -> case id
        self.setup_objects = setup_objects      # case id -> the setup's object
        self.stack_ids: dict[int, str] = {}     # stack entry id -> the `as` of an activation
        self.ability_of: dict[str, str] = {}    # the `as` of an activation -> its source
        self.effects = 0                        # carriers made for `apply` so far
        self.step = "PreCombatMain"             # the case's step (setup `phase`)
        self.active = 0                         # the case's active player (setup `active`)
        self.attackers: list[str] | None = None  # declared this turn (`combat.attack`)
        #: what the next resolution answers its prompts from (the action that made it)
        self.resolving: dict[str, Any] = {}
        self.tidy: int | None = None      # object still carrying the adapter's ability
        # The game's state, asked for as rarely as a step allows: `view`, `edit`, `load`.
        self._seen: dict[str, Any] | None = None    # game.state() since the game last changed
        self._snapshot: Any = None        # the state to go back to (a refused action)
        self._tidy_before: int | None = None   # `tidy` at the checkpoint
        self._board: dict[str, Any] | None = None   # the setup's board, loaded when first used
        self._rebuild: Callable[[], None] = lambda: self._build_board(
            json.loads(opening), setup, placed)
        self._rebuild()

    @property
    def game(self) -> Any:
        """The phase.rs game, with the setup's board loaded (a first step that edits the
        state edits the board instead: one load, not two)."""
        if self._board is not None:
            self.load(self._board)
        return self._game

    def close(self) -> None:
        self._game = self._board = None

    # -- a refused action goes back ---------------------------------------------------------

    def checkpoint(self) -> int:
        """Remember the game as it is, for `roll_back`; how many damage replacements it
        holds (the shields an action adds are those after them)."""
        if self._board is not None:
            self._snapshot = REBUILD       # the board again, as the setup builds it
            before = _replacements(self._board)
        else:
            self._snapshot = self.view()
            before = _replacements(self._snapshot)
        self._tidy_before = self.tidy
        return before

    def roll_back(self) -> None:
        """Put the game back as it was at the `checkpoint`."""
        if self._snapshot is REBUILD:
            self._rebuild()
        else:
            self.load(self._snapshot)
        self.tidy = self._tidy_before

    def settled(self) -> None:
        """The action is over: nothing to go back to."""
        self._snapshot = None

    # -- the game's state ---------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The game's state now (``game.state()``), to read only: asked for once and kept
        until the game changes (an action applied, a state loaded).  The adapter's ability
        `actions.effect_of` leaves on its source changes nothing `observe` reads."""
        if self._seen is None:
            self._seen = self.game.state()
        return self._seen

    def edit(self) -> dict[str, Any]:
        """The game's state now, to edit and `load`: the kept one is handed over (with the
        adapter's ability taken off its source), so it is no longer kept."""
        if self._board is not None:
            state, self._board = self._board, None
        else:
            state = self.view()
        self._seen = None
        if state is self._snapshot:         # the way back must not see the edits
            self._snapshot = json.dumps(state)
        if self.tidy is not None:
            obj = state["state"]["objects"][str(self.tidy)]
            obj["abilities"].pop()
            obj["base_abilities"].pop()
            self.tidy = None
        return state

    def load(self, state: dict[str, Any] | str) -> None:
        """Resume the game from ``state`` (phase.rs reads a JSON string faster than a dict)."""
        self._game = self.engine.load_game(state if isinstance(state, str) else json.dumps(state))
        self._seen = self._board = None

    def object(self, oid: int) -> dict[str, Any]:
        """One object of the game (its zone, owner, controller): off the setup's board while
        that is not loaded yet (phase.rs keeps those as loaded), else ``game.object``."""
        obj: dict[str, Any] = (self._board["state"]["objects"][str(oid)]
                               if self._board is not None else self.game.object(oid))
        return obj

    def actions(self) -> list[Any]:
        """The legal actions now (``game.actions()``), once the adapter's ability is off."""
        if self.tidy is not None:
            self.load(self.edit())
        return list(self.game.actions())

    def apply_raw(self, seat: int, act: Any) -> list[dict[str, Any]]:
        """phase.rs's own action applied for ``seat``: its raw events, or `Rejected`."""
        if self.tidy is not None:
            self.load(self.edit())
        game = self.game
        self._seen = None    # the game changes (or may, if it refuses)
        try:
            result = game.apply(seat, act)
        except Exception as exc:  # phase.rs refuses an illegal action with an error
            raise Rejected(f"phase.rs refused {_kind(act)}: {exc}") from exc
        return list(result.events)

    def give_priority(self, seat: int, events: list[dict[str, Any]]) -> None:
        """Pass priority until ``seat`` holds it (p1 passing lets p2 act: CR 117.3d)."""
        for _ in range(2):
            if self.game.priority_player() == seat:
                return
            events += self.apply_raw(self.game.priority_player(), PASS)
        raise Rejected(f"{PLAYERS[seat]} cannot get priority")

    # -- the case's names ---------------------------------------------------------------------

    def seat(self, who: str) -> int:
        if who not in SEATS:
            raise Unsupported(f"player {who!r}",
                              kind="not-mapped")
        return SEATS[who]

    def oid(self, cid: str) -> int:
        if cid not in self.ids:
            raise Rejected(f"no object {cid!r}")
        return self.ids[cid]

    def name(self, oid: Any) -> Any:
        """The case's id of a phase.rs object or stack entry (the id itself if it has none)."""
        return self.names.get(oid, self.stack_ids.get(oid, oid))

    # -- building the board -------------------------------------------------------------------

    def _build_board(self, state: dict[str, Any], setup: dict[str, Any],
                     placed: list[Placed]) -> None:
        """The setup's board, written into the opening state (loaded when first used)."""
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
        self._board, self._seen = state, None


def _replacements(state: dict[str, Any]) -> int:
    """How many damage replacements (shields, used up or not) a state holds."""
    return len(state["state"].get("pending_damage_replacements") or [])


def _kind(act: Any) -> str:
    kind: str = act["type"] if isinstance(act, dict) else act.kind
    return kind
