"""What every pack's vocabulary tests share: its schema entered at one $def, and its doc's code.

Each ruleset's tests/rulesets/test_<ruleset>_vocabulary.py holds its schema, its doc and
its reference engine together with these.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from conformance._discovery import find_ruleset

ROOT = Path(__file__).resolve().parents[2]
#: The case frame every pack's schema shares; docs/cases.md describes it, not the ruleset's doc.
FRAME = ("scenario", "step", "expect")


class Vocabulary:
    def __init__(self, ruleset: str) -> None:
        pack = find_ruleset(ruleset)   # the schema and cases the suite itself reads
        assert pack is not None, f"no installed pack {ruleset!r}"
        self.schema: dict[str, Any] = json.loads(pack.vocabulary.read_text("utf-8"))
        self.defs: dict[str, Any] = self.schema["$defs"]
        self.doc = (ROOT / "docs" / "rulesets" / f"{ruleset}.md").read_text("utf-8")
        self.cases = sorted(p for p in pack.cases().glob("*.yaml") if p.name != "rules.yaml")
        self.validator = cache(self._validator)

    def _validator(self, entry: str) -> jsonschema.Draft202012Validator:
        """What the catalogue loader builds: the whole document, entered at one $def."""
        return jsonschema.Draft202012Validator({**self.schema, "$ref": f"#/$defs/{entry}"})

    def problems(self, entry: str, value: Any) -> list[str]:
        return [f"{'/'.join(map(str, e.absolute_path)) or '<top>'}: {e.message}"
                for e in self.validator(entry).iter_errors(value)]

    def words(self) -> set[str]:
        """Every word an engine meets: keys, enum values, event types and observed fields."""
        return words({k: v for k, v in self.defs.items() if k not in FRAME})

    def undescribed(self) -> list[str]:
        return sorted(w for w in self.words() if not self.mentioned(w))

    def mentioned(self, word: str, markdown: str | None = None) -> bool:
        """Whether the doc's code (fenced blocks and `inline` spans) names ``word``."""
        text = code_text(self.doc if markdown is None else markdown)
        return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


def walk(node: Any) -> Iterator[Any]:
    """Every node of a JSON document, depth first."""
    yield node
    if isinstance(node, dict):
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def words(schema: Any) -> set[str]:
    """Every key the schema accepts in an instance, and every string value it names
    (enums and consts: event types, zones, phases...); the $defs' own names are not words."""
    found: set[str] = set()
    for sub in walk(schema):
        if isinstance(sub, dict):
            found |= set(sub.get("properties", {})) | set(sub.get("required", []))
            names = sub.get("propertyNames")
            if isinstance(names, dict):
                found |= set(names.get("enum", []))
            values = list(sub.get("enum", [])) + ([sub["const"]] if "const" in sub else [])
            found |= {v for v in values if isinstance(v, str)}
    return found


def code_text(markdown: str) -> str:
    """The doc's code: fenced blocks and `inline` spans, where its words are defined."""
    fenced = re.findall(r"```[^\n]*\n(.*?)```", markdown, flags=re.S)
    outside = re.sub(r"```.*?```", "", markdown, flags=re.S)
    return "\n".join(fenced + re.findall(r"`([^`\n]+)`", outside))
