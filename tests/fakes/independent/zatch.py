"""An independent Zatch Bell 真ルール engine over JSON Lines, with mutants of its own.

Written from docs/rulesets/zatch.md, docs/protocol.md, the zatch vocabulary.json
and the seed (002_8def38ce8f6afb88.txt) only, never from reference_engine/: the
suite must certify an engine it did not grow up with, and catch that engine's
own bugs.  Stdlib only, like an engine in another language would be.

Every change an effect makes is a `Change` with `apply`/`undo`, so a negation
undoes exactly what the effect did (jammer •2) and negating the jammer redoes it
(jammer •5).  Each mutant in `MUTANTS` is one plausible bug breaking one seed
rule; `MUT` holds the name of the mutant asked for in the hello (if any), and
the code tests it where the bug would be.

    python tests/fakes/independent/zatch.py
"""

from __future__ import annotations

import json
import sys
from typing import Any

MUTANTS: list[dict[str, Any]] = [
    # name, rule broken, description
    {"name": "iz-interrupt-allowed", "rules": ["zatch/interrupt.1"],
     "description": "accepts a use with `interrupt` (the abolished interrupt rule)"},
    {"name": "iz-discarded-card-usable", "rules": ["zatch/interrupt.ex2"],
     "description": "lets a player use a card from their discard pile"},
    {"name": "iz-jammer-late", "rules": ["zatch/jammer.1"],
     "description": "a jammer may answer an earlier opponent action, not only the last one"},
    {"name": "iz-jammer-own-action", "rules": ["zatch/reading/jammer-right-after"],
     "description": "a jammer may answer its own player's action"},
    {"name": "iz-negation-refunds-mp", "rules": ["zatch/jammer.2"],
     "description": "negating an effect gives back its MP cost"},
    {"name": "iz-negation-returns-discarded-self", "rules": ["zatch/jammer.2"],
     "description": "negating an effect returns its discard_self card to the field"},
    {"name": "iz-negation-keeps-damage", "rules": ["zatch/jammer.2"],
     "description": "negating an effect does not undo its damage"},
    {"name": "iz-negated-use-not-counted", "rules": ["zatch/jammer.2"],
     "description": "a negated use does not count as used"},
    {"name": "iz-on-field-jammable", "rules": ["zatch/jammer.3"],
     "description": "a jammer may negate an on-field effect that fired"},
    {"name": "iz-fired-standby-jammable", "rules": ["zatch/standby.3"],
     "description": "a jammer may negate a standby effect as it fires"},
    {"name": "iz-battle-jammer-refused", "rules": ["zatch/jammer.4"],
     "description": "a battle-icon jammer is refused in the use-of-effects step"},
    {"name": "iz-jammer-chain-no-revive", "rules": ["zatch/jammer.5"],
     "description": "negating a jammer does not revive the effect it negated"},
    {"name": "iz-jammer-not-jammable", "rules": ["zatch/jammer.5"],
     "description": "a jammer cannot be negated by another jammer"},
    {"name": "iz-stay-jammer-refused", "rules": ["zatch/stay.2"],
     "description": "a staying effect cannot be jammed even right after its use"},
    {"name": "iz-stay-ends-at-once", "rules": ["zatch/stay.1"],
     "description": "a stay until the end of the turn ends at the end of the battle"},
    {"name": "iz-stay-not-removable", "rules": ["zatch/stay.3"],
     "description": "a removal of a stay does nothing"},
    {"name": "iz-standby-never-fires", "rules": ["zatch/standby.1"],
     "description": "a standby effect never fires at its moment"},
    {"name": "iz-standby-fires-at-use", "rules": ["zatch/standby.1"],
     "description": "a standby effect's instructions apply when it is used, not when it fires"},
    {"name": "iz-standby-fires-twice", "rules": ["zatch/standby.1"],
     "description": "a standby effect stays after firing and fires again at the next moment"},
    {"name": "iz-standby-jammer-refused", "rules": ["zatch/standby.2"],
     "description": "a standby effect cannot be jammed even right after its use"},
    {"name": "iz-standby-not-removable", "rules": ["zatch/standby.4"],
     "description": "a removal of a standby does nothing"},
    {"name": "iz-battle-effect-outside-battle", "rules": ["zatch/battle.3"],
     "description": "battle effects are usable outside a battle"},
    {"name": "iz-ordinary-in-battle", "rules": ["zatch/battle.note"],
     "description": "effects without the battle icon are usable in the use-of-effects step"},
    {"name": "iz-battle-effect-waits", "rules": ["zatch/battle.4"],
     "description": "a battle effect's instructions wait for the resolution step"},
    {"name": "iz-spell-side-ignored", "rules": ["zatch/nonbattle.2"],
     "description": "a non-battle spell is usable in any battle phase, whatever its side"},
    {"name": "iz-spell-in-battle", "rules": ["zatch/nonbattle.3"],
     "description": "a non-battle spell is usable during a battle"},
    {"name": "iz-spell-enters-battle", "rules": ["zatch/nonbattle.5"],
     "description": "using a non-battle spell starts a battle"},
    {"name": "iz-plain-jammer-negates-spells", "rules": ["zatch/nonbattle.6"],
     "description": "a plain jammer negates non-battle spells"},
    {"name": "iz-attack-resolves-at-once", "rules": ["zatch/use-attack.1"],
     "description": "attack and defense effects resolve as they are used"},
    {"name": "iz-loser-resolves", "rules": ["zatch/use-attack.1"],
     "description": "the attack effects resolve whoever wins the contest"},
    {"name": "iz-raise-ignored", "rules": ["zatch/use-attack.2"],
     "description": "a battle effect's power raise does not count in the contest"},
    {"name": "iz-attack-jammable", "rules": ["zatch/use-attack.3"],
     "description": "in a battle a battle-icon jammer answers the opponent's previous effect at "
                    "any step, an attack or defense effect included"},
    {"name": "iz-negate-attack-ignored", "rules": ["zatch/use-attack.4"],
     "description": "「攻撃を無効にする」 does nothing"},
    {"name": "iz-on-field-from-hand", "rules": ["zatch/on-field.1"],
     "description": "an on-field effect fires from its owner's hand too"},
    {"name": "iz-on-field-ignores-cannot", "rules": ["zatch/on-field.3"],
     "description": "a 使えない on effects does not stop on-field effects"},
    {"name": "iz-on-field-off-in-battle", "rules": ["zatch/on-field.4"],
     "description": "on-field effects do not fire during a battle"},
    {"name": "iz-negate-in-advance", "rules": ["zatch/negate.2"],
     "description": "a jammer may be used with nothing to negate (in advance), paying its cost"},
    {"name": "iz-cannot-binds-user", "rules": ["zatch/reading/lasting-in-force"],
     "description": "a 使えない naming no player binds its user instead of the opponent"},
    {"name": "iz-cannot-undoes-used", "rules": ["zatch/cannot.2"],
     "description": "a 使えない cancels the opponent's standing-by effects already used"},
    {"name": "iz-unnegatable-negated", "rules": ["zatch/unnegatable.1"],
     "description": "a 無効にならない effect is negated like any other"},
    {"name": "iz-unnegatable-usable-under-cannot", "rules": ["zatch/unnegatable.2"],
     "description": "a 無効にならない effect is usable under a 使えない"},
    {"name": "iz-usable-anyway-refused", "rules": ["zatch/usable-anyway.1"],
     "description": "a 使えないときにも使える effect is refused under a 使えない"},
    {"name": "iz-usable-anyway-unjammable", "rules": ["zatch/usable-anyway.2"],
     "description": "a 使えないときにも使える effect cannot be negated by a jammer"},
    {"name": "iz-regardless-refused", "rules": ["zatch/usable-anyway.3"],
     "description": "a 効果にかかわらず使える effect is refused under a 使えない"},
    {"name": "iz-use-most-waits", "rules": ["zatch/use-most.1"],
     "description": "an ordinary effect outside a battle resolves only at the end of the turn"},
    {"name": "iz-negation-keeps-moved-cards", "rules": ["zatch/jammer.2"],
     "description": "negating an effect leaves the cards its instructions discarded in the pile"},
    {"name": "iz-negation-keeps-mp", "rules": ["zatch/jammer.2"],
     "description": "negating an effect does not undo the MP its instructions added or took"},
    {"name": "iz-negation-keeps-removal", "rules": ["zatch/jammer.2"],
     "description": "negating a removal does not put the removed stay or standby back"},
    {"name": "iz-negation-keeps-raise", "rules": ["zatch/jammer.2"],
     "description": "negating a battle effect does not take back its power raise"},
    {"name": "iz-negation-returns-hand-card", "rules": ["zatch/jammer.2"],
     "description": "negating an effect used from the hand puts its card back in the hand"},
    {"name": "iz-revive-flag-only", "rules": ["zatch/jammer.5"],
     "description": "negating a jammer clears its target's negated flag but redoes nothing"},
    {"name": "iz-jammer-window-survives-pass", "rules": ["zatch/jammer.1"],
     "description": "a pass does not close a jammer's window"},
    {"name": "iz-jammer-window-survives-turn", "rules": ["zatch/reading/jammer-right-after"],
     "description": "the end of the turn does not close a jammer's window"},
    {"name": "iz-stay-negatable-later", "rules": ["zatch/stay.2"],
     "description": "a jammer may negate a staying effect of the opponent at any time"},
    {"name": "iz-standby-negatable-later", "rules": ["zatch/standby.2"],
     "description": "a jammer may negate a standing-by effect of the opponent at any time"},
    {"name": "iz-standby-fires-every-moment", "rules": ["zatch/standby.1"],
     "description": "a standby effect fires at the first moment that comes, whatever its time"},
    {"name": "iz-removal-ignores-what", "rules": ["zatch/stay.3"],
     "description": "a removal removes the card's lasting effect whatever kind it names"},
    {"name": "iz-removal-removes-all", "rules": ["zatch/stay.3"],
     "description": "a removal of a stay removes every stay in force, not the named card's"},
    {"name": "iz-plain-jammer-in-battle", "rules": ["zatch/battle.note"],
     "description": "a plain jammer (no battle icon) answers a battle effect in a battle"},
    {"name": "iz-battle-jammer-outside-battle",
     "rules": ["zatch/reading/plain-effects-outside-battle"],
     "description": "a battle-icon jammer answers effects outside a battle"},
    {"name": "iz-spell-waits", "rules": ["zatch/nonbattle.4"],
     "description": "a non-battle spell resolves only at the end of the turn"},
    {"name": "iz-spell-outside-battle-phase", "rules": ["zatch/nonbattle.2"],
     "description": "a non-battle spell is usable in the main phase too"},
    {"name": "iz-spell-jammer-negates-all", "rules": ["zatch/nonbattle.6"],
     "description": "a jammer that negates non-battle spells negates any effect"},
    {"name": "iz-defense-never-resolves", "rules": ["zatch/use-attack.1"],
     "description": "a defender who wins the contest resolves nothing"},
    {"name": "iz-contest-ignores-defense", "rules": ["zatch/use-attack.1"],
     "description": "the contest counts the defense effects' power as 0"},
    {"name": "iz-negated-power-counts", "rules": ["zatch/use-attack.4"],
     "description": "a negated attack or defense still adds its power in the contest"},
    {"name": "iz-negated-attack-resolves", "rules": ["zatch/negate.1"],
     "description": "a negated attack still resolves if its side wins"},
    {"name": "iz-negate-attack-hits-defense", "rules": ["zatch/use-attack.4"],
     "description": "「攻撃を無効にする」 negates every spell of the opponent, whatever it names"},
    {"name": "iz-on-field-fires-once", "rules": ["zatch/on-field.1"],
     "description": "an on-field effect fires only the first time its moment comes"},
    {"name": "iz-on-field-what-ignored", "rules": ["zatch/cannot.3"],
     "description": "a 使えない naming on-field effects does not stop them"},
    {"name": "iz-cannot-kind-binds-all", "rules": ["zatch/cannot.1"],
     "description": "a 使えない naming one kind binds every effect"},
    {"name": "iz-cannot-jammers-plain-only", "rules": ["zatch/cannot.1"],
     "description": "a 使えない naming jammers spares battle-icon jammers"},
    {"name": "iz-unnegatable-jammer-refused", "rules": ["zatch/unnegatable.1"],
     "description": "a jammer aimed at a 無効にならない effect is refused"},
    {"name": "iz-unnegatable-battle-negated", "rules": ["zatch/unnegatable.1"],
     "description": "「攻撃を無効にする」 negates a 無効にならない attack"},
    {"name": "iz-usable-anyway-effects-only", "rules": ["zatch/usable-anyway.1"],
     "description": "使えないときにも使える overrides only a 使えない naming every effect"},
    {"name": "iz-battle-effect-unjammable", "rules": ["zatch/battle.5"],
     "description": "no jammer negates a battle effect"},
    {"name": "iz-hand-card-unjammable", "rules": ["zatch/use-most.2"],
     "description": "a jammer negates only effects of field cards, not event cards from the hand"},
    {"name": "iz-on-field-jammer-spent", "rules": ["zatch/on-field.2"],
     "description": "a jammer at a fired on-field effect is accepted and paid, negates nothing"},
    # Caught only by a reading: that a 使えない binds exactly as long as its stay is
    # zatch/reading/lasting-in-force (docs/rulesets/zatch.md, "Mutants only a reading...").
    {"name": "iz-restriction-outlives-stay", "rules": ["zatch/reading/lasting-in-force"],
     "description": "a 使えない still binds after its stay's time is over"},
    {"name": "iz-restriction-outlives-removal", "rules": ["zatch/stay.3"],
     "description": "a 使えない still binds after its stay was removed"},
    {"name": "iz-jammed-stay-still-binds", "rules": ["zatch/stay.2"],
     "description": "a stay jammed right after its use stays in force (its 使えない binds)"},
    {"name": "iz-jammed-standby-still-fires", "rules": ["zatch/standby.2"],
     "description": "a standby jammed right after its use still fires at its moment"},
    {"name": "iz-raise-to-attacker", "rules": ["zatch/use-attack.2"],
     "description": "a power raise always goes to the attacking side"},
    {"name": "iz-standby-fires-for-turn-player", "rules": ["zatch/standby.1"],
     "description": "a fired standby effect acts for the turn player, not its user"},
    {"name": "iz-on-field-fires-for-turn-player", "rules": ["zatch/on-field.1"],
     "description": "a fired on-field effect acts for the turn player, not the card's owner"},
    {"name": "iz-on-field-from-discard", "rules": ["zatch/on-field.1"],
     "description": "an on-field effect fires from its owner's discard pile too"},
    {"name": "iz-battle-effect-as-ordinary", "rules": ["zatch/battle.1"],
     "description": "the バトル icon is ignored: a battle effect is used like an ordinary one"},
    {"name": "iz-defender-no-battle-effects", "rules": ["zatch/battle.2"],
     "description": "only the attacker uses battle effects in the use-of-effects step"},
    {"name": "iz-spell-as-battle-effect", "rules": ["zatch/nonbattle.1"],
     "description": "the 非バトル icon read as the バトル icon: spells only in the effects step"},
    {"name": "iz-battle-effect-resolves-at-contest", "rules": ["zatch/use-most.3"],
     "description": "battle effects used in the effects step resolve only as the contest starts"},
    {"name": "iz-mp-reduction-negates", "rules": ["zatch/interrupt.ex1"],
     "description": "taking the opponent's MP below their last effect's cost negates it"},
    {"name": "iz-cannot-player-ignored", "rules": ["zatch/cannot.1"],
     "description": "a 使えない always binds the opponent, whoever it names"},
    {"name": "iz-battle-stay-outlasts-battle", "rules": ["zatch/stay.1"],
     "description": "a stay until the end of the battle lasts until the end of the turn"},
    {"name": "iz-battle-standby-waits-for-turn-end", "rules": ["zatch/standby.1"],
     "description": "a standby for the end of the battle fires at the end of the turn"},
    {"name": "iz-jammed-negation-sticks", "rules": ["zatch/jammer.2"],
     "description": "jamming a 「…を無効にする」 effect leaves what it negated negated"},
    {"name": "iz-just-discarded-usable", "rules": ["zatch/interrupt.ex2"],
     "description": "a card the opponent's last action discarded is still usable right after"},
    {"name": "iz-cannot-ends-stays", "rules": ["zatch/cannot.2"],
     "description": "a 使えない ends the bound player's stays of the kind it names"},
    {"name": "iz-on-field-owner-turn-only", "rules": ["zatch/on-field.1"],
     "description": "an on-field effect fires only in its owner's turn"},
    {"name": "iz-refused-action-closes-window", "rules": ["zatch/jammer.1"],
     "description": "a refused action closes the jammer window as if it had been taken"},
]
for _m in MUTANTS:
    _m["ruleset"] = "zatch"

MUT: str | None = None

PLAYERS = ("p1", "p2")
STEPS = ("attack_defense", "effects", "contest", "resolution")


class Refused(Exception):
    """An action the rules forbid: `accepted: false` with this reason."""


class Skip(Exception):
    """A board or action this engine does not model."""


def other(player: str) -> str:
    return "p2" if player == "p1" else "p1"


class Change:
    """One reversible change to the game; a negation undoes it, a revival redoes it."""

    def apply(self, g: Game) -> None:
        raise NotImplementedError

    def undo(self, g: Game) -> None:
        raise NotImplementedError


class Counter(Change):
    """MP, damage or a battle's raise: remembers the amount it really added."""

    def __init__(self, player: str, key: str, amount: int) -> None:
        self.player, self.key, self.amount = player, key, amount

    def _add(self, g: Game, amount: int) -> None:
        if self.key == "power":
            g.raises[self.player] += amount
        else:
            g.players[self.player][self.key] += amount

    def apply(self, g: Game) -> None:
        self._add(g, self.amount)

    def undo(self, g: Game) -> None:
        self._add(g, -self.amount)


class Move(Change):
    """A card from one pile of its owner's to another."""

    def __init__(self, card: str, source: str, dest: str) -> None:
        self.card, self.source, self.dest = card, source, dest

    def apply(self, g: Game) -> None:
        g.move(self.card, self.dest)

    def undo(self, g: Game) -> None:
        g.move(self.card, self.source)


class Flag(Change):
    """Sets a card's `staying` or `standing_by` (and its lasting entry) on or off."""

    def __init__(self, use: Use, key: str, on: bool) -> None:
        self.use, self.key, self.on = use, key, on

    def _set(self, g: Game, on: bool) -> None:
        g.cards[self.use.card][self.key] = on
        table = g.stays if self.key == "staying" else g.standbys
        if on and self.use not in table:
            table.append(self.use)
        if not on and self.use in table:
            table.remove(self.use)

    def apply(self, g: Game) -> None:
        self._set(g, self.on)

    def undo(self, g: Game) -> None:
        self._set(g, not self.on)


class Negation(Change):
    """What a jammer or 「…を無効にする」 does to one use: undo it, or redo it when undone."""

    def __init__(self, target: Use) -> None:
        self.target = target

    def apply(self, g: Game) -> None:
        self.target.negate(g)

    def undo(self, g: Game) -> None:
        self.target.revive(g)


def _kept(change: Change) -> bool:
    """Whether the mutant asked for forgets to undo this change when negating."""
    if isinstance(change, Counter):
        forgets = {"damage": "iz-negation-keeps-damage", "mp": "iz-negation-keeps-mp",
                   "power": "iz-negation-keeps-raise"}
        return forgets[change.key] == MUT
    if isinstance(change, Move):
        return MUT == "iz-negation-keeps-moved-cards" and change.dest == "discard" \
            and change.source != "hand"
    if isinstance(change, Flag):
        return MUT == "iz-negation-keeps-removal" and not change.on
    return isinstance(change, Negation) and MUT == "iz-jammed-negation-sticks"


class Use:
    """One use of a card's effect (or one firing): what it changed, whether it is negated."""

    def __init__(self, card: str, user: str, effect: dict[str, Any]) -> None:
        self.card, self.user, self.effect = card, user, effect
        self.changes: list[Change] = []
        self.negated = False
        self.fired = False
        self.from_hand = False

    def do(self, g: Game, change: Change) -> None:
        change.apply(g)
        self.changes.append(change)

    def negate(self, g: Game) -> None:
        for change in reversed(self.changes):
            if _kept(change):
                continue
            if isinstance(change, Flag) and change.on and {
                    "staying": "iz-jammed-stay-still-binds",
                    "standing_by": "iz-jammed-standby-still-fires"}[change.key] == MUT:
                g.cards[self.card][change.key] = False  # the flag only: still in force
                continue
            change.undo(g)
        self.negated = True
        g.cards[self.card]["negated"] = True

    def revive(self, g: Game) -> None:
        if MUT == "iz-jammer-chain-no-revive":
            return
        for change in [] if MUT == "iz-revive-flag-only" else self.changes:
            change.apply(g)
        self.negated = False
        g.cards[self.card]["negated"] = False


class Game:
    """One game: the board, the battle going on, lasting effects and the action history."""

    def __init__(self, setup: dict[str, Any]) -> None:
        self.turn: str = setup.get("turn", "p1")
        self.phase: str = setup.get("phase", "main")
        self.cards: dict[str, dict[str, Any]] = {}
        self.players: dict[str, dict[str, Any]] = {}
        for p in PLAYERS:
            ps = setup.get(p) or {}
            self.players[p] = {"mp": ps.get("mp", 0), "damage": ps.get("damage", 0),
                               "hand": [], "field": [], "discard": []}
            for zone in ("hand", "field", "discard"):
                for card in ps.get(zone) or []:
                    cid = card["id"]
                    if cid in self.cards:
                        raise Skip(f"card id {cid!r} appears twice")
                    self.cards[cid] = {"zone": zone, "owner": p, "used": 0, "negated": False,
                                       "staying": False, "standing_by": False,
                                       "effect": card.get("effect")}
                    self.players[p][zone].append(cid)
        self.step: str | None = None
        self.attacker: str | None = None
        self.battle_uses: list[Use] = []  # attack and defense effects, in the order used
        self.raises: dict[str, int] = {"p1": 0, "p2": 0}
        self.stays: list[Use] = []
        self.standbys: list[Use] = []
        # the previous accepted action: who took it and the uses it produced
        self.last: tuple[str, list[Use]] | None = None
        self.history: list[tuple[str, list[Use]]] = []
        self.events: list[dict[str, Any]] = []
        self.fired_once: set[str] = set()  # iz-on-field-fires-once
        self.pending: list[Use] = []  # iz-battle-effect-resolves-at-contest
        self.expired: list[Use] = []  # iz-restriction-outlives-stay
        self.removed: list[Use] = []  # iz-restriction-outlives-removal

    # -- state -------------------------------------------------------------------------------
    def move(self, cid: str, dest: str) -> None:
        card = self.cards[cid]
        self.players[card["owner"]][card["zone"]].remove(cid)
        card["zone"] = dest
        self.players[card["owner"]][dest].append(cid)

    def observe(self) -> dict[str, Any]:
        cards = {cid: {k: v for k, v in c.items() if k != "effect"}
                 for cid, c in self.cards.items()}
        players = {}
        for p in PLAYERS:
            ps = self.players[p]
            players[p] = {"mp": ps["mp"], "damage": ps["damage"], "hand": list(ps["hand"]),
                          "field": list(ps["field"]), "discard": list(ps["discard"]),
                          "turn": self.turn == p, "phase": self.phase, "battle_step": self.step}
        return {"cards": cards, "players": players}

    def emit(self, type_: str, **fields: Any) -> None:
        self.events.append({"type": type_, **fields})

    # -- restrictions ------------------------------------------------------------------------
    def restrictions(self, player: str) -> list[str]:
        """The WHATs of every 使えない in force that binds `player`."""
        found = []
        lost = {"iz-restriction-outlives-stay": self.expired,
                "iz-restriction-outlives-removal": self.removed}.get(MUT or "", [])
        for use in self.stays + lost:
            for ins in use.effect.get("do") or []:
                if "cannot_use" in ins:
                    spec = ins["cannot_use"] or {}
                    who = spec.get("player", "opponent")
                    if MUT == "iz-cannot-player-ignored":
                        who = "opponent"
                    if MUT == "iz-cannot-binds-user" and "player" not in spec:
                        who = "self"
                    bound = use.user if who == "self" else other(use.user)
                    if bound == player:
                        found.append(spec.get("what", "effects"))
        return found

    def restricted(self, player: str, effect: dict[str, Any]) -> list[str]:
        """The WHATs of the 使えない in force that stop `player` using `effect`."""
        kind = effect.get("kind", "ordinary")
        found = []
        for what in self.restrictions(player):
            jammers = what == "jammers" and effect.get("jammer") and (
                kind == "ordinary" or MUT != "iz-cannot-jammers-plain-only")
            if what in ("effects", kind) or jammers or (
                    MUT == "iz-cannot-kind-binds-all" and what != "on_field"):
                found.append(what)
        return found

    def on_field_stopped(self, player: str) -> bool:
        if MUT == "iz-on-field-ignores-cannot":
            return False
        names = ("effects",) if MUT == "iz-on-field-what-ignored" else ("effects", "on_field")
        return any(w in names for w in self.restrictions(player))

    # -- instructions ------------------------------------------------------------------------
    def run(self, use: Use, instructions: list[dict[str, Any]]) -> None:
        for ins in instructions:
            (key, arg), = ins.items()
            if key == "mp":
                target = self.who(use, arg.get("player", "self"))
                have = self.players[target]["mp"]
                amount = max(arg["amount"], -have)
                use.do(self, Counter(target, "mp", amount))
                self.emit("mp", player=target, amount=amount)
            elif key == "damage":
                target = self.who(use, arg.get("player", "opponent"))
                use.do(self, Counter(target, "damage", arg["amount"]))
                self.emit("damage", player=target, amount=arg["amount"])
            elif key == "discard":
                cid = arg["card"]
                card = self.cards.get(cid)
                if card and card["zone"] in ("hand", "field"):
                    use.do(self, Move(cid, card["zone"], "discard"))
                    self.emit("discarded", card=cid)
            elif key == "power":
                if self.step is not None:
                    side = self.attacker if MUT == "iz-raise-to-attacker" else use.user
                    assert side is not None
                    use.do(self, Counter(side, "power", arg["amount"]))
                    self.emit("power", player=side, amount=arg["amount"])
            elif key == "negate_in_battle":
                if self.step is not None and MUT != "iz-negate-attack-ignored":
                    self.negate_in_battle(use, arg)
            elif key == "cannot_use":
                pass  # binds while the stay holding it is in force (restrictions())
            elif key == "remove":
                self.remove(use, arg["card"], arg["what"])
            else:
                raise Skip(f"unknown instruction {key!r}")

    def who(self, use: Use, who: str) -> str:
        return use.user if who == "self" else other(use.user)

    def negate_in_battle(self, use: Use, what: str) -> None:
        opponent = other(use.user)
        for target in self.battle_uses:
            if target.user != opponent or target.negated:
                continue
            kind = target.effect.get("kind")
            if what in ("attack", "defense") and kind != what \
                    and MUT != "iz-negate-attack-hits-defense":
                continue
            if target.effect.get("unnegatable") and MUT != "iz-unnegatable-battle-negated":
                self.emit("not_negated", card=target.card)
                continue
            use.do(self, Negation(target))
            self.emit("negated", card=target.card, by=use.card)

    def remove(self, use: Use, cid: str, what: str) -> None:
        if (MUT == "iz-stay-not-removable" and what == "stay") or \
                (MUT == "iz-standby-not-removable" and what == "standby"):
            return
        kinds = ["stay", "standby"] if MUT == "iz-removal-ignores-what" else [what]
        for kind in kinds:
            table = self.stays if kind == "stay" else self.standbys
            key = "staying" if kind == "stay" else "standing_by"
            for lasting in list(table):
                if lasting.card == cid or (MUT == "iz-removal-removes-all" and kind == "stay"):
                    use.do(self, Flag(lasting, key, False))
                    self.removed.append(lasting)
                    self.emit("removed", card=lasting.card, what=kind)

    # -- moments -----------------------------------------------------------------------------
    def moment(self, when: str) -> None:
        for use in list(self.stays):
            until = use.effect["stay"]["until"]
            if MUT == "iz-battle-stay-outlasts-battle" and until == "end_of_battle":
                until = "end_of_turn"
            ends = until == when
            if MUT == "iz-stay-ends-at-once" and when == "end_of_battle":
                ends = True
            if ends:
                Flag(use, "staying", False).apply(self)
                self.expired.append(use)
                self.emit("expired", card=use.card)
        for use in list(self.standbys):
            at = use.effect["standby"]["when"]
            if MUT == "iz-battle-standby-waits-for-turn-end" and at == "end_of_battle":
                at = "end_of_turn"
            if (at != when
                    and MUT != "iz-standby-fires-every-moment") or MUT == "iz-standby-never-fires":
                continue
            if MUT != "iz-standby-fires-twice":
                Flag(use, "standing_by", False).apply(self)
            self.fire(use)
        for p in PLAYERS:
            stopped = self.on_field_stopped(p)
            extra = {"iz-on-field-from-hand": "hand", "iz-on-field-from-discard": "discard"}
            zones = ["field", extra[MUT]] if MUT in extra else ["field"]
            for zone in zones:
                for cid in list(self.players[p][zone]):
                    effect = self.cards[cid]["effect"] or {}
                    if effect.get("kind") != "on_field" or effect.get("when") != when:
                        continue
                    if stopped or (MUT == "iz-on-field-owner-turn-only" and p != self.turn):
                        continue
                    if MUT == "iz-on-field-off-in-battle" and self.step is not None:
                        continue
                    if MUT == "iz-on-field-fires-once":
                        if cid in self.fired_once:
                            continue
                        self.fired_once.add(cid)
                    self.fire(Use(cid, p, effect))

    def fire(self, lasting: Use) -> None:
        kind = "on_field" if lasting.effect.get("kind") == "on_field" else "standby"
        user = self.turn if f"iz-{kind.replace('_', '-')}-fires-for-turn-player" == MUT \
            else lasting.user
        firing = Use(lasting.card, user, lasting.effect)
        firing.fired = True
        self.emit("fired", card=lasting.card)
        if MUT != "iz-standby-fires-at-use" or "standby" not in lasting.effect:
            self.run(firing, lasting.effect.get("do") or [])
        self.produced.append(firing)

    # -- actions -----------------------------------------------------------------------------
    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        self.events = []
        self.produced: list[Use] = []
        try:
            if "use" in action:
                by = action["by"]
                self.use(action)
            else:
                (key, arg), = action.items()
                by = arg["by"]
                if key == "pass":
                    pass
                elif key == "battle_in":
                    self.battle_in(by)
                elif key == "next_step":
                    self.next_step()
                elif key == "end_turn":
                    self.end_turn(by)
                else:
                    raise Skip(f"unknown action {key!r}")
        except Refused as exc:
            if MUT == "iz-refused-action-closes-window":
                self.last = None
            return {"accepted": False, "events": [], "reason": str(exc)}
        keep = (MUT == "iz-jammer-window-survives-pass" and "pass" in action) or \
            (MUT == "iz-jammer-window-survives-turn" and "end_turn" in action and not self.produced)
        if not keep:
            self.last = (by, self.produced)
        self.history.append((by, self.produced))
        return {"accepted": True, "events": self.events}

    def battle_in(self, by: str) -> None:
        if by != self.turn or self.phase != "battle" or self.step is not None:
            raise Refused("battle_in: only the turn player, in the battle phase, outside a battle")
        self.step, self.attacker = "attack_defense", by
        self.battle_uses, self.raises = [], {"p1": 0, "p2": 0}
        self.emit("battle_in", by=by)
        self.moment("battle_in")

    def next_step(self) -> None:
        if self.step is None:
            raise Refused("next_step: no battle is going on")
        if self.step == "resolution":
            self.step, self.attacker = None, None
            self.emit("battle_end")
            self.moment("end_of_battle")
            return
        self.step = STEPS[STEPS.index(self.step) + 1]
        self.emit("step", step=self.step)
        if self.step == "contest":
            for use in self.pending:  # iz-battle-effect-resolves-at-contest
                if not use.negated:
                    self.resolve(use)
            self.pending = []
            self.contest()
        elif self.step == "resolution":
            for use in list(self.battle_uses):
                if MUT == "iz-defense-never-resolves" and use.user != self.attacker:
                    continue
                if use.user == self.winner and (not use.negated
                                                or MUT == "iz-negated-attack-resolves"):
                    self.run(use, use.effect.get("do") or [])
                    self.emit("resolved", card=use.card)

    def contest(self) -> None:
        assert self.attacker is not None
        defender = other(self.attacker)
        totals = {}
        for p in (self.attacker, defender):
            power = sum(u.effect.get("power", 0) for u in self.battle_uses
                        if u.user == p and (not u.negated or MUT == "iz-negated-power-counts"))
            if MUT == "iz-contest-ignores-defense" and p == defender:
                power = 0
            if MUT != "iz-raise-ignored":
                power += self.raises[p]
            totals[p] = power
        a, d = totals[self.attacker], totals[defender]
        self.winner = self.attacker if a > d else defender if d > a else None
        if MUT == "iz-loser-resolves":
            self.winner = self.attacker
        self.emit("contest", attack=a, defense=d, winner=self.winner)

    def end_turn(self, by: str) -> None:
        if by != self.turn or self.step is not None:
            raise Refused("end_turn: only the turn player, outside a battle")
        self.moment("end_of_turn")
        self.turn, self.phase = other(self.turn), "main"
        self.emit("turn", player=self.turn)

    def use(self, action: dict[str, Any]) -> None:
        cid, by = action["use"], action["by"]
        if "interrupt" in action and MUT != "iz-interrupt-allowed":
            raise Refused("interrupts were abolished (効果の割り込みの廃止)")
        card = self.cards.get(cid)
        if card is None:
            raise Refused(f"no card {cid!r}")
        if card["owner"] != by:
            raise Refused(f"{cid} is not {by}'s card")
        zones: tuple[str, ...] = ("hand", "field", "discard") \
            if MUT == "iz-discarded-card-usable" else ("hand", "field")
        if MUT == "iz-just-discarded-usable" and self.last and any(
                isinstance(c, Move) and c.card == cid and c.dest == "discard"
                for u in self.last[1] for c in u.changes):
            zones = ("discard",)
        if card["zone"] not in zones:
            raise Refused(f"{cid} is in the {card['zone']} pile")
        effect = card["effect"]
        if not effect:
            raise Refused(f"{cid} has no effect")
        kind = effect.get("kind", "ordinary")
        if kind == "on_field":
            raise Refused("an on-field effect is never used, it fires")
        binding = self.restricted(by, effect)
        if binding:
            anyway = effect.get("usable_anyway")
            if MUT == "iz-usable-anyway-effects-only" and set(binding) != {"effects"}:
                anyway = None
            if anyway == "regardless" and MUT == "iz-regardless-refused":
                anyway = None
            if anyway == "cannot_use" and MUT == "iz-usable-anyway-refused":
                anyway = None
            if effect.get("unnegatable") and MUT == "iz-unnegatable-usable-under-cannot":
                anyway = "cannot_use"
            if not anyway:
                raise Refused(f"{by} cannot use {cid} (使えない)")
        self.check_timing(by, kind, effect)
        target = self.jammer_target(by, action, effect) if effect.get("jammer") else None
        cost = effect.get("cost") or {}
        if cost.get("mp", 0) > self.players[by]["mp"]:
            raise Refused(f"{by} has not the MP to pay for {cid}")
        # pay: MP, then the card (from the hand, or discard_self) to the discard pile
        use = Use(cid, by, effect)
        use.from_hand = card["zone"] == "hand"
        self.players[by]["mp"] -= cost.get("mp", 0)
        if card["zone"] != "discard" and (card["zone"] == "hand" or cost.get("discard_self")):
            source = card["zone"]
            self.move(cid, "discard")
            if (MUT == "iz-negation-returns-discarded-self" and cost.get("discard_self")) or \
                    (MUT == "iz-negation-returns-hand-card" and source == "hand"):
                use.changes.append(Move(cid, source, "discard"))
        if MUT == "iz-negation-refunds-mp" and cost.get("mp"):
            use.changes.append(Counter(by, "mp", -cost["mp"]))
        card["used"] += 1
        card["negated"] = False
        self.emit("used", card=cid, by=by)
        self.produced.append(use)
        if target is not None:
            if target.fired and MUT == "iz-on-field-jammer-spent":
                return
            if target.effect.get("unnegatable") and MUT != "iz-unnegatable-negated":
                self.emit("not_negated", card=target.card)
            else:
                use.do(self, Negation(target))
                if MUT == "iz-negated-use-not-counted":
                    self.cards[target.card]["used"] -= 1
                self.emit("negated", card=target.card, by=cid)
            return
        if effect.get("jammer"):
            return  # iz-negate-in-advance: a jammer with nothing to negate
        if kind in ("attack", "defense") and MUT != "iz-attack-resolves-at-once":
            self.battle_uses.append(use)
            return
        if kind == "non_battle_spell" and MUT == "iz-spell-enters-battle" and self.step is None:
            self.step, self.attacker = "attack_defense", by
            self.battle_uses, self.raises = [], {"p1": 0, "p2": 0}
            self.emit("battle_in", by=by)
        if kind == "battle" and MUT == "iz-battle-effect-waits":
            self.battle_uses.append(use)
            return
        if (kind == "ordinary" and MUT == "iz-use-most-waits" and self.step is None) or \
                (kind == "non_battle_spell" and MUT == "iz-spell-waits"):
            self.standbys.append(use)
            effect.setdefault("standby", {"when": "end_of_turn"})
            return
        if kind == "battle" and MUT == "iz-battle-effect-resolves-at-contest":
            self.pending.append(use)
            return
        self.resolve(use)
        if MUT == "iz-mp-reduction-negates":
            self.negate_by_mp(use)

    def negate_by_mp(self, use: Use) -> None:
        """iz-mp-reduction-negates: the abolished interrupt, kept by mistake."""
        takes = any("mp" in ins and ins["mp"]["amount"] < 0
                    and ins["mp"].get("player", "self") == "opponent"
                    for ins in use.effect.get("do") or [])
        if not takes or self.last is None or self.last[0] == use.user:
            return
        for earlier in self.last[1]:
            cost = (earlier.effect.get("cost") or {}).get("mp", 0)
            if not earlier.negated and self.players[earlier.user]["mp"] < cost:
                use.do(self, Negation(earlier))
                self.emit("negated", card=earlier.card, by=use.card)

    def resolve(self, use: Use) -> None:
        effect = use.effect
        if "stay" in effect:
            use.do(self, Flag(use, "staying", True))
            self.emit("staying", card=use.card)
            self.run(use, effect.get("do") or [])
            if MUT == "iz-cannot-undoes-used":
                for waiting in list(self.standbys):
                    if self.restricted(waiting.user, waiting.effect):
                        use.do(self, Flag(waiting, "standing_by", False))
            if MUT == "iz-cannot-ends-stays":
                for staying in list(self.stays):
                    if staying is not use and self.restricted(staying.user, staying.effect):
                        use.do(self, Flag(staying, "staying", False))
        elif "standby" in effect:
            use.do(self, Flag(use, "standing_by", True))
            self.emit("standing_by", card=use.card)
            if MUT == "iz-standby-fires-at-use":
                self.run(use, effect.get("do") or [])
        else:
            self.run(use, effect.get("do") or [])
        self.emit("resolved", card=use.card)

    def check_timing(self, by: str, kind: str, effect: dict[str, Any]) -> None:
        in_battle = self.step is not None
        if MUT == "iz-battle-effect-as-ordinary" and kind == "battle":
            kind = "ordinary"
        if MUT == "iz-spell-as-battle-effect" and kind == "non_battle_spell":
            kind = "battle"
        if MUT == "iz-defender-no-battle-effects" and kind == "battle" and by != self.attacker:
            raise Refused("the defender uses no battle effect")
        if kind == "ordinary":
            lax = MUT == "iz-ordinary-in-battle" or (MUT == "iz-plain-jammer-in-battle"
                                                      and effect.get("jammer"))
            if in_battle and not (lax and self.step == "effects"):
                raise Refused("effects without the battle icon are not used during a battle")
        elif kind == "battle":
            # a jammer out of its step: anywhere in a battle, or outside one
            loose_jammer = effect.get("jammer") and (
                (MUT == "iz-attack-jammable" and in_battle)
                or (MUT == "iz-battle-jammer-outside-battle" and not in_battle))
            loose = loose_jammer or (MUT == "iz-battle-effect-outside-battle" and not in_battle)
            if self.step != "effects" and not loose:
                raise Refused("battle effects are used in a battle's use-of-effects step")
            if MUT == "iz-battle-jammer-refused" and effect.get("jammer"):
                raise Refused("battle jammer")
        elif kind == "non_battle_spell":
            if in_battle and MUT != "iz-spell-in-battle":
                raise Refused("non-battle spells are not used during a battle")
            own = self.turn == by
            side_ok = own if effect["side"] == "attack" else not own
            if MUT == "iz-spell-side-ignored":
                side_ok = True
            phase_ok = self.phase == "battle" or MUT == "iz-spell-outside-battle-phase"
            if not phase_ok or not side_ok:
                raise Refused("攻 spells in your own battle phase, 防 in the opponent's")
        elif kind in ("attack", "defense"):
            if self.step != "attack_defense" and MUT != "iz-attack-resolves-at-once":
                raise Refused("attack and defense effects are used in the attack/defense step")
            if self.step is None:
                raise Refused("no battle is going on")
            attacking = by == self.attacker
            if attacking != (kind == "attack"):
                raise Refused("the attacker attacks, the defender defends")
        else:
            raise Skip(f"unknown effect kind {kind!r}")

    def jammer_target(self, by: str, action: dict[str, Any], effect: dict[str, Any]) -> Use | None:
        last = self.last
        candidates: list[Use] = []
        if last is not None and (last[0] != by or MUT == "iz-jammer-own-action"):
            candidates = list(last[1])
        if MUT == "iz-jammer-late" and not candidates:
            for who, produced in reversed(self.history):
                if who != by and produced:
                    candidates = list(produced)
                    break
        lasting = self.stays if MUT == "iz-stay-negatable-later" else \
            self.standbys if MUT == "iz-standby-negatable-later" else []
        candidates = [u for u in lasting if u.user != by and u not in candidates] + candidates
        if "target" in action:
            candidates = [u for u in candidates if u.card == action["target"]]
        if not candidates:
            if MUT == "iz-negate-in-advance":
                return None
            raise Refused("nothing the opponent's previous action produced to negate")
        target = candidates[-1]
        if not self.negatable(target, effect):
            raise Refused(f"this jammer cannot negate {target.card}")
        return target

    def negatable(self, target: Use, jammer: dict[str, Any]) -> bool:
        kind = target.effect.get("kind", "ordinary")
        if target.negated:
            return False
        if target.fired:
            if kind == "on_field":
                return MUT in ("iz-on-field-jammable", "iz-on-field-jammer-spent")
            return MUT == "iz-fired-standby-jammable"
        if kind in ("attack", "defense"):
            return MUT == "iz-attack-jammable"
        if "stay" in target.effect and MUT == "iz-stay-jammer-refused":
            return False
        if "standby" in target.effect and MUT == "iz-standby-jammer-refused":
            return False
        if target.effect.get("jammer") and MUT == "iz-jammer-not-jammable":
            return False
        if target.effect.get("usable_anyway") and MUT == "iz-usable-anyway-unjammable":
            return False
        spells_only = jammer.get("negates", "effects") == "non_battle_spells"
        is_spell = kind == "non_battle_spell"
        if MUT == "iz-plain-jammer-negates-spells" and not spells_only:
            return True
        if MUT == "iz-spell-jammer-negates-all" and spells_only:
            return True
        if MUT == "iz-unnegatable-jammer-refused" and target.effect.get("unnegatable"):
            return False
        if (MUT == "iz-battle-effect-unjammable" and kind == "battle") or \
                (MUT == "iz-hand-card-unjammable" and target.from_hand):
            return False
        return is_spell == spells_only


def hello(request: dict[str, Any]) -> dict[str, Any]:
    global MUT
    capabilities: dict[str, Any] = {"mutants": MUTANTS}
    if request.get("mutant"):
        MUT = request["mutant"]
        if MUT not in {m["name"] for m in MUTANTS}:
            raise ValueError(f"no mutant named {MUT!r}")
        capabilities["mutant"] = MUT
    return {"name": "independent-zatch", "version": "1.0", "rulesets": ["zatch"],
            "vocabulary": {"zatch": 2}, "capabilities": capabilities, "protocol": 1}


def main() -> None:
    game: Game | None = None
    for line in sys.stdin:
        request = json.loads(line)
        cmd = request["cmd"]
        reply: dict[str, Any] = {"seq": request["seq"]}
        try:
            if cmd == "hello":
                reply["ok"] = hello(request)
            elif cmd == "start":
                game = Game(request["setup"])
                reply["ok"] = None
            elif cmd == "act":
                assert game is not None, "act before start"
                reply["ok"] = game.act(request["action"])
            elif cmd == "observe":
                assert game is not None, "observe before start"
                reply["ok"] = game.observe()
            else:
                reply["ok"] = None
        except Skip as exc:
            reply = {"seq": request["seq"], "skipped": {"reason": str(exc), "kind": "engine-gap"}}
        except Exception as exc:
            print(f"engine: {type(exc).__name__}: {exc}", file=sys.stderr)
            reply = {"seq": request["seq"], "error": {"message": f"{type(exc).__name__}: {exc}"}}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        if cmd == "stop":
            break


if __name__ == "__main__":
    main()
