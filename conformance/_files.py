"""The files a run writes into ``--out``: names one-to-one with item ids, atomic
writes, and never a write or delete through a symlink (docs/reports.md, "Files").

The suite owns the names `item_filename` makes (and the five reports); in its own
folders (``counterexamples/``, ``transcripts/``) it removes only such names, and
names every other entry as left in place.  A symlink where the suite would write or
delete is refused (`UnsafePath`, exit 4): following it could reach files outside
``--out``, and replacing it would silently undo whatever the link was for.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO

from conformance._errors import UsageError

#: The suffixes of the files the suite writes per item.
SUFFIXES = (".yaml", ".requests.jsonl", ".replies.jsonl")
#: Longest name kept whole; a longer one is cut and told apart by its hash.
LONGEST = 150
_HASHED = 16   # hex digits of sha256(id) that tell apart ids sharing a name
_OWN = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*(~[0-9a-f]{16})?("
                  + "|".join(re.escape(s) for s in SUFFIXES) + ")")


class UnsafePath(UsageError):
    """A symlink (or a dangling one) where the suite would write or delete."""


def item_filename(item_id: str, suffix: str = ".yaml") -> str:
    """An item's file name: one-to-one with ids, and unable to name or leave a folder.

    ``vision/qa-269/x`` -> ``vision__qa-269__x.yaml``: each ``/`` becomes ``__``.
    When that alone does not give the id back (``__`` turned into ``/``) -- because
    another character was replaced by ``-``, a leading dot dropped, the name cut at
    `LONGEST` characters or the id already held ``__`` -- the name also carries
    ``~`` and 16 hex digits of the id's sha256 (``a__b`` -> ``a__b~1b4f0e98....yaml``);
    ``~`` is in no plain name, so no two ids share a name.
    """
    name = re.sub(r"[^A-Za-z0-9._-]", "-", item_id.replace("/", "__")).lstrip(".")
    if not name or len(name) > LONGEST or name.replace("__", "/") != item_id:
        digest = hashlib.sha256(item_id.encode("utf-8", "surrogatepass")).hexdigest()
        name = f"{name[:LONGEST] or 'item'}~{digest[:_HASHED]}"
    return name + suffix


def is_own(name: str) -> bool:
    """Whether a file name is one `item_filename` makes (what the suite may remove)."""
    return _OWN.fullmatch(name) is not None


def refuse_link(path: Path) -> None:
    """Raise `UnsafePath` when ``path`` is a symlink (dangling or not)."""
    if path.is_symlink():
        raise UnsafePath(
            f"{path} is a symlink (to {os.readlink(path)}); the suite never writes or "
            "deletes through a symlink in the folder it writes, as that could reach files "
            "outside it: remove the link, or give another folder")


def clean(folder: Path) -> list[Path]:
    """Remove the files an earlier run left in ``folder`` (names `is_own` accepts);
    return every other entry, kept as it was.  A symlinked ``folder``, or a symlink
    with such a name in it, is refused rather than followed."""
    refuse_link(folder)
    if not folder.is_dir():
        return []
    kept = []
    for entry in sorted(folder.iterdir()):
        if not is_own(entry.name):
            kept.append(entry)
            continue
        refuse_link(entry)
        if entry.is_file():
            entry.unlink()
        else:
            kept.append(entry)   # a folder with an item's name: not ours to remove
    return kept


def others(folder: Path) -> list[Path]:
    """The entries of ``folder`` that are not the suite's own files."""
    if folder.is_symlink() or not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir()
                  if not (is_own(p.name) and p.is_file() and not p.is_symlink()))


def replace(path: Path, data: str | bytes) -> None:
    """Write a sibling temp file, fsync it, then os.replace it over ``path`` (never
    through it: a symlink there is refused)."""
    refuse_link(path)
    # a lone surrogate (from an in-process engine's text) is written as \ud800
    raw = data.encode("utf-8", "backslashreplace") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; reports are meant to be shared
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


#: The largest report.json any command reads (a run of every item of every pack
#: writes a few MiB); a larger file is refused before it is read.
MAX_REPORT_BYTES = 256 * 2**20


def open_regular(path: str | Path, what: str, why: str) -> BinaryIO:
    """``path`` opened for reading, without blocking (a fifo there would wait for a writer
    forever, a device never end): a regular file, else a `UsageError` naming ``what``
    the file is meant to be and ``why`` it is a file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise UsageError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UsageError(f"cannot read {what} {path}: not a regular file ({why})")
    return open(fd, "rb")


def read_report_text(path: str | Path) -> str:
    """The text of the report file ``path``: a regular file (a fifo or device there
    would hang or never end) of at most `MAX_REPORT_BYTES`, opened without blocking; anything
    else is a `UsageError` naming the file."""
    with open_regular(path, "report", "a report.json is a file certify wrote") as handle:
        info = os.fstat(handle.fileno())
        if info.st_size > MAX_REPORT_BYTES:
            raise UsageError(f"cannot read report {path}: {info.st_size} bytes, more than "
                             f"the {MAX_REPORT_BYTES // 2**20} MiB a report may hold")
        try:
            raw = handle.read(MAX_REPORT_BYTES + 1)
        except OSError as exc:
            raise UsageError(f"cannot read report {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_REPORT_BYTES:   # grew while it was read
        raise UsageError(f"cannot read report {path}: more than the {MAX_REPORT_BYTES // 2**20} "
                         "MiB a report may hold")
    try:
        return raw.decode("utf-8")
    except ValueError as exc:   # not UTF-8
        raise UsageError(f"cannot read report {path}: {exc}") from None
