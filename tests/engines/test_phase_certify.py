"""phase.rs's published certifications (reports/phase/ for the pinned release,
reports/phase/<version>/ for the others: scripts/publish.py) are what certifying each
release gives now, item for item.  A release runs where it is installed: the pinned one
in this interpreter (pip install '.[phase]'), any in the venv `tox -e publish` makes for
it (.venvs/phase-<version>); otherwise it is skipped, saying so."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("publish", ROOT / "scripts" / "publish.py")
assert _spec and _spec.loader
publish = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(publish)


def interpreter(version: str) -> str | None:
    """A Python with this checkout and phase-python ``version``, or None."""
    try:
        if importlib.metadata.version("phase-python") == version:
            return sys.executable
    except importlib.metadata.PackageNotFoundError:
        pass
    venv = ROOT / ".venvs" / f"phase-{version}" / "bin" / "python"
    return str(venv) if venv.exists() else None


def items(report: dict) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "duration"} for r in report["results"]]


@pytest.mark.slow
@pytest.mark.parametrize("version", publish.PHASE_RELEASES)
def test_each_published_release_is_what_certifying_it_gives_now(version, tmp_path):
    python = interpreter(version)
    if python is None:
        pytest.skip(f"phase-python {version} is not installed here nor in "
                    f".venvs/phase-{version} (tox -e publish makes that venv)")
    subprocess.run([python, "-m", "conformance", "certify", "--engine", "phase", "--ruleset",
                    "mtg", "--out", str(tmp_path), "--allow-no-verdict", "-q"],
                   cwd=ROOT, check=False, capture_output=True)
    fresh = json.loads((tmp_path / "report.json").read_text("utf-8"))
    published = json.loads((ROOT / publish.phase_out(version) / "report.json").read_text("utf-8"))
    assert fresh["engine"]["version"] == published["engine"]["version"] == version
    assert items(fresh) == items(published)
    assert fresh["rules"] == published["rules"]
    assert fresh["verdict"] == published["verdict"]
