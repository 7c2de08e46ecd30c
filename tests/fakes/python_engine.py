"""A tiny in-process Python engine served by conformance._protocol.serve.

Its actions choose what it does: ``{"raise": "unsupported" | "value" | "fault"}``
raises, ``{"print": "..."}`` prints to stdout (which serve() must keep off the
wire), anything else is accepted and echoed.
"""

from typing import Any

from conformance import ProtocolViolation, Unsupported, serve


class TinyEngine:
    def __init__(self):
        self.game: Any = None   # the game's dict once started

    def hello(self):
        return {"name": "tiny", "version": "0.1", "rulesets": ["echo"],
                "capabilities": {"observe": True}}

    def start(self, ruleset, setup):
        if ruleset != "echo":
            raise Unsupported(f"only echo, not {ruleset}")
        self.game = {"setup": setup, "actions": []}

    def act(self, action):
        kind = action.get("raise")
        if kind == "unsupported":
            raise Unsupported("this action is not modelled")
        if kind == "value":
            raise ValueError("no such card: t9")
        if kind == "fault":
            raise ProtocolViolation("an engine-side check failed")
        if "print" in action:
            print(action["print"])
        self.game["actions"].append(action)
        return {"accepted": True, "events": [{"echo": action}]}

    def observe(self):
        return dict(self.game)

    def close(self):
        pass


if __name__ == "__main__":
    serve(TinyEngine())
