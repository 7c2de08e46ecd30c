"""Spreading a run: ``--shard I/N`` + `conformance merge` over machines, ``--jobs N`` over cores.

Either way the report is the one a single process writes, item for item.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance._cli import main
from conformance._runner import Selection, shard_of

ROOT = Path(__file__).resolve().parents[2]


def certify(out: Path, *extra: str) -> int:
    return main(["certify", "--engine", "reference", "--cases", str(ROOT / "cases"),
                 "--profile", "quick", "-q", "--out", str(out), *extra])


def load(folder: Path) -> dict:
    return json.loads((folder / "report.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("shards")
    codes = {name: certify(base / name, *extra)
             for name, extra in (("all", ()), ("s1", ("--shard", "1/2")),
                                 ("s2", ("--shard", "2/2")), ("jobs", ("--jobs", "2")))}
    assert main(["merge", str(base / "s1"), str(base / "s2" / "report.json"),
                 "--out", str(base / "merged")]) == 0
    return base, codes


@pytest.mark.slow
def test_merged_shards_equal_the_unsharded_run_item_for_item(runs):
    base, codes = runs
    assert set(codes.values()) == {0}
    whole, merged = load(base / "all"), load(base / "merged")
    shards = [load(base / "s1"), load(base / "s2")]
    ids = [{r["id"] for r in s["results"]} for s in shards]
    assert ids[0] and ids[1] and not ids[0] & ids[1], "each shard runs its own items"

    def by_id(report):
        return {r["id"]: (r["status"], r["basis"], r["rules"]) for r in report["results"]}

    assert by_id(merged) == by_id(whole)
    assert [(r["id"], r["status"], r["counts"]) for r in merged["rules"]] == \
           [(r["id"], r["status"], r["counts"]) for r in whole["rules"]]
    assert merged["verdict"] == whole["verdict"]
    assert merged["summary"] == whole["summary"]
    assert merged["settings"]["merged_shards"] == ["1/2", "2/2"]
    assert shards[0]["settings"]["shard"] == "1/2"


def test_shards_are_stable_and_cover_everything():
    ids = [f"vision/case-{i}" for i in range(200)]
    for n in (1, 2, 3, 7):
        parts = [{i for i in ids if Selection(shard=(k, n)).wants(i, "vision", ())}
                 for k in range(1, n + 1)]
        assert set().union(*parts) == set(ids)
        assert sum(map(len, parts)) == len(ids)
    assert shard_of("vision/x", 4) == shard_of("vision/x", 4)


@pytest.mark.parametrize("bad", ["0/2", "3/2", "1-2", "a/b"])
def test_a_bad_shard_is_a_usage_error(bad, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        certify(tmp_path / "o", "--shard", bad)
    assert exit_info.value.code == 4
    assert "--shard" in capsys.readouterr().err


@pytest.mark.slow
def test_merge_refuses_reports_of_different_runs(runs, tmp_path, capsys):
    base, _ = runs
    other = load(base / "s2")
    other["engine"]["spec"] = "cmd:another-engine"
    (tmp_path / "other.json").write_text(json.dumps(other), "utf-8")
    assert main(["merge", str(base / "s1"), str(tmp_path / "other.json"),
                 "--out", str(tmp_path / "m")]) == 4
    assert "differ in engine" in capsys.readouterr().err
    assert main(["merge", str(base / "s1"), str(base / "s1"), "--out", str(tmp_path / "m")]) == 4
    assert "more than one report" in capsys.readouterr().err


@pytest.mark.slow
def test_jobs_give_the_single_process_report_in_catalogue_order(runs):
    base, codes = runs
    whole, jobs = load(base / "all"), load(base / "jobs")

    def items(report):
        return [(r["id"], r["status"], r["basis"], r["message"], r["mismatches"])
                for r in report["results"]]

    assert items(jobs) == items(whole)
    assert jobs["rules"] == whole["rules"]
    assert jobs["verdict"] == whole["verdict"] and codes["jobs"] == 0


def test_a_worker_that_dies_loses_only_its_item(tmp_path):
    from toy import write_catalogue

    root = write_catalogue(tmp_path / "cases")
    code = main(["certify", "--engine", "python:toy:DyingEngine", "--cases", str(root),
                 "--jobs", "2", "-q", "--out", str(tmp_path / "out")])
    report = load(tmp_path / "out")
    status = {r["id"]: (r["status"], r["message"]) for r in report["results"]}
    assert status["toy/negative/rejected"] == ("pass", "")
    assert status["toy/add/two-plus-three"][0] == "error"
    assert "worker process" in status["toy/add/two-plus-three"][1]
    assert code == 2 and report["complete"]


def test_jobs_handle_more_items_than_a_pipe_holds(tmp_path):
    """Thousands of items (a catalogue 16 times ours): the run must not wait on itself."""
    import threading

    from toy import ToyEngine, write_catalogue

    from conformance._catalogue import load_catalogue
    from conformance._loading import InProcessEngine
    from conformance._parallel import Item, parallel_results
    from conformance._runner import Runner
    from conformance._settings import get_profile

    catalogue = load_catalogue(write_catalogue(tmp_path / "cases"))
    runner = Runner(catalogue, InProcessEngine(ToyEngine, "python:toy:ToyEngine"),
                    "python:toy:ToyEngine", get_profile("quick"))
    runner.handshake()
    many: list[Item] = list(catalogue.cases * 5000)   # 10,000 items
    runner.items = lambda: many             # type: ignore[method-assign]
    results: list = []
    worker = threading.Thread(target=lambda: results.extend(parallel_results(
        runner, lambda: InProcessEngine(ToyEngine, "python:toy:ToyEngine"), 2)), daemon=True)
    worker.start()
    worker.join(timeout=120)
    assert not worker.is_alive(), "the --jobs run hung"
    assert len(results) == len(many) and {r.status for r in results} == {"pass"}
