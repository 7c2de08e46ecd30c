"""Whether some ``--shard I/N`` reports are every shard of one run, each whole.

`conformance merge` (and `compare`, which merges shards first) makes one report
of the shards; a merge missing a shard, or a shard missing items, would be a
report of less than the run that still reads like all of it.  Each shard
report records its ``settings.shard`` ("I/N") and its filters, and the rule
rows list every item of the selected rulesets, so the items the hash
(`conformance._runner.shard_of`) assigns to each shard are known from the
reports alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from conformance._errors import UsageError
from conformance._runner import Selection, shard_of
from conformance._types import ReportDict


def _some(ids: Sequence[str], shown: int = 3) -> str:
    more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
    return ", ".join(repr(i) for i in ids[:shown]) + more


def assigned(report: ReportDict, shard: tuple[int, int]) -> set[str]:
    """The item ids the hash assigns to ``shard`` among those the report's filters
    select (the rule rows name every item of the selected rulesets)."""
    filters = report["settings"]["filters"]
    selection = Selection(rulesets=filters.get("rulesets") or None, select=filters["select"],
                          rules=filters["rules"], shard=shard)
    items: dict[str, tuple[str, set[str]]] = {}
    for row in report["rules"]:
        for kind in ("cases", "properties"):
            if filters.get(kind, True) is False:
                continue
            for item in row[kind]:
                items.setdefault(item, (row["ruleset"], set()))[1].add(row["id"])
    return {item for item, (ruleset, rules) in items.items()
            if selection.wants(item, ruleset, tuple(sorted(rules)))}


def check_complete(reports: Sequence[ReportDict]) -> None:
    """Raise `UsageError` unless ``reports`` are the shards 1/N to N/N of one run, each
    once, each holding only items the hash assigns it and, when it ran to the end,
    every one of them.  One report that is no shard is a whole run, and passes."""
    shards = [r["settings"].get("shard") for r in reports]
    if len(reports) == 1 and shards[0] is None:
        return
    if None in shards:
        raise UsageError(f"cannot merge: report {shards.index(None) + 1} of {len(reports)} is "
                         "not a shard (its settings.shard is null); merge the reports of "
                         "--shard I/N runs, or read a whole run's report as it is")
    named = [s for s in shards if s is not None]   # all of them
    parsed = [(int(i), int(n)) for i, _, n in (s.partition("/") for s in named)]
    splits = sorted({n for _, n in parsed})
    if len(splits) > 1:
        raise UsageError(f"cannot merge: the shards split the run differently "
                         f"({', '.join(named)}); merge the N shards of one --shard I/N run")
    total = splits[0]
    seen: set[int] = set()
    for index, _ in parsed:
        if not 1 <= index <= total:
            raise UsageError(f"cannot merge: shard {index}/{total} does not exist")
        if index in seen:
            raise UsageError(f"cannot merge: shard {index}/{total} is in more than one report; "
                             "merge the shards of one run (--shard I/N), each once")
        seen.add(index)
    missing = [f"{i}/{total}" for i in range(1, total + 1) if i not in seen]
    if missing:
        raise UsageError(f"cannot merge: shard(s) {', '.join(missing)} missing (given: "
                         f"{', '.join(sorted(named))}); without them the merged report is "
                         "not the whole run: merge every shard's report")
    for report, (index, _) in zip(reports, parsed, strict=True):
        stray = [r["id"] for r in report["results"] if shard_of(r["id"], total) != index]
        if stray:
            raise UsageError(f"cannot merge: shard {index}/{total} holds {_some(stray)}, which "
                             f"the hash assigns to shard {shard_of(stray[0], total)}/{total}: "
                             "this report is not what that shard's run wrote")
    for report, (index, _) in zip(reports, parsed, strict=True):
        held = {r["id"] for r in report["results"]}
        lacking = sorted(assigned(report, (index, total)) - held)
        if lacking and report["complete"]:
            raise UsageError(f"cannot merge: shard {index}/{total} ran to the end but lacks "
                             f"{len(lacking)} item(s) the hash assigns it ({_some(lacking)}): "
                             "this report is not what that shard's run wrote")
