"""``--jobs N`` (conformance/_parallel.py): the workers' engines and the parent's."""

from __future__ import annotations

from commands import fake_engine
from toy import write_catalogue

from conformance._certify import RunConfig, certify
from conformance._settings import get_profile


def test_the_parents_engine_is_closed_before_any_worker_starts_its_own(tmp_path):
    """The parent's engine only shakes hands: were it open at the fork, every worker
    would inherit its pipes, and an engine that waits for EOF would outlive the run."""
    log = tmp_path / "engines.log"
    report = certify(RunConfig(engine_spec=fake_engine("toy_logged.py", str(log)),
                               cases_root=write_catalogue(tmp_path / "cases"),
                               profile=get_profile("quick"), jobs=2))
    assert report["summary"]["pass"] == 2
    said = [line.split() for line in log.read_text().splitlines()]
    parent = said[0][1]
    assert said[:2] == [["hello", parent], ["close", parent]]
    workers = {pid for what, pid in said[2:] if what == "hello"}
    assert parent not in workers and len(workers) == 2
