"""`conformance.certify`: one certification from Python, as ``conformance certify`` runs it
(`conformance._certify`): an engine (a spec, or an engine object in this process), the
CLI's options as keywords, and a typed `Report` back.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from conformance._report import Report


def certify(engine: Any, *, rulesets: Sequence[str] | None = None,
            profile: str | None = None, cases: str | Path | None = None,
            select: Sequence[str] = (), rules: Sequence[str] = (),
            properties: bool = True, no_cases: bool = False, shard: tuple[int, int] | None = None,
            mutation: bool = False, all_kills: bool = False, mutant: str | None = None,
            jobs: int = 1, known_failures: str | Path | None = None,
            update_known_failures: bool = False, seed: int | None = None,
            timeout: float | None = None, run_timeout: float | None = None,
            memory_limit: int | None = None, max_reply_bytes: int | None = None,
            strict_readings: bool = False, allow_no_verdict: bool = False,
            fail_under: float | None = None, exitfirst: bool = False,
            out: str | Path | None = None) -> Report:
    """Certify ``engine`` and return its report (written to ``out`` as well, when given).

    ``engine`` is an ``--engine`` spec (``"reference"``, ``"python:pkg.mod:factory"``,
    ``"cmd:./my-engine"``) or an object implementing `conformance.Engine`, run in
    this process.  The keywords are the options of ``conformance certify`` of the
    same names (docs/cli.md), dashes as underscores: ``fail_under``,
    ``allow_no_verdict``, ``exitfirst``, ``mutant``, ``shard=(i, n)``, ...
    (``properties=False`` is ``--no-properties``; ``cases`` the catalogue folder,
    ``--cases``).  ``profile`` defaults as there (``ci`` when ``CI`` is set).
    Mutation analysis (``mutation=True``) starts the engine once per mutant, so it
    needs a spec.  Bad options raise `conformance.UsageError`; an invalid
    catalogue raises `conformance.InvalidCatalogue`; the engine's faults are
    results in the report, never exceptions.
    """
    import dataclasses

    from conformance._cache import hypothesis_home
    from conformance._certify import RunConfig
    from conformance._certify import certify as run

    if update_known_failures and not known_failures:
        from conformance._errors import UsageError

        raise UsageError("update_known_failures re-pins the file given as known_failures: "
                         "give that too")
    config = RunConfig.of(
        engine, profile=profile, seed=seed, rulesets=rulesets, select=select, rules=rules,
        properties=properties, cases=cases, known_failures=known_failures, timeout=timeout,
        strict_readings=strict_readings, mutation=mutation, jobs=jobs, all_kills=all_kills,
        mutant=mutant, allow_no_verdict=allow_no_verdict, fail_under=fail_under,
        exitfirst=exitfirst, update_known_failures=update_known_failures,
        engine_options={key: value for key, value in (("memory_limit_mb", memory_limit),
                                                      ("max_reply_bytes", max_reply_bytes))
                        if value})
    config.selection.cases = not no_cases
    config.selection.shard = shard
    if run_timeout:
        config.profile = dataclasses.replace(config.profile, run_timeout=run_timeout)
    with hypothesis_home():   # never a .hypothesis/ in the caller's folder
        report = Report(run(config))
    if out is not None:
        report.write(out)
    return report
