"""Names: what a card is called, name reference (12.3) and 変装 (QA 2014-11-27).

Each function below is one rule and a switch point in `rules.Rules`.
"""

from __future__ import annotations

from reference_engine.vision.model import Card


def names_of(card: Card) -> list[str]:
    """Every name the card has now: its printed name first, then its link (連結) names."""
    return [n for n in [card.name, *card.link_names] if n]


def reference_names(card: Card) -> list[str]:
    """vision/IR-12.3: a name reference looks at every name the card has, link names too."""
    return names_of(card)


def printed_name_only(card: Card) -> list[str]:
    """Mutant: a name reference sees only the printed name, not 連結 names."""
    return [card.name] if card.name else []


def name_contains(names: list[str], ref: str) -> bool:
    """vision/IR-12.3.1: referring to "A" matches a name that contains "A" as a part.

    So 「博麗 霊夢」 refers to No.178 「符ノ壱“博麗 霊夢”」 but not to No.143
    「博麗神社」, which holds only a part of the reference (ex-12.3.1).
    """
    return bool(ref) and any(ref in name for name in names)


def name_equals(names: list[str], ref: str) -> bool:
    """Mutant: name reference demands the whole name be equal."""
    return ref in names


def name_shares_a_word(names: list[str], ref: str) -> bool:
    """Mutant: a name matches when it contains any space-separated word of the reference."""
    return any(word and word in name for word in ref.split() for name in names)


def name_starts_with(names: list[str], ref: str) -> bool:
    """Mutant: a name reference matches names that begin with it."""
    return bool(ref) and any(name.startswith(ref) for name in names)


def name_contains_or_contained(names: list[str], ref: str) -> bool:
    """Mutant: a name reference matches when either string contains the other."""
    return bool(ref) and any(ref in name or (name and name in ref) for name in names)


def same_name_exact(names: list[str], others: list[str]) -> bool:
    """vision/IR-12.3.2: "the same name" means names equal with nothing over or missing."""
    return any(a == b for a in names for b in others)


def same_name_substring(names: list[str], others: list[str]) -> bool:
    """Mutant: "the same name" read like a name reference (one contains the other)."""
    return any(b in a for a in names for b in others)


def same_name_ignoring_spaces(names: list[str], others: list[str]) -> bool:
    """Mutant: names are compared with their spaces taken out (「博麗 霊夢」 = 「博麗霊夢」)."""
    return any(a.replace(" ", "") == b.replace(" ", "") for a in names for b in others)


def without_title(name: str) -> str:
    """「符ノ壱“博麗 霊夢”」 -> 「博麗 霊夢」: what is inside the quotes of a spell-card title."""
    start, end = name.find("“"), name.rfind("”")
    return name[start + 1:end] if 0 <= start < end else name


def same_name_without_title(names: list[str], others: list[str]) -> bool:
    """Mutant: a 符ノ壱“…” title is stripped before comparing names."""
    return any(without_title(a) == without_title(b) for a in names for b in others)


def disguise_printed_name(card: Card, new_name: str) -> None:
    """vision/QA-2014-11-27: 変装 changes the printed name; names from 連結 stay."""
    card.name = new_name


def disguise_all_names(card: Card, new_name: str) -> None:
    """Mutant: 変装 replaces every name, dropping the link names."""
    card.name = new_name
    card.link_names = []


def disguise_adds_name(card: Card, new_name: str) -> None:
    """Mutant: 変装 adds the new name as one more name, keeping the printed one."""
    if card.name and card.name not in card.link_names:
        card.link_names = [card.name, *card.link_names]
    card.name = new_name


def disguise_skips_linked(card: Card, new_name: str) -> None:
    """Mutant: a card with link names keeps its names; 変装 only renames plain cards."""
    if not card.link_names:
        card.name = new_name
