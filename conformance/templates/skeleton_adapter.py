"""A skeleton adapter: your engine, in-process, behind the five methods of
`conformance.Engine` (docs/protocol.md has what each receives and answers).

It claims the rulesets in RULESETS and maps nothing yet: every case is
skipped with the reason raised below, so the first certification runs end to
end and says, most frequent first, what to map next.

    conformance certify --engine python:engine_adapter:create --allow-no-verdict --out out/
"""

from typing import Any

from conformance import Unsupported

RULESETS = ["vision"]   # the rulesets you claim (`conformance init --ruleset` sets it)
# the vocabulary version you speak, per claimed ruleset (docs/protocol.md): `init` writes
# the latest; keep it when the catalogue moves on, until you map the newer words
VOCABULARY = {"vision": 2}


class Adapter:
    def hello(self) -> dict[str, Any]:
        return {"name": "my-engine", "version": "0.0.1", "rulesets": RULESETS,
                "vocabulary": VOCABULARY, "capabilities": {}}

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        # map the canonical board (docs/rulesets/<ruleset>.md) onto your engine's game
        raise Unsupported(f"setups of {ruleset} are not mapped yet")

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        # return {"accepted": True, "events": [...]} or {"accepted": False, ...}
        raise Unsupported(f"action {sorted(action)} is not mapped yet")

    def observe(self) -> dict[str, Any]:
        # return the state as {"cards": {...}, "players": {...}}
        raise Unsupported("observations are not mapped yet")

    def close(self) -> None:
        pass


def create() -> Adapter:
    return Adapter()
