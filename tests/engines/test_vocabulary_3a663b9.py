"""Issue 26's "done when" against a real engine of Vision vocabulary 1: the reference
engine of commit 3a663b9, extracted from git and served by its own suite of that time
(tests/fakes/vision_3a663b9.py), certified by today's suite on the vision catalogue.

Declaring ``"vocabulary": {"vision": 1}``, every item passes, is skipped naming what
of version 2 it needs, or fails on a rule that engine got wrong (GENUINE: each was
later fixed in the reference engine; docs/rulesets/vision.md, "Vocabulary versions").
A failure outside that list is a change of vocabulary or meaning that
vocabulary-versions.json does not record: record it there (with the items relying on
it) rather than add it here.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from fakes.vision_3a663b9 import COMMIT, extract

from conformance import vocabulary
from conformance._certify import RunConfig, certify
from conformance._runner import Selection
from conformance._settings import get_profile
from conformance._types import ReportDict

ROOT = Path(__file__).parents[2]
SHIM = Path(__file__).parents[1] / "fakes" / "vision_3a663b9.py"
NEEDS_TAIL = "(vision vocabulary 2); the engine speaks 1"

#: The rule differences of the 3a663b9 engine: item id -> (why, the commit fixing it).
GENUINE: dict[str, tuple[str, str]] = {
    "vision/ir-2-12-3/triggered-then-negated-not-resolved": (
        "an effect already triggered was still resolved after its card's text was negated "
        "(2.12.3: 発生せず、解決されない)", "4fe1b41"),
}


def _has_commit(commit: str) -> bool:
    try:
        found = subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=ROOT,
                               capture_output=True)
    except OSError:
        return False
    return found.returncode == 0


def _run(tree: Path, declare: str) -> ReportDict:
    command = shlex.join([sys.executable, str(SHIM), "--tree", str(tree), "--declare", declare])
    return certify(RunConfig(engine_spec=f"cmd:{command}", profile=get_profile("quick"),
                             selection=Selection(rulesets=["vision"])))


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[ReportDict, ReportDict]:
    """Today's vision catalogue (quick profile) against the 3a663b9 engine declaring
    vocabulary 1, then declaring nothing."""
    if not _has_commit(COMMIT):
        pytest.skip(f"needs the git history with commit {COMMIT} (not in a shallow clone, "
                    f"an sdist or a copy without .git)")
    tree = tmp_path_factory.mktemp(f"at-{COMMIT}")
    extract(COMMIT, tree)
    return _run(tree, "1"), _run(tree, "none")


@pytest.mark.slow
def test_declaring_1_only_genuine_rule_differences_fail(runs: tuple[ReportDict, ReportDict],
                                                        ) -> None:
    old, latest = runs
    assert old["engine"]["name"] == f"reference@{COMMIT}"
    assert old["vocabulary"] == {"speaks": {"vision": 1}, "latest": {"vision": 2}, "note": "",
                                 "synthetic": {"items": 0, "taken": True}}
    needs, failed = set(), set()
    for result in old["results"]:
        # the old engine checks its own vocabulary: nothing of version 2 reached it
        assert "unsupported" not in result["message"], result
        if result["status"] == "skip":
            assert result["needs_vocabulary"] == 2, result
            assert result["message"].startswith("needs "), result
            assert result["message"].endswith(NEEDS_TAIL), result
            needs.add(result["id"])
        elif result["status"] == "fail":
            assert result["id"] in GENUINE, (
                f"{result['id']} fails at vocabulary 1 and is no known rule difference of "
                f"the {COMMIT} engine: a vocabulary or meaning change vocabulary-versions.json "
                f"does not record? {result['message']}")
            failed.add(result["id"])
        else:
            assert result["status"] == "pass", result
    assert failed == set(GENUINE), "a listed rule difference no longer fails"
    assert needs == {r["id"] for r in latest["results"] if r["needs_vocabulary"] > 1}
    assert len(needs) == 13   # with qa-363/instant-death-is-not-by-battle


@pytest.mark.slow
def test_declaring_nothing_those_items_run(runs: tuple[ReportDict, ReportDict]) -> None:
    """Declaring nothing (the latest), no item is skipped for vocabulary: the old engine
    refuses the new words itself, and fails only where a rule or a recorded meaning
    differs; every other item has the verdict it has at version 1."""
    old, latest = runs
    assert latest["vocabulary"]["speaks"] == {"vision": 2}
    before = {r["id"]: r for r in old["results"]}
    meanings = {item for m in vocabulary.history("vision").meanings for item in m.items}
    for result in latest["results"]:
        assert not result["message"].startswith("needs "), result
        if result["needs_vocabulary"] == 1:
            assert result["status"] == before[result["id"]]["status"], result
        elif result["id"] not in meanings:   # a version-2 word: the old engine's own check
            assert result["status"] == "skip", result
            assert result["message"].startswith("unsupported: "), result
        if result["status"] == "fail":
            assert result["id"] in GENUINE or result["id"] in meanings, result
    assert latest["verdict"]["status"] == old["verdict"]["status"] == "fail"


@pytest.mark.slow
def test_each_fixing_commit_is_in_the_history() -> None:
    if not _has_commit(COMMIT):
        pytest.skip(f"needs the git history with commit {COMMIT}")
    for item, (_, commit) in GENUINE.items():
        assert _has_commit(commit), (item, commit)
        changed = subprocess.run(["git", "show", "--name-only", "--format=", commit], cwd=ROOT,
                                 capture_output=True, text=True, check=True).stdout
        assert "reference_engine/vision/" in changed, f"{commit} did not change the engine"


def test_the_differences_are_documented() -> None:
    doc = (ROOT / "docs" / "rulesets" / "vision.md").read_text("utf-8")
    section = doc.split("## Vocabulary versions", 1)[1].split("\n## ", 1)[0]
    assert COMMIT in section and "tests/engines/test_vocabulary_3a663b9.py" in section
    for item, (_, commit) in GENUINE.items():
        assert f"`{item}`" in section and commit in section, item
