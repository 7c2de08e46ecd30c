"""Verdicts that tell how much was checked (issue "honest verdicts for partial engines").

An engine on its way (most items skipped) gets ``partial``, never ``pass``, in
every format; ``--fail-under`` gates on coverage; ``diff`` sees lost coverage;
every format shows the same counts; a property that ran on a handful of
scenarios is not a pass; the seed decides the examples; a hung engine costs
three timeouts, not the whole run.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from pathlib import Path
from typing import Any

import hypothesis.strategies as st
import pytest
import toy

from conformance._catalogue import load_catalogue
from conformance._certify import RunConfig, certify
from conformance._cli import main
from conformance._loading import load_engine
from conformance._properties import Play, Property
from conformance._runner import Runner, Selection
from conformance._settings import get_profile
from conformance.report import render
from conformance.report._text import counts_line

ENGINES = Path(__file__).parents[1] / "fakes"


@pytest.fixture
def partial_engine(monkeypatch):
    """tests/fakes/partial.py importable as ``python:partial:...``."""
    monkeypatch.syspath_prepend(str(ENGINES))
    return "python:partial:create"


def _certify(out: Path, *args: str) -> int:
    return main(["certify", "-q", "--profile", "ci", "--out", str(out), *args])


def _formats(out: Path) -> dict[str, str]:
    return {name: (out / name).read_text("utf-8")
            for name in ("report.json", "report.md", "report.html", "junit.xml", "badge.json")}


# -- 1. coverage is part of the verdict ------------------------------------------------------
@pytest.mark.slow
def test_an_engine_on_its_way_is_partial_in_every_format(tmp_path, partial_engine, capsys):
    out = tmp_path / "out"
    assert _certify(out, "--engine", partial_engine) == 0   # partial still exits 0
    terminal = capsys.readouterr().out
    report = json.loads((out / "report.json").read_text("utf-8"))
    verdict = report["verdict"]
    assert verdict["status"] == "partial"
    # judged on the ruleset it claims: Vision's 33 seed rules, not all three rulesets'
    assert verdict["coverage"]["claimed"] == ["vision"]
    seed = verdict["rules"]["seed"]
    assert seed["total"] == len([r for r in load_catalogue(None, ["vision"]).rules.values()
                                 if r.kind in ("rule", "qa", "example")])
    assert seed["checked"] < seed["total"]
    line = (f"{seed['checked']} of {seed['total']} seed rules checked (vision), "
            f"{verdict['coverage']['items_not_run']} of {verdict['coverage']['items']} items "
            "not run (top reasons: ")
    files = _formats(out)
    assert "verdict: partial (exit 0)" in terminal and line in terminal
    for name in ("report.md", "junit.xml"):
        assert line in files[name], name
    assert line.replace("'", "&#x27;") in files["report.html"]
    assert json.loads(files["badge.json"])["message"] == (
        f"partial: {seed['checked']}/{seed['total']} seed rules checked")
    assert "pass" not in json.loads(files["badge.json"])["message"]


def test_the_reference_engine_is_still_pass(tmp_path):
    report = certify(RunConfig(engine_spec="reference", profile=get_profile("quick"),
                               selection=_no_properties()))
    assert report["verdict"]["status"] == "partial"   # --no-properties: filtered
    assert report["verdict"]["coverage"]["filtered"] == ["--no-properties"]
    assert "filtered: --no-properties" in render(report, "md")
    assert "(filtered)" in json.loads(render(report, "badge"))["message"]


def _no_properties() -> Selection:
    return Selection(properties=False)


# -- 2. --fail-under -------------------------------------------------------------------------
def test_fail_under_gates_on_checked_seed_rules(tmp_path, partial_engine, capsys):
    assert _certify(tmp_path / "a", "--engine", partial_engine, "--no-properties",
                    "--fail-under", "100") == 1
    assert "below --fail-under 100" in capsys.readouterr().out
    assert _certify(tmp_path / "b", "--engine", partial_engine, "--no-properties",
                    "--fail-under", "0") == 0
    with pytest.raises(SystemExit) as exit_info:
        main(["certify", "--engine", partial_engine, "--fail-under", "101"])
    assert exit_info.value.code == 4


def test_a_complete_engine_meets_fail_under_100(tmp_path):
    cases = toy.counting_catalogue(tmp_path / "cases", 3)
    assert _certify(tmp_path / "out", "--engine", "python:toy:ToyEngine", "--cases",
                    str(cases), "--fail-under", "100") == 0


# -- 3. per-rule progress --------------------------------------------------------------------
def test_a_rule_partly_checked_says_how_far(tmp_path):
    cases = toy.counting_catalogue(tmp_path / "cases", 3)
    # R-1 gets two more cases the engine cannot play
    for k in (20, 30):
        (cases / "toy" / f"big-{k}.yaml").write_text(
            (cases / "toy" / "add-1.yaml").read_text("utf-8")
            .replace("toy/add/1", f"toy/add/big-{k}").replace("{add: 1}", f"{{add: {k}}}")
            .replace("count: 1", f"count: {k}"), "utf-8")
    report = certify(RunConfig(engine_spec="python:toy:UpTo1", profile=get_profile("quick"),
                               cases_root=cases))
    md, html = render(report, "md"), render(report, "html")
    assert re.search(r"^\| toy/R-1 .*\| 1/3 items checked, all passing +\|$", md, re.M)
    assert "1/3 items checked, all passing" in html


# -- 4. diff sees lost coverage ---------------------------------------------------------------
def test_diff_lists_lost_coverage_as_a_regression(tmp_path, capsys):
    cases = toy.counting_catalogue(tmp_path / "cases", 13)
    for spec, out in (("python:toy:UpTo13", "old"), ("python:toy:UpTo1", "new")):
        _certify(tmp_path / out, "--engine", spec, "--cases", str(cases))
    old = json.loads((tmp_path / "old" / "report.json").read_text("utf-8"))
    assert old["summary"]["pass"] == 13
    capsys.readouterr()
    summary = tmp_path / "diff.md"
    code = main(["diff", str(tmp_path / "old"), str(tmp_path / "new"), "--markdown",
                 str(summary)])
    printed = capsys.readouterr().out
    assert code == 1
    lost = [f"toy/add/{k}" for k in range(2, 14)]
    for item in lost:
        assert f"lost coverage: {item} (pass -> skip)" in printed
    section = summary.read_text("utf-8").split("### Lost coverage")[1]
    assert section.startswith(" (12 item(s), a regression)")
    assert all(f"`{item}`" in section for item in lost)
    assert "warning" not in printed   # one engine, one catalogue, no filters: like for like
    assert main(["diff", str(tmp_path / "old"), str(tmp_path / "new"),
                 "--allow-lost-coverage"]) == 0


def test_an_item_gone_from_the_new_report_is_lost_coverage(tmp_path, capsys):
    cases = toy.counting_catalogue(tmp_path / "cases", 3)
    _certify(tmp_path / "old", "--engine", "python:toy:ToyEngine", "--cases", str(cases))
    _certify(tmp_path / "new", "--engine", "python:toy:ToyEngine", "--cases", str(cases),
             "--select", "toy/add/1")
    capsys.readouterr()
    assert main(["diff", str(tmp_path / "old"), str(tmp_path / "new")]) == 1
    printed = capsys.readouterr().out
    assert "lost coverage: toy/add/2 (pass -> -)" in printed
    assert "warning: the reports differ in filters" in printed


# -- 5. properties report what they checked ---------------------------------------------------
def _runner(tmp_path: Path, engine: str, prop: Property, **profile: Any) -> Runner:
    catalogue = load_catalogue(toy.write_catalogue(tmp_path / "cases"))
    return Runner(catalogue, load_engine(engine), engine,
                  dataclasses.replace(get_profile("certify"), **profile),
                  Selection(cases=False), properties=[prop])


def _prop(seen: list[int] | None = None) -> Property:
    def check(play: Play, scenario: dict[str, Any]) -> None:
        if seen is not None:
            seen.append(scenario["setup"]["start"])
        play.run(scenario)

    return Property(id="toy/prop/adds", ruleset="toy", rules=("toy/R-1",), title="adds",
                    scenarios=st.builds(lambda n: {"setup": {"start": n},
                                                   "steps": [{"do": {"add": 1}}]},
                                        st.integers(0, 10**6)),
                    check=check)


def test_a_property_on_eight_supported_scenarios_is_not_a_pass(tmp_path):
    runner = _runner(tmp_path, "python:toy:FirstEightEngine", _prop())
    runner.handshake()
    (result,) = list(runner.results())
    assert result.status == "skip"
    assert result.examples is not None and result.examples["supported"] == 8
    assert result.examples["generated"] > 8 and result.examples["actions"] == 8
    assert result.message.startswith(
        f"too few supported scenarios (8 of {result.examples['generated']}; ")


def test_a_property_reports_its_scenarios(tmp_path):
    runner = _runner(tmp_path, "python:toy:ToyEngine", _prop())
    runner.handshake()
    (result,) = list(runner.results())
    assert result.status == "pass"
    assert result.examples == {"generated": 60, "supported": 60, "actions": 60,
                               "exercised": {"toy/R-1": 60}, "min_exercised": 3}


# -- 6. the seed works ------------------------------------------------------------------------
def _examples(tmp_path: Path, seed: int) -> list[int]:
    seen: list[int] = []
    runner = _runner(tmp_path, "python:toy:ToyEngine", _prop(seen), seed=seed)
    runner.handshake()
    list(runner.results())
    return seen


def test_same_seed_same_examples_and_another_seed_others(tmp_path):
    first = _examples(tmp_path, 1)
    assert first == _examples(tmp_path, 1)
    assert first != _examples(tmp_path, 2)


def test_the_seed_is_recorded_and_in_a_property_rerun(tmp_path):
    report = certify(RunConfig(engine_spec="reference:x-is-declared-cost",
                               profile=dataclasses.replace(get_profile("quick"), seed=7),
                               selection=_selection("vision/prop/x-is-nodes-paid")))
    assert report["settings"]["seed"] == 7
    (result,) = report["results"]
    assert result["status"] == "fail"
    assert result["rerun"].endswith(" --seed 7")


def _selection(item: str) -> Selection:
    return Selection(select=[item])


# -- 7. one count, everywhere -----------------------------------------------------------------
def test_every_format_shows_the_same_counts(tmp_path, capsys):
    """One run with counted failures, differing readings and a difference from the
    reference engine: every format says the same numbers."""
    from test_report_samples import readings_report

    report = readings_report()
    s, seed = report["summary"], report["verdict"]["rules"]["seed"]
    line = counts_line(report)
    assert line.startswith(f"{s['pass']} passed, {s['counted_failures']} failed, "
                           f"{s['engine_errors']} errors, {s['skip']} skipped")
    assert s["differs_from_readings"] == 1 and s["differs_from_reference"] == 1
    md, html, junit = (render(report, f) for f in ("md", "html", "junit"))
    assert line in md and line in html.replace("&#x27;", "'")
    assert f'name="items" value="{line}"' in junit.replace("&#x27;", "'")
    # JUnit's counters: failures are the counted failures plus the stale known failure
    suites = re.findall(r'<testsuite name="(\w+)"[^>]* failures="(\d+)" errors="(\d+)"', junit)
    assert sum(int(f) for _, f, _ in suites) == s["counted_failures"] + s["unexpected_passes"]
    assert sum(int(e) for _, _, e in suites) == s["engine_errors"]
    verdict = f"Seed rules passed: {seed['pass']}/{seed['total']}"
    assert verdict in md and verdict in html
    badge = json.loads(render(report, "badge"))
    assert f"{seed['checked']}/{seed['total']} seed rules" in badge["message"]
    assert re.search(rf"^\| seed rules +\| {seed['total']} +\| {seed['checked']} +\| "
                     rf"{seed['pass']} ", md, re.M)
    assert f"<td>seed rules</td><td>{seed['total']}</td><td>{seed['checked']}</td>" \
           f"<td>{seed['pass']}</td>" in html
    from conformance.report._terminal import print_outcome

    print_outcome(report)
    terminal = capsys.readouterr().out
    assert line in terminal and f"seed rules passed: {seed['pass']}/{seed['total']}" in terminal
    # compare counts seed rules as the verdict does
    from conformance.report import _compare

    page = _compare.render_markdown(_compare.compare([("r", report)]))
    assert f"| {seed['pass']}/{seed['total']} seed rules |" in page


def test_informative_rules_show_nothing_to_follow(tmp_path):
    from test_report_samples import sample_report

    md = render(sample_report(), "md")
    assert re.search(r"^\| vision/IR-0\.1 +\| informative .*\| nothing to follow +\|$", md, re.M)


# -- 8. a rerun exits by the item's own result -----------------------------------------------
def test_rerunning_an_item_that_relies_on_a_reading_exits_by_its_result(capsys):
    item = "vision/ir-12-p2/short-draw-and-discard"
    assert main(["run", "--engine", "reference", "--select", item]) == 0
    assert "do not count toward the certification" in capsys.readouterr().out
    assert main(["run", "--engine", "reference:short-draw-draws-what-is-there",
                 "--select", item]) == 1
    assert "the selected item(s) fail" in capsys.readouterr().out


# -- 9. a hung engine ---------------------------------------------------------------------------
@pytest.mark.slow
def test_a_hung_engine_costs_three_timeouts_not_the_run(tmp_path):
    hang = f"cmd:{sys.executable} {ENGINES / 'hang.py'}"
    report = certify(RunConfig(engine_spec=hang, profile=get_profile("quick"), timeout=1,
                               selection=_no_properties()))
    errors = [r for r in report["results"] if r["status"] == "error"]
    waited = [r for r in errors if r["message"].startswith("EngineTimeout")]
    assert len(waited) == 3
    assert all("the engine is hung" in r["message"] for r in errors if r not in waited)
    assert report["verdict"]["exit_code"] == 2


# -- 10. repeated errors grouped, adapter exceptions named ------------------------------------
def test_one_adapter_bug_is_one_block_named_for_the_exception(tmp_path, capsys):
    cases = toy.counting_catalogue(tmp_path / "cases", 5)
    assert _certify(tmp_path / "out", "--engine", "python:toy:RaisingEngine", "--cases",
                    str(cases)) == 2
    printed = capsys.readouterr().out
    assert ("ERROR: 5 items: ZeroDivisionError: engine bug (raised by the in-process "
            "adapter)") in printed
    assert "EngineCrashed" not in printed
    assert printed.count("rerun") == 1


@pytest.mark.parametrize(("factory", "code"), [("ExitingEngine", 2), ("ExitingHelloEngine", 2)])
def test_an_in_process_engine_calling_sys_exit_is_an_error_never_a_green(tmp_path, capsys,
                                                                        factory, code):
    cases = toy.counting_catalogue(tmp_path / "cases", 3)
    assert _certify(tmp_path / "out", "--engine", f"python:toy:{factory}", "--cases",
                    str(cases)) == code
    assert "SystemExit" in capsys.readouterr().out
    report = json.loads((tmp_path / "out" / "report.json").read_text("utf-8"))
    assert {r["status"] for r in report["results"]} == {"error"}


def test_diff_warns_when_the_engines_differ(tmp_path, capsys):
    cases = toy.write_catalogue(tmp_path / "cases")
    _certify(tmp_path / "a", "--engine", "python:toy:ToyEngine", "--cases", str(cases))
    _certify(tmp_path / "b", "--engine", "python:toy:WrongEngine", "--cases", str(cases))
    capsys.readouterr()
    assert main(["diff", str(tmp_path / "a"), str(tmp_path / "b")]) == 1   # exit as computed
    assert capsys.readouterr().out.startswith("warning: the reports differ in engines")


# -- 11. usage errors before the run -------------------------------------------------------------
@pytest.mark.parametrize("command", [
    ["certify", "--engine", "reference"], ["run", "--engine", "reference"], ["validate"],
    ["rules"], ["mutants"]])
def test_an_unknown_ruleset_is_a_usage_error(command, capsys):
    assert main([*command, "--ruleset", "poker"]) == 4
    assert "--ruleset 'poker'" in capsys.readouterr().err


def test_rules_from_a_report_honour_the_ruleset(tmp_path, capsys):
    cases = toy.write_catalogue(tmp_path / "cases")
    _certify(tmp_path / "out", "--engine", "python:toy:ToyEngine", "--cases", str(cases))
    capsys.readouterr()
    assert main(["rules", "--cases", str(cases), "--report", str(tmp_path / "out"),
                 "--ruleset", "toy"]) == 0
    assert "toy/R-1" in capsys.readouterr().out


def test_version_and_every_subcommand_is_described(capsys):
    from conformance import __version__
    from conformance._cli import _parser

    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"conformance {__version__}"
    parser = _parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    for name, sub in subparsers.choices.items():  # type: ignore[union-attr]  # the subparsers' dict
        assert sub.description, f"`conformance {name} --help` has no description"
        for action in sub._actions:
            if not action.option_strings:  # a positional
                assert action.help, f"`conformance {name}`: positional {action.dest} undescribed"
