"""The CI recipe in docs/ci/conformance.yml runs as written, so the documented workflow cannot rot.

The test reads the workflow file and runs its shell steps in order, the way
GitHub Actions would (bash -eo pipefail, the workflow's env, the matrix
substituted, one shared folder standing in for the artifacts), against fake
engines on the toy catalogue.  Steps that only install the suite are skipped:
it is installed already.  ``uses:`` steps (checkout, artifacts) are the
platform's, not ours.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import toy
import yaml

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SUPPORT = ROOT / "tests" / "support"   # toy.py, for python:toy:...
WORKFLOW = ROOT / "docs" / "ci" / "conformance.yml"
SKIPPED_STEPS = {"Install the suite"}


def steps(job: dict) -> list[dict]:
    return [s for s in job["steps"] if "run" in s and s.get("name") not in SKIPPED_STEPS]


def run_step(step: dict, env: dict[str, str], cwd: Path, matrix: dict) -> int:
    script = step["run"]
    for key, value in matrix.items():
        script = script.replace(f"${{{{ matrix.{key} }}}}", str(value))
    assert "${{" not in script, f"unhandled expression in step {step.get('name')!r}"
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    print(f"$ {step.get('name')}\n{done.stdout}{done.stderr}")
    return done.returncode


def run_workflow(tmp_path: Path, engine: str) -> tuple[dict[str, int], str]:
    """Run the certify matrix, then the gate; return each step's exit code and the summary."""
    workflow = yaml.safe_load(WORKFLOW.read_text("utf-8"))
    repo = tmp_path / "engine-repo"
    summary = tmp_path / "summary.md"
    summary.write_text("", "utf-8")
    env = {**os.environ, **workflow["env"], "ENGINE": engine, "CI": "true",
           "GITHUB_STEP_SUMMARY": str(summary),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "PYTHONPATH": str(SUPPORT)}
    codes: dict[str, int] = {}
    certify = workflow["jobs"]["certify"]
    for shard in certify["strategy"]["matrix"]["shard"]:
        for step in steps(certify):
            codes[f"{step['name']} {shard}"] = run_step(step, env, repo, {"shard": shard})
            if codes[f"{step['name']} {shard}"]:
                return codes, summary.read_text("utf-8")
    gate = workflow["jobs"]["gate"]
    assert gate["needs"] == "certify"
    for step in steps(gate):
        codes[step["name"]] = run_step(step, env, repo, {})
        if codes[step["name"]]:
            break
    return codes, summary.read_text("utf-8")


@pytest.fixture
def repo_with_baseline(tmp_path):
    """An engine's repository: the toy catalogue, and the last release's report committed."""
    repo = tmp_path / "engine-repo"
    cases = toy.write_catalogue(repo / "cases", extra={
        f"add-{k}.yaml": toy.CASE_ADD.replace("two-plus-three", f"plus-{k}")
        for k in range(6)})
    assert cases.is_dir()
    workflow = yaml.safe_load(WORKFLOW.read_text("utf-8"))
    baseline = repo / Path(workflow["env"]["BASELINE"]).parent
    done = subprocess.run([sys.executable, "-m", "conformance", "certify", "--engine",
                           "python:toy:ToyEngine", "--out", str(baseline), "-q"],
                          cwd=repo, env={**os.environ, "PYTHONPATH": str(SUPPORT)},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    for name in list(baseline.iterdir()):
        if name.name != "report.json":
            shutil.rmtree(name) if name.is_dir() else name.unlink()
    return tmp_path


def test_same_engine_as_the_release_passes(repo_with_baseline):
    codes, summary = run_workflow(repo_with_baseline, "python:toy:ToyEngine")
    assert set(codes.values()) == {0}, codes
    assert "No regressions" in summary
    merged = repo_with_baseline / "engine-repo" / "certification"
    assert (merged / "report.html").is_file() and (merged / "diff.md").is_file()


def test_a_regression_fails_the_gate_and_is_in_the_summary(repo_with_baseline):
    codes, summary = run_workflow(repo_with_baseline, "python:toy:WrongEngine")
    shard_steps = [v for k, v in codes.items() if k.startswith("Certify one shard")]
    assert shard_steps and set(shard_steps) == {0}, "failures alone do not stop a shard"
    assert codes["Compare with the last release"] == 1, codes
    assert re.search(r"\*\*\d+ regression\(s\)\*\*", summary)


def test_an_engine_that_cannot_start_stops_at_its_shard(repo_with_baseline):
    codes, _ = run_workflow(repo_with_baseline, "cmd:false")
    # certify exits 2 (engine errors), which the step does not excuse: the job stops there
    assert list(codes) == ["Certify one shard 1"] and codes["Certify one shard 1"] != 0


def install_steps(workflow: dict) -> list[dict]:
    return [s for job in workflow["jobs"].values() for s in job["steps"]
            if s.get("name") in SKIPPED_STEPS]


def test_the_install_step_installs_the_suite_as_written(tmp_path):
    """The suite is not on the package index: the recipe installs it from ``$SUITE``, a
    git URL or a checked-out path.  Its install line runs as written in a fresh
    environment, with ``$SUITE`` a git URL of this checkout (its last commit)."""
    workflow = yaml.safe_load(WORKFLOW.read_text("utf-8"))
    steps_ = install_steps(workflow)
    assert len(steps_) == 2 and len({s["run"] for s in steps_}) == 1, steps_
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
