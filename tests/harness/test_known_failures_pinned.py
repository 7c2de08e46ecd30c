"""Known-failures files are pinned to the catalogue and suite version they were written against."""

from __future__ import annotations

import json
import re
from pathlib import Path

import toy

from conformance._cli import main
from conformance._knownfail import KnownFailures

NEW_CASE = toy.CASE_ADD.replace("two-plus-three", "one-plus-one").replace(
    "{start: 2}", "{start: 1}").replace("{add: 3}", "{add: 1}").replace(
    "count: 5", "count: 2").replace("amount: 3", "amount: 1")


def certify(cases: Path, out: Path, *extra: str) -> dict:
    main(["certify", "--engine", "python:toy:WrongEngine", "--cases", str(cases), "-q",
          "--out", str(out), *extra])
    return json.loads((out / "report.json").read_text("utf-8"))


def pin_messages(report: dict) -> list[str]:
    return [p["message"] for p in report["problems"] if p["kind"] == "known-failures"]


def test_a_file_written_before_a_catalogue_change_warns_after_it(tmp_path, capsys):
    other = toy.CASE_ADD.replace("two-plus-three", "other")   # fails too, then goes
    cases = toy.write_catalogue(tmp_path / "cases", extra={"other.yaml": other})
    first = certify(cases, tmp_path / "run1")
    capsys.readouterr()
    assert main(["failures", str(tmp_path / "run1" / "report.json")]) == 0
    listing = tmp_path / "known.txt"
    written = capsys.readouterr().out
    assert "#! catalogue " + first["suite"]["catalogue_digest"] in written
    # a reviewer reads the pin in a diff: one short line each, a short digest per entry
    assert all(len(line) < 120 for line in written.splitlines()), written
    assert re.search(r"^toy/add/two-plus-three  #! [0-9a-f]{8}  # fail: ", written, re.M), written
    listing.write_text(written, "utf-8")

    same = certify(cases, tmp_path / "run2", "--known-failures", str(listing))
    assert pin_messages(same) == []
    assert same["verdict"]["exit_code"] == 0, "the listed failure is expected"

    # the catalogue changes: a listed case is re-tagged, the other listed one removed
    add = cases / "toy" / "add.yaml"
    add.write_text(add.read_text().replace("rules: [toy/R-1]", "rules: [toy/R-1, toy/R-3]"))
    (cases / "toy" / "one.yaml").write_text(NEW_CASE, "utf-8")
    (cases / "toy" / "other.yaml").unlink()
    changed = certify(cases, tmp_path / "run3", "--known-failures", str(listing))
    messages = pin_messages(changed)
    assert any("review the list, then re-pin it with --update-known-failures" in m
               for m in messages), messages
    assert any("listed items whose rules changed: toy/add/two-plus-three" in m
               for m in messages), messages
    assert any("listed items gone from the catalogue (renamed or removed): "
               "toy/add/other" in m for m in messages), messages

    # after review, re-pin: the warning is gone and the listed failure still holds
    certify(cases, tmp_path / "run4", "--known-failures", str(listing),
            "--update-known-failures")
    repinned = KnownFailures.read(listing)
    assert repinned.pin is not None
    assert "toy/add/other" not in repinned.patterns, "it matches nothing: dropped"
    line = next(x for x in listing.read_text().splitlines() if x.startswith("toy/add/"))
    assert re.fullmatch(r"toy/add/two-plus-three  #! [0-9a-f]{8}  # fail: .*", line), line
    again = certify(cases, tmp_path / "run5", "--known-failures", str(listing))
    assert pin_messages(again) == []
    assert "toy/add/two-plus-three" in KnownFailures.read(listing).patterns


def test_a_glob_and_an_unpinned_entry_are_read_as_patterns(tmp_path):
    listing = tmp_path / "known.txt"
    listing.write_text("#! catalogue sha256:ab\n#! suite 0.1.0\ntoy/add/*  # all adds\n"
                       "toy/negative/rejected  #! 89abcdef\n", "utf-8")
    known = KnownFailures.read(listing)
    assert list(known.patterns) == ["toy/add/*", "toy/negative/rejected"]
    assert known.pin is not None and known.pin.digests == {"toy/negative/rejected": "89abcdef"}
    assert known.notes == {"toy/add/*": "all adds"}


def test_an_unpinned_file_says_how_to_pin_it(tmp_path):
    cases = toy.write_catalogue(tmp_path / "cases")
    listing = tmp_path / "known.txt"
    listing.write_text("toy/add/two-plus-three\n", "utf-8")
    report = certify(cases, tmp_path / "out", "--known-failures", str(listing))
    assert any("is not pinned to a catalogue" in m for m in pin_messages(report))


def test_update_needs_a_file(tmp_path, capsys):
    cases = toy.write_catalogue(tmp_path / "cases")
    assert main(["certify", "--engine", "python:toy:ToyEngine", "--cases", str(cases),
                 "--update-known-failures"]) == 4
    assert "--known-failures FILE" in capsys.readouterr().err
