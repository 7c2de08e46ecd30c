"""The run-time vocabulary gate: which version an item needs, and what an engine speaks.

An engine declares in its hello the vocabulary version it speaks per ruleset
(none: the latest).  `describe` gives an item's features and the version they
make it `need`; the runner skips an item needing more than the engine speaks
(`gate`), and a property generates only scenarios within it (`Within`).  An
engine that declared nothing and fails an item using later words hears that it
may be vocabulary drift (`drift_hint`, `drift_line`).  The words themselves, and
the history of their versions, are conformance/vocabulary.py's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from conformance.vocabulary import features, history


# -- what an item needs, and what an engine speaks ----------------------------------------
@dataclasses.dataclass(frozen=True)
class Needs:
    """The minimum version an item needs, and why (the feature or meaning that decides)."""

    version: int
    because: str      # "" for version 1

    def reason(self, ruleset: str, speaks: int) -> str:
        """The skip reason of an item an engine speaking ``speaks`` cannot be given."""
        return (f"needs {self.because} ({ruleset} vocabulary {self.version}); "
                f"the engine speaks {speaks}")


def needs(ruleset: str, item_id: str, used: Iterable[str]) -> Needs:
    """The minimum version for an item using ``used``: the newest feature (harness-only
    forms aside) or meaning it relies on; ties go to the first in sorted order."""
    found = history(ruleset)
    best = Needs(1, "")
    newer = [f for f in used if found.introduced.get(f, 1) > 1 and f not in found.harness_only]
    for feature in sorted(newer):   # most items have none: nothing to sort
        version = found.introduced[feature]
        if version > best.version:
            best = Needs(version, feature)
    for meaning in found.meanings:
        if item_id in meaning.items and meaning.version > best.version:
            best = Needs(meaning.version, f"the new meaning of {meaning.word}")
    return best


def declared(engine_info: Mapping[str, Any]) -> dict[str, int]:
    """The version per ruleset an engine's hello declared (``{}``: none)."""
    return dict(engine_info.get("vocabulary") or {})


def speaks(engine_info: Mapping[str, Any], ruleset: str) -> int:
    """The version of ``ruleset`` the engine speaks: what it declared, else the latest."""
    return declared(engine_info).get(ruleset, history(ruleset).latest)


def undeclared_line(engine_info: Mapping[str, Any], rulesets: Iterable[str]) -> str:
    """The report's one line for an engine that declared no version for some claimed
    rulesets (``""`` when it declared one for each)."""
    said = declared(engine_info)
    missing = [r for r in rulesets if r not in said]
    if not missing:
        return ""
    latest = ", ".join(f"{r} {history(r).latest}" for r in missing)
    return (f"the engine declared no vocabulary version for {', '.join(missing)}; "
            f"taken to speak the latest: {latest}")


def version_name(ruleset: str, version: int) -> str:
    """``mtg vocabulary 3 (4 December 2026)``: a version as people name it."""
    day = history(ruleset).dates.get(version)
    when = ""
    if day:
        import datetime

        date = datetime.date.fromisoformat(day)
        when = f" ({date.day} {date:%B %Y})"
    return f"{ruleset} vocabulary {version}{when}"


DECLARE_IT = "an engine written against an earlier version declares it in its hello"


def _drifted(result: Mapping[str, Any], engine_info: Mapping[str, Any]) -> bool:
    """A failure of an item using words added after version 1, by an engine that
    declared no version for its ruleset (so it was taken to speak the latest)."""
    return (result.get("status") in ("fail", "error")
            and int(result.get("needs_vocabulary") or 1) > 1
            and result.get("ruleset") not in declared(engine_info))


def drift_hint(result: Mapping[str, Any], engine_info: Mapping[str, Any]) -> str:
    """The line a failure carries when it may be vocabulary drift (``""`` otherwise)."""
    if not _drifted(result, engine_info):
        return ""
    return (f"this item uses words of {version_name(result['ruleset'], result['needs_vocabulary'])}"
            f"; {DECLARE_IT}")


def drift_line(results: Iterable[Mapping[str, Any]], engine_info: Mapping[str, Any]) -> str:
    """The summary's line: how many failures use words of which later version
    (``""`` when none, or when the engine declared its versions)."""
    count: dict[tuple[str, int], int] = {}
    for r in results:
        if _drifted(r, engine_info):
            key = (r["ruleset"], int(r["needs_vocabulary"]))
            count[key] = count.get(key, 0) + 1
    if not count:
        return ""
    parts = [f"{n} failure{'s' if n != 1 else ''} use{'' if n != 1 else 's'} words of "
             f"{version_name(ruleset, version)}" for (ruleset, version), n in sorted(count.items())]
    return f"{', '.join(parts)}; {DECLARE_IT}"


# -- what the runner asks -----------------------------------------------------------------
_DESCRIBED: dict[str, tuple[Any, list[str], Needs]] = {}


def describe(item: Any) -> tuple[list[str], Needs]:
    """A case's features (sorted) and what it needs; a property's meanings only (its
    features are those its run generates: `Within`).  Remembered per item object, so
    each case of a catalogue load is walked once whatever runs it."""
    known = _DESCRIBED.get(item.id)
    if known is not None and known[0] is item:
        return known[1], known[2]
    if hasattr(item, "setup"):
        used = sorted(with_synthetic(item.ruleset, features(
            item.ruleset, {"setup": item.setup, "steps": item.steps})))
    else:
        used = []
    found = (used, needs(item.ruleset, item.id, used))
    _DESCRIBED[item.id] = (item, *found)
    return found


def gate(item: Any, engine_info: Mapping[str, Any]) -> tuple[str, str | None]:
    """Why the engine cannot be given the item, and the skip kind (``("", None)`` if it
    can): a case needing a newer feature or meaning, a property a newer meaning, or a
    case needing harness actions the engine declared it does not take."""
    spoken = speaks(engine_info, item.ruleset)
    used, wanted = describe(item)
    if wanted.version > spoken:
        return wanted.reason(item.ruleset, spoken), None
    if SYNTHETIC in used and not takes_synthetic(engine_info):
        return NEEDS_HARNESS, SYNTHETIC
    return "", None


#: The derived feature of an item using a harness-only action (`History.synthetic`).
SYNTHETIC = "synthetic"
#: The skip reason of such an item for an engine that takes none: one reason, one line.
NEEDS_HARNESS = "needs harness actions; the engine declared capabilities.synthetic false"


def with_synthetic(ruleset: str, used: set[str]) -> set[str]:
    """``used`` plus `SYNTHETIC` when one of them is a harness-only action."""
    if used & history(ruleset).synthetic.keys():
        return used | {SYNTHETIC}
    return used


def takes_synthetic(engine_info: Mapping[str, Any]) -> bool:
    """Whether the engine takes harness-only actions (``capabilities.synthetic``, default
    true: they are words of the vocabulary like any other)."""
    return (engine_info.get("capabilities") or {}).get("synthetic", True) is not False


class Within:
    """A property's scenarios restricted to what an engine speaks, and what they used.

    For an engine speaking an older version than the latest, every generated
    scenario is walked, and one needing more is filtered out (so Hypothesis draws
    another).  At the latest version nothing is filtered, and walking stops once
    `SATURATED` scenarios in a row added no feature: the features recorded are
    then those of the scenarios walked, at a few percent of a run's cost rather
    than a tenth.  ``refused`` is the reason of the first scenario filtered out,
    for a property none of whose scenarios fit.
    """

    #: Scenarios in a row that add no feature, after which the latest version stops walking.
    SATURATED = 10

    def __init__(self, prop: Any, version: int, synthetic: bool = True) -> None:
        self.prop, self.ruleset, self.version = prop, prop.ruleset, version
        self.synthetic = synthetic   # False: scenarios using harness-only actions are out
        self.filters = version < history(prop.ruleset).latest or not synthetic
        self.used: set[str] = set()
        self.lowest = 0          # the lowest version any walked scenario needed
        self.refused = ""
        self._unchanged = 0      # scenarios in a row that added no feature

    def fits(self, scenario: Mapping[str, Any]) -> bool:
        if not self.filters and self._unchanged >= self.SATURATED:
            return True
        used = with_synthetic(self.ruleset, features(self.ruleset, scenario))
        self._unchanged = 0 if used - self.used else self._unchanged + 1
        wanted = needs(self.ruleset, "", used)
        self.lowest = min(self.lowest or wanted.version, wanted.version)
        if wanted.version > self.version:
            self.refused = self.refused or wanted.reason(self.ruleset, self.version)
            return False
        if SYNTHETIC in used and not self.synthetic:
            self.refused = self.refused or NEEDS_HARNESS
            return False
        self.used |= used
        return True

    @property
    def scenarios(self) -> Any:
        return self.prop.scenarios.filter(self.fits)

    def exhaustive(self) -> Iterator[tuple[str, Any]]:
        return ((label, s) for label, s in self.prop.exhaustive() if self.fits(s))

    def fields(self) -> dict[str, Any]:
        """The result's ``features`` and ``needs_vocabulary``."""
        meaning = describe(self.prop)[1].version
        return {"features": sorted(self.used), "needs_vocabulary": max(meaning, self.lowest or 1)}


def sampled(prop: Any, examples: int = 30) -> tuple[list[str], Needs]:
    """A property's features and needs from scenarios its generators draw (derandomized;
    an exhaustive property's every scenario), for listing without an engine."""
    import hypothesis
    from hypothesis import HealthCheck, Phase

    seen = Within(prop, history(prop.ruleset).latest)
    if prop.exhaustive is not None:
        for _ in seen.exhaustive():
            pass
    else:
        @hypothesis.settings(max_examples=examples, derandomize=True, database=None,
                             deadline=None, suppress_health_check=list(HealthCheck),
                             phases=[Phase.generate])
        @hypothesis.given(prop.scenarios)
        def draw(scenario: Any) -> None:
            seen.fits(scenario)

        draw()
    fields = seen.fields()
    meaning = describe(prop)[1]
    if meaning.version >= fields["needs_vocabulary"]:
        return fields["features"], meaning
    return fields["features"], Needs(fields["needs_vocabulary"],
                                     "every scenario its generators drew")


def report_section(engine_info: Mapping[str, Any], rulesets: Iterable[str],
                   results: Iterable[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The report's ``vocabulary``: per claimed ruleset the version the run took the
    engine to speak and the latest, the one line for what it did not declare, and how
    many items used harness-only actions (``synthetic``) and whether the engine takes them."""
    rulesets = list(rulesets)
    return {"speaks": {r: speaks(engine_info, r) for r in rulesets},
            "latest": {r: history(r).latest for r in rulesets},
            "note": undeclared_line(engine_info, rulesets),
            "synthetic": {"items": harness_items(results),
                          "taken": takes_synthetic(engine_info)}}


def harness_items(results: Iterable[Mapping[str, Any]]) -> int:
    """How many items use harness-only actions (or were skipped for needing them)."""
    return sum(SYNTHETIC in r.get("features", ()) or r.get("message") == NEEDS_HARNESS
               for r in results)


def report_line(section: Mapping[str, Any]) -> str:
    """The report section in one line, for the head of every report format."""
    spoken = ", ".join(f"{r} {v} (latest {section['latest'][r]})"
                       for r, v in section["speaks"].items())
    harness = section.get("synthetic") or {"items": 0, "taken": True}   # older reports
    needing = ("" if harness["taken"] or not harness["items"] else
               f"{harness['items']} items need harness actions (capabilities.synthetic false)")
    return "; ".join(part for part in (spoken or "none", section["note"], needing) if part)
