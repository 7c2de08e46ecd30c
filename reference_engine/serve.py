"""The reference engine as a JSON Lines subprocess: ``python -m reference_engine.serve``.

It gets exactly what a third-party engine gets: the suite drives it through
`conformance._subprocess.SubprocessEngine`, e.g.
``conformance run --engine "cmd:python -m reference_engine.serve --mutant NAME"``.
All protocol work is `conformance._protocol.serve`; this file only builds the engine.
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m reference_engine.serve",
        description="Serve the reference engine over the conformance JSON Lines protocol "
                    "on stdin/stdout (docs/protocol.md). Logs go to stderr.",
    )
    parser.add_argument("--mutant", metavar="NAME", default=None,
                        help="break exactly one rule (see `conformance mutants`)")
    args = parser.parse_args(argv)

    from conformance import serve
    from conformance._errors import ExitCode

    try:
        from reference_engine import create_engine
    except Exception as exc:  # a broken install: say so on stderr, the harness shows it
        print(f"reference_engine.serve: cannot import the reference engine: "
              f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return ExitCode.USAGE
    try:
        engine = create_engine(args.mutant)
    except Exception as exc:  # e.g. an unknown mutant: say why before the harness sees EOF
        print(f"reference_engine.serve: cannot create the engine "
              f"(--mutant {args.mutant!r}): {type(exc).__name__}: {exc}", file=sys.stderr)
        return ExitCode.USAGE
    serve(engine)
    return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main())
