"""A ruleset in a distribution of its own: found through entry points, nothing in the core.

tests/toy_pack/ is that distribution (the toy ruleset of tests/support/toy.py as a
pack: properties, vocabulary, a reference-engine pack with two mutants, and a
``*.dist-info`` with its entry points).  Each test copies it into a folder,
writes the toy catalogue into the pack's ``cases/`` and puts the folder on the
PYTHONPATH of ``python -m conformance``: installed as far as
``importlib.metadata`` can tell, with no pip and no network.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import toy
from commands import conformance_child

from conformance._errors import ExitCode

ROOT = Path(__file__).resolve().parents[2]
PACK = Path(__file__).resolve().parents[1] / "toy_pack"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """The toy distribution, installed in a folder of its own."""
    site = tmp_path / "site"
    shutil.copytree(PACK, site, ignore=shutil.ignore_patterns("__pycache__"))
    toy.write_ruleset(site / "toy_rules" / "cases")
    return site


def conformance(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site), "CONFORMANCE_CACHE": ""}
    return conformance_child(*args, cwd=cwd, env=env)


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A working folder with no ./cases: the catalogue comes from the packs."""
    folder = tmp_path / "work"
    folder.mkdir()
    return folder


@pytest.mark.slow
def test_an_installed_pack_certifies_the_reference_engine_green(site, elsewhere):
    run = conformance(site, "certify", "--engine", "reference", "--ruleset", "toy",
                      "--out", "r", "-q", cwd=elsewhere)
    assert run.returncode == ExitCode.OK, run.stdout + run.stderr
    assert f"catalogue: toy: {site / 'toy_rules' / 'cases'} sha256:" in run.stdout
    report = json.loads((elsewhere / "r" / "report.json").read_text("utf-8"))
    status = {r["id"]: r["status"] for r in report["results"]}
    assert status == {"toy/add/two-plus-three": "pass", "toy/negative/rejected": "pass",
                      "toy/prop/adds-add": "pass"}
    assert report["suite"]["catalogue_digest"].startswith("sha256:")


@pytest.mark.slow
def test_its_mutants_are_listed_and_killed(site, elsewhere):
    listed = conformance(site, "mutants", "--ruleset", "toy", cwd=elsewhere)
    assert listed.returncode == 0, listed.stderr
    assert "toy-adds-one-more" in listed.stdout and "toy/R-2" in listed.stdout
    run = conformance(site, "certify", "--engine", "reference", "--ruleset", "toy",
                      "--mutation", "--all-kills", "--out", "r", "-q", cwd=elsewhere)
    assert run.returncode == ExitCode.OK, run.stdout + run.stderr
    mutation = json.loads((elsewhere / "r" / "report.json").read_text("utf-8"))["mutation"]
    killed = {m["name"]: m["killed_by"] for m in mutation["mutants"]}
    assert set(killed) == {"toy-adds-one-more", "toy-accepts-negatives"}
    assert "toy/add/two-plus-three" in killed["toy-adds-one-more"]
    assert "toy/prop/adds-add" in killed["toy-adds-one-more"]
    assert killed["toy-accepts-negatives"] == ["toy/negative/rejected"]
    assert mutation["score"] == 1.0


def test_validate_and_rules_see_it_beside_the_bundled_rulesets(site, elsewhere):
    run = conformance(site, "validate", cwd=elsewhere)
    assert run.returncode == 0, run.stderr
    assert "rule toy/R-3 is covered by no case" in run.stdout
    rules = conformance(site, "rules", "--ruleset", "toy", cwd=elsewhere)
    assert rules.returncode == 0, rules.stderr
    assert "toy/R-1" in rules.stdout and "toy/R-3" in rules.stdout
    # the property and the mutants are counted against their rules
    row = next(line for line in rules.stdout.splitlines() if "toy/R-1" in line)
    assert re.search(r"\b1\s+1\s+1\b", row), row


def test_no_file_of_the_core_names_it():
    core = [*(ROOT / "conformance").rglob("*.py"), *(ROOT / "conformance").rglob("*.json"),
            *(ROOT / "reference_engine").rglob("*.py"), ROOT / "pyproject.toml",
            ROOT / "setup.py"]
    naming = [str(p) for p in core if re.search(r"\btoy", p.read_text("utf-8"), re.I)]
    assert not naming


def _broken(site: Path, result: subprocess.CompletedProcess[str], missing: str) -> None:
    assert result.returncode == ExitCode.USAGE, result.stdout + result.stderr
    message = result.stderr
    assert "Traceback" not in message
    assert "ruleset pack 'toy'" in message and "'toy = toy_rules'" in message
    assert "card-conformance-toy" in message and "card_conformance.rulesets" in message
    assert missing in message and "fix:" in message and "docs/rulesets/README.md" in message


def test_a_pack_without_properties_is_a_clear_usage_error(site, elsewhere):
    init = site / "toy_rules" / "__init__.py"
    init.write_text(init.read_text("utf-8").replace("PROPERTIES = [adds_add]", ""), "utf-8")
    run = conformance(site, "certify", "--engine", "reference", "--ruleset", "toy",
                      cwd=elsewhere)
    _broken(site, run, "declares no PROPERTIES")


def test_a_pack_without_a_vocabulary_is_a_clear_usage_error(site, elsewhere):
    (site / "toy_rules" / "vocabulary.json").unlink()
    run = conformance(site, "validate", "--ruleset", "toy", cwd=elsewhere)
    _broken(site, run, "has no vocabulary.json")


def test_an_unknown_ruleset_lists_the_installed_ones(site, elsewhere):
    run = conformance(site, "validate", "--ruleset", "nope", cwd=elsewhere)
    assert run.returncode == ExitCode.USAGE   # before anything is loaded
    assert "no ruleset 'nope' is installed" in run.stderr
    assert "installed rulesets: mtg, toy, vision, zatch" in run.stderr


def test_a_reference_engine_pack_without_new_game_is_a_clear_usage_error(site, elsewhere):
    init = site / "toy_reference" / "__init__.py"
    init.write_text(init.read_text("utf-8").replace("def new_game(", "def start_game("), "utf-8")
    run = conformance(site, "mutants", cwd=elsewhere)
    assert run.returncode == ExitCode.USAGE, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert "reference-engine pack 'toy'" in run.stderr and "lacks new_game" in run.stderr
    assert "card_conformance.reference_engines" in run.stderr and "fix:" in run.stderr


#: Pack code that breaks at import or in what it declares, and what the message says.
HOSTILE_PACKS = {
    "sys.exit(0)": ("import sys\nsys.exit(0)", "called sys.exit(0)"),
    "SystemExit('bye')": ("raise SystemExit('bye')", "called sys.exit('bye')"),
    "GeneratorExit": ("raise GeneratorExit", "raised GeneratorExit"),
    "ValueError with a forged line": ("raise ValueError('no\\n::error::forged\\x1b[2K')",
                                      "raised ValueError: no\\n::error::forged\\x1b[2K"),
    "CASES = 42": ("CASES = 42", "sets CASES to a int, not a folder path"),
    "CASES = a list": ("CASES = ['cases']", "sets CASES to a list, not a folder path"),
    "PROPERTIES = 3": ("PROPERTIES = 3", "sets PROPERTIES to a int, not a list"),
    "PROPERTIES = [1]": ("PROPERTIES = [adds_add, 1]", "has PROPERTIES[1], a int, not a property"),
    "PROPERTIES raises": ("def __getattr__(name):\n    if name == 'PROPERTIES':\n"
                          "        raise SystemExit(0)\n    raise AttributeError(name)\n"
                          "del PROPERTIES",
                          "cannot be read (PROPERTIES): it called sys.exit(0)"),
}


def _hostile(site: Path, code: str) -> None:
    init = site / "toy_rules" / "__init__.py"
    init.write_text(init.read_text("utf-8") + "\n" + code + "\n", "utf-8")


def _refused(run: subprocess.CompletedProcess[str], says: str) -> None:
    """Exit 4, the pack and entry point named, the pack's words escaped: never a green run."""
    assert run.returncode == ExitCode.USAGE, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert "ruleset pack 'toy'" in run.stderr and "'toy = toy_rules'" in run.stderr
    assert "card_conformance.rulesets" in run.stderr and "fix:" in run.stderr
    assert says in run.stderr, run.stderr
    lines = (run.stdout + run.stderr).splitlines()
    assert not [line for line in lines if line.lstrip().startswith("::")]
    assert "\x1b" not in run.stdout + run.stderr


@pytest.mark.parametrize("hostile", list(HOSTILE_PACKS))
def test_a_pack_that_exits_raises_or_declares_garbage_is_exit_4(site, elsewhere, hostile):
    code, says = HOSTILE_PACKS[hostile]
    _hostile(site, code)
    run = conformance(site, "certify", "--engine", "reference", "--ruleset", "toy",
                      cwd=elsewhere)
    _refused(run, says)


@pytest.mark.parametrize("command", [["validate"], ["rules"], ["certify", "--list"],
                                     ["run", "--engine", "reference", "--select", "toy/*"]])
def test_a_pack_calling_sys_exit_0_never_makes_a_command_exit_0(site, elsewhere, command):
    _hostile(site, "import sys\nsys.exit(0)")
    _refused(conformance(site, *command, cwd=elsewhere), "called sys.exit(0)")


def test_a_pack_whose_package_exits_while_it_is_found_is_exit_4(site, elsewhere):
    """The entry point names a module inside a package: finding it runs the package."""
    _hostile(site, "import sys\nsys.exit(0)")
    (site / "toy_rules" / "inner.py").write_text("", "utf-8")
    points = site / "card_conformance_toy-0.1.dist-info" / "entry_points.txt"
    points.write_text(points.read_text("utf-8").replace("toy = toy_rules\n",
                                                        "toy = toy_rules.inner\n"), "utf-8")
    run = conformance(site, "validate", cwd=elsewhere)
    assert run.returncode == ExitCode.USAGE, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert "'toy = toy_rules.inner'" in run.stderr and "called sys.exit(0)" in run.stderr


def test_a_reference_engine_pack_that_exits_at_import_is_exit_4(site, elsewhere):
    init = site / "toy_reference" / "__init__.py"
    init.write_text(init.read_text("utf-8") + "\nimport sys\nsys.exit(0)\n", "utf-8")
    run = conformance(site, "mutants", cwd=elsewhere)
    assert run.returncode == ExitCode.USAGE, run.stdout + run.stderr
    assert "reference-engine pack 'toy'" in run.stderr and "called sys.exit(0)" in run.stderr


def test_the_pytest_plugin_refuses_a_pack_that_exits_at_import(site, elsewhere):
    _hostile(site, "import sys\nsys.exit(0)")
    env = {**os.environ, "PYTHONPATH": str(site), "CONFORMANCE_CACHE": ""}
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                          "--engine", "reference", "--conformance-ruleset", "toy"],
                         capture_output=True, text=True, env=env, cwd=elsewhere, timeout=300)
    assert run.returncode == pytest.ExitCode.USAGE_ERROR, run.stdout + run.stderr
    assert "ruleset pack 'toy'" in run.stderr and "called sys.exit(0)" in run.stderr
