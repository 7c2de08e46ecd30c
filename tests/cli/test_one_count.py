"""One count everywhere (issue 42 item 8): the progress line counts failures as the
summary does, and a failure that does not count says so wherever it is shown."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import toy
from commands import conformance_in_process

READING_RULES, CASE_ZERO = toy.READING_RULES, toy.CASE_ZERO


class WrongOnZero(toy.WrongEngine):
    """Breaks R-1 (a seed rule) and reads the seed otherwise on zero (a reading)."""

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        if action.get("add") == 0:
            return {"accepted": False, "reason": "nothing to add"}
        return super().act(action)


toy.WrongOnZero = WrongOnZero  # type: ignore[attr-defined]  # python:toy:WrongOnZero


def _catalogue(tmp_path: Path) -> Path:
    cases = toy.write_catalogue(tmp_path / "cases", {"zero.yaml": CASE_ZERO})
    (cases / "toy" / "rules.yaml").write_text(READING_RULES, "utf-8")
    return cases


def _certify(tmp_path: Path, *extra: object) -> str:
    ran = conformance_in_process("certify", "--engine", "python:toy:WrongOnZero", "--cases",
                                 _catalogue(tmp_path), "--profile", "quick", *extra)
    return ran.stdout


def test_the_progress_line_counts_failures_as_the_summary_does(tmp_path):
    """A seed failure and a reading's: the summary says 1 failed; the progress line
    said "2 fail" before, counting the reading's failure as one."""
    out = _certify(tmp_path)
    phase = next(line for line in out.splitlines() if line.startswith("cases: "))
    summary = next(line for line in out.splitlines() if re.match(r"\d+ passed, ", line))
    failed = int(re.search(r"(\d+) failed", summary).group(1))  # type: ignore[union-attr]
    assert failed == 1
    assert f"{failed} fail," in phase and "1 not counted" in phase, phase
    # the reading's failure, in the summary: labelled, not a plain FAIL
    assert "FAIL (reading, does not count): toy/add/zero" in out
    assert "\nFAIL: toy/add/two-plus-three" in out


def test_verbose_labels_the_failures_that_do_not_count(tmp_path):
    out = _certify(tmp_path, "-v")
    assert re.search(r"^FAIL \(reading, does not count\)  toy/add/zero ", out, re.M), out
    assert re.search(r"^FAIL   toy/add/two-plus-three ", out, re.M), out


def test_a_known_failure_is_labelled_and_the_verdict_does_not_call_it_unbroken(tmp_path):
    """Before, a run whose only seed failure is listed as known said "no rule checked
    is broken" above that failing seed rule."""
    known = tmp_path / "known.txt"
    known.write_text("toy/add/two-plus-three\n", "utf-8")
    out = _certify(tmp_path, "-v", "--known-failures", known)
    assert re.search(r"^FAIL \(known failure, does not count\)  toy/add/two-plus-three ",
                     out, re.M), out
    verdict = next(line for line in out.splitlines() if line.startswith("verdict: "))
    assert "no rule checked is broken" not in verdict, verdict
    assert "1 known failure(s)" in verdict, verdict
