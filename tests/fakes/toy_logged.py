"""The toy engine (tests/support/toy.py) served as a subprocess that appends
``hello <pid>`` and ``close <pid>`` to the file named by its argument, so a test
can see which engine process was alive when."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "support"))

from toy import ToyEngine

from conformance import serve

LOG = Path(sys.argv[1])


class LoggedEngine(ToyEngine):
    def hello(self):
        self._say("hello")
        return super().hello()

    def close(self):
        self._say("close")

    def _say(self, what):
        with LOG.open("a") as log:
            log.write(f"{what} {os.getpid()}\n")


serve(LoggedEngine())
