"""The suite's card language: Oracle-style rules text for the mtg vocabulary.

Cases describe made-up cards by their ability lists (docs/rulesets/mtg.md).  An
engine with a card parser (phase.rs reads English rules text) needs those
abilities as words, and if every adapter wrote its own words, the wording would
decide verdicts.  So the words live here, once, tested: every ability, static
and instruction of the vocabulary has one sentence, in the templating Magic's
Oracle text uses, and an object whose definition is exactly a real card's
(`REAL_CARDS`, shipped in ``cards/oracle-cards.json``) renders as that card.

Nothing here imports an engine.  `card` gives an MTGJSON-shaped card (the shape
phase.rs's ``build_oracle_face`` and other engines' importers read).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

Obj = dict[str, Any]

COLOR_SYMBOL = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                "nine", "ten"]
#: How a zone a `become` names is written ("each land card in graveyards").
ZONE_WORDS = {"graveyard": "graveyards", "exile": "exile", "hand": "hands",
              "library": "libraries"}


class NotRenderable(ValueError):
    """A vocabulary construct the card language has no sentence for (yet)."""


def count_word(n: int) -> str:
    """Oracle text writes small counts as words ("discards two cards")."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def mana_symbols(cost: dict[str, int] | None) -> str:
    """``{generic: 2, R: 1}`` -> ``{2}{R}``; zero entries are dropped (canonical form),
    ``{}`` is ``""`` (no mana cost) and ``{generic: 0}`` alone is ``{0}``."""
    cost = cost or {}
    symbols = f"{{{cost['generic']}}}" if cost.get("generic") else ""
    for t in ("W", "U", "B", "R", "G", "C"):
        symbols += f"{{{t}}}" * cost.get(t, 0)
    if not symbols and "generic" in cost:
        return "{0}"
    return symbols


# -- who and what a sentence names -------------------------------------------------------------

def _source_filter(flt: dict[str, Any] | None, noun: str = "source") -> str:
    """A FILTER on a damage source: ``{color: red}`` -> "red source", ``{type: creature}``
    -> "creature"."""
    flt = flt or {}
    unknown = set(flt) - {"color", "type"}
    if unknown:
        raise NotRenderable(f"a source filter with {sorted(unknown)}")
    if "type" in flt:
        return " ".join(w for w in (flt.get("color"), flt["type"]) if w)
    return " ".join(w for w in (flt.get("color"), noun) if w)


def _cards(n: int) -> str:
    """"a card", "two cards" (Oracle: "Mill a card.", "discards two cards")."""
    return "a card" if n == 1 else f"{count_word(n)} cards"


def _player(who: str, verb_you: str, verb_they: str) -> str:
    """A WHO as a subject: "discard" (an imperative: "Discard two cards.") / "each opponent
    discards"."""
    if who == "self":
        return verb_you or "discard"
    if who == "opponent":
        return f"each opponent {verb_they}"
    raise NotRenderable(f"player {who!r}")


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou8" else "a"


def _cap(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def _damage_recipient(to: str) -> str:
    """A TARGET of damage: "you", "each opponent", or an object: "target creature"."""
    if to == "self":
        return "you"
    if to == "opponent":
        return "each opponent"
    return "target creature"


# -- instructions --------------------------------------------------------------------------------

def instruction(instr: dict[str, Any], name: str = "~") -> str:
    """One INSTRUCTION as one sentence (or, for ``compare_life``, a few)."""
    (op, args), = instr.items()
    if op == "damage":
        return _cap(f"{name} deals {args['amount']} damage to {_damage_recipient(args['to'])}.")
    if op == "discard":
        n = args["count"]
        return _cap(_player(args.get("player", "self"), "", "discards")) + f" {_cards(n)}."
    if op == "move_top":
        return _move_top(args)
    if op == "become":
        return _become(args)
    if op == "cost_change":
        change = _cost_change(args)
        return "This turn, " + change[:1].lower() + change[1:]
    if op == "grant":
        return GRANTS[args]["instruction"]
    if op == "shield":
        return _shield(args)
    if op == "compare_life":
        return _compare_life(args, name)
    raise NotRenderable(f"instruction {op!r}")


def _move_top(args: dict[str, Any]) -> str:
    n, who, to = args["count"], args.get("player", "self"), args["to"]
    cards = _cards(n)
    if to == "graveyard":                          # CR 701.13 (mill)
        return _cap(_player(who, "mill", "mills")) + f" {cards}."
    library = "your library" if who == "self" else "each opponent's library"
    top = "the top card" if n == 1 else f"the top {cards}"
    if to == "exile":
        return f"Exile {top} of {library}."
    if to == "hand" and who == "self":
        return f"Put {top} of {library} into your hand."
    raise NotRenderable(f"move_top to {to!r} for {who!r}")


def _become(args: dict[str, Any]) -> str:
    flt = args["filter"]
    parts = []
    if "power" in args:
        parts.append(f"{args['power']}/{args['toughness']}")
    if args.get("colors"):
        parts.append(" and ".join(args["colors"]))
    types = [t for t in args.get("types", []) if t]
    if "card" in flt:                             # the case's card, as the target
        if set(flt) != {"card"} or not parts:
            raise NotRenderable(f"a become on one card with {sorted(args)}")
        if not types:
            return f"Target permanent becomes {' '.join(parts)} until end of turn."
        what = " ".join(parts + types)
        return (f"Until end of turn, target permanent becomes {_article(what)} {what} in "
                "addition to its other types.")
    unknown = set(flt) - {"type", "zone"}
    if unknown or "type" not in flt:
        raise NotRenderable(f"a become filter with {sorted(flt)}")
    zone = flt.get("zone")
    plural = flt["type"] + "s"
    what = " ".join(parts + [t + "s" for t in types])
    if zone is None:                               # 609.2: permanents only
        return f"Until end of turn, all {plural} become {what} that are still {plural}."
    zones = [zone] if isinstance(zone, str) else list(zone)
    where = " and ".join(ZONE_WORDS.get(z, z) for z in zones if z != "battlefield")
    card_types = " ".join(parts + types)
    if "battlefield" not in zones:
        return (f"Until end of turn, each {flt['type']} card in {where} becomes "
                f"{_article(card_types)} {card_types} card in addition to its other types.")
    if not types:
        raise NotRenderable("a become naming the battlefield and other zones without a type")
    each = (f"each {flt['type']} card in {where} and " if where else "") + \
        f"each {flt['type']} on the battlefield"
    return (f"Until end of turn, {each} becomes {_article(card_types)} {card_types} in "
            "addition to its other types.")


def _cost_change(args: dict[str, Any]) -> str:
    """A cost change in the templating of Sphere of Resistance / Thalia."""
    amount = args["amount"]
    flt = args.get("filter") or {}
    unknown = set(flt) - {"controller", "type", "color"}
    if unknown:
        raise NotRenderable(f"a cost-change filter with {sorted(unknown)}")
    noun = " ".join(w for w in (flt.get("color"), flt.get("type")) if w)
    spells = f"{noun} spells" if noun else "Spells"
    caster = {"opponent": " your opponents cast", "self": " you cast", "any": "",
              None: ""}[flt.get("controller")]
    change = f"{{{abs(amount)}}} {'more' if amount >= 0 else 'less'}"
    return _cap(f"{spells}{caster} cost {change} to cast.")


def _shield(args: dict[str, Any]) -> str:
    """A prevention shield in the templating of Circle of Protection: Red ("the next time a
    red source of your choice would deal damage to you this turn, prevent that damage") and
    Healing Salve ("prevent the next 3 damage that would be dealt to ...")."""
    to = "you" if args["to"] == "self" else (
        "target opponent" if args["to"] == "opponent" else "target creature")
    amount = args.get("amount", "all")
    source = _source_filter(args.get("from"))
    chosen = args.get("choose") is not None or bool(args.get("your_choice"))
    if amount == "all":
        of_choice = " of your choice" if chosen else ""
        return (f"The next time {_article(source)} {source}{of_choice} would deal damage to "
                f"{to} this turn, prevent that damage.")
    if chosen:
        return (f"Prevent the next {amount} damage that {source.removesuffix(' source')} "
                f"{'source ' if source.endswith('source') else ''}of your choice would deal "
                f"to {to} this turn.")
    plural = source + "s" if not source.endswith("source") else source[:-6] + "sources"
    return f"Prevent the next {amount} damage that {plural} would deal to {to} this turn."


def _compare_life(args: dict[str, Any], name: str) -> str:
    """609.5's "if ... more life ..." text.  The player with more life does ``more`` as
    its controller, so the opponent's branch names the players the other way round."""
    def swap(instr: dict[str, Any]) -> dict[str, Any]:
        (op, a), = instr.items()
        flip = {"self": "opponent", "opponent": "self"}
        return {op: {k: flip.get(v, v) if k in ("to", "player") else v for k, v in a.items()}}

    def say(instrs: list[dict[str, Any]]) -> str:
        text = " ".join(instruction(i, name) for i in instrs)
        return text if text.startswith(name) else text[:1].lower() + text[1:]

    more = args.get("more", [])
    sentences = [f"If you have more life than an opponent, {say(more)}",
                 f"If an opponent has more life than you, {say([swap(i) for i in more])}"]
    if args.get("tie"):
        sentences.append(f"If you and an opponent have the same life total, "
                         f"{say(args['tie'])}")
    return " ".join(sentences)


#: Each PERMISSION: as a static ability, and as a one-shot instruction ("this turn").
GRANTS: dict[str, dict[str, str]] = {
    "flash": {"static": "You may cast spells as though they had flash.",
              "instruction": "You may cast spells this turn as though they had flash."},
    "other_graveyards": {
        "static": "You may play lands and cast spells from other players' graveyards as "
                  "though those cards were in your graveyard.",
        "instruction": "You may play lands and cast spells from other players' graveyards "
                       "this turn as though those cards were in your graveyard."},
    "spend_as_any_type": {
        "static": "You may spend mana as though it were mana of any type to cast spells.",
        "instruction": "You may spend mana this turn as though it were mana of any type to "
                       "cast spells."},
    "any_type_can_be_spent": {
        "static": "Mana of any type can be spent to cast spells.",
        "instruction": "Mana of any type can be spent to cast spells this turn."},
}


# -- abilities and objects ---------------------------------------------------------------------

def effect_text(instrs: list[dict[str, Any]], name: str = "~") -> str:
    """A text's instructions, in order, as one paragraph."""
    return " ".join(instruction(i, name) for i in instrs)


def static_text(static: dict[str, Any]) -> str:
    (op, args), = static.items()
    if op == "grant":
        return GRANTS[args]["static"]
    if op == "cost_change":
        return _cost_change(args)
    if op == "damage_from":
        source = _source_filter(args.get("filter"))
        plural = source[:-6] + "sources" if source.endswith("source") else source + "s"
        if args["then"] == "prevent":
            return f"Prevent all damage that {plural} would deal to you."
        if args["then"] == "double":
            return (f"If {_article(source)} {source} would deal damage to you, it deals double "
                    "that damage to you instead.")
    raise NotRenderable(f"static {op!r}")


def _line_order(ability: dict[str, Any]) -> int:
    """Oracle's order: Flash and Haste first, Flashback (with its reminder-less cost) last."""
    return {"flash": 0, "haste": 0, "flashback": 2}.get(str(ability.get("keyword")), 1)


def ability_text(ability: dict[str, Any], name: str = "~") -> str:
    """One ABILITY as one line of rules text.  An activated ability written without a
    cost (vocabulary 1) is written with the cost {0}."""
    (kind, body), = ((k, v) for k, v in ability.items() if k != "cost")
    if kind == "keyword":
        if body in ("flash", "haste"):
            return str(body).capitalize()
        if body == "flashback":
            return f"Flashback {mana_symbols(ability['cost']) or '{0}'}"
        raise NotRenderable(f"keyword {body!r}")
    if kind == "spell":
        return effect_text(body, name)
    if kind == "activated":
        if isinstance(body, dict):              # {cost, effect} (vocabulary 3)
            return f"{mana_symbols(body['cost']) or '{0}'}: {effect_text(body['effect'], name)}"
        return f"{{0}}: {effect_text(body, name)}"
    if kind == "static":
        return static_text(body)
    raise NotRenderable(f"ability {kind!r}")


@cache
def real_cards() -> dict[str, dict[str, Any]]:
    """The real cards the catalogue names, MTGJSON-shaped, by Oracle name
    (``cards/oracle-cards.json``; its README says where the text comes from)."""
    text = resources.files(__package__).joinpath("cards/oracle-cards.json").read_text("utf-8")
    cards: dict[str, dict[str, Any]] = json.loads(text)["cards"]
    return cards


def card_name(obj: Obj) -> str:
    """The name the card's rules text calls it by: its Oracle name, its case name, or
    (unnamed) its id."""
    return obj.get("oracle_name") or obj.get("name") or f"Card {obj['id']}"


def rules_text(obj: Obj) -> str:
    """An object's rules text, one ability per line (a real card's Oracle text when the
    object names one)."""
    if obj.get("oracle_name"):
        return str(real_cards()[obj["oracle_name"]]["text"])
    name = card_name(obj)
    abilities = sorted(obj.get("abilities", []), key=_line_order)
    return "\n".join(ability_text(a, name) for a in abilities)


def card(obj: Obj, extra_lines: tuple[str, ...] = ()) -> dict[str, Any]:
    """An MTGJSON atomic card for an object (the shape MTGJSON's AtomicCards uses), with
    ``extra_lines`` appended to its text (what an adapter adds to play a harness step)."""
    if obj.get("oracle_name"):
        real = dict(real_cards()[obj["oracle_name"]])
        if extra_lines:
            real["text"] = "\n".join([real["text"], *extra_lines])
        return real
    types = [t.capitalize() for t in obj.get("types", [])]
    colors = [COLOR_SYMBOL[c] for c in obj.get("colors", [])]
    cost = obj.get("mana_cost") or {}
    text = "\n".join(line for line in (rules_text(obj), *extra_lines) if line)
    found: dict[str, Any] = {
        "name": card_name(obj), "manaCost": mana_symbols(cost), "manaValue": sum(cost.values()),
        "colors": colors, "colorIdentity": colors, "types": types, "subtypes": [],
        "supertypes": [], "type": " ".join(types), "text": text, "layout": "normal",
        "identifiers": {}, "legalities": {}}
    keywords = sorted({str(a["keyword"]).capitalize() for a in obj.get("abilities", [])
                       if "keyword" in a})
    if keywords:   # as MTGJSON lists them (phase.rs reads a keyword line through this)
        found["keywords"] = keywords
    if obj.get("power") is not None:
        found["power"], found["toughness"] = str(obj["power"]), str(obj["toughness"])
    return found
