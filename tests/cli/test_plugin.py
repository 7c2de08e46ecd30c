"""The pytest plugin, exercised with pytester on the toy catalogue and toy engines.

The runs are in-process (`pytester.runpytest`), which is fast; the plugin's
entry point is proven in a child process once, in the inertness test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import toy
from toy import write_catalogue

HERE = Path(__file__).parents[1] / "support"


@pytest.fixture(autouse=True)
def toy_importable(monkeypatch):
    """The child pytest imports the toy engines the way a user's engine is imported."""
    monkeypatch.setenv("PYTHONPATH", str(HERE))


def run_pytest(pytester, spec, *extra):
    root = write_catalogue(pytester.path / "cases")
    return pytester.runpytest(
        "-p", "no:cacheprovider", "--engine", spec, "--conformance-cases", str(root), *extra)


def test_plugin_is_inert_without_engine(pytester):
    pytester.makepyfile("def test_x(): pass")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_each_case_is_an_item_with_a_stable_id(pytester):
    result = run_pytest(pytester, "python:toy:ToyEngine", "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*toy/add/two-plus-three PASSED*",
                                 "*toy/negative/rejected PASSED*"])


def test_keyword_selection_applies_to_conformance_items(pytester):
    result = run_pytest(pytester, "python:toy:ToyEngine", "-k", "two-plus")
    result.assert_outcomes(passed=1, deselected=1)


def test_failure_shows_expected_observed_and_rerun(pytester):
    result = run_pytest(pytester, "python:toy:WrongEngine")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*FAIL toy/add/two-plus-three [[]rules: toy/R-1[]]*",
        "*step 1: players.p1.count:*",
        "*expected 5*", "*observed 6*",
        "*rerun: conformance run --engine python:toy:WrongEngine --select toy/add/two-plus-three*",
    ])


def test_known_failures_become_strict_xfail(pytester):
    known = pytester.path / "known.txt"
    known.write_text("toy/add/two-plus-three\n")
    result = run_pytest(pytester, "python:toy:WrongEngine", "--conformance-known-failures",
                        str(known))
    result.assert_outcomes(passed=1, xfailed=1)
    result = run_pytest(pytester, "python:toy:ToyEngine", "--conformance-known-failures",
                        str(known))
    result.assert_outcomes(passed=1, failed=1)  # strict: the known failure passed


def test_report_files_from_a_pytest_run(pytester):
    import json

    out = pytester.path / "out"
    result = run_pytest(pytester, "python:toy:WrongEngine", "--conformance-report", str(out))
    result.assert_outcomes(passed=1, failed=1)
    report = json.loads((out / "report.json").read_text())
    assert report["summary"]["fail"] == 1 and report["summary"]["pass"] == 1
    assert {r["id"]: r["status"] for r in report["rules"]}["toy/R-1"] == "fail"
    assert (out / "junit.xml").is_file() and (out / "report.html").is_file()


@pytest.mark.slow
def test_invalid_catalogue_is_a_usage_error(pytester):
    # a child process: in-process, pytest reports a UsageError raised while
    # configuring as an internal error, which is not what a user sees
    root = write_catalogue(pytester.path / "cases")
    (root / "toy" / "broken.yaml").write_text("id: [\n")
    result = pytester.runpytest_subprocess("--engine", "python:toy:ToyEngine",
                                           "--conformance-cases", str(root))
    assert result.ret == 4  # pytest's USAGE_ERROR
    result.stderr.fnmatch_lines(["*broken.yaml:*invalid YAML*"])


@pytest.mark.slow
def test_invalid_catalogue_is_a_usage_error_under_xdist_too(pytester):
    # the controller reads the catalogue once its workers are started
    pytest.importorskip("xdist", reason="pytest-xdist is a dev dependency (pip install -e .[dev])")
    root = write_catalogue(pytester.path / "cases")
    (root / "toy" / "broken.yaml").write_text("id: [\n")
    for quiet in ((), ("-q",)):   # with -q there is no header to read it earlier
        result = pytester.runpytest_subprocess("--engine", "python:toy:ToyEngine",
                                               "--conformance-cases", str(root), "-n", "2",
                                               *quiet)
        assert result.ret == 4
        result.stderr.fnmatch_lines(["*broken.yaml:*invalid YAML*"])
        assert "passed" not in result.stdout.str()


def test_unknown_engine_is_a_usage_error(pytester):
    result = run_pytest(pytester, "python:toy:NoSuchFactory")
    assert result.ret == 4
    result.stderr.fnmatch_lines(["*has no 'NoSuchFactory'*"])


def test_cli_help_smoke():
    out = subprocess.run([sys.executable, "-m", "conformance", "--help"], capture_output=True,
                         text=True, check=True).stdout
    for command in ("certify", "validate", "report", "rules", "failures", "mutants"):
        assert command in out


def test_an_engine_that_cannot_start_fails_the_session_with_exit_2(pytester):
    result = run_pytest(pytester, "cmd:/nonexistent")
    assert result.ret == 2
    result.stdout.fnmatch_lines(["*= conformance =*",
                                 "ENGINE NOT CERTIFIED: the engine could not start*"])
    assert "passed" not in result.stdout.str().splitlines()[-1]


def test_a_session_that_checked_nothing_exits_5_unless_allowed(pytester):
    result = run_pytest(pytester, "python:toy:SkippingEngine")
    assert result.ret == 5
    result.stdout.fnmatch_lines(["skipped    2: unsupported: boards with a start value*",
                                 "verdict: no verdict*"])
    allowed = run_pytest(pytester, "python:toy:SkippingEngine", "--conformance-allow-no-verdict")
    assert allowed.ret == 0


def test_the_header_names_the_catalogue(pytester):
    result = run_pytest(pytester, "python:toy:ToyEngine")
    result.stdout.fnmatch_lines(["conformance: engine python:toy:ToyEngine; catalogue * sha256:*"])


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["python:toy:WrongEngine", "cmd:/nonexistent"])
def test_xdist_workers_give_the_single_process_report_and_exit_status(pytester, spec):
    """Under ``-n 2`` each worker runs its items; the controller builds the one report."""
    import json

    pytest.importorskip("xdist", reason="pytest-xdist is a dev dependency (pip install -e .[dev])")
    root = write_catalogue(pytester.path / "cases")

    def run(*extra):  # a child process, as users run it (in-process, workers collected nothing)
        return pytester.runpytest_subprocess("-p", "no:cacheprovider", "--engine", spec,
                                             "--conformance-cases", str(root), *extra)

    single = run("--conformance-report", str(pytester.path / "one"))
    spread = run("-n", "2", "--conformance-report", str(pytester.path / "two"))
    assert spread.ret == single.ret != 0
    spread.stdout.fnmatch_lines(["*= conformance =*", "verdict: *"])
    one, two = (json.loads((pytester.path / d / "report.json").read_text())
                for d in ("one", "two"))
    for key in ("results", "rules", "verdict", "summary", "problems", "engine"):
        if key == "results":
            for r in one[key] + two[key]:
                r.pop("duration")
        assert one[key] == two[key], key


def test_collect_only_lists_items_without_a_verdict(pytester):
    result = run_pytest(pytester, "python:toy:ToyEngine", "--collect-only", "-q")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["*toy/add/two-plus-three"])
    assert "verdict" not in result.stdout.str()


def test_collect_only_node_ids_run_their_item_when_passed_back(pytester):
    """`--co -q` prints real node ids (the case's file :: its id), a right count line,
    nothing else; each id given back to pytest runs that one item."""
    listed = run_pytest(pytester, "python:toy:ToyEngine", "--co", "-q")
    lines = [line for line in listed.stdout.lines if line.strip()]
    # the count line ends the output; pytest's warnings summary may come between (the
    # plugin's modules imported before pytester ran cannot be assertion-rewritten)
    assert lines[-1].startswith("2 tests collected"), lines
    ids = [line for line in lines if "::" in line]
    assert [i.split("::")[-1] for i in ids] == ["toy/add/two-plus-three", "toy/negative/rejected"]
    for node_id in ids:
        assert (pytester.path / node_id.split("::")[0]).is_file()
        result = run_pytest(pytester, "python:toy:ToyEngine", "-v", node_id)
        result.assert_outcomes(passed=1)
        result.stdout.fnmatch_lines([f"{node_id} PASSED*"])
    folder = run_pytest(pytester, "python:toy:ToyEngine", "--co", "-q", "cases")
    assert [line for line in folder.stdout.lines if "::" in line] == ids


def test_under_xdist_properties_are_spread_over_the_first_two_thirds():
    from itertools import pairwise

    from conformance._plugin import spread

    cases, props = [f"c{i}" for i in range(300)], [f"p{i}" for i in range(10)]
    order = spread(cases, props)
    assert sorted(order) == sorted(cases + props)
    assert [x for x in order if x.startswith("c")] == cases
    assert [x for x in order if x.startswith("p")] == props
    at = [order.index(p) for p in props]
    assert at[0] == 0 and at[-1] < 2 * len(order) // 3
    gaps = {b - a for a, b in pairwise(at)}
    assert max(gaps) - min(gaps) <= 1
    assert spread(cases, []) == cases and spread([], props) == props


def test_pytest_does_not_walk_the_catalogue_folder_for_tests(pytester):
    root = write_catalogue(pytester.path / "cases")
    (root / "toy" / "test_inside.py").write_text("def test_inside(): assert False\n")
    pytester.makepyfile(test_outside="def test_outside(): pass")
    result = pytester.runpytest("-p", "no:cacheprovider", "--engine", "python:toy:ToyEngine",
                                "--conformance-cases", str(root))
    result.assert_outcomes(passed=3)   # the two toy cases and test_outside


def test_an_oversized_known_failures_file_is_a_usage_error(pytester):
    known = pytester.path / "known.txt"
    known.write_bytes(b"# " + b"x" * (1024 * 1024) + b"\n")
    result = run_pytest(pytester, "python:toy:ToyEngine", "--conformance-known-failures",
                        str(known))
    assert result.ret == 4
    result.stderr.fnmatch_lines(["*known-failures file*over the 1048576-byte limit*"])
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


def test_a_failure_on_words_the_engine_did_not_declare_says_so(pytester, monkeypatch):
    """Vocabulary drift (conformance/vocabulary.py): the failure and the summary say the
    item uses words of a later version, and how an older engine declares its own."""
    monkeypatch.setenv("PYTHONPATH", str(HERE.parent))   # tests/: fakes.vision_v1
    result = pytester.runpytest("-p", "no:cacheprovider", "--engine",
                                "python:fakes.vision_v1:create_undeclared",
                                "--conformance-ruleset", "vision", "--conformance-profile",
                                "quick", "-k", "rule-overrides-immunity")
    result.assert_outcomes(failed=1, deselected=result.parseoutcomes()["deselected"])
    result.stdout.fnmatch_lines([
        "this item uses words of vision vocabulary 2 (1 December 2026); an engine written "
        "against an earlier version declares it in its hello",
        "1 failure uses words of vision vocabulary 2 (1 December 2026)*"])


def test_an_unclaimed_ruleset_is_deselected_not_skipped(pytester):
    """As certify does (harness/test_deselected.py): the items of a ruleset the engine's
    hello does not claim are pytest's "deselected", not skips, and the report counts
    them apart."""
    root = write_catalogue(pytester.path / "cases")
    other = toy.write_ruleset(root / "toy2")
    for path in other.iterdir():
        path.write_text(path.read_text("utf-8").replace("toy", "toy2"), "utf-8")
    out = pytester.path / "out"
    result = pytester.runpytest("-p", "no:cacheprovider", "--engine", "python:toy:ToyEngine",
                                "--conformance-cases", str(root), "--conformance-report",
                                str(out))
    result.assert_outcomes(passed=2, deselected=2)
    assert "does not claim" not in result.stdout.str()
    report = json.loads((out / "report.json").read_text())
    assert {r["ruleset"] for r in report["results"]} == {"toy"}
    assert report["deselected"] == {"toy2": 2} and report["summary"]["skip"] == 0
