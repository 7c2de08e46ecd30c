"""Progress per phase: a bar on a terminal, one line per phase in a log, nothing with -q."""

from __future__ import annotations

import io

from conformance._progress import Progress


def run_phases(progress: Progress) -> None:
    progress.start("cases", 3)
    for outcome in ("pass", "fail", "pass"):
        progress.step(outcome)
    progress.start("mutants", 2)
    progress.step("killed")
    progress.step("survived")
    progress.finish()


def test_a_terminal_gets_a_bar_per_phase_with_counts_and_time_left():
    out = io.StringIO()
    run_phases(Progress(out, tty=True))
    text = out.getvalue()
    assert "\rcases      [" in text and "] 3/3, 1 not passing" in text
    assert "] 1/3" in text and "left" in text          # time left while the phase runs
    assert "\rmutants    [" in text and "] 2/2, 1 not passing" in text
    assert text.count("\n") == 2                        # each bar ends its own line


def test_a_log_gets_one_line_per_phase():
    out = io.StringIO()
    run_phases(Progress(out, tty=False))
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("cases: 3/3 in ") and lines[0].endswith("(1 fail, 2 pass)")
    assert lines[1].startswith("mutants: 2/2 in ") and "1 survived" in lines[1]


def test_quiet_prints_nothing():
    out = io.StringIO()
    run_phases(Progress(out, quiet=True, tty=True))
    assert out.getvalue() == ""


def test_with_jobs_cases_and_properties_are_one_phase(capsys, tmp_path):
    """Workers finish cases and properties interleaved: one 'items' line, not a line per switch."""
    from conformance._cli import main

    argv = ["certify", "--engine", "reference", "--ruleset", "mtg", "--profile", "quick",
            "--out", str(tmp_path / "o")]
    assert main([*argv, "--jobs", "2"]) == 0
    phases = [line.split(":")[0] for line in capsys.readouterr().out.splitlines()
              if line.startswith(("cases:", "properties:", "items:"))]
    assert phases == ["items"]
    assert main(argv) == 0
    phases = [line.split(":")[0] for line in capsys.readouterr().out.splitlines()
              if line.startswith(("cases:", "properties:", "items:"))]
    assert phases == ["cases", "properties"]
