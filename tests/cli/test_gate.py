"""`conformance gate`: the CI gate docs/ci.md's recipe runs (test_ci_recipe runs the recipe).

The gate writes the job summary (the verdict, the seed rules, the failures, then
the diff against the baseline, or how to commit the first one), annotates under
GitHub Actions, and exits 1 only on regressions or below --fail-under.
"""

from __future__ import annotations

import pytest
from commands import conformance_in_process as conformance
from toy import write_catalogue


@pytest.fixture
def runs(tmp_path):
    cases = write_catalogue(tmp_path / "cases")
    for engine, out in (("ToyEngine", "good"), ("WrongEngine", "bad")):
        done = conformance("certify", "--engine", f"python:toy:{engine}", "--cases", cases,
                           "--out", tmp_path / out, "-q", "--format", "text")
        assert done.returncode in (0, 1), done.stdout + done.stderr
    return tmp_path


def test_without_a_baseline_the_gate_passes_and_says_how_to_commit_one(runs, monkeypatch):
    step = runs / "step-summary.md"
    step.write_text("earlier step\n", "utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step))
    monkeypatch.setenv("GITHUB_RUN_ID", "4242")
    done = conformance("gate", "baseline/report.json", "bad", "--summary", "summary.md",
                       cwd=runs)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = (runs / "summary.md").read_text("utf-8")
    assert step.read_text("utf-8") == "earlier step\n" + summary, "appended to the job summary"
    assert "**Verdict:** fail (exit 1)" in summary
    assert "- **Seed rules passed:** 1/" in summary
    assert "### Failures (1)" in summary
    assert "| `toy/add/two-plus-three` | toy/R-1 | fail | step 1: players.p1.count: " \
           "expected 5, observed 6 |" in summary
    assert "### No baseline yet" in summary
    assert ("gh run download 4242 --name bad --dir bad\nmkdir -p baseline\n"
            "cp bad/report.json baseline/report.json\ngit add baseline/report.json\n") in summary
    assert "cp bad/report.json baseline/report.json" in done.stdout


def test_with_a_baseline_only_a_regression_fails_the_gate(runs, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    worse = conformance("gate", "good", "bad", "--summary", "worse.md", cwd=runs)
    assert worse.returncode == 1, worse.stdout + worse.stderr
    summary = (runs / "worse.md").read_text("utf-8")
    assert "**1 regression(s)**" in summary and "### Failures (1)" in summary
    assert "No baseline" not in summary
    same = conformance("gate", "bad", "bad", "--summary", "same.md", cwd=runs)
    assert same.returncode == 0, "failures the baseline had already do not fail the gate"
    assert "**No regressions**" in (runs / "same.md").read_text("utf-8")


def test_fail_under_holds_with_or_without_a_baseline(runs):
    for baseline in ("good", "no-baseline-yet"):
        done = conformance("gate", baseline, "good", "--fail-under", "100", cwd=runs)
        assert done.returncode == 1, (baseline, done.stdout)
        assert "below --fail-under 100" in done.stdout


def test_the_gate_annotates_each_failing_item_once_under_github_actions(runs, monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    done = conformance("gate", "good", "bad", cwd=runs)
    errors = [line for line in done.stdout.splitlines() if line.startswith("::error ")]
    assert len(errors) == 1 and "title=toy/add/two-plus-three%3A fail" in errors[0], errors
    quiet = conformance("gate", "good", "bad", "--format", "text", cwd=runs)
    assert "::error" not in quiet.stdout


def test_a_summary_named_twice_is_written_once(runs, monkeypatch):
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(runs / "summary.md"))
    done = conformance("gate", "good", "good", "--summary", "summary.md", cwd=runs)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (runs / "summary.md").read_text("utf-8").count("## Conformance:") == 1
