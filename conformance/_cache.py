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
