"""``--out``: checked before anything runs, and locked for the run (docs/security.md)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from conformance._errors import UsageError


def check_out(out: Path, transcripts: Path | None = None) -> None:
    """--out must be a folder we can write, checked before anything runs; and no
    file the run writes or deletes there (nor in ``transcripts``) may be a symlink."""
    from conformance import _files
    from conformance.report import FILENAMES

    if out.is_symlink() and not out.exists():
        raise UsageError(f"--out {out} is a symlink to {os.readlink(out)}, which does not "
                         "exist; create that folder, or give another --out")
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: is a file, not a folder; name a folder for the reports")
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as exc:
        raise UsageError(f"--out {out}: cannot write there ({exc.strerror or exc}); "
                         "name a folder you can write") from None
    for name in FILENAMES.values():
        _files.refuse_link(out / name)
    for folder in (out / "counterexamples", transcripts):
        if folder is not None:
            _files.refuse_link(folder)
            if folder.is_dir():
                for entry in folder.iterdir():
                    if _files.is_own(entry.name):
                        _files.refuse_link(entry)


#: The lock file in --out that keeps two runs from writing one folder at once.
LOCK = ".conformance.lock"


@contextlib.contextmanager
def locked(out: Path | None) -> Iterator[None]:
    """Hold ``out/.conformance.lock`` (an flock, which ends with the process, however
    it ends) for the run; a second run on the same --out is a usage error naming
    the first run's pid.  The file stays: removing it would let a third run lock a
    new file while the second still holds the old one."""
    if out is None:
        yield
        return
    import fcntl

    path = out / LOCK
    from conformance import _files

    _files.refuse_link(path)
    import stat

    flags = (os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_NONBLOCK
             | os.O_CLOEXEC)
    try:   # non-blocking: a fifo there must not hang the open
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        raise UsageError(f"cannot take the lock {path}: {exc.strerror}; it must be a "
                         "regular file (remove what is there, or give another --out)") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UsageError(f"cannot take the lock {path}: it is not a regular file; remove "
                         "what is there, or give another --out")
    with open(fd, "a+", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            pid = handle.read().strip()
            raise UsageError(f"--out {out} is in use by another conformance run"
                             f"{f' (pid {pid})' if pid.isdigit() else ''} (it holds {path}); "
                             "wait for it to end, or give another --out") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        yield
