"""`conformance init`: a skeleton that certifies from an empty folder, honestly."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance._cli import main

pytestmark = pytest.mark.slow   # real certifications, in child processes

BIN = Path(sys.executable).parent


def certify_from(folder: Path, spec: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """``conformance certify`` run from the skeleton's folder, as its author would."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([str(BIN / "conformance"), "certify", "--engine", spec, "-q",
                           "--no-properties", "--out", "out", *extra], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(("lang", "spec"), [
    ("python", "python:engine_adapter:create"),
    pytest.param("node", "cmd:node engine.js", marks=pytest.mark.skipif(
        shutil.which("node") is None, reason="node is not installed")),
])
def test_the_skeleton_certifies_at_once_with_nothing_supported_yet(tmp_path, capsys, lang, spec):
    folder = tmp_path / "my-engine"
    assert main(["init", "--lang", lang, "--ruleset", "vision", str(folder)]) == 0
    printed = capsys.readouterr().out
    assert spec in printed and "conformance doctor" in printed
    assert (folder / "CONFORMANCE.md").read_text("utf-8").count(spec) >= 2

    done = certify_from(folder, spec)
    # honest: every item skipped with the skeleton's reason, "no verdict" (5), never a pass
    assert done.returncode == 5, done.stdout + done.stderr
    report = json.loads((folder / "out" / "report.json").read_text("utf-8"))
    assert report["verdict"]["status"] == "no verdict"
    assert report["engine"]["rulesets"] == ["vision"]
    assert report["summary"]["skip"] == report["summary"]["total"] > 0
    vision = [r for r in report["results"] if r["ruleset"] == "vision"]
    assert vision and all("not mapped yet" in r["message"] for r in vision)
    assert "setups of vision are not mapped yet" in done.stdout
    # and the command the next steps give exits 0 while the author starts out
    assert certify_from(folder, spec, "--allow-no-verdict").returncode == 0


def test_init_keeps_existing_files_and_names_unknown_rulesets(tmp_path, capsys):
    folder = tmp_path / "e"
    assert main(["init", str(folder)]) == 0
    claimed = (folder / "engine_adapter.py").read_text("utf-8")
    assert 'RULESETS = ["mtg", "vision", "zatch"]' in claimed, "default: every installed one"
    assert main(["init", str(folder)]) == 4
    assert "already exist" in capsys.readouterr().err
    assert main(["init", "--force", "--ruleset", "zatch", str(folder)]) == 0
    assert 'RULESETS = ["zatch"]' in (folder / "engine_adapter.py").read_text("utf-8")
    assert main(["init", "--ruleset", "vison", str(tmp_path / "other")]) == 4
    assert "did you mean 'vision'?" in capsys.readouterr().err
    assert not (tmp_path / "other").exists()


@pytest.mark.parametrize(("lang", "name"), [("python", "engine_adapter.py"),
                                            ("node", "engine.js")])
def test_the_skeleton_declares_the_vocabulary_versions_of_what_it_claims(tmp_path, lang, name):
    """Issue 42 item 5: the skeleton speaks the current vocabulary of each ruleset chosen
    (docs/protocol.md), not "taken to speak the latest" by omission; before, it
    declared none."""
    from conformance import vocabulary

    folder = tmp_path / lang
    assert main(["init", "--lang", lang, "--ruleset", "mtg", "--ruleset", "zatch",
                 str(folder)]) == 0
    text = (folder / name).read_text("utf-8")
    speaks = json.dumps({r: vocabulary.history(r).latest for r in ("mtg", "zatch")})
    assert 'RULESETS = ["mtg", "zatch"]' in text
    assert f"VOCABULARY = {speaks}" in text, text
    if lang == "python":
        namespace: dict = {}
        exec(compile(text, name, "exec"), namespace)
        hello = namespace["create"]().hello()
        assert hello["rulesets"] == ["mtg", "zatch"]
        assert hello["vocabulary"] == json.loads(speaks)
