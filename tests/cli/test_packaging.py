"""The catalogue ships in the wheel; a checkout and --cases keep working."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conformance._catalogue import default_root, load_catalogue

ROOT = Path(__file__).resolve().parents[2]


def test_a_checkout_uses_its_own_cases_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert default_root() == ROOT / "cases"
    (tmp_path / "cases").mkdir()
    monkeypatch.chdir(tmp_path)
    assert default_root() == tmp_path / "cases"


def test_from_any_other_folder_the_catalogue_beside_the_package_is_used(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    catalogue = load_catalogue()
    assert not catalogue.errors and catalogue.cases
    assert catalogue.digest == load_catalogue(ROOT / "cases").digest


@pytest.mark.slow
def test_the_wheel_carries_the_catalogue_schemas_and_vocabularies(tmp_path):
    # Built as CI and users build it: in an isolated environment (needs PyPI).
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT),
                    "-w", str(tmp_path)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("card_conformance-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    catalogue = {f"conformance/_cases/{p.relative_to(ROOT / 'cases').as_posix()}"
                 for p in (ROOT / "cases").rglob("*.y*ml")}
    assert catalogue and catalogue <= names
    data = {p.relative_to(ROOT).as_posix() for p in (ROOT / "conformance").rglob("*.json")}
    assert data <= names
    assert "reference_engine/serve.py" in names
    # the skeletons `conformance init` writes and the README points at
    assert {"conformance/templates/skeleton-engine.js",
            "conformance/templates/skeleton_adapter.py"} <= names
