"""An on-disk cache of values derived from the suite's own files, like ``__pycache__``.

Compiled schemas, and the files already found valid (`conformance._catalogue`),
cost more than all the rest of loading a catalogue, and their inputs rarely
change.  Each value is stored with marshal under a key that hashes everything
it was made from, written atomically; an unreadable entry is made again, an
unwritable folder only costs speed.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def cache_dir() -> Path | None:
    """``$CONFORMANCE_CACHE`` (empty: no cache), else ``$XDG_CACHE_HOME/card-conformance``
    or ``~/.cache/card-conformance``."""
    chosen = os.environ.get("CONFORMANCE_CACHE")
    if chosen is not None:
        return Path(chosen) if chosen else None
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "card-conformance")


def _path(kind: str, key: str) -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / f"{kind}-{key[:40]}.marshal"


def load(kind: str, key: str) -> Any:
    """The value stored under ``kind``/``key``; None when there is none (or no cache)."""
    path = _path(kind, key)
    if path is None:
        return None
    with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
        return marshal.loads(path.read_bytes())  # noqa: S302 - written by `store` only
    return None


def store(kind: str, key: str, value: Any) -> None:
    """Keep ``value`` (not None) under ``kind``/``key``, atomically; a failure only costs speed."""
    path = _path(kind, key)
    if path is None:
        return
    with contextlib.suppress(OSError, ValueError):
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_bytes(marshal.dumps(value))
        os.replace(partial, path)


@contextlib.contextmanager
def hypothesis_home() -> Iterator[None]:
    """Keep Hypothesis's own files (its cache of constants; no example database is
    used) out of the user's folder: in the suite's cache, else in a temporary folder
    (docs/cli.md, "Profiles").  What the CLI, `conformance.certify`, ``--list`` and
    the pytest plugin's items run inside; ``HYPOTHESIS_STORAGE_DIRECTORY`` wins."""
    from hypothesis.configuration import set_hypothesis_home_dir

    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        yield
        return
    with contextlib.ExitStack() as stack:
        folder = cache_dir()
        if folder is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="conformance-")))
        set_hypothesis_home_dir(folder / "hypothesis")
        try:
            yield
        finally:
            set_hypothesis_home_dir(None)
