"""Named settings profiles: how much work a run does, recorded in every report.

Like Hypothesis' ``register_profile``: ``quick`` for a local loop, ``ci``, ``certify``
for the published certification, ``deep`` to hunt for rare bugs (docs/cli.md, "Profiles").
"""

from __future__ import annotations

import dataclasses
import os


@dataclasses.dataclass(frozen=True)
class Profile:
    name: str
    max_examples: int      # Hypothesis examples per property
    timeout: float         # seconds an engine may take to answer one request
    run_timeout: float     # seconds the whole run may take before the rest is not run
    seed: int = 0          # fixed: certification runs are reproducible
    min_supported: int = 10  # a property with fewer supported scenarios is not a pass
    #: a property checks one of its rules only through at least this many supported
    #: examples that exercised it (docs/cli.md, "Too few examples")
    min_exercised: int = 3


PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile("quick", max_examples=10, timeout=5.0, run_timeout=300.0, min_supported=5,
                min_exercised=1),
        Profile("ci", max_examples=30, timeout=10.0, run_timeout=900.0),
        Profile("certify", max_examples=60, timeout=10.0, run_timeout=1800.0),
        Profile("deep", max_examples=1000, timeout=30.0, run_timeout=7200.0, min_supported=50,
                min_exercised=10),
    )
}


def default_profile_name() -> str:
    return "ci" if os.environ.get("CI") else "certify"


def get_profile(name: str | None = None) -> Profile:
    from conformance._errors import UsageError

    name = name or default_profile_name()
    try:
        return PROFILES[name]
    except KeyError:
        raise UsageError(f"unknown profile {name!r}; choose one of {sorted(PROFILES)}") from None
