"""Engine text reaches the terminal and the CI log safely (conformance/_shown.py).

An engine controls its hello (name, version), its messages, skip reasons and
stderr.  None of it may start a line of its own: no GitHub Actions workflow
command (a line whose first non-blank characters are ``::``, or ``##[``
anywhere), no forged ``verdict: pass``, no carriage return or terminal escape.
tests/fakes/forger.py writes all of these everywhere it can.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from commands import FAKES, ROOT, fake_engine

from conformance._shown import escaped, shown

FORGER = fake_engine("forger.py")
#: Four vision cases: three skipped and one erroring on the forger (by the length of
#: their setups), so skip reasons, error messages and stderr are all printed.
SELECT = "vision/qa-269/*"


def child(*args: str, cwd, env: dict[str, str] | None = None) -> tuple[int, bytes]:
    """A command in a child process: its exit status and stdout+stderr as raw bytes (text
    mode would turn a carriage return into a line break and hide it)."""
    env = {**os.environ, "CONFORMANCE_CACHE": "", "PYTHONPATH": str(FAKES), **(env or {})}
    env.pop("GITHUB_ACTIONS", None)
    run = subprocess.run([sys.executable, *args], capture_output=True, env=env, cwd=cwd,
                         timeout=300)
    return run.returncode, run.stdout + run.stderr


def assert_safe(output: bytes, *, annotations: int = 0) -> list[str]:
    """No raw control character, no forged workflow command or verdict line."""
    assert b"\r" not in output and b"\x1b" not in output
    text = output.decode("utf-8")
    assert not any(c in text for c in "\u2028\u2029\x85\x9b"), text
    assert "##[" not in text
    lines = text.split("\n")
    commands = [line for line in lines if line.lstrip().startswith("::")]
    assert len(commands) == annotations, commands
    assert all(line.startswith(("::error file=", "::error title=", "::warning file="))
               for line in commands), commands
    verdicts = [line for line in lines if line.lstrip().startswith("verdict:")]
    assert len(verdicts) <= 1 and not any(v.startswith("verdict: pass") for v in verdicts), \
        verdicts
    return lines


@pytest.mark.slow
def test_certify_prints_no_forged_line_from_the_engine(tmp_path):
    code, output = child("-m", "conformance", "certify", "--engine", FORGER, "--cases",
                         str(ROOT / "cases"), "--select", SELECT, "--no-properties", "-v",
                         "--format", "github", cwd=tmp_path)
    assert code == 2, output.decode()
    lines = assert_safe(output, annotations=1)
    text = "\n".join(lines)
    # the engine's words are still there, escaped where they would break out
    assert "unsupported: x\\n::error::forged\\r\\x1b[2K\\nverdict: pass" in text
    assert "| \\x3a:stop-commands::x" in text   # its stderr, line by line
    assert "%0A::error::forged%0D\\x1b[2K%0Averdict: pass" in text   # in the annotation
    # the case file is outside the working folder (cwd=tmp_path): a run-level annotation
    assert lines[-2].startswith("::error title=")


@pytest.mark.slow
def test_doctor_prints_no_forged_line_from_the_engine(tmp_path):
    code, output = child("-m", "conformance", "doctor", "--engine", FORGER, "--cases",
                         str(ROOT / "cases"), cwd=tmp_path)
    assert code == 1, output.decode()
    text = "\n".join(assert_safe(output))
    assert "hello matches the protocol (reply-hello.json, protocol 1): forgerx\\n" in text


@pytest.mark.slow
def test_the_pytest_plugin_prints_no_forged_line_from_the_engine(tmp_path):
    code, output = child("-m", "pytest", "-p", "no:cacheprovider", "-rA", "--engine", FORGER,
                         "--conformance-cases", str(ROOT / "cases"), "-k", "qa-269",
                         "--conformance-ruleset", "vision", cwd=tmp_path)
    assert code == 1, output.decode()
    assert_safe(output)


@pytest.mark.parametrize(("text", "want"), [
    ("a\nb\rc\td", "a\\nb\\rc\\td"),
    ("\x1b[2K\x9b31m\x85\x00\x7f", "\\x1b[2K\\x9b31m\\x85\\x00\\x7f"),
    ("::error::x", "\\x3a:error::x"),
    ("  \u3000::stop-commands::x", "  \u3000\\x3a:stop-commands::x"),
    ("std::vector ##[error]", "std::vector #\\x23[error]"),
    ("\u202eevil\u2028", "\\u202eevil\\u2028"),
    ("\ud800", "\\ud800"),
])
def test_shown_escapes_what_could_break_out_of_its_line(text, want):
    assert shown(text) == want


def test_shown_is_bounded_with_a_marker():
    assert shown("x" * 1000, 10) == "x" * 10 + "… [990 more characters cut]"
    assert shown("\x1b" * 10, 8) == "\\x1b\\x1b… [32 more characters cut]"


def test_escaped_keeps_what_the_format_escapes_itself():
    assert escaped("a\nb\r\x1b##[", keep="\n\r") == "a\nb\r\\x1b#\\x23["


def test_shown_survives_an_exception_whose_str_raises():
    class Hostile(Exception):
        def __str__(self):
            raise SystemError("no")
    assert shown(Hostile()) == "(a Hostile that cannot be shown)"
