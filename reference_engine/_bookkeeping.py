"""What every ruleset's game state shares: timestamps, the event log and the two seats.

A mixin for the ``state.Game`` of each ruleset package; it decides no rule.
"""

from __future__ import annotations

from typing import Any


class Bookkeeping:
    """Timestamps (arrival order), events of the current action, p1/p2 seen as self/opponent."""

    events: list[dict[str, Any]]
    _clock: int = 0

    def tick(self) -> int:
        """A fresh timestamp."""
        self._clock += 1
        return self._clock

    def emit(self, kind: str, **fields: Any) -> None:
        self.events.append({"type": kind, **fields})

    @staticmethod
    def opponent(player: str) -> str:
        return "p2" if player == "p1" else "p1"

    def who(self, who: str, controller: str) -> str:
        """A WHO (``self``/``opponent``) as seen by ``controller``."""
        return controller if who == "self" else self.opponent(controller)
