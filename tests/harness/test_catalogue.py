"""Catalogue loading: every malformed input gives one clear error with file, line and fix."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from toy import CASE_ADD, write_catalogue

from conformance._catalogue import MAX_FILE_BYTES, load_catalogue


def errors_for(tmp_path, name, text):
    root = write_catalogue(tmp_path, {name: text} if isinstance(text, str) else None)
    if isinstance(text, bytes):
        (root / "toy" / name).write_bytes(text)
    catalogue = load_catalogue(root)
    return [str(e) for e in catalogue.errors], catalogue


def test_valid_toy_catalogue_loads(tmp_path):
    catalogue = load_catalogue(write_catalogue(tmp_path))
    assert not catalogue.errors
    assert sorted(c.id for c in catalogue.cases) == ["toy/add/two-plus-three",
                                                     "toy/negative/rejected"]
    assert [r.id for r in catalogue.uncovered()] == ["toy/R-3"]
    assert catalogue.digest.startswith("sha256:")


def test_invalid_yaml_names_file_line_and_fix(tmp_path):
    errors, _ = errors_for(tmp_path, "bad.yaml", "id: toy/x\ntitle: [unclosed\nrules: x\n")
    assert len(errors) == 1
    assert "bad.yaml:" in errors[0] and "invalid YAML" in errors[0] and "fix:" in errors[0]


def test_schema_violation_points_at_the_key(tmp_path):
    text = CASE_ADD.replace("id: toy/add/two-plus-three", "id: toy/add/other").replace(
        "rules: [toy/R-1]", "rules: toy/R-1")
    errors, _ = errors_for(tmp_path, "wrongtype.yaml", text)
    assert len(errors) == 1
    assert "wrongtype.yaml:4" in errors[0] and "rules" in errors[0]


def test_unknown_key_lists_the_allowed_ones(tmp_path):
    text = CASE_ADD.replace("id: toy/add/two-plus-three", "id: toy/add/other") + "colour: red\n"
    errors, _ = errors_for(tmp_path, "unknown.yaml", text)
    assert len(errors) == 1
    assert "colour" in errors[0] and "allowed here" in errors[0]


def test_unknown_rule_id_suggests_the_near_one(tmp_path):
    text = CASE_ADD.replace("id: toy/add/two-plus-three", "id: toy/add/other").replace(
        "toy/R-1", "other/R-1")
    errors, _ = errors_for(tmp_path, "unknownrule.yaml", text)
    assert len(errors) == 1
    assert "unknown rule 'other/R-1'" in errors[0] and "did you mean 'toy/R-1'" in errors[0]


def test_duplicate_case_id_names_both_files(tmp_path):
    errors, catalogue = errors_for(tmp_path, "zz-dup.yaml", CASE_ADD)
    assert len(errors) == 1
    assert "duplicate case id 'toy/add/two-plus-three'" in errors[0]
    assert "add.yaml" in errors[0] and "zz-dup.yaml" in errors[0]
    assert len(catalogue.cases) == 2  # the first one is kept


def test_a_duplicate_key_is_an_error_at_its_line_not_a_dropped_expectation(tmp_path):
    """Two ``expect:`` in one step: YAML would keep the second and drop the first's checks."""
    text = CASE_ADD.replace("id: toy/add/two-plus-three", "id: toy/add/twice") + (
        "    expect:\n      players: {p1: {count: 5}}\n")
    errors, catalogue = errors_for(tmp_path, "twice.yaml", text)
    assert len(errors) == 1, errors
    assert "twice.yaml:12" in errors[0] and "duplicate key 'expect'" in errors[0]
    assert "first is at line 9" in errors[0] and "fix:" in errors[0]
    assert "toy/add/twice" not in [c.id for c in catalogue.cases]


@pytest.mark.parametrize("text", ["id: toy/x\nid: toy/y\n", "a: {1: x, 0x1: y}\n",
                                  "a:\n  - {b: 1, b: 2}\n"])
def test_keys_equal_once_loaded_are_duplicates_too(tmp_path, text):
    errors, _ = errors_for(tmp_path, "dup.yaml", text)
    assert len(errors) == 1 and "duplicate key" in errors[0], errors


def test_python_object_tag_is_rejected_not_constructed(tmp_path):
    text = CASE_ADD.replace("id: toy/add/two-plus-three", "id: toy/add/other").replace(
        "setup: {start: 2}", "setup: !!python/object/apply:os.system ['echo pwned']")
    errors, _ = errors_for(tmp_path, "tag.yaml", text)
    assert len(errors) == 1
    assert "tag not allowed" in errors[0] and "tag.yaml:" in errors[0]


def test_aliases_are_refused_so_no_billion_laughs(tmp_path):
    text = "a: &a [lol, lol]\nb: [*a, *a, *a]\n"
    errors, _ = errors_for(tmp_path, "laughs.yaml", text)
    assert len(errors) == 1
    assert "laughs.yaml:2" in errors[0] and "aliases" in errors[0] and "&anchor" in errors[0]


def test_deep_nesting_is_an_error_not_a_crash(tmp_path):
    errors, _ = errors_for(tmp_path, "deep.yaml", "[" * 5000)
    assert len(errors) == 1 and "nested too deeply" in errors[0]


def test_oversized_file_is_refused(tmp_path):
    errors, _ = errors_for(tmp_path, "big.yaml", "# pad\n" * (MAX_FILE_BYTES // 5))
    assert len(errors) == 1 and "limit" in errors[0]


def test_non_utf8_gives_line(tmp_path):
    errors, _ = errors_for(tmp_path, "latin1.yaml", b"id: toy/x\ntitle: caf\xe9\n")
    assert len(errors) == 1
    assert "latin1.yaml:2" in errors[0] and "UTF-8" in errors[0]


def test_top_level_not_a_mapping(tmp_path):
    errors, _ = errors_for(tmp_path, "list.yaml", "- a\n- b\n")
    assert len(errors) == 1 and "mapping" in errors[0]


def test_case_in_the_wrong_ruleset_folder(tmp_path):
    text = CASE_ADD.replace("id: toy/add/two-plus-three", "id: toy/add/other").replace(
        "ruleset: toy", "ruleset: vision")
    errors, _ = errors_for(tmp_path, "misplaced.yaml", text)
    assert any("lives in toy/" in e for e in errors)


def test_duplicate_rule_id(tmp_path):
    root = write_catalogue(tmp_path)
    rules = root / "toy" / "rules.yaml"
    rules.write_text(rules.read_text() + rules.read_text().split("rules:\n")[1], "utf-8")
    errors = [str(e) for e in load_catalogue(root).errors]
    assert any("duplicate rule id 'toy/R-1'" in e for e in errors)


@pytest.mark.parametrize(("see", "says"), [("toy/R-9", "sees unknown rule 'toy/R-9'"),
                                           ("toy/R-1", "lists itself")])
def test_dangling_and_self_references_between_rules(tmp_path, see, says):
    root = write_catalogue(tmp_path)
    rules = root / "toy" / "rules.yaml"
    rules.write_text(rules.read_text().replace(
        "summary: add adds}", f"summary: add adds, see: [{see}, toy/R-2]}}"), "utf-8")
    errors = [str(e) for e in load_catalogue(root).errors]
    assert len(errors) == 1 and says in errors[0] and "rules.yaml:4" in errors[0]


def test_missing_rule_index(tmp_path):
    root = write_catalogue(tmp_path)
    (root / "toy" / "rules.yaml").unlink()
    errors = [str(e) for e in load_catalogue(root).errors]
    assert any("no rule index" in e for e in errors)


def test_unknown_ruleset_filter(tmp_path):
    errors = [str(e) for e in load_catalogue(write_catalogue(tmp_path), ["nope"]).errors]
    assert errors and "no ruleset 'nope'" in errors[0]


@pytest.mark.parametrize("bad_id", ["toy/../../etc/passwd", "toy/a b", "/abs", "toy"])
def test_case_ids_cannot_hold_path_tricks(tmp_path, bad_id):
    text = CASE_ADD.replace("toy/add/two-plus-three", bad_id)
    errors, _ = errors_for(tmp_path, "evil.yaml", text)
    assert errors, bad_id


def test_bundled_catalogue_is_valid_and_fully_covered():
    catalogue = load_catalogue()
    assert not catalogue.errors, "\n".join(str(e) for e in catalogue.errors)
    assert not catalogue.uncovered(), [r.id for r in catalogue.uncovered()]


def copy_case(tmp_path, ruleset, name, *edits):
    """One bundled case, edited, alone in a catalogue under tmp_path; its errors."""
    source = Path(__file__).parents[2] / "cases" / ruleset
    folder = tmp_path / ruleset
    folder.mkdir(parents=True)
    shutil.copy(source / "rules.yaml", folder / "rules.yaml")
    text = (source / name).read_text("utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    (folder / "edited.yaml").write_text(text, "utf-8")
    return [str(e) for e in load_catalogue(tmp_path).errors]


@pytest.mark.parametrize(("old", "new", "where"), [
    ("  p2:\n    field: [{id: t1,", "  p2:\n    feild: [{id: t1,", "setup/p2"),
    ("do: {play: s1,", "do: {plya: s1,", "steps/0/do"),
    ("cards: {t1: {damage: 4}}", "cards: {t1: {damge: 4}}", "steps/0/expect/cards/t1"),
    ("amount: X}}]", "amount: X, extra: 1}}]", "setup/p1/hand/0/texts/0/effect/0"),
])
def test_words_outside_the_vocabulary_are_caught_with_line(tmp_path, old, new, where):
    errors = copy_case(tmp_path, "vision", "qa-269-x-equals-nodes-paid.yaml", (old, new))
    assert len(errors) == 1, errors
    assert errors[0].startswith(str(tmp_path / "vision" / "edited.yaml") + ":")
    assert where in errors[0] and "vision vocabulary" in errors[0]
    assert "docs/rulesets/vision.md" in errors[0]


@pytest.mark.parametrize(("edit", "where"), [
    (("targets: [t1]", "targets: [t2]"), "edited.yaml:35: steps/0/do/targets/0"),
    (("cards: {t1: {damage: 4}}", "cards: {t9: {damage: 4}}"),
     "edited.yaml:38: steps/0/expect/cards/t9"),
])
def test_a_card_id_the_setup_does_not_give_is_an_error(tmp_path, edit, where):
    """Only the engine would notice otherwise, and it would look like the engine's fault."""
    errors = copy_case(tmp_path, "vision", "qa-269-x-equals-nodes-paid.yaml", edit)
    assert len(errors) == 1, errors
    assert where in errors[0] and "is not in the setup" in errors[0]
    assert "name one it has (c1, s1, t1)" in errors[0]


def test_an_id_an_action_gives_is_known_to_later_steps(tmp_path):
    """MTG's `activate ... as: ab1` names the ability it puts on the stack (new_id)."""
    name = "cr-609-7a-chosen-permanent-ability-damage.yaml"
    assert copy_case(tmp_path, "mtg", name) == []
    errors = copy_case(tmp_path / "again", "mtg", name, ("choose: c1", "choose: ab2"))
    assert len(errors) == 1 and "card id 'ab2' is not in the setup" in errors[0], errors
    assert "(ab1, c1, w1, ward)" in errors[0]   # ab1 and w1: given by `as:`


def test_every_error_of_a_file_is_reported_together(tmp_path):
    """A schema error does not hide the file's vocabulary errors, nor its ruleset's."""
    errors = copy_case(tmp_path, "vision", "qa-269-x-equals-nodes-paid.yaml",
                       ("rules: [vision/QA-269]", "rules: vision/QA-269"),
                       ("do: {play: s1,", "do: {plya: s1,"),
                       ("ruleset: vision", "ruleset: zatch"))
    assert len(errors) == 3, errors
    assert any("rules" in e and "edited.yaml:4" in e for e in errors)
    assert any("steps/0/do" in e and "vision vocabulary" in e for e in errors)
    assert any("case says ruleset 'zatch'" in e for e in errors)


READING = ('  - {id: toy/reading/add-zero, ref: reading, kind: reading, title: Adding 0, '
           'text: "足す", summary: adding 0 adds nothing, interprets: [toy/R-1], why: silent}\n')


def with_reading(tmp_path, notes, extra=""):
    """The toy catalogue with a reading, and one case whose notes are ``notes``."""
    text = CASE_ADD.replace("id: toy/add/two-plus-three", "id: toy/add/other").replace(
        "rules: [toy/R-1]\n", f"rules: [toy/R-1]\n{extra}notes: {notes}\n")
    root = write_catalogue(tmp_path, {"other.yaml": text})
    rules = root / "toy" / "rules.yaml"
    rules.write_text(rules.read_text() + READING, "utf-8")
    return [str(e) for e in load_catalogue(root).errors]


@pytest.mark.parametrize("notes", ["rests on toy/reading/add-zero",
                                   "Reading add-zero: adding 0 adds nothing",
                                   "the reading `add-zero` decides it"])
def test_a_reading_the_notes_name_must_be_tagged(tmp_path, notes):
    """Issue 41: a case that explains itself by a reading but is tagged seed only would
    count its verdict on the seed."""
    errors = with_reading(tmp_path, f'"{notes}"')
    assert len(errors) == 1, errors
    assert "other.yaml:1" in errors[0] and "'toy/reading/add-zero'" in errors[0]
    assert "rules lack it" in errors[0] and "not_relied_on" in errors[0]


def test_a_reading_the_notes_name_is_fine_tagged_or_declared_not_relied_on(tmp_path):
    text = CASE_ADD.replace("id: toy/add/two-plus-three", "id: toy/add/other").replace(
        "rules: [toy/R-1]\n", "rules: [toy/R-1, toy/reading/add-zero]\n"
        "notes: Reading add-zero decides it\n")
    root = write_catalogue(tmp_path, {"other.yaml": text})
    rules = root / "toy" / "rules.yaml"
    rules.write_text(rules.read_text() + READING, "utf-8")
    assert load_catalogue(root).errors == []
    assert with_reading(tmp_path / "a", '"no reading needed (toy/reading/add-zero)"',
                        "not_relied_on: [toy/reading/add-zero]\n") == []
    # an id no index holds, and prose that is no reading's slug, are not readings
    assert with_reading(tmp_path / "b", '"an unknown toy/reading/nothing-such, reading '
                        'other-words"') == []


def test_not_relied_on_names_readings_the_rules_lack(tmp_path):
    errors = with_reading(tmp_path, "plain", "not_relied_on: [toy/R-2]\n")
    assert len(errors) == 1 and "which is no reading" in errors[0]
