"""pytest's habits on certify/run (issue 28, point 3): --last-failed, -x, --list, -v and
--durations, end to end on the toy catalogue."""

from __future__ import annotations

import json
from typing import Any

import pytest
import toy
from commands import conformance_in_process as conformance
from toy import write_catalogue

from conformance import _runner
from conformance._verdict import verdict

ENGINE = "python:toy:WrongEngine"   # fails both add cases, passes the negative one

CASE_ONE_PLUS_ONE = """\
id: toy/add/one-plus-one
title: one plus one is two
ruleset: toy
rules: [toy/R-1]
source: {seed: toy.txt, ref: "1", quote: "足す"}
setup: {start: 1}
steps:
  - do: {add: 1}
    expect:
      players: {p1: {count: 2}}
"""


@pytest.fixture
def cases(tmp_path):
    return write_catalogue(tmp_path / "cases", {"more.yaml": CASE_ONE_PLUS_ONE})


def ids_in(out):
    return {r["id"]: r["status"] for r in json.loads((out / "report.json").read_text())["results"]}


def test_last_failed_reruns_exactly_the_ids_that_failed(tmp_path, cases):
    out = tmp_path / "out"
    first = conformance("certify", "--engine", ENGINE, "--cases", cases, "--out", out)
    assert first.returncode == 1
    failed = {i for i, s in ids_in(out).items() if s in ("fail", "error")}
    assert failed == {"toy/add/two-plus-three", "toy/add/one-plus-one"}   # and one passed

    again = conformance("run", "--engine", ENGINE, "--cases", cases, "--out", out,
                        "--last-failed")
    assert again.returncode == 1
    assert rerun_in(out) == failed
    assert "rerunning the 2 item(s) that failed or errored" in again.stderr


def rerun_in(out):
    """The ids the last run ran (not carried from the report before it)."""
    return {r["id"] for r in json.loads((out / "report.json").read_text())["results"]
            if not r.get("carried")}


def test_last_failed_keeps_every_item_in_the_report(tmp_path, cases):
    """The report after --last-failed still describes the whole run: the rerun items
    updated, the others carried (`"carried": true`), so the summary and the verdict
    count every item. Before, it held the 2 rerun items only: 'seed rules passed: 0/3',
    the item that passed gone from its rule."""
    out = tmp_path / "out"
    conformance("certify", "--engine", ENGINE, "--cases", cases, "--out", out)
    before = json.loads((out / "report.json").read_text())
    again = conformance("run", "--engine", ENGINE, "--cases", cases, "--out", out, "--lf")
    after = json.loads((out / "report.json").read_text())
    assert [r["id"] for r in after["results"]] == [r["id"] for r in before["results"]]
    carried = {r["id"]: r for r in after["results"] if r.get("carried")}
    assert list(carried) == ["toy/negative/rejected"]
    assert carried["toy/negative/rejected"]["status"] == "pass"
    assert after["summary"] == before["summary"]
    assert after["verdict"]["rules"] == before["verdict"]["rules"]
    assert after["verdict"]["status"] == before["verdict"]["status"] == "fail"
    assert after["settings"]["filters"] == before["settings"]["filters"]
    assert "seed rules passed: 1/3" in again.stdout, again.stdout
    assert "1 item(s) carried from the previous report" in again.stderr


def test_last_failed_within_a_select_keeps_only_the_selected_failures(tmp_path, cases):
    out = tmp_path / "out"
    conformance("certify", "--engine", ENGINE, "--cases", cases, "--out", out)
    again = conformance("run", "--engine", ENGINE, "--cases", cases, "--out", out,
                        "--lf", "--select", "toy/add/one-*")
    assert rerun_in(out) == {"toy/add/one-plus-one"}, again.stdout + again.stderr


def test_last_failed_with_no_previous_report_runs_everything_and_says_so(tmp_path, cases):
    out = tmp_path / "out"
    proc = conformance("run", "--engine", ENGINE, "--cases", cases, "--out", out, "--lf")
    assert "no previous report" in proc.stderr and "running everything" in proc.stderr
    assert len(ids_in(out)) == 3


def test_last_failed_after_a_green_run_runs_everything(tmp_path, cases):
    out = tmp_path / "out"
    conformance("certify", "--engine", "python:toy:ToyEngine", "--cases", cases, "--out", out)
    proc = conformance("run", "--engine", ENGINE, "--cases", cases, "--out", out, "--lf")
    assert "nothing failed" in proc.stderr
    assert len(ids_in(out)) == 3


def test_last_failed_needs_the_out_folder_of_the_previous_run(cases):
    proc = conformance("run", "--engine", ENGINE, "--cases", cases, "--last-failed")
    assert proc.returncode == 4 and "--out" in proc.stderr


def test_exitfirst_stops_at_the_first_failure_and_never_looks_green(tmp_path, cases):
    out = tmp_path / "out"
    proc = conformance("certify", "--engine", ENGINE, "--cases", cases, "--out", out, "-x")
    assert proc.returncode == 1, proc.stdout
    report = json.loads((out / "report.json").read_text())
    assert report["complete"] is False
    assert [r["id"] for r in report["results"]] == ["toy/add/two-plus-three"]
    assert report["verdict"]["status"] == "fail"
    assert "-x/--exitfirst" in report["verdict"]["message"]
    assert any("stopped at the first failure" in p["message"] for p in report["problems"])
    assert "verdict: fail (exit 1)" in proc.stdout


def test_exitfirst_runs_on_past_a_known_failure(tmp_path, cases):
    known = tmp_path / "known.txt"
    known.write_text("toy/add/two-plus-three\n")
    out = tmp_path / "out"
    conformance("certify", "--engine", ENGINE, "--cases", cases, "--out", out, "-x",
                "--known-failures", known)
    assert list(ids_in(out)) == ["toy/add/two-plus-three", "toy/add/one-plus-one"]


def test_exitfirst_on_a_green_run_is_a_complete_run(tmp_path, cases):
    out = tmp_path / "out"
    proc = conformance("certify", "--engine", "python:toy:ToyEngine", "--cases", cases,
                       "--out", out, "--exitfirst")
    assert json.loads((out / "report.json").read_text())["complete"] is True
    assert proc.returncode == 0


def test_a_stopped_run_is_judged_by_what_stopped_it_not_pass():
    results: Any = [{"id": "a", "status": "error", "basis": "seed", "expected_failure": False,
                     "ruleset": "toy", "message": ""}]   # what verdict reads
    judged = verdict(results, [], complete=False, handshake="", strict=False,
                     allow_no_verdict=False, exitfirst=True)
    assert (judged["status"], judged["exit_code"]) == ("error", 2)
    interrupted = verdict([], [], complete=False, handshake="", strict=False,
                          allow_no_verdict=False, exitfirst=True)   # Ctrl-C, nothing failing
    assert interrupted["status"] == "interrupted"


def test_list_prints_what_would_run_and_runs_nothing(cases):
    proc = conformance("run", "--cases", cases, "--list", "--rule", "toy/R-1")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:2] == ["toy/add/two-plus-three  [rules: toy/R-1]  [features: -]",
                         "toy/add/one-plus-one  [rules: toy/R-1]  [features: -]"]
    assert "2 item(s) would run (2 cases, 0 properties); nothing was run" in lines[-1]


def test_list_quiet_prints_the_ids_only(cases):
    """Terse, as `pytest --co -q`: one id a line on stdout (for a pipe), the count apart."""
    proc = conformance("run", "--cases", cases, "--list", "-q", "--rule", "toy/R-1")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["toy/add/two-plus-three", "toy/add/one-plus-one"]
    assert proc.stderr.strip() == "2 item(s) would run (2 cases, 0 properties); nothing was run"


def test_list_shows_the_features_of_catalogue_items():
    proc = conformance("run", "--list", "--ruleset", "vision", "--no-properties")
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert "[rules: vision/" in first and "[features: -]" not in first


def test_without_list_the_engine_is_still_required(cases):
    proc = conformance("run", "--cases", cases)
    assert proc.returncode == 4 and "--engine" in proc.stderr


def test_verbose_prints_one_line_per_item_as_it_finishes(cases):
    proc = conformance("run", "--engine", ENGINE, "--cases", cases, "-v")
    lines = [line for line in proc.stdout.splitlines() if "s  [" in line]
    assert [line.split()[:2] for line in lines] == [
        ["FAIL", "toy/add/two-plus-three"], ["FAIL", "toy/add/one-plus-one"],
        ["PASS", "toy/negative/rejected"]]
    assert lines[-1].endswith("[3/3]")


class Clock:
    """The runner's clock, in place of `time` in conformance._runner: it moves only when
    the toy SlowEngine "sleeps", so an item's duration is exactly its acts' seconds."""

    def __init__(self) -> None:
        self.now = 0.0

    def sleep(self, seconds: float) -> None:
        self.now += seconds

    def perf_counter(self) -> float:
        return self.now

    monotonic = perf_counter


def test_durations_lists_the_slowest_items(cases, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(_runner, "time", clock)
    monkeypatch.setattr(toy, "sleep", clock.sleep)
    proc = conformance("run", "--engine", "python:toy:SlowEngine", "--cases", cases,
                       "--select", "toy/add/*", "--durations", "1")
    summary = proc.stdout.split("slowest 1 items:\n", 1)[1].splitlines()
    assert summary[0].split()[1:] == ["pass", "toy/add/two-plus-three"] or \
        summary[0].split()[1:] == ["pass", "toy/add/one-plus-one"]
    assert float(summary[0].split()[0].rstrip("s")) >= 1.0
    assert summary[1] == ""   # one line only


@pytest.mark.parametrize(("differs", "before", "now"), [
    ("engine spec", [], ["--engine", "python:toy:RaisingEngine"]),
    ("profile", ["--profile", "quick"], ["--profile", "certify"]),
    ("seed", [], ["--seed", "7"]),
    ("engine version", [], []),   # known from the hello only: found after the rerun
])
def test_last_failed_carries_nothing_from_another_run(tmp_path, cases, differs, before, now):
    """--last-failed carried every other item from any report.json in --out: the
    reference engine's passes made a broken mutant certify green (exit 0). Items are
    carried only from a report of the same engine (spec, name, version, mutant),
    catalogue, suite, profile, seed and filters; else everything runs, and says why."""
    out = tmp_path / "out"
    conformance("certify", "--engine", ENGINE, "--cases", cases, "--out", out, *before)
    if differs == "engine version":
        path = out / "report.json"
        report = json.loads(path.read_text())
        report["engine"]["version"] = "0-other"
        path.write_text(json.dumps(report))
    args = [*before, *now] if "--engine" in now else ["--engine", ENGINE, *before, *now]
    again = conformance("certify", "--cases", cases, "--out", out, "--lf", *args)
    assert f"not carried: it differs in {differs}" in again.stderr, again.stderr
    assert "running everything" in again.stderr
    assert rerun_in(out) == set(ids_in(out)) and len(ids_in(out)) == 3
