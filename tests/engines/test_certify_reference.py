"""The bundled reference engine, certified in-process and as a subprocess.

These are the project's end-to-end guarantees: the reference engine passes
everything, the two adapters give identical per-item results, and every
mutant (the reference engine with one rule broken) is caught by an item
tagged with that rule.
"""

from __future__ import annotations

import shlex
import sys

import pytest

from conformance._certify import RunConfig, certify, exit_status
from conformance._mutation import list_mutants, run_mutants
from conformance._settings import get_profile
from conformance._suite import Suite
from conformance._verdict import fully_checked
from conformance.report import validate_report

# whole certifications and every mutant: the slow layer
pytestmark = pytest.mark.slow

SERVER = "cmd:" + shlex.join([sys.executable, "-m", "reference_engine.serve"])


@pytest.fixture(scope="module")
def in_process():
    return certify(RunConfig(engine_spec="reference", profile=get_profile("quick")))


@pytest.fixture(scope="module")
def subprocess_report():
    return certify(RunConfig(engine_spec=SERVER, profile=get_profile("quick")))


def outcomes(report):
    return {r["id"]: (r["status"], r["step"], r["mismatches"]) for r in report["results"]}


def test_reference_engine_passes_everything(in_process):
    bad = [(r["id"], r["message"]) for r in in_process["results"] if r["status"] != "pass"]
    assert not bad
    assert exit_status(in_process) == 0
    validate_report(in_process)
    assert in_process["summary"]["total"] >= len(in_process["rules"])
    # informative entries (headings, page text) need no case: docs/cases.md.  A quick run's
    # 10 examples per property need not reach every situation a property is tagged with:
    # such a rule is a skip for too few examples, never anything worse
    # (`test_the_certify_budget_exercises_every_rule_of_every_property` holds the full claim)
    for row in in_process["rules"]:
        if row["status"] != "pass":
            assert row["status"] in ("skip", "uncovered"), row["id"]
            assert row["status"] == "uncovered" or row["too_few_examples"], row["id"]
            assert row["kind"] == "informative" or row["status"] == "skip", row["id"]


def test_the_certify_budget_exercises_every_rule_of_every_property():
    """Under the certify profile every property of the reference engine exercises each rule
    it is tagged with at least ``min_exercised`` times, so every rule with an item is
    fully checked (the differential's counts are only shown: it never speaks for a rule)."""
    report = certify(RunConfig(engine_spec="reference", profile=get_profile("certify")))
    assert [(rule["id"], rule["too_few_examples"]) for rule in report["rules"]
            if rule["too_few_examples"]] == []
    assert all(row["status"] in ("pass", "uncovered") for row in report["rules"])
    assert all(fully_checked(row) for row in report["rules"] if row["status"] == "pass")


def test_subprocess_gives_identical_per_item_results(in_process, subprocess_report):
    assert subprocess_report["engine"]["name"] == in_process["engine"]["name"]
    assert outcomes(subprocess_report) == outcomes(in_process)


def test_a_broken_rule_fails_certification_naming_case_rule_and_rerun():
    report = certify(RunConfig(engine_spec="reference:name-ref-exact",
                               profile=get_profile("quick")))
    assert exit_status(report) == 1
    failed = [r for r in report["results"] if r["status"] == "fail"]
    assert any("vision/IR-12.3.1" in r["rules"] for r in failed)
    for r in failed:
        assert r["rerun"].startswith("conformance run --engine reference:name-ref-exact --select ")
    rows = {row["id"]: row for row in report["rules"]}
    assert rows["vision/IR-12.3.1"]["status"] == "fail"


@pytest.mark.slow
def test_every_mutant_is_killed_by_an_item_tagged_with_its_rule():
    result = run_mutants(Suite.load(None, None), None, get_profile("quick"), jobs=2)
    survivors = [m["name"] for m in result["mutants"] if not m["killed"]]
    assert not survivors, f"mutants not caught: {survivors}"
    assert all(m["killed_for"] and set(m["killed_for"]) <= set(m["rules"])
               for m in result["mutants"])
    assert result["score"] == 1.0
    assert len(result["mutants"]) == len(list_mutants())


@pytest.mark.soak
@pytest.mark.slow   # `-m "not slow"` replaces the default `-m "not soak"`
def test_reference_engine_passes_the_deep_profile():
    """Every profile stays green, the deep one (1000 examples a property) included:
    a rare scenario a property's relation does not allow for (as when
    metamorphic-modifier-arrival compared an order that destroyed the card part
    way) shows up here first.  About 2.5 minutes on 2 busy cores, so it is out of
    the default run: `pytest -m soak` (`tox -e soak`) before publishing."""
    report = certify(RunConfig(engine_spec="reference", profile=get_profile("deep"), jobs=2))
    bad = [(r["id"], r["message"]) for r in report["results"] if r["status"] != "pass"]
    assert not bad
    assert exit_status(report) == 0
    assert report["settings"]["profile"] == "deep"


def test_committed_reference_report_is_current_and_green():
    """docs/example-report, the sample the README points at, is regenerated after
    catalogue edits (`tox -e certify`; the README's first command writes to the
    untracked reports/reference instead, so a fresh clone stays clean)."""
    import json
    from pathlib import Path

    from conformance._catalogue import load_catalogue

    path = Path(__file__).parents[2] / "docs" / "example-report" / "report.json"
    report = json.loads(path.read_text("utf-8"))
    validate_report(report)
    assert report["suite"]["catalogue_digest"] == load_catalogue().digest, (
        "docs/example-report is stale: run `conformance certify --engine reference --mutation "
        "--jobs 2 --out docs/example-report` (or `tox -e certify`)")
    assert report["complete"] and exit_status(report) == 0
    assert report["mutation"] and report["mutation"]["score"] == 1.0


def test_the_readme_quotes_the_numbers_of_the_sample_report():
    """The README's first command prints what the committed sample says (the sample is
    current: the test above), and the README quotes those numbers, not older ones."""
    import json
    import re
    from pathlib import Path

    root = Path(__file__).parents[2]
    readme = root.joinpath("README.md").read_text("utf-8")
    report = json.loads(root.joinpath("docs", "example-report", "report.json").read_text("utf-8"))
    seed = report["verdict"]["rules"]["seed"]
    quoted = re.findall(r"[sS]eed rules passed:\s+(\d+)/(\d+)", readme)
    assert quoted and set(quoted) == {(str(seed["pass"]), str(seed["total"]))}, quoted
    row = next(r for r in report["rules"] if r["id"] == "vision/IR-12.3.1")
    shown = re.search(r"`vision/IR-12\.3\.1`: (\d+) cases,\s+(\d+) properties,\s+(\d+)/(\d+) "
                      r"mutants caught, (\w+)", readme)
    assert shown, "the README's example rule row"
    mutants = len(row["mutants"])
    assert shown.groups() == (str(len(row["cases"])), str(len(row["properties"])),
                              str(mutants), str(mutants), row["status"])


def test_the_readme_first_command_writes_where_git_does_not_track():
    """A fresh clone stays clean after the README's first command."""
    import re
    import shutil
    import subprocess
    from pathlib import Path

    root = Path(__file__).parents[2]
    block = re.search(r"```sh\n(.*)\n", root.joinpath("README.md").read_text("utf-8"))
    assert block
    first = block.group(1)
    flag = re.search(r"--out (\S+)", first)
    assert flag
    out = flag.group(1)
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git checkout")
    ignored = subprocess.run(["git", "check-ignore", "-q", f"{out}/report.json"], cwd=root)
    assert ignored.returncode == 0, f"{out} is tracked: the README's first command dirties it"
    tracked = subprocess.run(["git", "ls-files", out], cwd=root, capture_output=True, text=True)
    assert tracked.stdout == "", tracked.stdout


def test_the_sample_report_is_what_a_certification_gives_now_item_for_item():
    """The committed sample is not only current (same catalogue) but what the code
    gives today: the same items with the same statuses, messages, rules and
    features, the same rule rows and mutant rows; so a change to the harness that
    changes anything the reference engine's report says shows here (regenerate
    the sample with `tox -e certify` when the change is meant)."""
    import json
    from pathlib import Path

    root = Path(__file__).parents[2]
    sample = json.loads((root / "docs" / "example-report" / "report.json").read_text("utf-8"))
    fresh = certify(RunConfig(engine_spec="reference", profile=get_profile("certify"),
                              mutation=True, jobs=2))

    def items(report):
        return [{k: v for k, v in r.items() if k != "duration"} for r in report["results"]]
    assert items(fresh) == items(sample)
    assert fresh["rules"] == sample["rules"]
    assert fresh["mutation"] == sample["mutation"]
    assert fresh["verdict"] == sample["verdict"]
