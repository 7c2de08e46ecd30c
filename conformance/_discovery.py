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
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from conformance._errors import UsageError
from conformance._shown import shown

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from conformance._properties import Property

RULESETS_GROUP = "card_conformance.rulesets"
REFERENCE_ENGINES_GROUP = "card_conformance.reference_engines"
ENGINES_GROUP = "card_conformance.engines"
VOCABULARY = "vocabulary.json"
HOW_TO = "docs/rulesets/README.md, 'A ruleset in its own distribution'"
T = TypeVar("T")


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
    where = f" (distribution {shown(dist.name, 100)})" if dist is not None else ""
    return f"'{shown(ep.name, 100)} = {shown(ep.value, 200)}'{where}"


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


def _raised(exc: BaseException) -> str:
    """What a pack raised, on one line and safe to print: the pack's text is not ours."""
    if isinstance(exc, SystemExit):
        return f"called sys.exit({shown(repr(exc.code), 80)})"
    try:
        text = str(exc)
    except Exception:   # a __str__ that raises too
        text = "(its message cannot be read)"
    return f"raised {type(exc).__name__}" + (f": {shown(text, 300)}" if text else "")


def _guarded(call: Callable[[], T], problem: str, fix: str,
             error: Callable[[str, str], PackError]) -> T:
    """``call()``, the pack's code, where anything it raises (SystemExit too: a pack's
    ``sys.exit(0)`` must not end the run green) is a `PackError` naming the pack.
    Only KeyboardInterrupt passes: that is the user stopping the run."""
    try:
        return call()
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise error(f"{problem}: it {_raised(exc)}", fix) from None


def _import(module_name: str, error: Callable[[str, str], PackError]) -> ModuleType:
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        raise error(f"cannot be imported ({type(exc).__name__}: {shown(exc, 300)})",
                    "install the pack's distribution with its dependencies") from None
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise error(f"cannot be imported: importing {module_name} {_raised(exc)}",
                    f"make `import {module_name}` succeed (run `python -c 'import "
                    f"{module_name}'` for its traceback); a pack must not exit or raise "
                    "while it is imported") from None


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
        module = self.module()
        where = _guarded(lambda: getattr(module, "CASES", None), "cannot be read (CASES)",
                         "define CASES as a plain str or pathlib.Path", self.error)
        if where is not None and not isinstance(where, (str, os.PathLike)):
            raise self.error(f"sets CASES to a {type(where).__name__}, not a folder path",
                             "set CASES to the folder of rules.yaml and the case files "
                             "(a str or pathlib.Path), or leave it out to use cases/ "
                             "beside the module")
        try:
            folder = Path(where) if where is not None else self.folder / "cases"
        except TypeError as exc:   # an os.PathLike whose __fspath__ gives no str
            raise self.error(f"sets CASES to {shown(repr(where), 80)}, not a folder path "
                             f"({shown(exc, 200)})",
                             "set CASES to a str or pathlib.Path") from None
        if not folder.is_dir():
            raise self.error(
                f"has no catalogue folder (looked for {folder})",
                "ship rules.yaml and the case files in a cases/ folder beside the module, "
                "or set CASES in the module to the folder that holds them")
        return folder

    def properties(self) -> list[Property]:
        from conformance._properties import Property

        module = self.module()
        fix = ("define PROPERTIES in the module, a list of properties made with "
               "conformance.ruleset.invariant (an empty list if the pack has none yet)")
        declared = _guarded(lambda: getattr(module, "PROPERTIES", None),
                            "cannot be read (PROPERTIES)", fix, self.error)
        if declared is None:
            raise self.error("declares no PROPERTIES", fix)
        if not isinstance(declared, (list, tuple)):
            raise self.error(f"sets PROPERTIES to a {type(declared).__name__}, not a list",
                             fix)
        wrong = [i for i, p in enumerate(declared) if not isinstance(p, Property)]
        if wrong:
            raise self.error(f"has PROPERTIES[{wrong[0]}], a "
                             f"{type(declared[wrong[0]]).__name__}, not a property", fix)
        return list(declared)

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
    try:   # imports the packages above the module: the pack's code runs
        spec = importlib.util.find_spec(ep.module)
    except (ImportError, ValueError) as exc:
        spec, why = None, f" ({type(exc).__name__}: {shown(exc, 300)})"
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise PackError(f"{where} names module {ep.module!r}, and finding it "
                        f"{_raised(exc)}; make `import {ep.module}` succeed: a pack must "
                        f"not exit or raise while it is imported (see {HOW_TO})") from None
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
    needs = ("define RULESET (the ruleset name), MUTANTS (a list of "
             "reference_engine.Mutant) and new_game(setup, mutant)")
    missing = _guarded(lambda: [a for a in ("RULESET", "MUTANTS", "new_game")
                                if not hasattr(module, a)], "cannot be read", needs, error)
    if missing:
        raise error(f"lacks {', '.join(missing)}", needs)
    declared: Any = _guarded(lambda: module.RULESET, "cannot be read (RULESET)", needs, error)
    if not isinstance(declared, str) or declared != name:
        raise error(f"says RULESET = {shown(repr(declared), 80)}",
                    f"register it under its own ruleset name ('{declared} = {ep.module}')")
    return module


def properties_for(ruleset: str) -> list[Property]:
    """The properties a ruleset's installed pack declares (``PROPERTIES``); none for a
    ruleset no pack registers (a folder of an explicit ``--cases`` catalogue only)."""
    pack = find_ruleset(ruleset)
    return [] if pack is None else pack.properties()
