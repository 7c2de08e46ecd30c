"""The compiled checks and the full validators give the same verdicts.

`conformance._schemas.check` (fastjsonschema) decides whether every message
and catalogue file is valid; jsonschema only explains.  A check more lenient
than the schema would let garbage through silently, so they are compared on
the real catalogue, on messages of every protocol schema, and on mutations of
both that Hypothesis generates.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance import ProtocolViolation, _compiled, _schemas
from conformance._loading import InProcessEngine

ROOT = Path(__file__).resolve().parents[2]
CASES = sorted((ROOT / "cases").rglob("*.yaml"))
PROTOCOL = sorted(p.stem for p in (ROOT / "conformance/schemas/protocol").glob("*.json")
                  if p.stem != "common")


def vocabulary(ruleset: str) -> tuple[str, str, str]:
    """The schema parts of a ruleset's vocabulary (every pack names its entries alike)."""
    return ("rulesets", ruleset, "vocabulary.json")

ENTRIES = ("setup", "action", "card_state", "player_state", "event")

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-2, 2, allow_nan=False)
    | st.sampled_from(["", "x", "vision", "Vision!", "accepted", "p1", "t1", "hand"]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["seq", "ok", "cmd", "name", "accepted", "events",
                                       "rulesets", "zone", "x", "state"]), inner, max_size=4),
    max_leaves=8)


def agree(value: Any, *parts: str, entry: str | None = None) -> bool:
    fast = _schemas.check(*parts, entry=entry)(value)
    full = _schemas.validator(*parts, entry=entry).is_valid(value)
    assert fast == full, f"compiled check says {fast}, jsonschema says {full} for {value!r:.300}"
    return fast


def mutate(value: Any, data: st.DataObject) -> Any:
    """``value`` with one place replaced, removed or added, chosen by Hypothesis."""
    value = copy.deepcopy(value)
    holder: Any = None
    key: Any = None
    here = value
    while isinstance(here, dict | list) and here and data.draw(st.booleans()):
        keys = list(here) if isinstance(here, dict) else list(range(len(here)))
        holder, key = here, data.draw(st.sampled_from(keys))
        here = holder[key]
    if holder is None:
        return data.draw(json_values)
    action = data.draw(st.sampled_from(["replace", "remove", "add"]))
    if action == "replace":
        holder[key] = data.draw(json_values)
    elif action == "remove":
        del holder[key]
    elif isinstance(holder, dict):
        holder[data.draw(st.sampled_from(["extra", "name", "ok"]))] = data.draw(json_values)
    else:
        holder.append(data.draw(json_values))
    return value


def load_yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text("utf-8"))


@pytest.mark.parametrize("path", CASES, ids=lambda p: str(p.relative_to(ROOT / "cases")))
def test_every_catalogue_file_passes_both(path):
    data = load_yaml(path)
    schema = "rules.json" if path.name == "rules.yaml" else "case.json"
    assert agree(data, "schemas", schema)
    if schema == "case.json":
        assert agree(data["setup"], *vocabulary(data["ruleset"]), entry="setup")
        for step in data["steps"]:
            assert agree(step["do"], *vocabulary(data["ruleset"]), entry="action")


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.data())
def test_mutated_cases_get_the_same_verdict(data):
    case = load_yaml(data.draw(st.sampled_from([p for p in CASES if p.name != "rules.yaml"])))
    agree(mutate(case, data), "schemas", "case.json")
    words = vocabulary(case["ruleset"])
    agree(mutate(case["setup"], data), *words, entry="setup")
    step = data.draw(st.sampled_from(case["steps"]))
    agree(mutate(step["do"], data), *words, entry="action")
    entry = data.draw(st.sampled_from(ENTRIES))
    agree(data.draw(json_values), *words, entry=entry)


MESSAGES: dict[str, dict[str, Any]] = {
    "request-hello": {"seq": 1, "cmd": "hello", "protocol": 1},
    "request-start": {"seq": 2, "cmd": "start", "ruleset": "vision", "setup": {}},
    "request-act": {"seq": 3, "cmd": "act", "action": {"pass": "p1"}, "observe": True},
    "request-observe": {"seq": 4, "cmd": "observe"},
    "request-play": {"seq": 6, "cmd": "play", "ruleset": "vision", "setup": {},
                     "steps": [{"action": {"pass": "p1"}}, {"action": {}, "observe": True}]},
    "request-stop": {"seq": 5, "cmd": "stop"},
    "reply-hello": {"seq": 1, "ok": {"name": "e", "version": "1", "rulesets": ["vision"],
                                     "capabilities": {}, "protocol": 1}},
    "reply-start": {"seq": 2, "ok": None},
    "reply-act": {"seq": 3, "ok": {"accepted": True, "events": [{"x": 1}], "reason": None,
                                   "state": {"cards": {}}}},
    "reply-observe": {"seq": 4, "ok": {"cards": {}, "players": {}}},
    "reply-play": {"seq": 6, "ok": {"replies": [{"accepted": True}, {
        "accepted": False, "events": [], "reason": "no", "state": {"cards": {}}}]}},
    "reply-stop": {"seq": 5, "ok": None},
    "reply-skipped": {"seq": 3, "skipped": {"reason": "not modelled"}},
    "reply-error": {"seq": None, "error": {"message": "boom", "traceback": "..."}},
}


def test_every_protocol_schema_has_a_valid_example():
    assert set(MESSAGES) == set(PROTOCOL)
    for name, message in MESSAGES.items():
        assert agree(message, "schemas", "protocol", f"{name}.json"), name


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PROTOCOL), st.data())
def test_mutated_messages_get_the_same_verdict(name, data):
    agree(mutate(MESSAGES[name], data), "schemas", "protocol", f"{name}.json")
    agree(data.draw(json_values), "schemas", "protocol", f"{name}.json")


@pytest.mark.parametrize(("schema", "good", "bad"), [
    ({"const": True}, [True], [1, 1.0]),
    ({"const": 1}, [1, 1.0], [True]),
    ({"enum": [0, 2]}, [0, 2], [False]),
    ({"enum": [False]}, [False], [0]),
    ({"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n", "minimum": 3}, [3], [2, "x"]),
])
def test_the_compiled_form_keeps_2020_12_meaning(schema, good, bad):
    # bools are not numbers in JSON Schema, but True == 1 in Python; and in
    # 2020-12 the keywords beside a $ref apply, where draft 7 ignored them.
    compiled = _compiled.compile_check(_compiled.for_compiler(schema), json.dumps(schema), {}, "")
    for value in good:
        compiled(value)
    for value in bad:
        with pytest.raises(Exception, match="must"):
            compiled(value)


def test_a_keyword_the_compiler_does_not_know_leaves_the_check_to_jsonschema():
    assert _compiled.fast_enough({"type": "object", "properties": {"a": {"type": "string"}}})
    assert not _compiled.fast_enough({"properties": {"a": {"unevaluatedProperties": False}}})


def test_an_explanation_is_only_built_for_an_invalid_value():
    good = MESSAGES["reply-act"]
    assert _schemas.best_error(good, "schemas", "protocol", "reply-act.json") is None
    error = _schemas.best_error({"seq": 3, "ok": {"accepted": "yes"}},
                                "schemas", "protocol", "reply-act.json")
    assert error is not None and list(error.path) == ["ok", "accepted"]


@pytest.mark.parametrize(("hello", "where"), [
    ({"name": "", "version": "1", "rulesets": ["vision"]}, "$.name"),
    ({"name": "e", "version": "1", "rulesets": ["Vision!", 3]}, "$.rulesets["),
    ({"name": "e", "rulesets": ["vision"]}, "version"),
])
def test_the_in_process_adapter_checks_answers_with_the_protocol_schemas(hello, where):
    class Engine:
        def hello(self):
            return hello

    adapter = InProcessEngine(Engine, "python:test")
    with pytest.raises(ProtocolViolation, match=r"reply-hello\.json") as caught:
        adapter.hello()
    assert where in caught.value.message


@pytest.mark.parametrize("name", [n for n in PROTOCOL if n.startswith("reply-")
                                  and "answer" in _schemas.load("schemas", "protocol",
                                                                f"{n}.json").get("$defs", {})])
def test_an_answer_is_checked_by_its_own_entry_without_the_reply_around_it(name):
    # the in-process adapter checks what an engine returned against $defs/answer: the
    # reply's own required seq must not bind it, in the compiled check or in jsonschema
    answer = MESSAGES[name]["ok"]
    assert agree(answer, "schemas", "protocol", f"{name}.json", entry="answer")
    assert _schemas.check("schemas", "protocol", f"{name}.json", entry="answer")(answer)


def test_compiled_code_is_cached_by_the_schema_it_was_made_from():
    # the same identity with another form must not reuse the code of the first
    strict = _compiled.compile_check({"type": "integer"}, "same name", {}, "")
    loose = _compiled.compile_check({"type": "string"}, "same name", {}, "")
    strict(3)
    loose("x")
    with pytest.raises(Exception, match="must"):
        loose(3)


def test_importing_the_package_imports_no_validator_parser_or_hypothesis():
    code = ("import sys, conformance, conformance._plugin; "
            "print(json.dumps(sorted(m for m in ('jsonschema', 'fastjsonschema', 'yaml', "
            "'hypothesis', 'referencing') if m in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", "import json; " + code], check=True,
                         capture_output=True, text=True).stdout
    assert json.loads(out) == []


def test_every_shipped_schema_is_checked_by_compiled_code():
    """One keyword the compiler does not know (``prefixItems`` did it once) sends every
    message of every run to the slow validator, which nothing else would notice."""
    from conformance import _compiled, _schemas
    from conformance._discovery import ruleset_names
    from conformance.vocabulary import vocabulary_path

    shipped = dict(_schemas._by_id())
    for ruleset in ruleset_names():   # the vocabularies check every case of a cold load
        path = vocabulary_path(ruleset)
        if path is not None:
            shipped[str(path)] = _schemas.load(str(path))
    slow = {name: sorted({k for sub in _compiled._subschemas(schema)
                          for k in sub} - _compiled.FAST_KEYWORDS)
            for name, schema in shipped.items()
            if not _compiled.fast_enough(schema)}
    assert slow == {}, "keywords fastjsonschema is not given (see conformance/_compiled.py)"
