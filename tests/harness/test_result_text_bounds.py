"""Engine-provided text a result keeps (its message: a skip reason, an error's text;
its stderr) is cut to `MAX_TEXT` characters, saying how much was cut."""

from __future__ import annotations

import json

import pytest
import toy
from commands import conformance_in_process as conformance

from conformance._results import MAX_TEXT, Result, bounded


@pytest.mark.parametrize("engine", ["HugeSkipEngine", "HugeErrorEngine"])
def test_engine_text_in_a_result_is_cut_to_a_bound(tmp_path, engine):
    """147 skip reasons of ~990 KB each made a 148 MB report.json: every reason was
    kept whole."""
    cases = toy.write_catalogue(tmp_path / "cases")
    out = tmp_path / "out"
    conformance("certify", "--engine", f"python:toy:{engine}", "--cases", cases,
                "--out", out, "-q", "--allow-no-verdict")
    path = out / "report.json"
    assert path.stat().st_size < 8 * MAX_TEXT * 4, path.stat().st_size
    for r in json.loads(path.read_text())["results"]:
        for text in (r["message"], r["stderr"]):
            assert len(text) <= MAX_TEXT
        assert r["message"].endswith(" characters cut)"), r["message"][-80:]
    # the report reads back, its self-check agreeing
    assert conformance("report", path, "--format", "badge").returncode == 0


def test_the_cut_says_how_much_and_is_stable():
    text = "z" * (MAX_TEXT * 3)
    cut = bounded(text)
    assert len(cut) <= MAX_TEXT and cut.endswith(f"({len(text) - (MAX_TEXT - 40):,} "
                                                 "characters cut)")
    assert bounded(cut) == cut and bounded("short") == "short"
    result = Result("a/b", "case", "toy", [], "skip", message=text)
    assert Result.from_json(result.to_json()).message == result.message == cut
