"""The protocol schemas, and docs/protocol.md held to them: examples, limits, minimal engine."""

from __future__ import annotations

import inspect
import json
import re
import sys
from pathlib import Path

import jsonschema
import pytest

from conformance import PROTOCOL_VERSION, Unsupported, _schemas
from conformance._protocol import COMMANDS, problem, reply_schema, request_schema
from conformance._subprocess import STOP_GRACE, SubprocessEngine

DOCS = Path(__file__).parents[2] / "docs" / "protocol.md"


def schemas():
    """Every protocol schema shipped, by file stem (``request-act``, ``reply-error``, ...)."""
    return {parts[-1].removesuffix(".json"): _schemas.load(*parts)
            for parts in _schemas.shipped("schemas") if parts[:2] == ("schemas", "protocol")}


def test_every_schema_is_valid_2020_12_and_named_by_its_id():
    found = schemas()
    assert found, "no protocol schemas shipped"
    for name, schema in found.items():
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$id"].endswith(f"/protocol/{name}.json")


def test_each_command_has_a_request_and_a_reply_schema_and_nothing_else_is_shipped():
    expected = {f"request-{c}" for c in COMMANDS} | {f"reply-{c}" for c in COMMANDS}
    expected |= {"reply-skipped", "reply-error", "common"}
    assert set(schemas()) == expected


@pytest.mark.parametrize(("name", "message"), [
    ("request-hello", {"seq": 1, "cmd": "hello"}),
    ("request-hello", {"seq": 0, "cmd": "hello", "protocol": 1}),
    ("request-start", {"seq": 2, "cmd": "start", "ruleset": "Vision!", "setup": {}}),
    ("request-act", {"seq": 3, "cmd": "act", "action": {}, "extra": 1}),
    ("reply-hello", {"seq": 1, "ok": {"name": "x", "version": "1", "rulesets": []}}),
    ("reply-hello", {"seq": True, "ok": {"name": "x", "version": "1", "rulesets": [],
                                         "protocol": 1}}),
    ("reply-act", {"seq": 3, "ok": {"events": []}}),
    ("reply-act", {"seq": 3, "ok": {"accepted": True, "events": ["damage"]}}),
    ("reply-observe", {"seq": 4, "ok": []}),
    ("reply-skipped", {"seq": 2, "skipped": {"reason": ""}}),
    ("reply-error", {"seq": 2, "error": "boom"}),
    ("reply-error", {"seq": 2, "error": {"message": "boom"}, "ok": None}),
])
def test_schemas_reject_what_they_should(name, message):
    assert problem(name, message) is not None


@pytest.mark.parametrize(("cmd", "reply", "schema"), [
    ("act", {"seq": 1, "ok": {}}, "reply-act"),
    ("act", {"seq": 1, "skipped": {"reason": "r"}}, "reply-skipped"),
    ("hello", {"seq": 1, "skipped": {"reason": "r"}}, ""),
    ("stop", {"seq": 1, "skipped": {"reason": "r"}}, ""),
    ("observe", {"seq": 1, "error": {"message": "m"}}, "reply-error"),
    ("observe", {"seq": 1, "ok": {}, "error": {"message": "m"}}, ""),
    ("observe", {"seq": 1}, ""),
    ("observe", [], ""),
])
def test_a_reply_is_checked_against_the_schema_of_its_outcome(cmd, reply, schema):
    assert reply_schema(cmd, reply) == schema


# -- docs/protocol.md ---------------------------------------------------------------


def transcripts() -> list[list[tuple[str, dict]]]:
    """The ```jsonl blocks of the docs: lists of (direction, message)."""
    blocks = re.findall(r"```jsonl\n(.*?)```", DOCS.read_text("utf-8"), re.DOTALL)
    assert blocks, "docs/protocol.md lost its examples"
    parsed = []
    for block in blocks:
        lines = [line for line in block.splitlines() if line.strip()]
        parsed.append([(line[0], json.loads(line[1:])) for line in lines])
    return parsed


def test_every_example_in_the_docs_is_a_valid_message():
    covered = set()
    for block in transcripts():
        request = None
        for direction, message in block:
            assert direction in "→←"
            if direction == "→":
                request = message
                name = request_schema(message)
            else:
                assert request is not None and message["seq"] == request["seq"]
                name = reply_schema(request["cmd"], message)
            assert name and problem(name, message) is None, (name, message)
            covered.add(name)
    assert covered == set(schemas()) - {"common"}


def test_the_docs_state_the_adapters_real_limits():
    text = DOCS.read_text("utf-8")
    defaults = {k: p.default for k, p in inspect.signature(SubprocessEngine).parameters.items()}
    assert f"{defaults['max_reply_bytes']:,} bytes" in text
    assert f"last {defaults['stderr_limit']:,} bytes" in text
    assert f"startup timeout (process start + `hello`) | {defaults['startup_timeout']:g} s" in text
    assert f"{STOP_GRACE:g} s, then killed" in text
    assert f"currently {PROTOCOL_VERSION}" in text


def test_the_minimal_engine_in_the_docs_passes_the_handshake_and_a_game(tmp_path):
    match = re.search(r"<!-- minimal-engine.*?-->\n```python\n(.*?)```",
                      DOCS.read_text("utf-8"), re.DOTALL)
    assert match, "docs/protocol.md lost its minimal engine"
    code = match.group(1)
    assert len(code.strip().splitlines()) <= 45
    script = tmp_path / "mini.py"
    script.write_text(code)
    with SubprocessEngine([sys.executable, str(script)], timeout=5.0) as engine:
        assert engine.hello()["name"] == "mini"
        engine.start("vision", {"p1": {"nodes": 6}})
        assert engine.act({"play": "s1", "by": "p1"})["accepted"] is True
        with pytest.raises(Unsupported, match="only play actions"):
            engine.act({"pass": True})
        assert engine.observe() == {"cards": {}, "players": {}}
