"""Known-failures files are bounded: a size and entry cap, one warning for many bad lines,
and a warning for a glob that would make every failure expected."""

from __future__ import annotations

import pytest
import toy
from commands import conformance_in_process

from conformance._errors import ExitCode, UsageError
from conformance._knownfail import MAX_BYTES, MAX_ENTRIES, UNMATCHED_SHOWN, KnownFailures

IDS = ["toy/add/two-plus-three", "toy/negative/rejected", "toy/prop/adds-add"]


def warnings(tmp_path, text: str, ids: list[str] = IDS) -> list[str]:
    listing = tmp_path / "known.txt"
    listing.write_text(text, "utf-8")
    return [p["message"] for p in KnownFailures.read(listing).review([], ids)]


def test_a_file_over_the_size_cap_is_a_usage_error_not_read_whole(tmp_path):
    listing = tmp_path / "known.txt"
    listing.write_bytes(b"# " + b"x" * MAX_BYTES + b"\n")
    with pytest.raises(UsageError, match=f"over the {MAX_BYTES}-byte limit"):
        KnownFailures.read(listing)
    cases = toy.write_catalogue(tmp_path / "cases")
    run = conformance_in_process("certify", "--engine", "python:toy:ToyEngine", "--cases",
                                 cases, "-q", "--known-failures", listing)
    assert run.returncode == ExitCode.USAGE and "byte limit" in run.stderr


def test_a_file_over_the_entry_cap_is_a_usage_error(tmp_path):
    listing = tmp_path / "known.txt"
    listing.write_text("".join(f"toy/x/{n}\n" for n in range(MAX_ENTRIES + 1)), "utf-8")
    with pytest.raises(UsageError, match=f"over the limit of {MAX_ENTRIES}"):
        KnownFailures.read(listing)


def test_many_lines_matching_nothing_are_one_summarised_warning(tmp_path):
    text = "toy/add/two-plus-three\n" + "".join(f"other/x/{n}\n" for n in range(50))
    found = warnings(tmp_path, text)
    assert len(found) == 1, found
    assert "50 lines match no case or property id" in found[0]
    assert "line 2 'other/x/0'" in found[0] and f"and {50 - UNMATCHED_SHOWN} more" in found[0]


def test_a_few_lines_matching_nothing_are_warned_about_one_by_one(tmp_path):
    found = warnings(tmp_path, "other/x/1\nother/x/2\n")
    assert found == [f"{tmp_path / 'known.txt'}:1: 'other/x/1' matches no case or property id",
                     f"{tmp_path / 'known.txt'}:2: 'other/x/2' matches no case or property id"]


@pytest.mark.parametrize("pattern", ["*", "toy/*", "*/*"])
def test_a_glob_matching_every_item_is_warned_about(tmp_path, pattern):
    found = warnings(tmp_path, f"toy/add/two-plus-three\n{pattern}  # everything\n")
    assert len(found) == 1, found
    assert f":2: {pattern!r} matches every item (3)" in found[0]
    assert "no failure can fail the run" in found[0]


def test_an_exact_id_of_a_one_item_suite_is_not_every_item(tmp_path):
    assert warnings(tmp_path, "toy/add/two-plus-three\n", ["toy/add/two-plus-three"]) == []


def test_a_known_failures_file_that_is_not_a_regular_file_is_refused_not_waited_on(tmp_path):
    """A fifo there once blocked the run forever (open() waits for a writer); it is read
    as a report path is, without blocking, and refused (conformance/_files.open_regular)."""
    import os
    import subprocess
    import sys

    fifo = tmp_path / "known.txt"
    os.mkfifo(fifo)
    code = ("import sys\nfrom conformance._knownfail import KnownFailures\n"
            "from conformance._errors import UsageError\n"
            "try:\n    KnownFailures.read(sys.argv[1])\n"
            "except UsageError as exc:\n    print(exc)\n")
    ran = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True,
                         text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert f"cannot read known-failures file {fifo}: not a regular file" in ran.stdout
