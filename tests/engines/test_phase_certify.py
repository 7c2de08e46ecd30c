"""phase.rs's published certification (reports/phase) is what certifying it gives now,
item for item.  Runs only where the extra is installed (pip install '.[phase]')."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("phase")

ROOT = Path(__file__).resolve().parents[2]


def statuses(report: Path) -> dict[str, str]:
    data = json.loads(report.read_text("utf-8"))
    return {item["id"]: item["status"] for item in data["results"]}


@pytest.mark.slow
def test_phase_certification_matches_the_published_report(tmp_path):
    subprocess.run([sys.executable, "-m", "conformance", "certify", "--engine",
                    "python:conformance.engines.phase:create", "--ruleset", "mtg",
                    "--out", str(tmp_path), "--allow-no-verdict", "-q"],
                   cwd=ROOT, check=False, capture_output=True)
    assert statuses(tmp_path / "report.json") == statuses(ROOT / "reports/phase/report.json")
