"""GitHub Actions annotations: one line per failing item, at its case file and line."""

from __future__ import annotations

import copy

import toy
from test_report_samples import MARKDOWN_BREAKER, hostile_report, sample_report

from conformance._cli import main
from conformance.report import render


def github_lines(report) -> list[str]:
    return render(report, "github").splitlines()


def located(report):
    """The sample, its failing case defined at a line of a case file under this folder."""
    report = copy.deepcopy(report)
    for r in report["results"]:
        if r["id"] == "vision/qa-269/x-equals-nodes-paid":
            r["location"] = "cases/vision/qa-269.yaml:14"
    return report


def test_each_failing_or_erroring_item_is_one_error_at_its_file_and_line():
    lines = github_lines(located(sample_report()))
    assert all(line.startswith(("::error ", "::warning ")) for line in lines), lines
    case = next(line for line in lines if "x-equals-nodes-paid" in line)
    assert case.startswith("::error file=cases/vision/qa-269.yaml,line=14,"
                           "title=vision/qa-269/x-equals-nodes-paid%3A fail (vision/QA-269)::")
    assert "rerun: conformance run --engine reference --select vision/qa-269/" in case
    ids = [line.split("title=", 1)[1].split("%3A", 1)[0] for line in lines]
    # a failure, an error and a failed property; the known failure is left out, and the
    # known failure that passed is an error too (it fails the run)
    assert sorted(ids) == sorted(["vision/qa-269/x-equals-nodes-paid",
                                  "vision/negate/keeps-brackets",
                                  "vision/prop/shuffle-iff-whole-deck",
                                  "mtg/609-4/stale-known-failure"]), ids
    prop = next(line for line in lines if "shuffle-iff-whole-deck" in line)
    assert "file=" not in prop, "a property is not in a case file"


def test_engine_text_cannot_start_a_workflow_command_of_its_own():
    for text in (MARKDOWN_BREAKER, "x\n::error file=evil::owned\r\n::add-mask::y %0A"):
        lines = github_lines(hostile_report(text))
        assert len(lines) == 4, lines
        assert not any("::owned" in line.split("::", 2)[1] for line in lines)
        assert all("\n" not in line and "\r" not in line for line in lines)
        if "%0A" in text:   # a literal %0A stays text: % is escaped first
            assert any("%250A" in line for line in lines), lines


def test_certify_annotates_under_github_actions_or_when_asked(tmp_path, capsys, monkeypatch):
    cases = toy.write_catalogue(tmp_path / "cases")
    monkeypatch.chdir(tmp_path)
    run = ["certify", "--engine", "python:toy:WrongEngine", "--cases", "cases", "-q"]
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    main(run)
    assert "::error" not in capsys.readouterr().out
    main([*run, "--format", "github"])
    out = capsys.readouterr().out
    assert "::error file=cases/toy/add.yaml,line=" in out, out
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    main(run)
    assert "::error file=cases/toy/add.yaml,line=" in capsys.readouterr().out
    main([*run, "--format", "text"])
    assert "::error" not in capsys.readouterr().out
    assert cases.is_dir()


def test_an_annotation_names_a_file_of_the_repository_or_none(tmp_path, monkeypatch):
    """A case file outside the working directory (the installed suite's, in
    site-packages) is named by no annotation: it matches no file of the user's
    repository.  The annotation is then one of the run: the id, rules and rerun."""
    repo = tmp_path / "engine-repo"
    (repo / "sub").mkdir(parents=True)
    monkeypatch.chdir(repo)
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    site = "/usr/lib/python3.12/site-packages/conformance/cases/vision/qa-269.yaml:14"
    expected = {
        site: None,
        f"{tmp_path}/elsewhere/qa-269.yaml:14": None,
        "../elsewhere/qa-269.yaml:14": None,
        f"{repo}/my-cases/qa-269.yaml:14": "my-cases/qa-269.yaml",
        "my-cases/qa-269.yaml:14": "my-cases/qa-269.yaml",
    }
    for location, named in expected.items():
        report = located(sample_report())
        for r in report["results"]:
            if r["id"] == "vision/qa-269/x-equals-nodes-paid":
                r["location"] = location
        line = next(x for x in github_lines(report) if "x-equals-nodes-paid" in x)
        assert "site-packages" not in line and str(tmp_path) not in line, line
        if named is None:
            assert line.startswith("::error title=vision/qa-269/x-equals-nodes-paid%3A fail "
                                   "(vision/QA-269)::"), line
            assert "rerun: conformance run --engine reference" in line
        else:
            assert line.startswith(f"::error file={named},line=14,title="), line
    # under GitHub Actions the repository is $GITHUB_WORKSPACE, a step may run in a subfolder
    monkeypatch.setenv("GITHUB_WORKSPACE", str(repo))
    monkeypatch.chdir(repo / "sub")
    report = located(sample_report())
    line = next(x for x in github_lines(report) if "x-equals-nodes-paid" in x)
    assert line.startswith("::error file=sub/cases/vision/qa-269.yaml,line=14,"), line
