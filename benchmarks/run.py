"""Print the speed table: each row measured vs its target.

    python benchmarks/run.py [--pairs 7] [--profile certify] [--pytest]
                             [--main [--baseline DIR]] [--parallel] [--vocabulary]
                             [--phase] [--python-mtg] [--only ROW ...]

A script, not timed tests: a shared CI machine would make timed assertions
flake.  A shared machine is also noisy, so every ratio is the median over
``--pairs`` *interleaved pairs* (A then B, then B then A, ...), and every
absolute time the median of as many runs; best-of-N would hide the noise.
``--pytest`` also times ``pytest -m "not slow"`` against the full suite, and
``--main`` the README's main command and ``--parallel`` ``certify --jobs 2``
against ``--jobs 1`` on a catalogue 16 times today's, and ``--phase`` (``--python-mtg``) the
phase.rs (python-mtg) certification of ruleset mtg against the reference engine's.  ``--only``
measures only the rows named (the rest print as not measured).  Rows that belong
to work not done yet print as not measured.
"""

from __future__ import annotations

import argparse
import importlib
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
SERVER = f"cmd:{shlex.join([PYTHON, '-m', 'reference_engine.serve'])}"
Timed = Callable[[], float]


def clock(fn: Callable[[], Any]) -> float:
    began = time.perf_counter()
    fn()
    return time.perf_counter() - began


def cpu(fn: Callable[[], Any]) -> float:
    """CPU seconds of this process and of the children it reaped while ``fn`` ran.

    Unlike wall time, this leaves out the time spent waiting for a CPU that
    other work on a shared machine holds, so it measures the work itself.
    """
    def total() -> float:
        child = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + child.ru_utime + child.ru_stime
    began = total()
    fn()
    return total() - began


def paired(pairs: int, a: Timed, b: Timed) -> tuple[float, float, float]:
    """Median of a, median of b and median of the per-pair ratio a/b, interleaved."""
    ta, tb, ratios = [], [], []
    for i in range(pairs):
        if i % 2:
            y = b()
            x = a()
        else:
            x = a()
            y = b()
        ta.append(x)
        tb.append(y)
        ratios.append(x / y)
    return statistics.median(ta), statistics.median(tb), statistics.median(ratios)


#: Fresh interpreters run as on a user's machine: with bytecode caching (in a
#: private folder, so no shared site-packages is written), whatever this
#: shell's PYTHONDONTWRITEBYTECODE says; otherwise every import recompiles.
FRESH_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
FRESH_ENV["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "conformance-bench-pyc")


def wall(argv: list[str], cwd: Path) -> float:
    """Wall time of a fresh process running ``argv`` to its end (which must be 0)."""
    return clock(lambda: subprocess.run(argv, cwd=cwd, check=True, env=FRESH_ENV,
                                        stdout=subprocess.DEVNULL))


def fresh_python(code: str, *args: str, cwd: Path = ROOT) -> float:
    """Wall time of a fresh interpreter running ``code`` (process start included)."""
    return wall([PYTHON, *args, "-c", code], cwd)


def reported(code: str) -> float:
    """A time a fresh interpreter measures itself and prints (cold caches, no start-up)."""
    out = subprocess.run([PYTHON, "-c", code], cwd=ROOT, check=True, capture_output=True,
                         text=True, env=FRESH_ENV).stdout
    return float(out.strip().splitlines()[-1])


def import_time(module: str, after: str = "") -> float:
    """Seconds a fresh interpreter spends importing ``module`` and what it pulls in
    (``python -X importtime``), once ``after`` (a module) is already imported."""
    code = f"import {after}; import {module}" if after else f"import {module}"
    err = subprocess.run([PYTHON, "-X", "importtime", "-c", code], cwd=ROOT,
                         check=True, capture_output=True, text=True, env=FRESH_ENV).stderr
    for line in err.splitlines():
        fields = [f.strip() for f in line.removeprefix("import time:").split("|")]
        if len(fields) == 3 and fields[2] == module:
            return int(fields[1]) / 1e6
    raise SystemExit(f"python -X importtime did not report {module}")


def open_engine(spec: str, timeout: float, **options: Any) -> Any:
    """The engine named by ``spec``; a subprocess one is a fresh interpreter like every
    other this script starts, so it runs with bytecode caching too (`FRESH_ENV`)."""
    from conformance._loading import load_engine

    if spec.startswith("cmd:"):
        options["env"] = FRESH_ENV
    return load_engine(spec, timeout=timeout, **options)


class Harness:
    """The catalogue, loaded once, and the runs the table compares."""

    def __init__(self, profile_name: str) -> None:
        from conformance._catalogue import load_catalogue
        from conformance._settings import get_profile

        self.catalogue = load_catalogue(ROOT / "cases")
        self.profile = get_profile(profile_name)
        self.requests = 0

    def bare(self, meter: Callable[[Callable[[], Any]], float] = clock) -> float:
        """The catalogue's requests fed straight to the reference engine object."""
        import reference_engine
        from conformance._matching import needs_state

        def go() -> None:
            engine = reference_engine.create_engine()
            requests = 0
            for case in self.catalogue.cases:
                engine.start(case.ruleset, case.setup)
                requests += 1
                for step in case.steps:
                    engine.act(step["do"])
                    requests += 1
                    if needs_state(step.get("expect", {})):
                        engine.observe()
                        requests += 1
            self.requests = requests
        return meter(go)

    def run(self, spec: str, *, cases: bool, properties: bool,
            meter: Callable[[Callable[[], Any]], float] = clock) -> float:
        from conformance._loading import load_engine
        from conformance._runner import Runner, Selection

        def go() -> None:
            engine = open_engine(spec, self.profile.timeout)
            try:
                runner = Runner(self.catalogue, engine, spec, self.profile,
                                Selection(cases=cases, properties=properties),
                                reference=lambda: load_engine("reference"))
                bad = [r.id for r in runner.results() if r.status != "pass"]
                if bad:
                    raise SystemExit(f"benchmark run is not green: {bad}")
            finally:
                engine.close()
        return meter(go)

    def passes(self, spec: str, passes: int,
               meter: Callable[[Callable[[], Any]], float] = clock, play: bool = True) -> float:
        """Every case ``passes`` times over one engine session (one process start);
        ``play=False`` sends one request per start, act and observe, never ``play``."""
        from conformance._runner import Runner, Selection

        def go() -> None:
            engine = open_engine(spec, self.profile.timeout, play=play)
            try:
                runner = Runner(self.catalogue, engine, spec, self.profile,
                                Selection(properties=False))
                runner.handshake()
                for _ in range(passes):
                    bad = [r.id for r in map(runner.run_case, runner.cases())
                           if r.status != "pass"]
                    if bad:
                        raise SystemExit(f"benchmark run is not green: {bad}")
            finally:
                engine.close()
        return meter(go)

    def startup(self, meter: Callable[[Callable[[], Any]], float] = clock) -> float:
        def go() -> None:
            engine = open_engine(SERVER, self.profile.timeout)
            engine.hello()
            engine.close()
        return meter(go)


def bigger_catalogue(dest: Path, times: int) -> int:
    """The catalogue with every case file ``times`` times (ids made unique); its case count."""
    import shutil

    shutil.copytree(ROOT / "cases", dest)
    count = 0
    for path in sorted(dest.glob("*/*.yaml")):
        if path.name == "rules.yaml":
            continue
        text = path.read_text("utf-8")
        first, rest = text.split("\n", 1)
        assert first.startswith("id: "), f"{path}: the id is not the first line"
        for k in range(2, times + 1):
            path.with_name(f"{path.stem}-x{k}.yaml").write_text(f"{first}-x{k}\n{rest}", "utf-8")
        count += times
    return count


def parallel_rows(n: int, h: Harness) -> list[tuple[str, str, str, str]]:
    """``certify --jobs 2`` against ``--jobs 1`` on a catalogue 16 times today's: the
    parallel path (``pytest -n`` stays supported, but is not a speed target)."""
    with tempfile.TemporaryDirectory() as tmp:
        cases = Path(tmp, "cases")
        count = bigger_catalogue(cases, 16)
        certify = [PYTHON, "-m", "conformance", "certify", "--engine", "reference",
                   "--cases", str(cases), "--profile", h.profile.name, "-q",
                   "--out", str(Path(tmp, "out"))]
        pairs = max(5, n // 2)   # one run is 15-40 s, and the machine's speed drifts
        j1, j2, _ = paired(pairs, lambda: wall([*certify, "--jobs", "1"], ROOT),
                           lambda: wall([*certify, "--jobs", "2"], ROOT))
    return [row(f"certify --jobs 1 / --jobs 2, {count} cases",
                f"{j1:.1f} s / {j2:.1f} s = {j1 / j2:.2f}x", "(information: 2 CPUs)", None)]


def row(what: str, measured: str, target: str, met: bool | None) -> tuple[str, str, str, str]:
    verdict = {True: "met", False: "MISSED", None: "-"}[met]
    return what, measured, target, verdict


def main_row(pairs: int, baseline: str | None) -> tuple[str, str, str, str]:
    """The README's main command, median wall time; with ``--baseline DIR`` (a checkout
    of another commit, e.g. the previous one, with its own .venv) in interleaved pairs
    against that commit's same command."""
    with tempfile.TemporaryDirectory() as out:
        def command(python: str, where: str) -> list[str]:
            return [python, "-m", "conformance", "certify", "--engine", "reference",
                    "--mutation", "--jobs", "2", "-q", "--out", where]   # as the README does
        ours = command(PYTHON, out)
        if not baseline:
            took = statistics.median(wall(ours, ROOT) for _ in range(pairs))
            return row("README main command (certify --mutation --jobs 2)", f"{took:.1f} s",
                       "<= 20 s median", took <= 20)
        base = Path(baseline).resolve()
        theirs = command(str(base / ".venv" / "bin" / "python"), str(Path(out, "base")))
        a, b, ratio = paired(pairs, lambda: wall(ours, ROOT), lambda: wall(theirs, base))
    # issue 43: the row is a ratio against 286a4b4 (0.24 on 5 December), kept under 0.63
    return row(f"README main command: now / {base.name} (--baseline)",
               f"{a:.1f} s / {b:.1f} s = {ratio:.2f}x", "<= 0.63x of 286a4b4", ratio <= 0.63)


#: `conformance certify --engine reference` (no mutation) in a fresh interpreter; with
#: ``{off}`` the vocabulary derivation is replaced by constants, as if it did not exist.
CERTIFY = """
import sys
from conformance import _vocabulary_gate as v
if {off}:
    v.describe = lambda item: ([], v.Needs(1, ""))
    v.Within.fits = lambda self, scenario: True
    v.Within.fields = lambda self: {{"features": [], "needs_vocabulary": 1}}
from conformance._cli import main
sys.exit(main(["certify", "--engine", "reference", "-q", "--profile", "{profile}"]))
"""


def vocabulary_row(pairs: int, profile: str) -> tuple[str, str, str, str]:
    """A plain certify of the reference engine with the vocabulary derivation (every
    case walked once, every generated scenario walked) against one without it, in
    CPU time of fresh processes (waiting for a busy machine's CPU left out)."""
    def run(off: bool) -> Timed:
        code = CERTIFY.format(off=off, profile=profile)
        return lambda: cpu(lambda: fresh_python(code))
    on, off, ratio = paired(pairs, run(False), run(True))
    return row(f"plain certify of the reference engine ({profile}), CPU: with / without "
               "feature derivation", f"{on:.1f} s / {off:.1f} s = {ratio:.3f}x",
               "<= 1.05x", ratio <= 1.05)


#: `conformance certify` of ruleset mtg, its engine in this process (``--engine NAME``).
MTG_CERTIFY = ["-m", "conformance", "certify", "--ruleset", "mtg", "--allow-no-verdict",
               "-q", "--engine"]


def certify_mtg(engine: str, out: Path) -> float:
    """Wall time of a fresh ``conformance certify --engine ENGINE --ruleset mtg`` (a
    failing item is a result, not an error: the run must only have written its report)."""
    report = out / "report.json"
    report.unlink(missing_ok=True)
    argv = [PYTHON, *MTG_CERTIFY, engine, "--out", str(out)]
    took = clock(lambda: subprocess.run(argv, cwd=ROOT, env=FRESH_ENV, check=False,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    if not report.exists():
        raise SystemExit(f"{shlex.join(argv)} wrote no report")
    return took


#: The shipped adapters timed against the reference engine: name -> (the module that must
#: import, its distribution, the target).  phase: issue 29, at most 3x; python-mtg: issue
#: 44, measured (no target).
ADAPTERS = {"phase": ("phase", "phase-python", "<= 3x"),
            "python-mtg": ("mtg.bridge_to_engine", "python-mtg", "measured")}


def adapter_row(engine: str, pairs: int) -> tuple[str, str, str, str]:
    """An adapter's certification of ruleset mtg against the reference engine's of the
    same items, both in process; skipped where the engine is not installed."""
    module, dist, target = ADAPTERS[engine]
    what = f"{engine} certify / reference certify, mtg ruleset (in-process)"
    try:
        importlib.import_module(module)
    except ImportError:
        return row(what, f"skipped: {dist} is not installed (pip install -e '.[{engine}]')",
                   target, None)
    with tempfile.TemporaryDirectory() as tmp:
        a, b, ratio = paired(pairs, lambda: certify_mtg(engine, Path(tmp, engine)),
                             lambda: certify_mtg("reference", Path(tmp, "reference")))
    return row(what, f"{a:.1f} s / {b:.1f} s = {ratio:.2f}x", target,
               ratio <= 3 if target == "<= 3x" else None)


ROWS = ("main", "properties", "cases", "overhead", "load", "vocabulary", "parallel",
        "import", "plugin", "pytest", "phase", "python-mtg")


def measure(args: argparse.Namespace) -> list[tuple[str, str, str, str]]:
    n = args.pairs
    h = Harness(args.profile)

    def want(name: str) -> bool:
        return not args.only or name in args.only
    skipped = "not measured (not in --only)"
    rows: list[tuple[str, str, str, str]] = []
    if not want("main"):
        rows.append(row("README main command", skipped, "<= 20 s median", None))
    elif args.main:
        rows.append(main_row(max(1, n // 2), args.baseline))
    else:
        rows.append(row("README main command (certify --mutation --jobs 2)",
                        "not measured (pass --main)", "<= 20 s median", None))

    if want("properties"):
        # all n pairs: one run is 8-14 s on this machine, and its speed drifts that much
        _, _, ratio = paired(n, lambda: h.run(SERVER, cases=False, properties=True),
                             lambda: h.run("reference", cases=False, properties=True))
        rows.append(row(f"properties, subprocess / in-process ({h.profile.name})",
                        f"{ratio:.2f}x", "<= 1.3x", ratio <= 1.3))
    else:
        rows.append(row("properties, subprocess / in-process", skipped, "<= 1.3x", None))

    if want("cases"):
        _, _, ratio = paired(n * 3, lambda: h.run("reference", cases=True, properties=False),
                             h.bare)
        rows.append(row("cases, in-process harness / bare engine", f"{ratio:.2f}x",
                        "<= 1.3x", ratio <= 1.3))
    else:
        rows.append(row("cases, in-process harness / bare engine", skipped, "<= 1.3x", None))

    for engine, flag in (("phase", args.phase), ("python-mtg", args.python_mtg)):
        what, target = f"{engine} certify / reference certify, mtg ruleset", ADAPTERS[engine][2]
        if not want(engine):
            rows.append(row(what, skipped, target, None))
        elif flag:
            rows.append(adapter_row(engine, n))
        else:
            rows.append(row(what, f"not measured (pass --{engine})", target, None))

    # The marginal cost of a request: (the cases 5 times - once, over one process,
    # so start-up and first-use costs cancel) - the bare engine, per request
    # (start, act, observe), in wall time and in CPU time of both processes,
    # medians of interleaved runs; a case is one play message when the engine
    # offers play (the reference engine's server does), else one per request
    for play, label in ((True, "in plays"), (False, "one at a time, no play")):
        if not want("overhead"):
            rows.append(row(f"harness overhead per subprocess request ({label})", skipped,
                            "<= 150 µs", None))
            continue
        walls: list[float] = []
        work: list[float] = []
        for _ in range(n):
            for meter, into in ((clock, walls), (cpu, work)):
                more = h.passes(SERVER, 5, meter, play)
                once = h.passes(SERVER, 1, meter, play)
                bare = sum(h.bare(meter) for _ in range(4))
                into.append((more - once - bare) / (4 * h.requests) * 1e6)
        wall_us, work_us = statistics.median(walls), statistics.median(work)
        counted = play or None  # without play: what an engine that does not offer it pays
        rows.append(row(f"harness overhead per subprocess request ({h.requests} requests "
                        f"{label}), wall", f"{wall_us:.0f} µs", "<= 150 µs",
                        counted and wall_us <= 150))
        rows.append(row("... the same in CPU time of both processes (no waiting for a CPU)",
                        f"{work_us:.0f} µs", "<= 150 µs", counted and work_us <= 150))

    if want("load"):
        load = statistics.median(reported(
            "import time; t = time.perf_counter(); "
            "from conformance._catalogue import load_catalogue; c = load_catalogue('cases'); "
            "assert not c.errors, c.errors; print(time.perf_counter() - t)") for _ in range(n))
        rows.append(row(f"catalogue load, cold process ({len(h.catalogue.cases)} cases)",
                        f"{load:.3f} s", "<= 0.3 s", load <= 0.3))
    else:
        rows.append(row("catalogue load, cold process", skipped, "<= 0.3 s", None))

    if args.vocabulary and want("vocabulary"):
        rows.append(vocabulary_row(n, args.profile))
    else:
        rows.append(row("plain certify: with / without feature derivation",
                        "not measured (pass --vocabulary)", "<= 1.05x", None))

    if args.parallel and want("parallel"):
        rows += parallel_rows(n, h)
    else:
        rows.append(row("certify --jobs 1 / --jobs 2", "not measured (pass --parallel)",
                        "(information: 2 CPUs)", None))

    if want("import"):
        fresh_python("import conformance._plugin, conformance._catalogue")  # fill .pyc cache
        cost = statistics.median(import_time("conformance") for _ in range(n)) * 1000
        rows.append(row("import conformance (python -X importtime)", f"{cost:.1f} ms",
                        "(was 118 ms)", None))
    else:
        rows.append(row("import conformance (python -X importtime)", skipped,
                        "(was 118 ms)", None))
    if want("plugin"):
        plugin_import = statistics.median(import_time("conformance._plugin", after="pytest")
                                          for _ in range(n))
        with tempfile.TemporaryDirectory() as empty:
            Path(empty, "test_nothing.py").write_text("def test_nothing():\n    pass\n")
            pytest = [PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_nothing.py"]

            def plugin(on: bool) -> Timed:
                argv = pytest if on else [*pytest, "-p", "no:conformance"]
                return lambda: wall(argv, Path(empty))
            on, off, _ = paired(n * 2, plugin(True), plugin(False))
        cost = (on - off) * 1000
        rows.append(row("the pytest plugin without --engine: its import (pytest already "
                        "loaded)", f"{plugin_import * 1000:.1f} ms",
                        "nothing measurable (< 5 ms)", plugin_import < 0.005))
        rows.append(row("... a pytest run with / without the plugin (paired, noisy)",
                        f"{cost:+.0f} ms", "within the noise", None))
    else:
        rows.append(row("the pytest plugin without --engine", skipped,
                        "nothing measurable (< 5 ms)", None))

    if args.pytest and want("pytest"):
        base = [PYTHON, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider"]
        fast = clock(lambda: subprocess.run([*base, "-m", "not slow"], cwd=ROOT, check=True,
                                            stdout=subprocess.DEVNULL))
        full = clock(lambda: subprocess.run(base, cwd=ROOT, check=True,
                                            stdout=subprocess.DEVNULL))
        rows.append(row('pytest -m "not slow" / full suite',
                        f"{fast:.0f} s / {full:.0f} s = {fast / full:.2f}", "< 0.33",
                        fast / full < 0.33))
    else:
        rows.append(row('pytest -m "not slow" / full suite', "not measured (pass --pytest)",
                        "< 0.33", None))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=7, help="interleaved pairs per row")
    parser.add_argument("--profile", default="certify", help="profile of the property rows")
    parser.add_argument("--pytest", action="store_true", help="also time the test suite")
    parser.add_argument("--parallel", action="store_true",
                        help="also time certify --jobs 2 against --jobs 1 on a catalogue 16 "
                             "times today's (minutes)")
    parser.add_argument("--main", action="store_true",
                        help="also time the README's main command (about 15 s a run)")
    parser.add_argument("--vocabulary", action="store_true",
                        help="also time a plain certify with and without the vocabulary "
                             "feature derivation (half a minute a run)")
    parser.add_argument("--baseline", metavar="DIR",
                        help="with --main: a checkout of another commit (e.g. the previous "
                             "one) with its own .venv, timed in interleaved pairs against "
                             "the README's main command")
    parser.add_argument("--phase", action="store_true",
                        help="also time phase.rs's certification of ruleset mtg against the "
                             "reference engine's (needs pip install -e '.[phase]'; about "
                             "20 s a pair)")
    parser.add_argument("--python-mtg", action="store_true",
                        help="also time python-mtg's certification of ruleset mtg against the "
                             "reference engine's (needs pip install -e '.[python-mtg]'; about "
                             "40 s a pair)")
    parser.add_argument("--only", action="append", choices=ROWS, metavar="ROW",
                        help=f"measure only these rows (repeatable; {', '.join(ROWS)}); "
                             "the opt-in rows still need their own flag")
    args = parser.parse_args()
    os.chdir(ROOT)
    rows = measure(args)
    print(f"median of {args.pairs} interleaved pairs, profile {args.profile}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end; "
          "fresh processes with bytecode caching\n")
    head = ("what", "measured", "target", "")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(4)]
    for r in [head, tuple("-" * w for w in widths), *rows]:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |")


if __name__ == "__main__":
    main()
