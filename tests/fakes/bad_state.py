"""The tiny Python engine behind `serve`, whose observe answers a list, not a state."""

from python_engine import TinyEngine

from conformance import serve


class BadState(TinyEngine):
    def observe(self):
        return ["not", "a", "state"]


if __name__ == "__main__":
    serve(BadState())
