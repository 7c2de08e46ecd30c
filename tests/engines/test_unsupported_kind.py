"""`Unsupported(reason, kind=...)`: the kind travels in process, over the protocol and
into report.json, and the summaries count skips by it (docs/protocol.md "Skipped, and
why")."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conformance import Unsupported
from conformance._engine import UNSUPPORTED_KINDS
from conformance._protocol import handle, problem
from conformance._verdict import skip_kinds


class _Refuses:
    def hello(self):
        return {"name": "refuses", "version": "1", "rulesets": ["vision"]}

    def start(self, ruleset, setup):
        raise Unsupported("no decks here", kind="not-mapped")

    def act(self, action):
        raise Unsupported("nothing")

    def observe(self):
        return {}

    def close(self):
        pass


def test_kind_is_optional_and_checked():
    assert Unsupported("x").kind is None
    assert Unsupported("x", kind="impossible").kind == "impossible"
    with pytest.raises(ValueError, match="one of"):
        Unsupported("x", kind="maybe")
    assert set(UNSUPPORTED_KINDS) == {"engine-gap", "impossible", "not-mapped"}


def test_the_skipped_reply_carries_the_kind_only_when_given():
    start = json.dumps({"seq": 1, "cmd": "start", "ruleset": "vision", "setup": {}})
    reply, _ = handle(_Refuses(), start)
    assert reply == {"seq": 1, "skipped": {"reason": "no decks here", "kind": "not-mapped"}}
    assert not problem("reply-skipped", reply)
    act = json.dumps({"seq": 2, "cmd": "act", "action": {"pass": "p1"}})
    reply, _ = handle(_Refuses(), act)
    assert reply["skipped"] == {"reason": "nothing"}


def test_skips_are_counted_by_kind():
    results: Any = [{"id": "a", "status": "skip", "skip_kind": "engine-gap"},  # partial
                                     {"id": "b", "status": "skip", "skip_kind": "engine-gap"},
                                     {"id": "c", "status": "skip"},
                                     {"id": "d", "status": "pass", "skip_kind": None}]
    assert skip_kinds(results) == [("engine-gap", 2), ("no kind given", 1)]


def test_no_kind_line_when_no_skip_has_a_kind(capsys):
    """"skipped, by kind: 2 no kind given" says nothing: the line goes (CLI, Markdown)."""
    from pathlib import Path

    import toy

    from conformance._cli import main

    results: Any = [{"id": "a", "status": "skip"}, {"id": "b", "status": "skip"}]   # partial
    assert skip_kinds(results) == []
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        cases = toy.write_catalogue(Path(tmp) / "cases")
        main(["run", "--engine", "python:toy:SkippingEngine", "--cases", str(cases),
              "--allow-no-verdict", "--profile", "quick", "--out", str(Path(tmp) / "out")])
        out = capsys.readouterr().out
        assert "skipped, by reason" in out and "by kind" not in out, out
        assert "By kind" not in (Path(tmp) / "out" / "report.md").read_text()
