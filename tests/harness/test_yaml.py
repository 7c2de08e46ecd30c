"""Reading catalogue YAML (conformance/_yaml.py): libyaml, line numbers; and the cache of
files already found valid (conformance/_catalogue.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conformance import _yaml
from conformance._catalogue import load_catalogue

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "cases").rglob("*.yaml"))

DOC = """\
id: toy/x
rules:
  - toy/R-1
  - toy/R-2
steps:
  - do: {add: 2}
    expect:
      players:
        p1: {count: 5}
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CONFORMANCE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_libyaml_reads_every_catalogue_file_like_the_python_loader(path):
    raw = path.read_bytes()
    python = _yaml.parse_with(_yaml._PlainLoader, raw.decode())
    data, lines = _yaml.parse(raw.decode())
    assert data == python[0] and lines.table == python[1].table


def test_lines_point_at_keys_and_list_items_and_fall_back_to_the_nearest_ancestor():
    _, lines = _yaml.parse_with(_yaml._PlainLoader, DOC)
    assert lines.line([]) == 1
    assert lines.line(["rules", 1]) == 4
    assert lines.line(["steps", 0, "expect", "players", "p1", "count"]) == 9
    assert lines.line(["steps", 0, "expect", "cards", "t1"]) == 7  # no cards: its parent
    assert lines.line(["nowhere", 3]) == 1


@pytest.mark.parametrize("text", ["a: &x [1]\nb: *x\n", "a: &x 1\nb:\n  - c\n  - *x\n"])
def test_an_alias_is_refused_at_its_own_line(text):
    with pytest.raises(_yaml.AliasError) as caught:
        _yaml.parse(text)
    assert caught.value.problem_mark is not None
    assert caught.value.problem_mark.line + 1 == text[: text.index("*")].count("\n") + 1


def test_a_catalogue_loads_the_same_with_and_without_the_cache(monkeypatch, cache):
    warm = [load_catalogue(ROOT / "cases") for _ in range(2)]
    monkeypatch.setenv("CONFORMANCE_CACHE", "")
    cold = load_catalogue(ROOT / "cases")
    for catalogue in warm:
        assert catalogue.cases == cold.cases and catalogue.rules == cold.rules
        assert catalogue.digest == cold.digest and not catalogue.errors


def test_bad_yaml_gives_the_python_loaders_message():
    with pytest.raises(yaml.YAMLError) as caught:
        _yaml.parse("id: [\n")
    assert "expected" in str(caught.value)


def test_a_file_found_valid_is_not_checked_again_until_it_changes(monkeypatch, cache, tmp_path):
    from toy import write_catalogue

    from conformance import _schemas

    root = write_catalogue(tmp_path / "cases")
    checked: list[str] = []
    real = _schemas.errors

    def counting(value, *parts, **kw):
        checked.append(parts[-1])
        return real(value, *parts, **kw)

    monkeypatch.setattr(_schemas, "errors", counting)
    first = load_catalogue(root)
    assert not first.errors and len(checked) == 3  # the rule index and two cases
    again = load_catalogue(root)
    assert again.cases == first.cases and again.rules == first.rules and not again.errors
    assert len(checked) == 3, "unchanged files were known to be valid"
    case = root / "toy" / "add.yaml"
    case.write_text(case.read_text("utf-8").replace("title:", "titel:"), "utf-8")
    for _ in range(2):  # a file with errors is checked, and explained, every time
        assert any("titel" in e.message for e in load_catalogue(root).errors)
    assert len(checked) == 5


def test_case_files_are_found_and_ordered_as_path_rglob_would(tmp_path):
    from conformance._catalogue import RULES_FILE, _files

    for name in ("a/x.yaml", "a-b/y.yaml", "a.yaml", ".yaml", "z.yml", "q.yaml.bak",
                 "deep/er/w.YAML", "deep/er/v.yml", "rules.yaml", "sub/rules.yaml", "B.yaml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x: 1\n")
    expected = [p for p in sorted(tmp_path.rglob("*.y*ml"))
                if p.name != RULES_FILE and p.suffix in (".yaml", ".yml")]
    assert _files(tmp_path) == expected and len(expected) == 6
