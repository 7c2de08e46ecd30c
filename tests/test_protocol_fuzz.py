"""Fuzzing the protocol reader: whatever bytes an engine writes, the adapter answers
with a valid reply or one of the documented faults, within its timeout."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance import EngineFault, Unsupported
from conformance._subprocess import SubprocessEngine

REPLAY = Path(__file__).parent / "engines" / "replay.py"
TIMEOUT = 0.5

json_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=5)
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)
# replies that are numbered right and shaped almost right: ok/skipped/error with random bodies
near_replies = st.builds(
    lambda key, body, extra: json.dumps({"seq": "{seq}", key: body, **extra}).replace(
        '"{seq}"', "{seq}").encode() + b"\n",
    st.sampled_from(["ok", "skipped", "error", "okay"]),
    json_values | st.fixed_dictionaries({"accepted": st.booleans(), "events": json_values}),
    st.dictionaries(st.sampled_from(["ok", "x", "seq2"]), json_scalars, max_size=1))
streams = st.binary(max_size=300) | near_replies | st.lists(near_replies, min_size=2,
                                                            max_size=3).map(b"".join)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=streams)
def test_any_byte_stream_gives_a_reply_or_a_documented_fault(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "reply.bin"
    path.write_bytes(data)
    engine = SubprocessEngine([sys.executable, str(REPLAY), "--bytes", str(path)],
                              timeout=TIMEOUT, startup_timeout=10)
    try:
        engine.start("echo", {})
        began = time.monotonic()
        try:
            reply = engine.act({"noop": {}})
        except (EngineFault, Unsupported) as exc:
            assert str(exc)
        else:
            assert isinstance(reply["accepted"], bool) and isinstance(reply["events"], list)
        assert time.monotonic() - began < TIMEOUT + 2.0
    finally:
        engine.close()
