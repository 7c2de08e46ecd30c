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
            properties: bool = True, mutation: bool = False, jobs: int = 1,
            known_failures: str | Path | None = None, seed: int | None = None,
            timeout: float | None = None, strict_readings: bool = False,
            out: str | Path | None = None) -> Report:
    """Certify ``engine`` and return its report (written to ``out`` as well, when given).

    ``engine`` is an ``--engine`` spec (``"reference"``, ``"python:pkg.mod:factory"``,
    ``"cmd:./my-engine"``) or an object implementing `conformance.Engine`, run in
    this process.  The keywords are the CLI's options of the same names
    (docs/cli.md); ``profile`` defaults as there (``ci`` when ``CI`` is set).
    Mutation analysis (``mutation=True``) starts the engine once per mutant, so it
    needs a spec.  Bad options raise `conformance.UsageError`; an invalid
    catalogue raises `conformance.InvalidCatalogue`; the engine's faults are
    results in the report, never exceptions.
    """
    from conformance._cache import hypothesis_home
    from conformance._certify import RunConfig
    from conformance._certify import certify as run

    with hypothesis_home():   # never a .hypothesis/ in the caller's folder
        report = Report(run(RunConfig.of(
            engine, profile=profile, seed=seed, rulesets=rulesets, select=select, rules=rules,
            properties=properties, cases=cases, known_failures=known_failures, timeout=timeout,
            strict_readings=strict_readings, mutation=mutation, jobs=jobs)))
    if out is not None:
        report.write(out)
    return report
