"""A report read back checks itself (docs/reports.md, "A report checks itself").

Every command that reads a report.json treats it as hostile: it is read as
strict JSON, checked against the schema, and everything derivable from the
per-item results (summary, rule statuses, verdict, coverage, mutation score)
is computed again with the run's own code; a report that says otherwise is
refused with exit 4, naming the field.  `merge` refuses an incomplete set of
shards, and `certify` prints the sha256 of each file it writes.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from pathlib import Path

import pytest
from commands import conformance_in_process as conformance
from toy import counting_catalogue, write_catalogue

from conformance._cli import main
from conformance._report import Report
from conformance._runner import shard_of
from conformance._selfcheck import MAX_DEPTH, recomputed
from conformance._types import ReportDict

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = [ROOT / "docs" / "example-report" / "report.json",
             ROOT / "reports" / "phase" / "report.json"]


@pytest.fixture(scope="module")
def wrong(tmp_path_factory) -> ReportDict:
    """A real report of an engine that fails: verdict fail, exit 1."""
    base = tmp_path_factory.mktemp("wrong")
    cases = write_catalogue(base / "cases")
    assert main(["certify", "--engine", "python:toy:WrongEngine", "--cases", str(cases),
                 "-q", "--out", str(base / "out")]) == 1
    report: ReportDict = json.loads((base / "out" / "report.json").read_text("utf-8"))
    assert report["verdict"]["status"] == "fail"
    return report


def write(path: Path, report: ReportDict) -> Path:
    path.write_text(json.dumps(report), "utf-8")
    return path


def forged(report: ReportDict) -> ReportDict:
    """What a process with write access makes of a failing report: a green verdict."""
    bad = copy.deepcopy(report)
    bad["verdict"].update({"status": "pass", "exit_code": 0,
                           "message": "the engine follows every seed rule"})
    return bad


def reading(command: str, path: Path, tmp_path: Path) -> list[object]:
    """Each command that reads a report, given ``path``."""
    return {"report": ["report", path],
            "failures": ["failures", path],
            "diff": ["diff", path, path],
            "compare": ["compare", path, "--out", tmp_path / "cmp"],
            "merge": ["merge", path, "--out", tmp_path / "merged"],
            "rules": ["rules", "--report", path]}[command]


COMMANDS = ["report", "failures", "diff", "compare", "merge", "rules"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_reading_command_refuses_a_forged_verdict(command, wrong, tmp_path):
    path = write(tmp_path / "report.json", forged(wrong))
    ran = conformance(*reading(command, path, tmp_path))
    assert ran.returncode == 4, ran.stdout + ran.stderr
    assert "contradicts itself" in ran.stderr
    assert 'verdict.status says "pass", its results give "fail"' in ran.stderr
    assert 'verdict.exit_code says 0, its results give 1' in ran.stderr
    assert str(path) in ran.stderr
    assert not (tmp_path / "merged").exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_every_reading_command_reads_an_honest_report(command, wrong, tmp_path):
    path = write(tmp_path / "report.json", wrong)
    ran = conformance(*reading(command, path, tmp_path))
    assert ran.returncode in (0, 1), ran.stderr   # merge and diff exit as the verdict says


def test_flipped_statuses_and_counts_are_named_field_by_field(wrong, tmp_path):
    bad = copy.deepcopy(wrong)
    bad["summary"]["fail"], bad["summary"]["pass"] = 0, bad["summary"]["total"]
    rule = next(r for r in bad["rules"] if r["status"] == "fail")
    rule["status"] = "pass"
    ran = conformance("report", write(tmp_path / "r.json", bad))
    assert ran.returncode == 4
    assert f"summary.fail says 0, its results give {wrong['summary']['fail']}" in ran.stderr
    assert f'rules[{rule["id"]}].status says "pass", its results give "fail"' in ran.stderr


def test_a_result_flipped_to_pass_leaves_the_rest_disagreeing(wrong, tmp_path):
    bad = copy.deepcopy(wrong)
    for r in bad["results"]:
        r["status"], r["message"], r["mismatches"] = "pass", "", []
    ran = conformance("failures", write(tmp_path / "r.json", bad))
    assert ran.returncode == 4
    assert 'verdict.status says "fail", its results give ' in ran.stderr


def test_a_known_failure_without_a_known_failures_file_is_refused(wrong, tmp_path):
    bad = copy.deepcopy(wrong)
    for r in bad["results"]:
        r["expected_failure"] = r["status"] == "fail"
    bad = recomputed(bad)     # verdict and summary agree with the flags...
    assert bad["verdict"]["status"] != "fail"
    ran = conformance("diff", write(tmp_path / "old.json", wrong), write(tmp_path / "r.json", bad))
    assert ran.returncode == 4   # ...but no file was given that could set them
    assert "expected_failure says true" in ran.stderr
    assert "no known-failures file was given" in ran.stderr


def test_the_rulesets_judged_are_the_ones_the_engine_claims(wrong, tmp_path):
    bad = copy.deepcopy(wrong)
    bad["verdict"]["coverage"]["claimed"] = []   # judge nothing, so nothing can fail a rule
    ran = conformance("report", write(tmp_path / "r.json", recomputed(bad)))
    assert ran.returncode == 4
    assert "verdict.coverage.claimed says []" in ran.stderr


def test_a_mutation_score_follows_from_its_mutants(wrong, tmp_path):
    bad = copy.deepcopy(wrong)
    bad["mutation"] = {"mutants": [{"name": "m", "ruleset": "toy", "rules": ["toy/R-1"],
                                    "killed": False, "killed_by": [], "certified": False}],
                       "score": 1.0, "certified_score": 0.0}
    ran = conformance("report", write(tmp_path / "r.json", bad))
    assert ran.returncode == 4 and "mutation.score says 1.0, its results give 0.0" in ran.stderr


def test_a_mutant_is_caught_by_the_certification_only_for_rules_a_seed_item_caught(wrong,
                                                                                  tmp_path):
    bad = copy.deepcopy(wrong)
    bad["mutation"] = {"mutants": [{"name": "m", "ruleset": "toy", "rules": ["toy/R-1"],
                                    "killed": True, "killed_by": ["toy/x"],
                                    "killed_for": ["toy/R-1"], "certified_for": [],
                                    "certified": True}],
                       "score": 1.0, "certified_score": 1.0}
    ran = conformance("report", write(tmp_path / "r.json", bad))
    assert ran.returncode == 4
    assert "mutation.mutants[m].certified says true, its results give false" in ran.stderr


def test_an_item_may_have_one_result(wrong, tmp_path):
    """diff keeps an id's last result: a passing copy after a failure would hide it."""
    bad = copy.deepcopy(wrong)
    failing = next(r for r in bad["results"] if r["status"] == "fail")
    bad["results"].append({**failing, "status": "pass", "message": "", "mismatches": []})
    ran = conformance("diff", write(tmp_path / "old.json", wrong),
                      write(tmp_path / "new.json", recomputed(bad)))
    assert ran.returncode == 4
    assert f'results[{failing["id"]}] says "two results"' in ran.stderr


@pytest.mark.parametrize("path", PUBLISHED, ids=lambda p: p.parent.name)
def test_the_published_reports_agree_with_themselves(path):
    assert Report.read(path).status in ("pass", "fail")


def test_a_consistent_forgery_is_what_the_sha256_is_for(wrong, tmp_path):
    """The limit, as docs/reports.md states it: results rewritten and everything derived
    from them recomputed make a report that agrees with itself.  Only the digest
    certify printed tells it from the one the run wrote."""
    bad = copy.deepcopy(wrong)
    for r in bad["results"]:
        r["status"], r["message"], r["mismatches"] = "pass", "", []
    path = write(tmp_path / "r.json", recomputed(bad))
    assert Report.read(path).status != "fail"


# -- reading: strict JSON, named ----------------------------------------------------------
@pytest.mark.parametrize("text, said", [
    ("[" * 100_000 + "]" * 100_000, "nests too deeply"),
    ('{"a":' * 100_000 + "1" + "}" * 100_000, "nests too deeply"),
    ("[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5), f"more than {MAX_DEPTH} levels"),
    ('{"format": NaN}', "NaN is not a JSON number"),
    ('{"duration": Infinity}', "Infinity is not a JSON number"),
    ('{"complete": true, "complete": false}', "'complete' appears twice"),
    ("\udcff".encode("utf-8", "surrogatepass").decode("latin-1"), "cannot read report"),
], ids=["deep-array", "deep-object", "past-max-depth", "nan", "infinity", "duplicate-key",
        "not-utf8"])
@pytest.mark.parametrize("command", ["report", "diff", "merge"])
def test_hostile_json_is_exit_4_naming_the_file(text, said, command, tmp_path):
    path = tmp_path / "hostile.json"
    path.write_text(text, "utf-8" if text.isascii() else "latin-1")
    ran = conformance(*reading(command, path, tmp_path))
    assert ran.returncode == 4, ran.stderr
    assert said in ran.stderr and str(path) in ran.stderr


def test_last_failed_reads_a_deeply_nested_report_as_no_report(tmp_path):
    cases = write_catalogue(tmp_path / "cases")
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.json").write_text("[" * 100_000 + "]" * 100_000, "utf-8")
    ran = conformance("certify", "--engine", "python:toy:ToyEngine", "--cases", cases,
                      "-q", "--out", out, "--last-failed")
    assert ran.returncode == 0, ran.stderr
    assert "(nested too deeply); running everything" in ran.stderr


def test_a_report_nested_deep_inside_a_value_is_refused(wrong, tmp_path):
    bad = copy.deepcopy(wrong)
    deep: object = 1
    for _ in range(MAX_DEPTH):
        deep = [deep]
    bad["results"][0]["mismatches"] = [{"path": "x", "expected": deep, "observed": 1}]
    ran = conformance("report", write(tmp_path / "r.json", bad))
    assert ran.returncode == 4 and f"more than {MAX_DEPTH} levels" in ran.stderr


def test_a_schema_error_is_named_with_how_many_more(wrong, tmp_path):
    bad = copy.deepcopy(wrong)
    bad["results"][0]["status"] = "passed"
    del bad["summary"]
    ran = conformance("report", write(tmp_path / "r.json", bad))
    assert ran.returncode == 4
    assert "is not a report.json this version reads" in ran.stderr
    assert "and 1 more problem(s)" in ran.stderr


# -- merge: every shard, each whole -------------------------------------------------------
@pytest.fixture(scope="module")
def shards(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("shards")
    cases = counting_catalogue(base / "cases", 8)
    for i in (1, 2):
        main(["certify", "--engine", "python:toy:ToyEngine", "--cases", str(cases), "-q",
              "--shard", f"{i}/2", "--out", str(base / f"s{i}")])
    return base / "s1" / "report.json", base / "s2" / "report.json"


def test_merge_of_every_shard_is_the_whole_run(shards, tmp_path):
    ran = conformance("merge", *shards, "--out", tmp_path / "m")
    assert ran.returncode == 0, ran.stderr


def test_merge_of_shard_1_of_2_names_the_missing_shard(shards, tmp_path):
    ran = conformance("merge", shards[0], "--out", tmp_path / "m")
    assert ran.returncode == 4
    assert "shard(s) 2/2 missing (given: 1/2)" in ran.stderr
    assert not (tmp_path / "m" / "report.json").exists()


def test_merge_of_a_shard_missing_an_item_names_it(shards, tmp_path):
    report = json.loads(shards[1].read_text("utf-8"))
    gone = report["results"].pop(0)["id"]
    path = write(tmp_path / "s2.json", recomputed(report))   # consistent with itself
    ran = conformance("merge", shards[0], path, "--out", tmp_path / "m")
    assert ran.returncode == 4
    assert "shard 2/2 ran to the end but lacks 1 item(s) the hash assigns it" in ran.stderr
    assert repr(gone) in ran.stderr


def test_merge_of_a_shard_holding_another_shards_item_names_it(shards, tmp_path):
    one, two = (json.loads(p.read_text("utf-8")) for p in shards)
    moved = one["results"].pop(0)
    two["results"].append(moved)
    paths = [write(tmp_path / f"s{i}.json", recomputed(r)) for i, r in ((1, one), (2, two))]
    ran = conformance("merge", *paths, "--out", tmp_path / "m")
    assert ran.returncode == 4
    assert f"shard 2/2 holds {moved['id']!r}, which the hash assigns to shard 1/2" \
        in ran.stderr
    assert shard_of(moved["id"], 2) == 1


def test_compare_of_a_lone_shard_names_the_missing_one(shards, tmp_path):
    ran = conformance("compare", shards[1], "--out", tmp_path / "c")
    assert ran.returncode == 4 and "shard(s) 1/2 missing (given: 2/2)" in ran.stderr


def test_merge_refuses_shards_of_different_splits_and_non_shards(shards, wrong, tmp_path):
    three = json.loads(shards[1].read_text("utf-8"))
    three["settings"]["shard"] = "2/3"
    ran = conformance("merge", shards[0], write(tmp_path / "t.json", recomputed(three)),
                      "--out", tmp_path / "m")
    assert ran.returncode == 4 and "split the run differently (1/2, 2/3)" in ran.stderr
    ran = conformance("merge", shards[0], write(tmp_path / "w.json", wrong),
                      "--out", tmp_path / "m")
    assert ran.returncode == 4 and "report 2 of 2 is not a shard" in ran.stderr


# -- certify prints the digest of what it wrote -------------------------------------------
def test_certify_prints_the_sha256_of_each_report_it_writes(tmp_path):
    cases = write_catalogue(tmp_path / "cases")
    out = tmp_path / "out"
    ran = conformance("certify", "--engine", "python:toy:ToyEngine", "--cases", cases,
                      "-q", "--out", out)
    assert ran.returncode == 0, ran.stderr
    lines = {m[2]: m[1] for m in
             re.finditer(r"^sha256 ([0-9a-f]{64})  (.+)$", ran.stdout, re.M)}
    assert set(lines) == {str(out / n) for n in ("report.json", "report.md", "junit.xml",
                                                 "report.html", "badge.json")}
    for name, digest in lines.items():
        assert hashlib.sha256(Path(name).read_bytes()).hexdigest() == digest


# -- failures: one exact id per entry -------------------------------------------------------
@pytest.mark.parametrize("item_id, said", [
    ("toy/add/x\n*", "control character '\\n'"),
    ("toy/add/x\r#! catalogue sha256:00", "control character '\\r'"),
    ("toy/add/x\u2028*", "control character '\\u2028'"),
    ("toy/add/*", "holds '*'"),
])
def test_failures_refuses_an_id_that_is_not_one_exact_entry(item_id, said, wrong, tmp_path):
    bad = copy.deepcopy(wrong)
    failing = next(r for r in bad["results"] if r["status"] == "fail")
    for row in bad["rules"]:
        for kind in ("cases", "properties"):
            row[kind] = [item_id if i == failing["id"] else i for i in row[kind]]
    failing["id"] = item_id
    ran = conformance("failures", write(tmp_path / "r.json", bad))
    assert ran.returncode == 4, ran.stdout
    assert said in ran.stderr and "fix:" in ran.stderr
    assert ran.stdout == ""


def test_a_message_cannot_start_a_line_of_the_known_failures_file(wrong, tmp_path):
    from conformance._knownfail import KnownFailures

    bad = copy.deepcopy(wrong)
    for r in bad["results"]:
        r["message"] = "boom\r*\x85toy/other\u2029#! suite 9"
    ran = conformance("failures", write(tmp_path / "r.json", bad))
    assert ran.returncode == 0, ran.stderr
    listing = tmp_path / "known.txt"
    listing.write_text(ran.stdout, "utf-8")
    failing = {r["id"] for r in wrong["results"] if r["status"] == "fail"}
    assert set(KnownFailures.read(listing).patterns) == failing
