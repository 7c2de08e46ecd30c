"""Benchmark a certification run: harness vs bare engine, subprocess vs in-process.

    python tests/bench.py [--repeat 5] [--profile quick]

Prints the best-of-N wall time of:
  bare         the catalogue's actions fed straight to the reference engine
               object (no adapter, no matching): the floor
  in-process   the runner over all cases, --engine reference
  subprocess   the runner over all cases, --engine 'cmd:python -m reference_engine.serve'
  startup      start the server, handshake, stop it (part of "subprocess")
  props-inproc the properties only, in-process, with the given profile
  props-subproc the properties only, through the subprocess
and the ratios that matter.  A script, not a timed test: timings belong in
notes, not in assertions that flake on a busy CI machine.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections.abc import Callable

from conformance._catalogue import load_catalogue
from conformance._loading import load_engine
from conformance._runner import Runner, Selection
from conformance._settings import get_profile

SERVER = f"cmd:{shlex.join([sys.executable, '-m', 'reference_engine.serve'])}"


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", default="quick")
    args = parser.parse_args()
    catalogue = load_catalogue()
    profile = get_profile(args.profile)
    cases = catalogue.cases

    def bare() -> None:
        import reference_engine

        engine = reference_engine.create_engine()
        for case in cases:
            engine.start(case.ruleset, case.setup)
            for step in case.steps:
                engine.act(step["do"])
                if "expect" in step:
                    engine.observe()

    def run(spec: str, selection: Selection) -> Callable[[], None]:
        def go() -> None:
            engine = load_engine(spec, timeout=profile.timeout)
            try:
                runner = Runner(catalogue, engine, spec, profile, selection,
                                reference=lambda: load_engine("reference"))
                results = list(runner.results())
                bad = [r.id for r in results if r.status != "pass"]
                if bad:
                    raise SystemExit(f"benchmark run is not green: {bad}")
            finally:
                engine.close()
        return go

    def startup() -> None:
        engine = load_engine(SERVER, timeout=profile.timeout)
        engine.hello()
        engine.close()

    only_cases = Selection(properties=False)
    only_props = Selection(cases=False)
    rows = {
        "bare": best_of(args.repeat, bare),
        "in-process": best_of(args.repeat, run("reference", only_cases)),
        "subprocess": best_of(args.repeat, run(SERVER, only_cases)),
        "startup": best_of(args.repeat, startup),
        "props-inproc": best_of(max(1, args.repeat // 2), run("reference", only_props)),
        "props-subproc": best_of(max(1, args.repeat // 2), run(SERVER, only_props)),
    }
    print(f"{len(cases)} cases, profile {profile.name} "
          f"({profile.max_examples} examples/property), best of {args.repeat}")
    for name, seconds in rows.items():
        print(f"  {name:14} {seconds * 1000:9.1f} ms")
    print(f"  harness / bare engine (cases, in-process): "
          f"{rows['in-process'] / rows['bare']:.2f}x")
    print(f"  subprocess / in-process (cases):           "
          f"{rows['subprocess'] / rows['in-process']:.2f}x")
    print(f"  ... less process start-up and stop:        "
          f"{(rows['subprocess'] - rows['startup']) / rows['in-process']:.2f}x")
    print(f"  subprocess / in-process (properties):      "
          f"{rows['props-subproc'] / rows['props-inproc']:.2f}x")


if __name__ == "__main__":
    main()
