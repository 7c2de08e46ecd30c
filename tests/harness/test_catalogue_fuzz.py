"""Fuzzing the catalogue loader: arbitrary YAML-ish documents give errors, never crashes."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toy import CASE_ADD, write_catalogue

from conformance._catalogue import load_catalogue

# many generated documents: the slow layer
pytestmark = pytest.mark.slow

TOKENS = ["id:", "rules:", "steps:", "- ", "{", "}", "[", "]", ": ", "\n", "  ", "&a ", "*a",
          "!!python/object:os.system", "!!binary ", "'", '"', "#", "---\n", "...\n", "? ",
          "toy/R-1", "toy/x/y", "do:", "expect:", "\t", "\x00", "\ufeff", "%YAML 1.1\n", "|\n"]

pytestmark = pytest.mark.slow
yamlish = st.lists(st.sampled_from(TOKENS) | st.text(max_size=8), max_size=40).map("".join)

KEYS = st.sampled_from(["id", "title", "ruleset", "rules", "source", "setup", "steps", "do",
                        "expect", "notes", "x"])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(KEYS | st.text(max_size=5), inner, max_size=6),
    max_leaves=20)

# documents near a valid case: a valid one with one key replaced by a random value
mutated_case = st.tuples(st.sampled_from(sorted(yaml.safe_load(CASE_ADD))), json_values).map(
    lambda kv: yaml.safe_dump({**yaml.safe_load(CASE_ADD), "id": "toy/fuzz/x", kv[0]: kv[1]}))


def load_with(tmp_path_factory, text):
    root = write_catalogue(tmp_path_factory.mktemp("fuzz"))
    (root / "toy" / "fuzz.yaml").write_text(text, "utf-8", errors="surrogatepass")
    return load_catalogue(root)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=yamlish | json_values.map(yaml.safe_dump) | mutated_case)
def test_loader_never_crashes(tmp_path_factory, text):
    catalogue = load_with(tmp_path_factory, text)
    for error in catalogue.errors:
        message = str(error)
        assert "fuzz.yaml" in message or "add.yaml" in message, message
        assert error.hint, message  # every error says what to do
    ids = [c.id for c in catalogue.cases]
    assert len(ids) == len(set(ids))
