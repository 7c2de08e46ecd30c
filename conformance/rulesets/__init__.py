"""The ruleset packs bundled with the suite (vision, mtg, zatch).

They register through the entry-point group ``card_conformance.rulesets``
(pyproject.toml) exactly like a pack in a distribution of its own; nothing in
the core names them.  Their catalogue stays at the top of the repository
(``cases/<name>``, where catalogue authors work), and a built wheel carries a
copy as ``conformance/_cases/<name>`` (setup.py): `bundled_cases` finds it.
"""

from __future__ import annotations

from pathlib import Path


def bundled_cases(name: str) -> Path:
    """The catalogue folder of the bundled pack ``name``: the wheel's copy inside the
    package, else the checkout's ``cases/<name>`` beside an editable install."""
    package = Path(__file__).resolve().parent.parent
    shipped = package / "_cases" / name
    if shipped.is_dir():
        return shipped
    return package.parent / "cases" / name
