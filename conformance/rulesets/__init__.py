"""The ruleset packs bundled with the suite (vision, mtg, zatch).

They register through the entry-point group ``card_conformance.rulesets``
(pyproject.toml) exactly like a pack in a distribution of its own; nothing in
the core names them.  Their catalogue stays at the top of the repository
(``cases/<name>``, where catalogue authors work), and a built wheel carries a
copy as ``conformance/_cases/<name>`` (setup.py): `bundled_cases` finds it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def bundled_cases(name: str) -> Path:
    """The catalogue folder of the bundled pack ``name``: the wheel's copy inside the
    package, else the checkout's ``cases/<name>`` beside an editable install."""
    package = Path(__file__).resolve().parent.parent
    shipped = package / "_cases" / name
    if shipped.is_dir():
        return shipped
    return package.parent / "cases" / name


def lazy_properties(module: str, load: Callable[[], list[Any]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that builds the pack's ``PROPERTIES`` with ``load``
    when first asked: properties pull in Hypothesis and the strategies, which
    reading the catalogue (``CASES`` only) does not need.

    In a pack's ``__init__.py``: ``__getattr__ = lazy_properties(__name__, _properties)``.
    """
    def __getattr__(attr: str) -> Any:
        if attr != "PROPERTIES":
            raise AttributeError(f"module {module!r} has no attribute {attr!r}")
        properties = load()
        sys.modules[module].PROPERTIES = properties  # type: ignore[attr-defined]  # asked once
        return properties

    return __getattr__
