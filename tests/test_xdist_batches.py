"""Under pytest-xdist, workers send their conformance cases' events in batches
(`conformance._xdist`): the controller must see the very events, in the very
order, that plain pytest-xdist delivers, and a run must not wait on a batch."""

from __future__ import annotations

from pathlib import Path

import pytest
from toy import CASE_ADD, write_catalogue

from conformance import _xdist
from conformance._xdist import BATCH, Batching, Unpacking

HERE = Path(__file__).parent


def item(nodeid, index, outcome="passed"):
    """The events pytest-xdist's worker sends for one item."""
    reports = [("testreport", {"data": {"nodeid": nodeid, "when": when, "outcome": outcome}})
               for when in ("setup", "call", "teardown")]
    return [("logstart", {"nodeid": nodeid, "location": ("f", 0, nodeid)}), *reports,
            ("logfinish", {"nodeid": nodeid, "location": ("f", 0, nodeid)}),
            ("runtest_protocol_complete", {"item_index": index, "duration": 0.001})]


class Wire:
    """What a worker's Batching sends, unpacked by the controller's Unpacking."""

    def __init__(self, cases, pending=100):
        self.messages = []       # as sent over the channel
        self.delivered = []      # as the controller's handler receives them
        self.pending = pending
        node = type("Node", (), {})()
        node.workerinput = {}
        node.process_from_remote = self.delivered.append
        Unpacking().pytest_configure_node(node)
        assert node.workerinput == {BATCH: True}
        self.node = node
        self.batching = Batching(self.send, lambda: self.pending, set(cases))

    def send(self, name, **kwargs):
        self.messages.append((name, kwargs))
        self.node.process_from_remote((name, kwargs))   # a channel delivers tuples

    def run(self, events):
        for name, kwargs in events:
            self.batching.sendevent(name, **kwargs)


def test_cases_events_arrive_unchanged_and_in_order_in_fewer_messages():
    cases = [f"c{i}" for i in range(5)]
    wire = Wire(cases)
    events = [e for i, c in enumerate(cases) for e in item(c, i)]
    wire.run(events)
    assert wire.messages == []          # young, small and the queue is full: held
    wire.batching.flush()
    assert [name for name, _ in wire.messages] == [BATCH]
    assert wire.delivered == events


def test_other_items_and_other_events_go_out_at_once_after_what_was_held():
    wire = Wire(["c0", "c1"])
    events = [*item("c0", 0), *item("prop", 1), ("logwarning", {"message": "m"}),
              *item("c1", 2), ("workerfinished", {"workeroutput": {}})]
    wire.run(events)
    assert wire.delivered == events
    # c0 went out as one batch before the property, whose events each went alone;
    # c1's batch went out before the worker finished
    assert [name for name, _ in wire.messages] == [
        BATCH, *(name for name, _ in item("prop", 1)), "logwarning", BATCH, "workerfinished"]


def test_a_failed_report_sends_its_batch_when_the_item_ends():
    wire = Wire(["c0", "c1"])
    wire.run(item("c0", 0))
    assert wire.messages == []
    events = item("c1", 1, outcome="failed")
    wire.run(events[:-1])
    wire.batching.note_failure()
    assert wire.messages == []          # not before the item's last event
    wire.run(events[-1:])
    assert len(wire.messages) == 1 and len(wire.delivered) == 12


def test_a_low_queue_sends_the_batch_so_the_scheduler_sends_more():
    wire = Wire(["c0"], pending=_xdist.LOW_QUEUE - 1)
    wire.run(item("c0", 0))
    assert [name for name, _ in wire.messages] == [BATCH]


def test_an_old_or_a_full_batch_goes_out(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(_xdist.time, "monotonic", lambda: now[0])
    wire = Wire(["c0", "c1"])
    wire.run(item("c0", 0))
    now[0] += 2 * _xdist.MAX_AGE
    wire.run(item("c1", 1))
    assert len(wire.messages) == 1 and len(wire.delivered) == 12

    monkeypatch.setattr(_xdist, "MAX_EVENTS", 12)
    wire = Wire(["c0", "c1"])
    wire.run(item("c0", 0))
    assert wire.messages == []
    wire.run(item("c1", 1))
    assert len(wire.messages) == 1


def test_a_worker_batches_only_when_its_controller_asked_and_xdist_is_as_expected():
    class WorkerInteractor:   # the shape of pytest-xdist's worker side
        def __init__(self):
            self.torun = type("Q", (), {"_items": [1, 2]})()
            self.sent = []

        def sendevent(self, name, **kwargs):
            self.sent.append(name)

    class Config:
        def __init__(self, workerinput, plugins):
            self.workerinput = workerinput
            self.pluginmanager = type("PM", (), {"get_plugins": lambda _: plugins})()

    interactor = WorkerInteractor()
    assert Batching.install(Config({}, [interactor]), {"c"}) is None
    assert Batching.install(Config({BATCH: True}, [object()]), {"c"}) is None
    batching = Batching.install(Config({BATCH: True}, [interactor]), {"c"})
    assert batching is not None and interactor.sendevent == batching.sendevent
    assert batching._pending() == 2
    interactor.torun._items = [3]   # a steal replaces the queue's deque
    assert batching._pending() == 1


def test_a_node_unlike_pytest_xdists_is_left_alone():
    node = type("Node", (), {})()
    Unpacking().pytest_configure_node(node)
    assert not hasattr(node, "workerinput")


CONFTEST = """
def pytest_testnodedown(node, error):
    sent = node.workeroutput.get("conformance_batch", 0)
    print(f"\\nworker {node.gateway.id} sent {sent} batches")
"""


def many_cases(root, count):
    """The toy catalogue with ``count`` more copies of its passing case."""
    first, rest = CASE_ADD.split("\n", 1)
    return write_catalogue(root, {f"add-{k}.yaml": f"{first}-{k}\n{rest}" for k in range(count)})


@pytest.mark.slow
@pytest.mark.parametrize("dist", ["load", "worksteal"])
def test_under_xdist_batches_are_sent_and_every_item_is_reported(pytester, monkeypatch, dist):
    """A real pytest-xdist run: batches were used, and the terminal, --junitxml and
    the conformance report hold every item, conformance or not."""
    import json
    import xml.etree.ElementTree as ET

    pytest.importorskip("xdist", reason="pytest-xdist is a dev dependency (pip install -e .[dev])")
    monkeypatch.setenv("PYTHONPATH", str(HERE))
    root = many_cases(pytester.path / "cases", 60)
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_plain="def test_one(): pass\ndef test_two(): pass\n")
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--engine", "python:toy:ToyEngine", "--conformance-cases",
        str(root), "-n", "2", "--dist", dist, "-s", "--junitxml", "junit.xml",
        "--conformance-report", "out")
    assert result.ret == 0
    result.assert_outcomes(passed=64)
    sent = [int(line.split()[3]) for line in result.stdout.lines
            if line.startswith("worker ") and "batches" in line]
    assert len(sent) == 2 and sum(sent) > 0
    cases = ET.parse(pytester.path / "junit.xml").getroot().iter("testcase")
    assert len(list(cases)) == 64
    report = json.loads((pytester.path / "out" / "report.json").read_text())
    # every item passed; toy/R-3 has no item, so the verdict is partial, not pass
    assert report["summary"]["pass"] == 62 and report["verdict"]["status"] == "partial"
    assert report["verdict"]["rules"]["seed"] == {"pass": 2, "total": 3, "checked": 2}


@pytest.mark.slow
def test_under_xdist_maxfail_stops_as_early_as_without_batches(pytester, monkeypatch):
    pytest.importorskip("xdist", reason="pytest-xdist is a dev dependency (pip install -e .[dev])")
    monkeypatch.setenv("PYTHONPATH", str(HERE))
    root = many_cases(pytester.path / "cases", 300)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--engine", "python:toy:WrongEngine", "--conformance-cases",
        str(root), "-n", "2", "-x")
    assert result.ret == pytest.ExitCode.INTERRUPTED   # how pytest-xdist ends a -x run
    result.stdout.fnmatch_lines(["*stopping after 1 failures*"])
    # every case fails; the run stops once the first failure reaches the controller,
    # not when a batch of hundreds of failures would have been full
    assert 1 <= result.parseoutcomes()["failed"] <= 4


def test_a_batch_travels_as_one_marshal_blob_unless_a_value_is_not_marshal_data():
    wire = Wire(["c0", "c1"])
    wire.run(item("c0", 0))
    wire.batching.flush()
    assert type(wire.messages[0][1]["events"]) is bytes
    odd = [("logstart", {"nodeid": "c1", "location": object()}), *item("c1", 1)[1:]]
    wire.run(odd)
    wire.batching.flush()
    assert type(wire.messages[1][1]["events"]) is list
    assert wire.delivered == [*item("c0", 0), *odd]


def test_events_sent_from_another_thread_meanwhile_are_neither_lost_nor_reordered():
    """pytest-xdist's channel callback sends "unscheduled" (--dist worksteal) from
    its own thread while the worker's main thread is holding a batch."""
    import threading

    cases = [f"c{i}" for i in range(300)]
    wire = Wire(cases)
    mine = [e for i, c in enumerate(cases) for e in item(c, i)]
    theirs = [("unscheduled", {"indices": [k]}) for k in range(300)]
    other = threading.Thread(target=wire.run, args=(theirs,))
    other.start()
    wire.run(mine)
    other.join()
    wire.batching.flush()
    assert [e for e in wire.delivered if e[0] != "unscheduled"] == mine
    assert [e for e in wire.delivered if e[0] == "unscheduled"] == theirs
