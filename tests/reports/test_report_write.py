"""write_reports and render: every file is replaced whole or not at all; rule_table."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any, cast

import pytest
from test_report_samples import failing, partial_report, sample_report

from conformance import report as reports
from conformance._types import ReportDict, Summary
from conformance.report import FILENAMES, render, rule_table, write_reports

ALL = {"report.json", "report.md", "junit.xml", "report.html", "badge.json"}


def test_every_format_is_written(tmp_path: Path) -> None:
    report = sample_report()
    written = write_reports(report, tmp_path / "out")
    assert {p.name for p in written.values()} == ALL
    assert {p.name for p in (tmp_path / "out").iterdir()} == ALL  # no temp files left
    assert json.loads(written["json"].read_text("utf-8")) == report
    for fmt, path in written.items():
        assert path.read_text("utf-8") == render(report, fmt)
        assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_some_formats_only(tmp_path: Path) -> None:
    written = write_reports(sample_report(), tmp_path, formats=("json", "badge"))
    assert sorted(written) == ["badge", "json"]
    assert {p.name for p in tmp_path.iterdir()} == {"report.json", "badge.json"}


def test_an_old_report_is_replaced_whole(tmp_path: Path) -> None:
    old = tmp_path / "report.json"
    old.write_text("x" * 1_000_000)
    before = old.stat().st_ino
    os.link(old, tmp_path / "kept")   # so the old file's inode cannot be reused
    write_reports(sample_report(), tmp_path, formats=("json",))
    assert json.loads(old.read_text("utf-8")) == sample_report()  # no tail of the old file
    assert old.stat().st_ino != before  # a new file renamed over it, not rewritten in place


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temp(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "report.md").write_text("old")

    def refuse(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)   # what conformance.report renames with
    with pytest.raises(OSError, match="disk full"):
        write_reports(sample_report(), tmp_path, formats=("md",))
    assert (tmp_path / "report.md").read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]


def test_a_renderer_bug_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(report: dict) -> str:
        raise RuntimeError("renderer bug")

    monkeypatch.setitem(reports._RENDERERS, "html", broken)
    with pytest.raises(RuntimeError):
        write_reports(sample_report(), tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_unknown_format_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown report format 'pdf'; choose from json, md"):
        render(sample_report(), "pdf")
    assert set(FILENAMES) == {"json", "md", "junit", "html", "badge"}


def test_json_keeps_unicode_and_survives_undecodable_stderr() -> None:
    report = sample_report()
    report["rules"][0]["title"] = "デッキをシャッフルする"
    assert "デッキをシャッフルする" in render(report, "json")
    failing(report, "error")["stderr"] = "bad byte \udcff"
    text = render(report, "json")
    text.encode("utf-8")
    assert json.loads(text)["results"][2]["stderr"] == "bad byte \udcff"


def test_rule_table_from_a_report_or_from_the_catalogue() -> None:
    table = rule_table(sample_report())
    lines = table.splitlines()
    assert lines[0].split() == ["rule", "kind", "title", "cases", "properties", "mutants",
                                "status"]
    row = next(line for line in lines if line.startswith("vision/IR-3.2.5.b"))
    assert row.split()[-4:] == ["1", "1", "1", "fail"]
    assert "Revealing the whole deck shuffles it" in row
    catalogue = [{"id": "vision/QA-1", "kind": "qa", "title": "T\x1b[2J", "cases": ["c"]}]
    table = rule_table(catalogue, tablefmt="github")
    assert "| vision/QA-1 | qa     | T\\x1b[2J |" in table
    assert table.splitlines()[-1].endswith("| -        |")


def test_written_files_are_utf8_with_unix_newlines(tmp_path: Path) -> None:
    written = write_reports(sample_report(), tmp_path)
    for path in written.values():
        data = path.read_bytes()
        assert b"\r\n" not in data
        data.decode("utf-8")


@pytest.mark.parametrize("fmt", sorted(FILENAMES))
def test_an_empty_run_renders(fmt: str) -> None:
    report = sample_report()
    report.update({"results": [], "rules": [], "problems": [], "mutation": None,
                   "summary": cast(Summary, dict.fromkeys(report["summary"], 0))})
    report["settings"]["rulesets"] = []
    reports.validate_report(report)
    assert render(report, fmt)


def test_counterexample_names_cannot_leave_the_folder(tmp_path):
    from conformance.report import safe_filename, write_counterexamples

    for hostile in ["../../etc/passwd", "/abs/path", "..", "a/../../b", ".hidden", "x\x00y"]:
        name = safe_filename(hostile)
        assert "/" not in name and not name.startswith(".") and name.endswith(".yaml")
    report: Any = {"results": [{"id": "vision/../../../escape", "counterexample": "id: x\n"},
                          {"id": "vision/prop/ok", "counterexample": ""}]}
    written = write_counterexamples(report, tmp_path / "out")
    assert len(written) == 1
    assert written[0].parent == (tmp_path / "out" / "counterexamples")
    assert list((tmp_path / "out" / "counterexamples").iterdir()) == written


def test_a_reused_out_keeps_no_stale_counterexample(tmp_path):
    from conformance.report import write_counterexamples

    out = tmp_path / "out"
    first: Any = {"results": [{"id": "vision/prop/a", "counterexample": "id: a\n"},
                         {"id": "vision/prop/b", "counterexample": "id: b\n"}]}
    assert len(write_counterexamples(first, out)) == 2
    second: Any = {"results": [{"id": "vision/prop/b", "counterexample": "id: b2\n"}]}
    written = write_counterexamples(second, out)
    assert sorted((out / "counterexamples").iterdir()) == written
    assert written[0].read_text() == "id: b2\n"
    write_counterexamples(cast(ReportDict, {"results": []}), out)
    assert not (out / "counterexamples").exists(), "an empty folder would look like a run's"


def test_the_cli_names_what_it_left_in_a_reused_out(tmp_path, capsys):
    import toy

    from conformance._cli import main

    cases = toy.write_catalogue(tmp_path / "cases")
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine", "utf-8")
    main(["certify", "--engine", "python:toy:ToyEngine", "--cases", str(cases), "-q",
          "--out", str(out)])
    printed = capsys.readouterr().out
    assert "not written by this run (left as it was): notes.txt" in printed
    assert (out / "notes.txt").read_text() == "mine"


def test_file_names_are_one_to_one_with_ids() -> None:
    from conformance.report import safe_filename

    assert safe_filename("vision/qa-269/x") == "vision__qa-269__x.yaml"   # docs/cli.md's example
    long = "vision/prop/" + "x" * 200
    clashing = [("a/b", "a__b"), ("a b", "a-b"), ("a_/b", "a/_b"), (long, long + "y"),
                ("", "item"), (".x", "x"), ("é", "-")]
    for one, other in clashing:
        assert safe_filename(one) != safe_filename(other), (one, other)
    names = [safe_filename(i, s) for i in ("a/b", "a__b") for s in (".yaml", ".requests.jsonl")]
    assert len(set(names)) == 4
    assert all(len(safe_filename(i)) <= 200 for i in (long, long + "y"))


def test_a_failed_write_leaves_no_set_looking_current(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_reports(sample_report(), tmp_path)   # the previous run's set
    real, calls = reports._replace, []

    def full(path: Path, text: str) -> None:
        calls.append(path.name)
        if len(calls) == 3:
            raise OSError("disk full")
        real(path, text)

    monkeypatch.setattr(reports, "_replace", full)
    with pytest.raises(OSError, match="disk full"):
        write_reports(partial_report(), tmp_path)
    assert "report.json" not in calls   # report.json comes last: it says the set is whole
    assert list(tmp_path.iterdir()) == [], "an old or half-new set would look current"


def test_report_json_is_written_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real, calls = reports._replace, []

    def noted(path: Path, text: str) -> None:
        calls.append(path.name)
        real(path, text)

    monkeypatch.setattr(reports, "_replace", noted)
    write_reports(sample_report(), tmp_path)
    assert calls[-1] == "report.json" and len(calls) == 5
