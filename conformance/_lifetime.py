"""Nothing an engine starts outlives the engine's stop (docs/protocol.md, "Process lifetime").

Killing the engine's process group is not enough: a descendant that calls
``setsid()`` leaves the group, and one whose parent exits is re-parented out of
the engine's tree, where no one would look for it.  On Linux, three kernel
settings keep every descendant findable, and a kill at each stop finds them:

* the engine process is a *child subreaper* (``PR_SET_CHILD_SUBREAPER``, set
  between fork and exec; it survives exec): while it lives, an orphan anywhere
  below it is re-parented to it, so the walk of parent links from its pid finds
  every descendant, whatever session or group it moved to;
* the harness process is a child subreaper too: an engine that dies first hands
  its descendants to the harness, not to init;
* every engine process is started with ``no_new_privs`` (``PR_SET_NO_NEW_PRIVS``,
  which nothing can unset and every descendant inherits) and a marker variable
  naming the harness in its environment.  Among the harness's own children, the
  orphans an engine left behind are the ones with either (the environment can be
  emptied by an ``exec``; ``no_new_privs`` only tells when the harness lacks it: a
  harness that has it, in a hardened container, looks for a message-queue size limit
  one byte under its own, which the engine is also given).

`contain` stops the engine's tree and those orphans with SIGSTOP until a fresh
scan finds nothing new (a stopped process cannot fork, and its children stay
attached to it), then SIGKILLs them all and reaps those that are the harness's
children.  It runs at every stop and kill of an engine, from the finalizer of an
engine nobody closed, and once more at interpreter exit.  Elsewhere (no /proc or
no prctl) only the process group is killed.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import resource
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable

#: The environment variable marking an engine process and what it starts.
MARKER = "CONFORMANCE_ENGINE_OF"
#: How long `contain` may take to freeze and kill a tree (a fork bomb is not waited out).
CONTAIN_LIMIT = 2.0
#: How long `_chase` watches for new orphans after the last one it caught.
QUIET = 0.05

_PR_GET_DUMPABLE = 3
_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_NO_NEW_PRIVS = 38
_PROC = "/proc"

_LINUX = sys.platform.startswith("linux") and os.path.isdir(f"{_PROC}/self")


def _load_prctl() -> Callable[..., int] | None:
    if not _LINUX:
        return None
    try:
        prctl: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return prctl


_prctl = _load_prctl()
#: pid of the process that made itself a subreaper, and its marker value; a forked
#: worker (multiprocessing) is a new pid and sets both up for itself.
_owner: int | None = None
_token = ""
#: Engine processes this process runs: never taken for orphans by a sweep.
_live: set[int] = set()


def supported() -> bool:
    """Whether descendants are contained beyond the process group (Linux with /proc)."""
    return _prctl is not None


def dumpable() -> bool | None:
    """Whether this process is dumpable (None where prctl is not to be had)."""
    return None if _prctl is None else _prctl(_PR_GET_DUMPABLE, 0, 0, 0, 0) == 1


def set_dumpable(on: bool) -> None:
    """``PR_SET_DUMPABLE``: off, no other process of our user (an engine, whatever it
    started) may ptrace this one or open its /proc/PID/fd, mem or environ -- the way
    to write into its stdout, the CI log, behind its back.  The kernel lets root
    (CAP_SYS_PTRACE) through regardless.  Engines are exec'd, and so dumpable again."""
    if _prctl is not None:
        _prctl(_PR_SET_DUMPABLE, 1 if on else 0, 0, 0, 0)


def token() -> str:
    """This process's marker value, for the engines it starts; sets up the harness side."""
    _adopt_orphans()
    return _token


def engine_env(env: dict[str, str] | None) -> dict[str, str]:
    """The environment an engine starts with: ``env`` (else ours) and the marker."""
    return {**(os.environ if env is None else env), MARKER: token()}


def preexec(then: Callable[[], None] | None) -> Callable[[], None] | None:
    """What runs in the engine between fork and exec: subreaper and no_new_privs, then
    ``then`` (a memory limit).  The prctl function is looked up here, in the parent."""
    prctl = _prctl
    if prctl is None:
        return then

    mark = _limit_mark()

    def engine_side() -> None:
        prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        if mark is not None:
            resource.setrlimit(resource.RLIMIT_MSGQUEUE, mark)
        if then is not None:
            then()

    return engine_side


def started(pid: int) -> None:
    """``pid`` is a running engine process of ours."""
    _live.add(pid)


def contain(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the engine ``proc``, everything it started, and every orphan an engine of
    ours left behind; reap those that are our children.  Bounded by `CONTAIN_LIMIT`."""
    _live.discard(proc.pid)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGSTOP)   # its group first: one call, no race
    # once reaped, its pid may be another process's: then only its orphans are looked for
    root = proc.pid if proc.returncode is None else None
    frozen = _freeze(root) if supported() else set()
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        proc.kill()
    if supported():
        frozen |= _chase(frozen)
    for pid in frozen:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    _reap(frozen - {proc.pid})


def sweep() -> None:
    """Kill and reap the orphans engines of ours left behind (interpreter exit)."""
    if supported() and _owner == os.getpid():
        frozen = _freeze(None)
        frozen |= _chase(frozen)
        for pid in frozen:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        _reap(frozen)


# -- the harness side ------------------------------------------------------------------


def _adopt_orphans() -> None:
    """Make this process a subreaper (once per process) and give it a marker value."""
    global _owner, _token
    if _owner == os.getpid():
        return
    _owner, _token = os.getpid(), f"{os.getpid()}.{secrets.token_hex(8)}"
    _live.clear()   # a forked worker runs none of its parent's engines
    if _prctl is not None:
        _prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        atexit.register(sweep)


def _freeze(root: int | None) -> set[int]:
    """SIGSTOP ``root``'s tree and our marked orphans (with their trees) until a scan
    finds nothing new; the pids stopped."""
    frozen: set[int] = set()
    deadline = time.monotonic() + CONTAIN_LIMIT
    me = os.getpid()
    while time.monotonic() < deadline:
        children = _children()
        tops = [root] if root is not None else []
        tops += [pid for pid in children.get(me, ()) if pid not in _live and _marked(pid)]
        found = set(_trees(tops, children)) - frozen
        if not found:
            break
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGSTOP)
        frozen |= found
    return frozen


def _chase(frozen: set[int]) -> set[int]:
    """Stop the engines' orphans that a scan of /proc cannot see in time: a process that
    forks and exits in a loop has a new pid before a scan ends.  Its every new pid is
    an orphan that comes to us, the subreaper (or to a stopped process of ``frozen``),
    so reading those parents' child lists (one small file each) finds it within
    microseconds, and it is stopped at once, before it looks at anything; a child of
    ours the engine did not start (no mark) is let go on.  Ends once the lists have
    held nothing new for `QUIET` seconds, or at `CONTAIN_LIMIT`."""
    me, caught, innocent = os.getpid(), set[int](), set(_live)
    deadline = time.monotonic() + CONTAIN_LIMIT
    quiet_until = time.monotonic() + QUIET
    while time.monotonic() < min(deadline, quiet_until):
        for parent in (me, *frozen, *caught):
            for pid in _child_list(parent):
                if pid in caught or pid in frozen or pid in innocent:
                    continue
                if parent == me and _zombie(pid):   # a loop's last pid: reap it, or
                    if _marked(pid):                 # thousands slow every scan down
                        with contextlib.suppress(ChildProcessError):
                            os.waitpid(pid, os.WNOHANG)
                    else:
                        innocent.add(pid)
                    continue
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGSTOP)   # first: a stopped process forks no more
                if parent == me and not _marked(pid):
                    innocent.add(pid)
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGCONT)
                    continue
                caught.add(pid)
                quiet_until = time.monotonic() + QUIET
    return caught


def _zombie(pid: int) -> bool:
    """Whether ``pid`` has exited and waits to be reaped."""
    with contextlib.suppress(OSError, IndexError), open(f"{_PROC}/{pid}/stat", "rb") as stat:
        return stat.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    return False


def _child_list(pid: int) -> list[int]:
    """``pid``'s children, from /proc/PID/task/*/children (an orphan may be given to
    any of its threads)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"{_PROC}/{pid}/task"):
            with contextlib.suppress(OSError, ValueError), \
                    open(f"{_PROC}/{pid}/task/{task}/children", "rb") as children:
                found += [int(child) for child in children.read().split()]
    return found


def _children() -> dict[int, list[int]]:
    """Every process's children, from the parent links in /proc/PID/stat."""
    children: dict[int, list[int]] = {}
    for name in os.listdir(_PROC):
        if not name.isdigit():
            continue
        try:
            with open(f"{_PROC}/{name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue   # gone meanwhile
        children.setdefault(int(fields[1]), []).append(int(name))
    return children


def _trees(tops: Iterable[int], children: dict[int, list[int]]) -> list[int]:
    """``tops`` and all their descendants (no recursion: a tree may be deep)."""
    out, todo = [], list(tops)
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += children.get(pid, ())
    return out


def _marked(pid: int) -> bool:
    """Whether our child ``pid`` came from an engine: the marker in its environment,
    or no_new_privs while we have none."""
    marker = f"{MARKER}={_token}".encode()
    with contextlib.suppress(OSError), open(f"{_PROC}/{pid}/environ", "rb") as environ:
        if marker in environ.read().split(b"\0"):
            return True
    if not _no_new_privs("self"):
        return _no_new_privs(str(pid))
    return _limit_marked(pid)


def _limit_mark() -> tuple[int, int] | None:
    """The third mark, for a harness that itself runs with no_new_privs (a hardened
    container) when an orphan has emptied its environment: a POSIX message-queue size
    limit one byte under ours, which every descendant inherits through fork and exec
    and which nothing an engine does by accident changes."""
    soft, hard = resource.getrlimit(resource.RLIMIT_MSGQUEUE)
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return None
    return soft - 1, hard


def _limit_marked(pid: int) -> bool:
    mark = _limit_mark()
    if mark is None:
        return False
    with contextlib.suppress(OSError), open(f"{_PROC}/{pid}/limits", "rb") as limits:
        for line in limits:
            if line.startswith(b"Max msgqueue size"):
                return line.split()[3] == str(mark[0]).encode()
    return False


def _no_new_privs(pid: str) -> bool:
    with contextlib.suppress(OSError), open(f"{_PROC}/{pid}/status", "rb") as status:
        for line in status:
            if line.startswith(b"NoNewPrivs:"):
                return line.split()[1] == b"1"
    return False


def _reap(pids: Iterable[int]) -> None:
    """Collect the exit status of those of ``pids`` that are our children (adopted
    orphans, killed), so none stays a zombie; bounded."""
    deadline = time.monotonic() + CONTAIN_LIMIT
    killed = set(pids)
    waiting = set(killed)
    while waiting and time.monotonic() < deadline:
        for pid in list(waiting):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                # not ours (yet): a child of a killed parent comes to us when that dies
                if _parent(pid) not in killed:
                    waiting.discard(pid)   # gone, or a live process's to reap
                continue
            if done:
                waiting.discard(pid)
        if waiting:
            time.sleep(0.005)


def _parent(pid: int) -> int | None:
    """``pid``'s parent, None once it is gone."""
    try:
        with open(f"{_PROC}/{pid}/stat", "rb") as stat:
            return int(stat.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None
