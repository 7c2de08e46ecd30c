"""The catalogue ships in the wheel; a checkout and --cases keep working."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conformance._catalogue import load_catalogue

ROOT = Path(__file__).resolve().parents[2]


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


def test_the_metadata_a_package_index_shows():
    """A pytest plugin on the package index: its licence text, its addresses, and
    classifiers that say what it is and which Pythons it runs on (requires-python)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    licence = (ROOT / "LICENSE").read_text()
    assert project["license"] == {"text": "MIT"} and licence.startswith("MIT License")
    assert "Copyright (c) 2026 the card-conformance authors" in licence
    assert {"Homepage", "Source", "Issues", "Documentation"} <= set(project["urls"])
    classifiers = set(project["classifiers"])
    assert {"Framework :: Pytest", "Topic :: Software Development :: Testing",
            "License :: OSI Approved :: MIT License", "Typing :: Typed"} <= classifiers
    lowest = int(project["requires-python"].removeprefix(">=3."))
    versions = sorted(int(c.rsplit(".", 1)[1]) for c in classifiers
                      if c.startswith("Programming Language :: Python :: 3."))
    assert versions[0] == lowest and versions == list(range(lowest, versions[-1] + 1))
    assert (ROOT / "conformance" / "py.typed").is_file()


@pytest.mark.slow
def test_the_wheel_is_typed_and_carries_its_licence(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT),
                    "-w", str(tmp_path)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("card_conformance-*.whl")
    archive = zipfile.ZipFile(wheel)
    names = set(archive.namelist())
    assert "conformance/py.typed" in names   # PEP 561: mypy and pyright read the types
    assert any(n.endswith(".dist-info/LICENSE") or "/licenses/LICENSE" in n for n in names)
    (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    text = archive.read(metadata).decode()
    assert "Classifier: Framework :: Pytest" in text
    assert "Project-URL: Source, https://" in text
