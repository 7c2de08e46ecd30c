"""Where rulesets come from: packs found through entry points, in any distribution.

Three entry-point groups (docs/rulesets/README.md):

- ``card_conformance.rulesets``: ruleset name -> the ruleset pack module.  It
  declares ``PROPERTIES``; its ``vocabulary.json`` lies beside it; its
  catalogue (``rules.yaml`` and the case files) is the folder its ``CASES``
  attribute names, else the ``cases/`` folder beside the module.
- ``card_conformance.reference_engines``: ruleset name -> the reference-engine
  pack module, with ``RULESET``, ``MUTANTS`` and ``new_game(setup, mutant)``.
- ``card_conformance.engines``: engine name -> ``module:factory`` of an engine
  certified by name (``--engine reference``; any engine may register).

The bundled rulesets register the same way (pyproject.toml), so the core knows
no ruleset by name: whatever asks which rulesets exist asks this module.  The
entry points are read once per process; a pack is imported only when needed
(its folder is found without importing it).
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from conformance._errors import UsageError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from conformance._properties import Property

RULESETS_GROUP = "card_conformance.rulesets"
REFERENCE_ENGINES_GROUP = "card_conformance.reference_engines"
ENGINES_GROUP = "card_conformance.engines"
VOCABULARY = "vocabulary.json"
HOW_TO = "docs/rulesets/README.md, 'A ruleset in its own distribution'"


class PackError(UsageError):
    """An installed pack is broken: it names the pack, its entry point, what is
    missing and how to fix it.  The CLI exits 4 (a usage error: the installation,
    not the engine, is wrong)."""


@cache
def _entry_points(group: str) -> dict[str, EntryPoint]:
    """The group's entry points by name, in installation order; a name that two
    distributions register differently is an error rather than a coin toss."""
    from importlib.metadata import entry_points

    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=group):
        first = found.setdefault(ep.name, ep)
        if first.value != ep.value:
            raise PackError(
                f"two packs register {ep.name!r} in the entry-point group {group!r}: "
                f"{_origin(first)} and {_origin(ep)}; uninstall one of them")
    return found


def _origin(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    where = f" (distribution {dist.name})" if dist is not None else ""
    return f"'{ep.name} = {ep.value}'{where}"


def engine_names() -> list[str]:
    """Every engine registered by name (``--engine NAME``), sorted."""
    return sorted(_entry_points(ENGINES_GROUP))


def engine_target(name: str) -> str:
    """The ``module:factory`` a registered engine's entry point names."""
    return _entry_points(ENGINES_GROUP)[name].value


def ruleset_names() -> list[str]:
    """Every installed ruleset, sorted."""
    return sorted(_entry_points(RULESETS_GROUP))


def reference_engine_names() -> list[str]:
    """Every ruleset an installed reference-engine pack models, sorted."""
    return sorted(_entry_points(REFERENCE_ENGINES_GROUP))


def unknown_ruleset(name: str) -> str:
    """The message for a ruleset name no pack registers."""
    return (f"no ruleset {name!r} is installed; installed rulesets: "
            f"{', '.join(ruleset_names()) or '(none)'} (a ruleset is a pack registered in "
            f"the entry-point group {RULESETS_GROUP!r}; see {HOW_TO})")


def _import(module_name: str, error: Callable[[str, str], PackError]) -> ModuleType:
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        raise error(f"cannot be imported ({type(exc).__name__}: {exc})",
                    "install the pack's distribution with its dependencies") from exc


@dataclasses.dataclass(frozen=True)
class RulesetPack:
    """One installed ruleset pack: where its parts are, read on demand."""

    name: str
    entry_point: str   # "name = value" and the distribution, for messages
    module_name: str
    folder: Path       # the module's folder: vocabulary.json is here

    @property
    def vocabulary(self) -> Path:
        """The pack's vocabulary schema; `PackError` when it has none."""
        path = self.folder / VOCABULARY
        if not path.is_file():
            raise self.error(f"has no {VOCABULARY} (looked for {path})",
                             f"ship the JSON Schema of the pack's vocabulary as {VOCABULARY} "
                             f"beside {self.module_name}, and list it as package data")
        return path

    def module(self) -> ModuleType:
        return _import(self.module_name, self.error)

    def cases(self) -> Path:
        """The pack's catalogue folder: ``CASES`` if the module says, else ``cases/`` beside it."""
        where = getattr(self.module(), "CASES", None)
        folder = Path(where) if where is not None else self.folder / "cases"
        if not folder.is_dir():
            raise self.error(
                f"has no catalogue folder (looked for {folder})",
                "ship rules.yaml and the case files in a cases/ folder beside the module, "
                "or set CASES in the module to the folder that holds them")
        return folder

    def properties(self) -> list[Property]:
        module = self.module()
        if not hasattr(module, "PROPERTIES"):
            raise self.error(
                "declares no PROPERTIES",
                "define PROPERTIES in the module, a list of properties made with "
                "conformance.ruleset.invariant (an empty list if the pack has none yet)")
        return list(module.PROPERTIES)

    def error(self, problem: str, fix: str) -> PackError:
        return PackError(f"ruleset pack {self.name!r} (entry point {self.entry_point} in "
                         f"group {RULESETS_GROUP!r}) {problem}; fix: {fix} (see {HOW_TO})")


@cache
def find_ruleset(name: str) -> RulesetPack | None:
    """The installed pack of ``name``, or None when no pack registers it."""
    ep = _entry_points(RULESETS_GROUP).get(name)
    if ep is None:
        return None
    where = f"ruleset pack {name!r}: the entry point {_origin(ep)} in group {RULESETS_GROUP!r}"
    if ep.attr:
        raise PackError(f"{where} names an attribute; name the pack's module "
                        f"('{name} = package.module'; see {HOW_TO})")
    why = ""
    try:
        spec = importlib.util.find_spec(ep.module)
    except (ImportError, ValueError) as exc:
        spec, why = None, f" ({type(exc).__name__}: {exc})"
    if spec is None or (spec.origin is None and not spec.submodule_search_locations):
        raise PackError(f"{where} names module {ep.module!r}, which is not installed{why}; "
                        f"reinstall the pack's distribution (see {HOW_TO})")
    locations = list(spec.submodule_search_locations or ())   # a package's, else a module's
    folder = Path(locations[0]) if locations else Path(str(spec.origin)).parent
    return RulesetPack(name, _origin(ep), ep.module, folder)


@cache   # the reference engine asks at every game start: reading a pack's origin is slow
def reference_engine_pack(name: str) -> ModuleType:
    """The reference-engine pack modelling ``name``, checked: RULESET, MUTANTS, new_game."""
    ep = _entry_points(REFERENCE_ENGINES_GROUP).get(name)
    if ep is None:
        raise UsageError(f"no reference-engine pack models {name!r}; installed: "
                         f"{', '.join(reference_engine_names()) or '(none)'}")

    def error(problem: str, fix: str) -> PackError:
        return PackError(f"reference-engine pack {name!r} (entry point {_origin(ep)} in group "
                         f"{REFERENCE_ENGINES_GROUP!r}) {problem}; fix: {fix} (see {HOW_TO})")

    module = _import(ep.module, error)
    missing = [attr for attr in ("RULESET", "MUTANTS", "new_game") if not hasattr(module, attr)]
    if missing:
        raise error(f"lacks {', '.join(missing)}",
                    "define RULESET (the ruleset name), MUTANTS (a list of "
                    "reference_engine.Mutant) and new_game(setup, mutant)")
    declared: Any = module.RULESET
    if declared != name:
        raise error(f"says RULESET = {declared!r}",
                    f"register it under its own ruleset name ('{declared} = {ep.module}')")
    return module


def properties_for(ruleset: str) -> list[Property]:
    """The properties a ruleset's installed pack declares (``PROPERTIES``); none for a
    ruleset no pack registers (a folder of an explicit ``--cases`` catalogue only)."""
    pack = find_ruleset(ruleset)
    return [] if pack is None else pack.properties()
