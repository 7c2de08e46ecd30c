"""`conformance doctor`: a checklist in seconds, a fix line under each problem."""

from __future__ import annotations

import shlex
import sys

from commands import fake_engine

from conformance._cli import main


def fake(name: str) -> str:
    return fake_engine(f"{name}.py")


def doctor(capsys, spec: str) -> tuple[int, str]:
    code = main(["doctor", "--engine", spec, "--timeout", "5"])
    return code, capsys.readouterr().out


def test_a_well_wired_engine_passes_every_check_in_seconds(capsys):
    # "in seconds" is doctor's own --timeout (5 s, see doctor()): a check that takes
    # longer is a timeout, a problem, and a non-zero exit
    code, out = doctor(capsys, "cmd:" + shlex.join([sys.executable, "-m",
                                                    "reference_engine.serve"]))
    assert code == 0, out
    for ruleset in ("mtg", "vision", "zatch"):
        for step in ("start", "act", "observe"):
            assert f"✓ {ruleset}: {step}" in out, out
    assert "✓ stdout carries only protocol replies" in out
    assert "✗" not in out and "no problems" in out


def test_a_banner_on_stdout_is_flagged_with_a_fix(capsys):
    code, out = doctor(capsys, fake("banner"))
    assert code == 1, out
    assert "✗ stdout carries a line that is not a protocol reply" in out
    fix = next(line for line in out.splitlines() if line.strip().startswith("fix:"))
    assert "MyEngine 2.1" in fix and "stderr" in fix


def test_a_wrong_protocol_is_flagged_with_a_fix(capsys):
    code, out = doctor(capsys, fake("wrong_protocol"))
    assert code == 1, out
    assert "✗ the engine speaks another protocol version" in out
    assert 'answer with "protocol": 1' in out


def test_an_unknown_ruleset_a_skip_and_a_crash(capsys):
    code, out = doctor(capsys, fake("claims_ruleset"))   # claims echo (unknown) and mtg
    assert code == 1
    assert "✗ claims ruleset 'echo', which is not installed" in out
    assert "– mtg: start" in out and "skipped (mtg is not implemented yet)" in out, out
    code, out = doctor(capsys, fake("crash"))
    assert code == 1 and "vision: act" in out and "EngineCrashed" in out
    assert "engine bug: the deck is empty" in out, "the engine's stderr is shown"
    assert "vision: observe" not in out, "a fault is not repeated by the next call"


def test_the_skeleton_has_no_problems_and_the_vocabulary_is_shown(capsys, tmp_path,
                                                                   monkeypatch):
    assert main(["init", "--ruleset", "vision", str(tmp_path)]) == 0
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    capsys.readouterr()
    code, out = doctor(capsys, "python:engine_adapter:create")
    assert code == 0, out
    assert "– vision: start" in out and "not mapped yet" in out
    # an optional "vocabulary" in the hello (issue 26) is printed as declared
    from conformance import _doctor

    checks = _doctor.Doctor("x")
    _doctor._check_hello(checks, {"name": "e", "version": "1", "rulesets": ["vision"],
                                  "vocabulary": {"vision": 1}})
    assert any(c.what == 'declared vocabulary: {"vision": 1}' for c in checks.checks)


def test_a_bad_spec_is_a_usage_error(capsys):
    assert main(["doctor", "--engine", "nosuch:x"]) == 4
    assert "unknown kind" in capsys.readouterr().err


def test_a_mistyped_mutant_suggests_the_name(capsys):
    assert main(["doctor", "--engine", "reference:no-auto-shufle"]) == 4
    assert "did you mean 'no-auto-shuffle'" in capsys.readouterr().err


def test_a_reply_json_cannot_carry_faithfully_is_a_problem_naming_what(capsys):
    for kind, says in [("huge-number", "the number 1e999, which is out of range"),
                       ("nan", "NaN, which JSON does not have"),
                       ("deep", "nested deeper than 100 levels"),
                       ("float-seq", "not an integer"),
                       ("duplicate-key", "the key 'accepted' twice"),
                       ("bom", "byte order mark")]:
        code, out = doctor(capsys, fake_engine("bad_json.py", "--kind", kind))
        assert code == 1, out
        assert "✗ vision: act" in out and "ProtocolViolation" in out, out
        assert says in out, out
        # it is not mistaken for a banner or a log line on stdout
        assert "not a protocol reply" not in out, out
        assert "✓ stdout carries only protocol replies" in out, out


def test_an_unasked_for_mutant_in_the_hello_is_a_problem(capsys):
    code, out = doctor(capsys, fake("claims_mutant"))
    assert code == 1, out
    assert "✗ the hello says capabilities.mutant = 'tail-first'" in out, out


def test_a_hello_without_a_vocabulary_is_warned_about(capsys):
    """Optional, but an engine that declares none is taken to speak the latest
    version: doctor says so (a warning, not a problem) and how to declare it."""
    from conformance import _doctor

    checks = _doctor.Doctor("x")
    _doctor._check_hello(checks, {"name": "e", "version": "1", "rulesets": ["mtg"]})
    (warning,) = [c for c in checks.checks if c.mark == _doctor.WARN]
    assert warning.what == ("the hello declares no vocabulary version: taken to speak the "
                            "latest (mtg vocabulary 3 (4 December 2026))")
    assert '"vocabulary": {"mtg": 3}' in warning.fix
    assert checks.problems == 0
    code, out = doctor(capsys, "python:fakes.vision_v1:create_latest")
    assert code == 0 and "  ! the hello declares no vocabulary version" in out, out
