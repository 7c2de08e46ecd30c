"""The reference engine of commit 3a663b9 (Vision vocabulary 1) as a subprocess engine.

``python tests/fakes/vision_3a663b9.py --tree DIR [--declare 1|none]``: DIR holds
the repository at 3a663b9 (``git archive 3a663b9 | tar -x -C DIR``); without
``--tree`` the commit is extracted from this checkout into a temporary folder.
The old ``python -m reference_engine.serve`` runs there, on that tree's own
``conformance`` package, and this script relays its JSON Lines unchanged except
the hello reply: ``capabilities.mutants`` (then a list of names, now objects;
its mutants are not the ones today's suite kills) is dropped and
``"vocabulary": {"vision": 1}`` added (``--declare none``: nothing, so the
engine is taken to speak the latest version).  The old protocol had no ``play``,
``observe_in_act`` or hello ``mutant``; the harness sends none of them to an
engine that claims nothing, and ``mutant`` is refused here.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

COMMIT = "3a663b9"
ROOT = Path(__file__).resolve().parent.parent.parent


def extract(commit: str, into: Path) -> None:
    """The repository at ``commit``, written into ``into`` (``git archive``; raises
    CalledProcessError or OSError where there is no git or no such commit)."""
    archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT,
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def old_server(tree: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(tree)   # its own conformance, not the installed one
    return subprocess.Popen([sys.executable, "-m", "reference_engine.serve"], cwd=tree,
                            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def fix_hello(reply: dict, declare: bool) -> dict:
    answer = reply.get("ok")
    if isinstance(answer, dict):
        answer["name"] = f"reference@{COMMIT}"
        answer.get("capabilities", {}).pop("mutants", None)
        if declare:
            answer["vocabulary"] = {"vision": 1}
    return reply


def relay(child: subprocess.Popen[bytes], declare: bool) -> None:
    assert child.stdin is not None and child.stdout is not None
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
        except ValueError:
            request = None
        cmd = request.get("cmd") if isinstance(request, dict) else None
        if cmd == "hello" and "mutant" in request:
            out.write(json.dumps({"seq": request.get("seq"), "error": {
                "message": f"the {COMMIT} engine runs no mutant"}}).encode() + b"\n")
            out.flush()
            continue
        child.stdin.write(line)
        child.stdin.flush()
        reply = child.stdout.readline()
        if not reply:
            return
        if cmd == "hello":
            reply = json.dumps(fix_hello(json.loads(reply), declare)).encode() + b"\n"
        out.write(reply)
        out.flush()
        if cmd == "stop":
            return


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, help=f"the repository at {COMMIT}")
    parser.add_argument("--declare", choices=["1", "none"], default="1")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        tree = args.tree
        if tree is None:
            tree = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            extract(COMMIT, tree)
        child = old_server(tree.resolve())
        try:
            with contextlib.suppress(BrokenPipeError):
                relay(child, args.declare == "1")
        finally:
            with contextlib.suppress(OSError):
                child.stdin.close()  # type: ignore[union-attr]
            try:
                child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
