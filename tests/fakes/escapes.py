"""Leaves a grandchild behind that escapes the process group, then behaves (or not).

Before answering hello it double-forks: the grandchild calls setsid() (a session
and group of its own) and is orphaned at once; its pid is in --file.pid before
the hello is answered; it sleeps --delay seconds, then writes --file (a stand-in
for rewriting report.json after the run).  With --clear-env it first execs
Python with an empty environment.  With --exit-at CMD the engine exits (code 0)
instead of answering CMD, while the grandchild still holds its stdout open.
--slow S sleeps S seconds before each act.
"""

import os
import sys
import time

import _wire

LATER = "import sys, time; time.sleep(float(sys.argv[2])); open(sys.argv[1], 'w').write('escaped')"


def leave_a_grandchild(args):
    if os.fork():
        os.wait()   # the middle process exits at once: the grandchild is an orphan
        return
    os.setsid()
    grandchild = os.fork()
    if grandchild:   # written before the engine answers hello: no test reads it half-done
        with open(args.file + ".pid", "w") as pid:
            pid.write(str(grandchild))
        os._exit(0)
    argv = [sys.executable, "-c", LATER, args.file, str(args.delay)]
    if args.clear_env:
        os.execve(sys.executable, argv, {})
    os.execv(sys.executable, argv)


def misbehave(request, args, state):
    if request["cmd"] == "hello" and not state.seen["escaped"]:
        state.seen["escaped"] += 1
        leave_a_grandchild(args)
    if request["cmd"] == args.exit_at:
        os._exit(0)
    if request["cmd"] == "act":
        time.sleep(args.slow)
    _wire.ok(request, state)


def options(parser):
    parser.add_argument("--file", required=True)
    parser.add_argument("--delay", type=float, default=2.0)
    parser.add_argument("--clear-env", action="store_true")
    parser.add_argument("--exit-at", default="")
    parser.add_argument("--slow", type=float, default=0.0)


if __name__ == "__main__":
    _wire.main(misbehave, at="hello,start,act,observe", options=options,
               rulesets=("vision",))
