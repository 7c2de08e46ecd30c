"""The CI recipes in docs/ci/ run as written, so the documented workflows cannot rot.

The tests read each workflow file and run its shell steps in order, the way
GitHub Actions would (bash -eo pipefail, the workflow's env, GITHUB_ACTIONS and
a job summary file, each matrix entry substituted, one shared folder standing
in for the artifacts), against fake engines on the toy catalogue.  Steps that
only install the suite are skipped: it is installed already (the last test runs
that line).  ``uses:`` steps (checkout, artifacts) are the platform's, not ours.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import toy
import yaml

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SUPPORT = ROOT / "tests" / "support"   # toy.py, for python:toy:...
PACK = ROOT / "tests" / "toy_pack"      # the toy ruleset as a distribution of its own
WORKFLOW = ROOT / "docs" / "ci" / "conformance.yml"
SHARDED = ROOT / "docs" / "ci" / "conformance-sharded.yml"
RECIPES = pytest.mark.parametrize("recipe", [WORKFLOW, SHARDED], ids=["one-job", "sharded"])
SKIPPED_STEPS = {"Install the suite"}


def steps(job: dict) -> list[dict]:
    return [s for s in job["steps"] if "run" in s and s.get("name") not in SKIPPED_STEPS]


def run_step(step: dict, env: dict[str, str], cwd: Path, matrix: dict) -> tuple[int, str]:
    script = step["run"]
    for key, value in matrix.items():
        script = script.replace(f"${{{{ matrix.{key} }}}}", str(value))
    assert "${{" not in script, f"unhandled expression in step {step.get('name')!r}"
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    print(f"$ {step.get('name')}\n{done.stdout}{done.stderr}")
    return done.returncode, done.stdout


@dataclass
class Run:
    codes: dict[str, int] = field(default_factory=dict)   # step name (and matrix) -> exit
    summary: str = ""                                     # $GITHUB_STEP_SUMMARY
    log: str = ""                                         # every step's stdout


def run_workflow(tmp_path: Path, engine: str, recipe: Path = WORKFLOW) -> Run:
    """Run each job (every matrix entry) after the jobs it needs, as GitHub Actions would;
    stop at the first step that fails."""
    workflow = yaml.safe_load(recipe.read_text("utf-8"))
    repo = tmp_path / "engine-repo"
    summary = tmp_path / "summary.md"
    summary.write_text("", "utf-8")
    env = {**os.environ, **workflow["env"], "ENGINE": engine, "CI": "true",
           "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": str(repo),
           "GITHUB_STEP_SUMMARY": str(summary),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "PYTHONPATH": pythonpath(repo)}
    env.pop("GITHUB_RUN_ID", None)
    run = Run()
    done: set[str] = set()
    for name, job in workflow["jobs"].items():
        needs = job.get("needs", [])
        assert set([needs] if isinstance(needs, str) else needs) <= done, "jobs in order"
        matrix = job.get("strategy", {}).get("matrix", {})
        for values in itertools.product(*matrix.values()):
            entry = dict(zip(matrix, values, strict=True))
            for step in steps(job):
                key = " ".join([step["name"], *map(str, values)])
                run.codes[key], out = run_step(step, env, repo, entry)
                run.log += out
                if run.codes[key]:
                    run.summary = summary.read_text("utf-8")
                    return run
        done.add(name)
    run.summary = summary.read_text("utf-8")
    return run


def engine_repo(tmp_path: Path) -> Path:
    """An engine's repository, with the toy ruleset installed as a pack (tests/toy_pack,
    importable from ``site/`` on the PYTHONPATH, as rulesets/test_entry_point_packs.py
    installs it) inside it, so its case files are files of the repository."""
    repo = tmp_path / "engine-repo"
    shutil.copytree(PACK, repo / "site", ignore=shutil.ignore_patterns("__pycache__"))
    toy.write_ruleset(repo / "site" / "toy_rules" / "cases", extra={
        f"add-{k}.yaml": toy.CASE_ADD.replace("two-plus-three", f"plus-{k}")
        for k in range(6)})
    return repo


def pythonpath(repo: Path) -> str:
    """The installed toy pack and toy.py (python:toy:...)."""
    return os.pathsep.join([str(repo / "site"), str(SUPPORT)])


@pytest.fixture
def repo_with_baseline(tmp_path):
    """An engine's repository with the last release's report committed."""
    repo = engine_repo(tmp_path)
    workflow = yaml.safe_load(WORKFLOW.read_text("utf-8"))
    baseline = repo / Path(workflow["env"]["BASELINE"]).parent
    done = subprocess.run([sys.executable, "-m", "conformance", "certify", "--engine",
                           "python:toy:ToyEngine", "--out", str(baseline), "-q"],
                          cwd=repo, env={**os.environ, "PYTHONPATH": pythonpath(repo)},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    for name in list(baseline.iterdir()):
        if name.name != "report.json":
            shutil.rmtree(name) if name.is_dir() else name.unlink()
    return tmp_path


def test_the_recipe_is_short():
    """What a user copies: one job, the logic in `conformance gate` (tested), not in YAML."""
    lines = [line for line in WORKFLOW.read_text("utf-8").splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    assert len(lines) <= 25, len(lines)
    workflow = yaml.safe_load(WORKFLOW.read_text("utf-8"))
    runs = [s["run"] for job in workflow["jobs"].values() for s in steps(job)]
    assert all("\n" not in r.strip() for r in runs), "one command a step"


@RECIPES
def test_same_engine_as_the_release_passes(repo_with_baseline, recipe):
    run = run_workflow(repo_with_baseline, "python:toy:ToyEngine", recipe)
    assert set(run.codes.values()) == {0}, run.codes
    assert "No regressions" in run.summary and "**Verdict:** partial" in run.summary
    merged = repo_with_baseline / "engine-repo" / "certification"
    assert (merged / "report.html").is_file() and (merged / "summary.md").is_file()


@RECIPES
def test_a_regression_fails_the_gate_and_is_in_the_summary(repo_with_baseline, recipe):
    run = run_workflow(repo_with_baseline, "python:toy:WrongEngine", recipe)
    certify = [v for k, v in run.codes.items() if k.startswith("Certify")]
    assert certify and set(certify) == {0}, "failures alone do not stop a certify step"
    assert run.codes["Gate"] == 1, run.codes
    assert re.search(r"\*\*\d+ regression\(s\)\*\*", run.summary)
    assert "| `toy/add/two-plus-three` | toy/R-1 | fail |" in run.summary, run.summary


@RECIPES
def test_each_failing_item_is_annotated_once_at_a_file_of_the_repository(
        repo_with_baseline, recipe):
    run = run_workflow(repo_with_baseline, "python:toy:WrongEngine", recipe)
    annotations = [line for line in run.log.splitlines() if line.startswith("::error ")]
    titles = [line.split("title=", 1)[1].split("%3A", 1)[0] for line in annotations]
    assert titles and sorted(titles) == sorted(set(titles)), annotations
    assert "toy/add/two-plus-three" in titles
    for line in annotations:   # a case at its file in the repository; a property at none
        where = "file=site/toy_rules/cases/" if "/prop/" not in line else "::error title="
        assert where in line and str(repo_with_baseline) not in line, line


@RECIPES
def test_the_first_push_passes_and_says_how_to_commit_the_baseline(tmp_path, recipe):
    """No baseline committed yet: nothing to regress against, the workflow passes, and
    the summary has the verdict, the failures and the commands that commit the
    baseline; run as printed, they make the next push a gated one."""
    repo = engine_repo(tmp_path)
    run = run_workflow(tmp_path, "python:toy:WrongEngine", recipe)
    assert set(run.codes.values()) == {0}, run.codes
    for part in ("**Verdict:** fail", "**Seed rules passed:**", "### Failures (8)",
                 "| `toy/add/two-plus-three` | toy/R-1 | fail |", "### No baseline yet"):
        assert part in run.summary, (part, run.summary)
    commands = run.summary.split("```sh\n", 1)[1].split("```", 1)[0]
    assert "cp certification/report.json conformance/baseline/report.json" in commands
    git = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a",
           "GIT_COMMITTER_EMAIL": "a@b"}
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    done = subprocess.run(["bash", "-eo", "pipefail", "-c", commands], cwd=repo,
                          env={**os.environ, **git}, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    # the next push is gated against it: the same engine passes, and so does a fixed one
    assert set(run_workflow(tmp_path, "python:toy:WrongEngine", recipe).codes.values()) == {0}
    run = run_workflow(tmp_path, "python:toy:ToyEngine", recipe)
    assert set(run.codes.values()) == {0} and "No regressions" in run.summary
    assert "8 fixed" in run.summary, run.summary


def test_an_engine_that_cannot_start_stops_at_its_certify_step(repo_with_baseline):
    run = run_workflow(repo_with_baseline, "cmd:false")
    # certify exits 2 (engine errors), which the step does not excuse: the job stops there
    assert list(run.codes) == ["Certify"] and run.codes["Certify"] != 0


def install_steps(workflow: dict) -> list[dict]:
    return [s for job in workflow["jobs"].values() for s in job["steps"]
            if s.get("name") in SKIPPED_STEPS]


def test_the_install_step_installs_the_suite_as_written(tmp_path):
    """The suite is not on the package index: both recipes install it from ``$SUITE``,
    a git URL or a checked-out path, the same way.  Its install line runs as written in a fresh
    environment, with ``$SUITE`` a git URL of this checkout (its last commit)."""
    workflow = yaml.safe_load(WORKFLOW.read_text("utf-8"))
    sharded = yaml.safe_load(SHARDED.read_text("utf-8"))
    assert install_steps(sharded)[0]["run"] == install_steps(workflow)[0]["run"]
    assert sharded["env"] == workflow["env"]
    steps_ = install_steps(workflow)
    assert steps_ and len({s["run"] for s in steps_}) == 1, steps_
    line = steps_[0]["run"].strip()
    assert "$SUITE" in line and "card-conformance" not in line.replace("$SUITE", "")
    assert workflow["env"]["SUITE"].startswith("git+https://"), "a git URL, pinned"
    root = ROOT
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git checkout: no git URL to install from")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = {**os.environ, "SUITE": f"git+file://{root}",
           "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    env.pop("PYTHONPATH", None)
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                           line], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    version = subprocess.run([str(venv / "bin" / "conformance"), "--version"], cwd=tmp_path,
                             env=env, capture_output=True, text=True, timeout=60)
    assert version.returncode == 0 and version.stdout.startswith("conformance "), version
