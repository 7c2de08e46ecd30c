"""Casting a spell: 609.2 (cost changes touch the spell being cast), 609.4 / 609.4a
("as though" permissions, each for its own effect, combining) and 609.4b (paying
mana "as though it were any type" changes neither the cost nor the type spent).
"""

from __future__ import annotations

from typing import Any

from reference_engine.mtg import characteristics
from reference_engine.mtg.model import MANA_TYPES, Obj
from reference_engine.mtg.state import Game, Rejected

AS_THOUGH = ("flash", "other_graveyards")            # 609.4: timing and zone permissions
ANY_TYPE = ("spend_as_any_type", "any_type_can_be_spent")  # 609.4b, both wordings

# -- permissions ---------------------------------------------------------------------


def permissions(game: Game, player: str) -> list[tuple[int, str]]:
    """(timestamp, permission) the player has now, from statics and resolved effects."""
    found = [(0, s["grant"]) for o, s in characteristics.statics_in_force(game)
             if "grant" in s and game.rules.static_grants_to(o, player)]
    found += [(e.timestamp, e.data["grant"]) for e in game.effects
              if e.kind == "grant" and e.controller == player]
    return found


def grants_to_controller(obj: Obj, player: str) -> bool:
    """'You may ...': the permission is its controller's."""
    return obj.controller == player


def grants_to_everyone(obj: Obj, player: str) -> bool:
    """Mutant: an Orrery lets every player cast as though spells had flash."""
    return True


def all_permissions(found: list[tuple[int, str]], used_zone_permission: bool) -> set[str]:
    """609.4a: every 'as though' permission applies, each for its own effect."""
    return {p for _, p in found}


def latest_as_though_only(found: list[tuple[int, str]], used_zone_permission: bool) -> set[str]:
    """Mutant: of several 'as though' permissions only the newest one applies."""
    as_though = sorted((t, p) for t, p in found if p in AS_THOUGH)
    kept = {as_though[-1][1]} if as_though else set()
    return {p for _, p in found if p not in AS_THOUGH} | kept


def zone_permission_excludes_flash(found: list[tuple[int, str]],
                                   used_zone_permission: bool) -> set[str]:
    """Mutant: a card cast 'as though it were in your graveyard' gets no other
    'as though' permission (the first one applied ends the look-up)."""
    perms = {p for _, p in found}
    return perms - {"flash"} if used_zone_permission else perms


# -- where from --------------------------------------------------------------------------

def treated_as_own_graveyard(game: Game, obj: Obj, caster: str, perms: set[str]) -> bool:
    """609.4: another player's graveyard counts as yours for the permission's own effect."""
    return obj.owner == caster or "other_graveyards" in perms


def only_really_own_graveyard(game: Game, obj: Obj, caster: str, perms: set[str]) -> bool:
    """Mutant: flashback needs the card to be really in your graveyard."""
    return obj.owner == caster


def cast_source(game: Game, obj: Obj, caster: str, flashback: bool,
                perms: set[str]) -> str:
    """Why casting from here is allowed: ``hand`` or ``flashback`` (CR 601.3, context: a
    spell can be cast only if a rule or effect allows it).  Shaman's Trance allows no
    cast by itself: it makes another player's graveyard count as yours for flashback."""
    if obj.zone == "hand" and obj.owner == caster and not flashback:
        return "hand"
    if obj.zone == "graveyard" and flashback:
        if "flashback" not in obj.keywords and game.rules.flashback_needs_keyword:
            raise Rejected(f"{obj.id} has no flashback")
        if not game.rules.flashback_graveyard(game, obj, caster, perms):
            raise Rejected(f"{obj.id} is not in {caster}'s graveyard")
        return "flashback"
    if obj.zone == "graveyard" and game.rules.zone_permission_casts \
            and obj.owner != caster and "other_graveyards" in perms:
        return "permission"
    raise Rejected(f"{caster} may not cast {obj.id} from {obj.owner}'s {obj.zone}"
                   + (" with flashback" if flashback else "")
                   + ("" if flashback or obj.zone != "graveyard" else
                      ": nothing lets a card be cast from a graveyard without flashback"))


def check_timing(game: Game, obj: Obj, caster: str, perms: set[str]) -> None:
    """Instants and flash any time; the rest: active player, main phase, empty stack."""
    if "instant" in obj.types or "flash" in obj.keywords or "flash" in perms:
        return
    if not game.rules.sorcery_timing(game, caster):
        raise Rejected(f"{obj.id} can be cast only in {game.active}'s main phase with an "
                       f"empty stack (no flash permission applies)")


def active_player_main_phase(game: Game, caster: str) -> bool:
    """CR 307.1 (context): the active player, in a main phase, with an empty stack."""
    return caster == game.active and game.phase == "main" and not game.stack


def any_player_main_phase(game: Game, caster: str) -> bool:
    """Mutant: sorcery timing checks the phase and the stack, not whose turn it is."""
    return game.phase == "main" and not game.stack


# -- cost and payment ----------------------------------------------------------------------

def cost_changes(game: Game, obj: Obj, caster: str) -> list[int]:
    """The generic cost changes applying to ``obj`` as a spell being cast by ``caster``.

    A filter on the spell's controller reads the caster, who controls the spell on the
    stack (CR 601.2a, context), not the owner of the card where it was cast from."""
    spell_controller = game.rules.spell_controller(obj, caster)
    found = [s["cost_change"] for o, s in characteristics.statics_in_force(game)
             if "cost_change" in s and characteristics.matches(
                 game, obj, s["cost_change"].get("filter"), o.controller, spell_controller)]
    found += [e.data for e in game.effects if e.kind == "cost_change"
              and characteristics.matches(game, obj, e.data.get("filter"), e.controller,
                                          spell_controller)]
    return [c["amount"] for c in found]


def caster_controls(obj: Obj, caster: str) -> str:
    """CR 601.2a (context): the player casting a spell is its controller."""
    return caster


def owner_controls(obj: Obj, caster: str) -> str:
    """Mutant: a cost change's filter reads the card as it was before the cast (its
    owner's), not the spell its caster controls."""
    return obj.controller


def changes_stack(amounts: list[int]) -> int:
    """The page: effects overlap; every cost change counts."""
    return sum(amounts)


def largest_change_only(amounts: list[int]) -> int:
    """Mutant: cost changes do not stack; the largest one applies."""
    return max(amounts, key=abs) if amounts else 0


def with_change(cost: dict[str, int], change: int) -> dict[str, int]:
    total = dict(cost)
    total["generic"] = max(0, total.get("generic", 0) + change)
    return total


def spell_on_stack_only(obj: Obj, origin: str) -> bool:
    """609.2: a cost change touches the spell being cast, wherever it was cast from."""
    return True


def spell_from_hand_only(obj: Obj, origin: str) -> bool:
    """Mutant: cost changes only touch spells cast from the hand."""
    return origin == "hand"


def payment_fits(cost: dict[str, int], pay: dict[str, int], any_type: bool) -> bool:
    """Exact payment: each coloured symbol by its type (any type when allowed)."""
    total = sum(cost.values())
    if sum(pay.values()) != total:
        return False
    return symbols_paid(cost, pay, any_type)


def payment_covers(cost: dict[str, int], pay: dict[str, int], any_type: bool) -> bool:
    """Mutant: a payment of at least the cost is accepted (the rest is spent too)."""
    return sum(pay.values()) >= sum(cost.values()) and symbols_paid(cost, pay, any_type)


def symbols_paid(cost: dict[str, int], pay: dict[str, int], any_type: bool) -> bool:
    """Each coloured symbol is paid by mana of its type, unless any type may be spent."""
    if any_type:
        return True
    return all(pay.get(t, 0) >= cost.get(t, 0) for t in MANA_TYPES)


def spent_as_paid(cost: dict[str, int], pay: dict[str, int], any_type: bool) -> dict[str, int]:
    """609.4b: the mana spent is the mana that was paid, whatever it paid for."""
    return {t: n for t, n in pay.items() if n}


def spent_as_replaced(cost: dict[str, int], pay: dict[str, int],
                      any_type: bool) -> dict[str, int]:
    """Mutant: mana paid 'as though' a type is recorded as that type."""
    if not any_type:
        return spent_as_paid(cost, pay, any_type)
    spent = {t: cost[t] for t in MANA_TYPES if cost.get(t)}
    rest = sum(pay.values()) - sum(spent.values())
    for t in MANA_TYPES:
        take = min(rest, max(0, pay.get(t, 0) - spent.get(t, 0)))
        if take:
            spent[t] = spent.get(t, 0) + take
            rest -= take
    return spent


def cost_kept(obj: Obj, spent: dict[str, int], any_type: bool) -> None:
    """609.4b: paying 'as though' changes nothing about the cost."""


def cost_rewritten(obj: Obj, spent: dict[str, int], any_type: bool) -> None:
    """Mutant: paying 'as though any type' rewrites the spell's cost to what was paid."""
    if any_type:
        obj.mana_cost = dict(spent)


def flashback_cost(obj: Obj) -> dict[str, int]:
    """Its flashback cost (a mutant casting a card without flashback pays its mana cost)."""
    return next((a["cost"] for a in obj.abilities if a.get("keyword") == "flashback"),
                obj.mana_cost)


def cast(game: Game, obj: Obj, caster: str, pay: dict[str, int], flashback: bool) -> None:
    rules = game.rules
    found = permissions(game, caster)
    raw = {p for _, p in found}
    origin_zone = obj.zone
    via_permission = obj.zone == "graveyard" and obj.owner != caster and "other_graveyards" in raw
    perms = rules.combine_permissions(found, via_permission)
    how = cast_source(game, obj, caster, flashback, perms)
    check_timing(game, obj, caster, perms)
    base = flashback_cost(obj) if how == "flashback" else obj.mana_cost
    change = rules.sum_cost_changes(cost_changes(game, obj, caster))
    if not rules.cost_change_reaches(obj, origin_zone):
        change = 0
    cost = with_change(base, change)
    any_type = bool(set(rules.any_type_wordings) & perms)
    if rules.pool_checked and any(pay.get(t, 0) > game.mana[caster].get(t, 0) for t in pay):
        raise Rejected(f"{caster}'s mana pool does not hold {pay}")
    if not rules.payment_accepted(cost, pay, any_type):
        raise Rejected(f"paying {pay} does not pay the cost {cost}")
    for t, n in pay.items():
        game.mana[caster][t] -= n
    game.move(obj, "stack")
    obj.controller = caster
    obj.cast_with_flashback = how == "flashback"
    obj.mana_spent = rules.record_spent(cost, pay, any_type)
    rules.cost_after_payment(obj, obj.mana_spent, any_type)
    game.emit("cast", card=obj.id, player=caster, **{"from": origin_zone})


def pay_automatically(game: Game, player: str, cost: dict[str, int]) -> None:
    """An activated ability's mana cost, paid from the pool without a `pay` (vocabulary
    3): each coloured symbol by its type, generic mana by what is left, colourless first
    then W U B R G.  The cases give a pool that pays the cost one way only."""
    pool = game.mana[player]
    if any(pool.get(t, 0) < cost.get(t, 0) for t in MANA_TYPES):
        raise Rejected(f"{player}'s mana pool {pool} cannot pay {cost}")
    rest = dict(pool)
    for t in MANA_TYPES:
        rest[t] -= cost.get(t, 0)
    generic = cost.get("generic", 0)
    if sum(rest.values()) < generic:
        raise Rejected(f"{player}'s mana pool {pool} cannot pay {cost}")
    for t in ("C", "W", "U", "B", "R", "G"):
        take = min(generic, rest[t])
        rest[t] -= take
        generic -= take
    game.mana[player] = rest


def observed_cost(game: Game, obj: Obj) -> dict[str, Any]:
    """The mana cost characteristic as a player sees it."""
    if obj.zone in game.rules.cost_change_visible_in:
        return with_change(obj.mana_cost, sum(cost_changes(game, obj, obj.controller)))
    return dict(obj.mana_cost)
