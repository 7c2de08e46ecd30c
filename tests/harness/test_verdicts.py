"""Issue 7: a certification is green only when the engine ran and followed the seed,
and red only when it broke a seed rule.

Misbehaving engines are driven through the CLI as a user would; the engines
that follow the seed but differ from the reference engine where the seed is
silent are written for the purpose (tests/support/seed_faithful.py), never the
reference engine itself.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import toy
from commands import ROOT, SUPPORT
from commands import TOY_ENV as ENV
from commands import conformance_child as conformance
from commands import fake_engine as script
from terminal import Terminal

from conformance._catalogue import load_catalogue
from conformance._certify import RunConfig, certify, exit_status
from conformance._errors import did_you_mean
from conformance._runner import Selection
from conformance._settings import get_profile
from conformance._types import ReportDict
from conformance.report import render, validate_report


# -- 1. no green without a verdict ---------------------------------------------------------
@pytest.mark.parametrize(("engine", "cause"), [
    ("cmd:/nonexistent", "could not start '/nonexistent'"),
    ("cmd:false", "exited with code 1"),
    (script("crash.py", "--at", "hello"), "EngineCrashed"),
    (script("garbage.py", "--at", "hello"), "not JSON"),
    (script("wrong_protocol.py"), "protocol 2"),
], ids=["nonexistent", "false", "crash", "garbage", "wrong-protocol"])
def test_an_engine_that_cannot_start_is_not_certified(tmp_path, engine, cause):
    out = tmp_path / "out"
    run = conformance("certify", "--engine", engine, "--cases", ROOT / "cases",
                      "--no-properties", "-q", "--out", out)
    assert run.returncode == 2, run.stdout + run.stderr
    head = run.stdout.splitlines()[:4]
    assert any("ENGINE NOT CERTIFIED" in line and cause in line for line in head), head
    report = json.loads((out / "report.json").read_text())
    validate_report(report)
    assert report["summary"]["pass"] == 0 and report["summary"]["skip"] == 0
    assert report["summary"]["error"] == report["summary"]["total"] > 0
    assert report["verdict"]["status"] == "not certified"
    badge = json.loads((out / "badge.json").read_text())
    assert badge["message"] == "engine could not be certified" and badge["color"] == "red"
    md = (out / "report.md").read_text()
    assert md.index("ENGINE NOT CERTIFIED") < md.index("## Summary")
    junit = (out / "junit.xml").read_text()
    assert junit.index('name="engine started"') < junit.index('name="vision"')
    assert "ENGINE NOT CERTIFIED" in (out / "report.html").read_text()


def test_an_engine_that_hangs_at_the_handshake_is_not_certified():
    config = RunConfig(engine_spec=script("hang.py", "--at", "hello"),
                       profile=get_profile("quick"),
                       selection=Selection(rulesets=["vision"], properties=False,
                                           select=["vision/qa-269/*"]),
                       engine_options={"startup_timeout": 1.0})
    report = certify(config)
    validate_report(report)
    assert exit_status(report) == 2
    assert "EngineTimeout" in report["problems"][0]["message"]


def test_an_unknown_mutant_is_a_usage_error_suggesting_the_closest_names():
    run = conformance("certify", "--engine", "reference:no-auto-shufle", "--cases",
                      ROOT / "cases", "-q")
    assert run.returncode == 4
    assert "no mutant 'no-auto-shufle'; did you mean 'no-auto-shuffle'" in run.stderr
    assert len(run.stderr) < 400, "the closest names, not all of them"
    far = conformance("certify", "--engine", "reference:nosuch", "--cases", ROOT / "cases", "-q")
    assert far.returncode == 4 and "lists them all" in far.stderr
    assert len(far.stderr) < 400


def test_did_you_mean_names_the_closest_few_or_nothing():
    names = ["latest-become-only", "latest-as-though-only", "statics-work-from-stack", "x"]
    assert did_you_mean("latest-become-onyl", names).startswith("did you mean 'latest-become-only'")
    assert did_you_mean("statics", names) == "did you mean 'statics-work-from-stack'?"
    assert did_you_mean("poker", names) == ""


def test_a_hello_claiming_an_unknown_ruleset_says_so_in_one_line(tmp_path):
    cases = toy.write_catalogue(tmp_path / "cases")
    report = certify(RunConfig(engine_spec="python:toy:PokerEngine", profile=get_profile("quick"),
                               cases_root=cases))
    lines = [p["message"] for p in report["problems"] if "poker" in p["message"]]
    assert len(lines) == 1 and "\n" not in lines[0], report["problems"]
    assert "claims ruleset 'poker', which is not installed" in lines[0]
    assert "toy" not in [p["message"] for p in report["problems"]], "toy is the catalogue's"


def test_a_run_where_nothing_was_checked_has_no_verdict(tmp_path):
    cases = toy.write_catalogue(tmp_path / "cases")
    run = conformance("certify", "--engine", "python:toy:SkippingEngine", "--cases", cases)
    assert run.returncode == 5, run.stdout + run.stderr
    assert "skipped, by reason" in run.stdout
    assert "2  unsupported: boards with a start value are not modelled" in run.stdout
    allowed = conformance("certify", "--engine", "python:toy:SkippingEngine", "--cases", cases,
                          "--allow-no-verdict")
    assert allowed.returncode == 0
    nothing = conformance("certify", "--engine", "python:toy:ToyEngine", "--cases", cases,
                          "--no-cases", "--no-properties")
    assert nothing.returncode == 5
    (tmp_path / "empty").mkdir()
    empty = conformance("certify", "--engine", "python:toy:ToyEngine", "--cases",
                        tmp_path / "empty")
    assert empty.returncode == 5


def test_skip_reasons_are_grouped_in_every_report(tmp_path):
    cases = toy.write_catalogue(tmp_path / "cases")
    run = conformance("certify", "--engine", "python:toy:SkippingEngine", "--cases", cases,
                      "--out", tmp_path / "out", "--allow-no-verdict")
    assert run.returncode == 0
    for name in ("report.md", "report.html"):
        text = (tmp_path / "out" / name).read_text()
        assert "Skipped, by reason" in text and "boards with a start value" in text
    badge = json.loads((tmp_path / "out" / "badge.json").read_text())
    assert badge["message"].startswith("no verdict")


def test_the_catalogue_is_named_first(tmp_path):
    cases = toy.write_catalogue(tmp_path / "cases")
    run = conformance("certify", "--engine", "python:toy:ToyEngine", "--cases", cases, "-q")
    assert run.stdout.splitlines()[0].startswith(f"catalogue: {cases} sha256:")
    # the terminal summary says again which catalogue the verdict rests on
    assert f"catalogue used: {cases} (--cases)" in run.stdout, run.stdout


def test_a_cases_folder_in_the_current_folder_is_never_taken(tmp_path, monkeypatch):
    """An engine's repository holding cases/vision (the catalogue minus the cases its
    engine fails) certified against it, silently: only --cases names another catalogue."""
    from conformance._catalogue import load_catalogue

    installed = load_catalogue(None, ["vision"])
    repo = tmp_path / "engine-repo"
    shutil.copytree(ROOT / "cases" / "vision", repo / "cases" / "vision")
    trimmed = sorted((repo / "cases" / "vision").glob("ir-*.yaml"))
    for path in trimmed:
        path.unlink()
    (repo / "cases" / "junk").mkdir()
    monkeypatch.chdir(repo)
    catalogue = load_catalogue(None, ["vision"])
    assert catalogue.digest == installed.digest and not catalogue.errors
    assert len(catalogue.cases) == len(installed.cases)
    assert load_catalogue(repo / "cases", ["vision"]).digest != installed.digest
    run = conformance("validate", "--ruleset", "vision", cwd=repo)
    assert run.returncode == 0, run.stdout + run.stderr
    assert str(repo) not in run.stdout + run.stderr


def test_out_is_checked_before_anything_runs(tmp_path):
    cases = toy.write_catalogue(tmp_path / "cases")
    a_file = tmp_path / "file"
    a_file.write_text("x")
    for out in (a_file, a_file / "below"):
        run = conformance("certify", "--engine", "python:toy:SlowEngine", "--cases", cases,
                          "--out", out)
        assert run.returncode == 4, run.stderr
        assert len(run.stderr.strip().splitlines()) == 1 and "--out" in run.stderr
        assert "Traceback" not in run.stderr and "catalogue:" not in run.stdout


def test_argument_errors_exit_4():
    assert conformance("certify").returncode == 4
    assert conformance("certify", "--engine", "reference", "--profile", "nope").returncode == 4
    assert conformance("no-such-command").returncode == 4


def test_diff_refuses_a_file_that_is_not_a_report(tmp_path):
    cases = toy.write_catalogue(tmp_path / "cases")
    conformance("certify", "--engine", "python:toy:ToyEngine", "--cases", cases,
                "--out", tmp_path / "out")
    bogus = tmp_path / "bogus.json"
    bogus.write_text('{"results": []}')
    run = conformance("diff", tmp_path / "out" / "report.json", bogus)
    assert run.returncode == 4
    assert str(bogus) in run.stderr and "is not a report.json" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_closed_pipe_ends_quietly():
    child = subprocess.Popen([sys.executable, "-m", "conformance", "rules", "--cases",
                              str(ROOT / "cases")], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=ENV)
    assert child.stdout and child.stderr
    assert child.stdout.readline()
    child.stdout.close()
    stderr = child.stderr.read().decode()
    child.wait(timeout=60)
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr


def _wait_for(child: subprocess.Popen[str], text: str, timeout: float = 120.0) -> str:
    assert child.stdout
    seen = ""
    deadline = time.monotonic() + timeout
    while text not in seen:
        assert time.monotonic() < deadline, seen
        line = child.stdout.readline()
        assert line, f"the run ended before {text!r}: {seen}"
        seen += line
    return seen


@pytest.mark.slow
def test_an_interrupt_during_mutation_stops_the_run(tmp_path):
    out = tmp_path / "out"
    term = Terminal(
        [sys.executable, "-m", "conformance", "certify", "--engine", "reference", "--mutation",
         "--no-properties", "--profile", "certify", "--out", str(out), "--cases",
         str(ROOT / "cases")], env=ENV)
    term.wait_for_count("mutants", 1, timeout=120)
    term.child.send_signal(signal.SIGINT)
    code, stdout, stderr = term.finish(timeout=60)
    assert code == 130, stdout + stderr
    report = json.loads((out / "report.json").read_text())
    assert report["complete"] is False
    assert 1 <= len(report["mutation"]["mutants"]) < len(report["rules"]) + 10


@pytest.mark.slow
@pytest.mark.parametrize("engine", [
    "reference", "cmd:" + shlex.join([sys.executable, "-m", "reference_engine.serve"])],
    ids=["in-process", "subprocess"])
def test_ctrl_c_inside_a_property_stops_the_run(tmp_path, engine):
    """Ctrl-C reaches the whole process group: a subprocess engine dies of it too, and
    that crash must not hide the interrupt."""
    out = tmp_path / "out"
    child = subprocess.Popen(
        [sys.executable, "-m", "conformance", "certify", "--engine", engine, "--no-cases",
         "--profile", "deep", "--select", "vision/prop/differential", "--out", str(out),
         "--cases", str(ROOT / "cases")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
        start_new_session=True)
    _wait_for(child, "catalogue:")
    time.sleep(2.0)
    os.killpg(child.pid, signal.SIGINT)
    stdout, stderr = child.communicate(timeout=60)
    assert child.returncode == 130, stdout + stderr
    assert json.loads((out / "report.json").read_text())["complete"] is False


def test_a_python_adapter_in_the_current_folder_works_as_the_readme_says(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "myengine_adapter.py").write_text(
        (SUPPORT / "toy.py").read_text() + "\n\ndef create():\n    return WrongEngine()\n")
    cases = toy.write_catalogue(tmp_path / "cases")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = conformance("certify", "--engine", "python:myengine_adapter:create", "--cases",
                      cases, cwd=project, env=env)
    assert run.returncode == 1, run.stdout + run.stderr
    rerun = next(line.split("rerun: ", 1)[1] for line in run.stdout.splitlines()
                 if "rerun: " in line)
    argv = shlex.split(rerun)
    assert argv[0] == "conformance"
    again = subprocess.run([sys.executable, "-m", "conformance", *argv[1:]], cwd=project,
                           env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == 1 and "1 failed" in again.stdout


def test_a_failure_points_at_its_step_and_is_printed_once(tmp_path):
    cases = toy.write_catalogue(tmp_path / "cases")
    run = conformance("certify", "--engine", "python:toy:WrongEngine", "--cases", cases)
    step_line = toy.CASE_ADD.splitlines().index("  - do: {add: 3}") + 1
    assert f"add.yaml:{step_line}" in run.stdout
    assert run.stdout.count("FAIL: toy/add/two-plus-three") == 1


# -- 2. the reference engine is never the judge ------------------------------------------------
def _vision(engine: str, tmp_path: Path, *extra: str, profile: str = "quick",
            ) -> tuple[int, ReportDict]:
    out = tmp_path / engine.rsplit(":", 1)[-1]
    run = conformance("certify", "--engine", engine, "--cases", ROOT / "cases", "--ruleset",
                      "vision", "--profile", profile, "-q", "--out", out, *extra)
    report = json.loads((out / "report.json").read_text())
    validate_report(report)
    return run.returncode, report


def test_an_engine_that_differs_only_where_the_seed_is_silent_certifies_green(tmp_path):
    # the certify budget: a quick run's 10 examples per property reach too few of some
    # rules' situations to check them (docs/cli.md, "Too few examples"), so it is partial
    code, report = _vision("python:seed_faithful:SeedFaithfulEngine", tmp_path,
                           profile="certify")
    assert code == 0, [r for r in report["results"] if r["status"] != "pass"]
    assert report["verdict"]["status"] == "pass"
    seed = report["verdict"]["rules"]["seed"]
    assert seed["pass"] == seed["total"]


def test_differences_from_the_reference_engine_are_listed_and_fail_nothing(tmp_path):
    code, report = _vision("python:seed_faithful:ChattyEngine", tmp_path)
    assert code == 0
    differential = next(r for r in report["results"] if r["id"] == "vision/prop/differential")
    assert differential["status"] == "fail" and differential["basis"] == "reference"
    assert differential["mismatches"], "every difference is listed"
    assert all(m["path"].endswith(".sparkle") for m in differential["mismatches"])
    assert not [r for r in report["rules"] if r["status"] in ("fail", "error")]
    md = render(report, "md")
    assert "## Differs from the reference engine" in md and "## Failures" in md
    assert "No failures." in md
    # the reference engine's answer is not an expectation: a placeholder that fails validation
    assert "write_from_seed" in differential["counterexample"]
    copy = tmp_path / "catalogue"
    shutil.copytree(ROOT / "cases", copy)
    (copy / "vision" / "counterexample.yaml").write_text(differential["counterexample"])
    errors = load_catalogue(copy).errors
    assert errors and all("counterexample.yaml" in str(e) for e in errors)
    assert any("write_from_seed" in str(e) for e in errors)
    # diff against a run of a faithful engine: no regression either
    _vision("python:seed_faithful:SeedFaithfulEngine", tmp_path)
    paths = [tmp_path / n / "report.json" for n in ("SeedFaithfulEngine", "ChattyEngine")]
    run = conformance("diff", *paths)
    assert run.returncode == 0, run.stdout
    assert "regressed (information: not counted): vision/prop/differential" in run.stdout


# -- 3. readings are first-class --------------------------------------------------------------
READING_RULES, CASE_ZERO = toy.READING_RULES, toy.CASE_ZERO


class ZeroRejectingEngine(toy.ToyEngine):
    """Follows R-1 and R-2 but reads the seed otherwise on zero."""

    def act(self, action):
        if action.get("add") == 0:
            return {"accepted": False, "reason": "nothing to add"}
        return super().act(action)


toy.ZeroRejectingEngine = ZeroRejectingEngine  # type: ignore[attr-defined]  # reachable as python:toy:... in-process


def _reading_catalogue(tmp_path: Path) -> Path:
    cases = toy.write_catalogue(tmp_path / "cases", {"zero.yaml": CASE_ZERO})
    (cases / "toy" / "rules.yaml").write_text(READING_RULES, "utf-8")
    return cases


def _toy_run(cases: Path, **options) -> ReportDict:
    config = RunConfig(engine_spec="python:toy:ZeroRejectingEngine", profile=get_profile("quick"),
                       cases_root=cases, **options)
    report = certify(config)
    validate_report(report)
    return report


def test_a_differing_reading_is_information_unless_strict(tmp_path):
    cases = _reading_catalogue(tmp_path)
    report = _toy_run(cases)
    zero = next(r for r in report["results"] if r["id"] == "toy/add/zero")
    assert zero["status"] == "fail" and zero["basis"] == "reading"
    assert exit_status(report) == 0
    rules = {r["id"]: r for r in report["rules"]}
    assert rules["toy/R-1"]["status"] == "pass"          # the seed rule is not blamed
    assert rules["toy/reading/add-zero"]["status"] == "fail"
    assert report["verdict"]["rules"]["reading"] == {"pass": 0, "total": 1, "checked": 0}
    md = render(report, "md")
    assert "Readings (the catalogue's answer" in md and "| differs" in md
    assert "## Differs from the catalogue's readings" in md
    assert 'type="differs-from-reading"' in render(report, "junit")
    assert "Readings" in render(report, "html")
    strict = _toy_run(cases, strict_readings=True)
    assert exit_status(strict) == 1
    assert {r["id"]: r["status"] for r in strict["rules"]}["toy/R-1"] == "fail"
    # R-3 is uncovered: nothing checked it, so the run is partial
    assert json.loads(render(report, "badge"))["message"] == "partial: 2/3 seed rules checked"
    assert report["verdict"]["status"] == "partial"


def test_known_failures_and_diff_handle_readings(tmp_path):
    cases = _reading_catalogue(tmp_path)
    known = tmp_path / "known.txt"
    known.write_text("toy/add/zero\n")
    report = _toy_run(cases, known_failures=known, strict_readings=True)
    assert exit_status(report) == 0 and report["summary"]["expected_failures"] == 1
    good = certify(RunConfig(engine_spec="python:toy:ToyEngine", profile=get_profile("quick"),
                             cases_root=cases))
    bad = _toy_run(cases)
    for name, r in (("good", good), ("bad", bad)):
        (tmp_path / f"{name}.json").write_text(json.dumps(r))
    run = conformance("diff", tmp_path / "good.json", tmp_path / "bad.json")
    assert run.returncode == 0, run.stdout
    assert "regressed (information: not counted): toy/add/zero" in run.stdout
    assert "reading toy/reading/add-zero: pass -> fail" in run.stdout
    listed = conformance("failures", tmp_path / "bad.json")
    assert re.search(r"^toy/add/zero  #! [0-9a-f]{8}  # fail, reading:", listed.stdout, re.M)


def test_the_reference_comparison_ignores_what_the_seed_leaves_open():
    from conformance._properties import Trace
    from conformance.rulesets.vision.differential import differences, normalised

    scenario = {"setup": {"p1": {"deck": [{"id": "d1"}, {"id": "d2"}]}},
                "steps": [{"do": {"draw": {"player": "p1", "count": 1}}}]}

    def trace(names, gy_durability, events, drawn):
        cards = {"f1": {"zone": "field", "names": names, "durability": 3},
                 "g1": {"zone": "graveyard", "owner": "p1", "durability": gy_durability},
                 drawn: {"zone": "hand", "owner": "p1"},
                 ({"d1", "d2"} - {drawn}).pop(): {"zone": "deck", "owner": "p1"}}
        return Trace([{"accepted": True, "events": events}],
                     [{"cards": cards, "players": {"p1": {"hand": [drawn], "graveyard": ["g1"]}}}])

    shuffle, draw = {"type": "shuffle", "player": "p1"}, {"type": "draw", "player": "p1"}
    destroyed = {"type": "destroyed", "card": "g1"}
    reference = trace([], 1, [shuffle, {**draw, "card": "d1"}, destroyed], "d1")
    engine = trace([""], None, [destroyed, shuffle, {**draw, "card": "d2"}], "d2")
    assert differences(normalised(engine, scenario), normalised(reference, scenario)) == []
    # what the rules fix is still compared, every difference with its path
    wrong = trace(["B"], None, [shuffle], "d2")
    found = differences(normalised(wrong, scenario), normalised(reference, scenario))
    paths = {m.path for m in found}
    assert "[0].cards.f1.names[0]" in paths or "[0].cards.f1.names" in paths
    assert any(p.startswith("[0].events") for p in paths)
