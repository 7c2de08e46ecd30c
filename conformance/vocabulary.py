"""Versioned vocabularies, for engine authors: the words of each version, and a check.

The catalogue grows: every new Q&A may add words to a ruleset's vocabulary.
An engine written against an older catalogue must then hear "unsupported",
never a false red.  So each vocabulary has a version (``"version"`` in its
``vocabulary.json``) and a history beside it (``vocabulary-versions.json``):
per version, the *features* it introduced and the *meanings* it changed.

A feature is one element of the vocabulary's JSON Schema, named by where it sits
(``card.immune``, ``card.immune=deathblow_state``, ``battle_damage_action.amount?``:
docs/protocol.md) and derived from the schema, never tagged by hand.  `history`
reads the versions, `features` finds the features a case or scenario uses, `check`
rejects what a version does not have, and `schema` is that version's JSON Schema.
Which version an item needs and whether an engine may be given it is the
runner's business (conformance/_vocabulary_gate.py).
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from conformance._engine import Unsupported

__all__ = ["COMPARE", "VERSIONS_FILE", "History", "Meaning", "check", "digest", "features",
           "history", "schema", "schema_features", "set_valued", "vocabulary_path"]

#: The history beside each vocabulary.json.
VERSIONS_FILE = "vocabulary-versions.json"



# -- the history of one ruleset's vocabulary ---------------------------------------------
@dataclasses.dataclass(frozen=True)
class Meaning:
    """An existing word whose expected behaviour changed at ``version``; the items that
    rely on the new meaning need that version."""

    version: int
    word: str
    change: str
    items: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class History:
    """What `vocabulary-versions.json` records for one ruleset (see the module doc)."""

    ruleset: str
    latest: int
    introduced: Mapping[str, int]      # feature -> the version that introduced it
    meanings: tuple[Meaning, ...]
    #: Forms only the harness reads (how an expectation is compared): introduced at a
    #: version, but an engine of an older one answers them the same.
    harness_only: frozenset[str]
    digest: str                        # of vocabulary.json as the latest version recorded it
    #: Harness-only actions (feature -> why no real game has it): an item using one
    #: has the derived feature ``synthetic`` (conformance/_vocabulary_gate.py).
    synthetic: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: version -> the day it was released (ISO date), where the history records it
    dates: Mapping[int, str] = dataclasses.field(default_factory=dict)


@cache
def history(ruleset: str) -> History:
    """The ruleset's vocabulary history; a pack without one speaks version 1 only."""
    path = vocabulary_path(ruleset)
    versions_path = None if path is None else path.with_name(VERSIONS_FILE)
    if versions_path is None or not versions_path.is_file():
        return History(ruleset, 1, {}, (), frozenset(), "")
    data = json.loads(versions_path.read_text("utf-8"))
    introduced: dict[str, int] = {}
    meanings: list[Meaning] = []
    harness_only: set[str] = set()
    for entry in data["versions"]:
        number = entry["version"]
        for feature in entry.get("features", []):
            introduced.setdefault(feature, number)
        for feature in entry.get("harness_only", []):
            introduced.setdefault(feature, number)
            harness_only.add(feature)
        meanings.extend(Meaning(number, m["word"], m["change"], tuple(m["items"]))
                        for m in entry.get("meanings", []))
    return History(ruleset, max(e["version"] for e in data["versions"]), introduced,
                   tuple(meanings), frozenset(harness_only), data["digest"],
                   synthetic=data.get("synthetic", {}),
                   dates={e["version"]: e["date"] for e in data["versions"] if "date" in e})


def vocabulary_path(ruleset: str) -> Path | None:
    """The ruleset's vocabulary.json, from its installed pack (None: no pack)."""
    from conformance._catalogue import _vocabulary

    found = _vocabulary(ruleset)
    return None if found is None else Path(found)


@cache
def _document(ruleset: str) -> dict[str, Any]:
    path = vocabulary_path(ruleset)
    if path is None:
        return {}
    from conformance import _schemas

    return _schemas.load(str(path))


#: The keyword marking an observed attribute that is compared as a set: order and repeats
#: are ignored, and an expectation states it as ``{unordered: [...]}``.
COMPARE = "x-compare"


def set_valued(ruleset: str) -> dict[str, frozenset[str]]:
    """Per observation entry (``card_state``, ``player_state``), the keys its vocabulary
    marks ``"x-compare": "set"``: the attributes every comparison takes as sets."""
    defs = _document(ruleset).get("$defs", {})
    found: dict[str, frozenset[str]] = {}
    for entry in ("card_state", "player_state"):
        keys = set()
        for key, sub in defs.get(entry, {}).get("properties", {}).items():
            if isinstance(sub, dict) and "$ref" in sub:
                sub = defs.get(sub["$ref"].rsplit("/", 1)[-1], {})
            if isinstance(sub, dict) and sub.get(COMPARE) == "set":
                keys.add(key)
        found[entry] = frozenset(keys)
    return found


def digest(document: dict[str, Any]) -> str:
    """A vocabulary's digest: of its canonical JSON, so reformatting changes nothing."""
    text = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- the features a schema defines --------------------------------------------------------
def schema_features(document: dict[str, Any]) -> set[str]:
    """Every feature a vocabulary document defines (the words of that version)."""
    found: set[str] = set()
    for name, definition in document.get("$defs", {}).items():
        for node, prefix in _nodes(definition, name):
            found.update(f"{prefix}={value}" for value in _words(node))
            required = _required(node)
            for key in node.get("properties", {}):
                found.add(f"{prefix}.{key}")
                if key not in required:
                    found.add(f"{prefix}.{key}?")
    return found


def _nodes(node: Any, prefix: str) -> Iterator[tuple[dict[str, Any], str]]:
    """Every schema object under ``node`` (itself first, then its ``properties`` and
    `_subschemas`), each with the feature prefix it defines words under; a named definition
    (``$ref``) is walked under its own name.  A caller may change a node's ``properties``
    before its children are walked."""
    if not isinstance(node, dict) or "$ref" in node:
        return
    yield node, prefix
    for key, sub in node.get("properties", {}).items():
        yield from _nodes(sub, f"{prefix}.{key}")
    for keyword, sub in node.items():
        for part in _subschemas(keyword, sub):
            yield from _nodes(part, prefix)


def _words(node: dict[str, Any]) -> list[str]:
    """The string values an enum or const allows (the words; numbers and flags are not)."""
    values = node.get("enum", [node["const"]] if "const" in node else [])
    return [v for v in values if isinstance(v, str)]


def _required(node: dict[str, Any]) -> set[str]:
    """Keys required of an object here, also by its combinators' branches (a key required
    only under a condition is still no key an engine may find missing)."""
    keys = set(node.get("required", []))
    for keyword in ("allOf", "anyOf", "oneOf", "then", "else"):
        for part in _subschemas(keyword, node.get(keyword)):
            if isinstance(part, dict) and "properties" not in part:
                keys |= _required(part)
    return keys


def _subschemas(keyword: str, value: Any) -> list[Any]:
    """The subschemas under ``keyword`` whose words are features: a condition's (``if``,
    ``not``, ``contains``, ``propertyNames``) are not, as it only mentions them."""
    if keyword in ("allOf", "anyOf", "oneOf"):
        return list(value or [])
    if keyword in ("then", "else", "items", "additionalProperties") and isinstance(value, dict):
        return [value]
    return []


# -- the features an instance uses --------------------------------------------------------
class _Walk:
    """One walk of an instance against a vocabulary document, collecting features."""

    def __init__(self, document: dict[str, Any], omissions: frozenset[str]) -> None:
        self.defs = document.get("$defs", {})
        self.omissions = omissions   # the ``key?`` features worth noticing
        self.found: set[str] = set()

    def walk(self, node: Any, value: Any, prefix: str) -> None:
        if not isinstance(node, dict):
            return
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            self.walk(self.defs.get(name), value, name)
            return
        if isinstance(value, str) and value in _words(node):
            self.found.add(f"{prefix}={value}")
        if "if" in node:
            branch = node.get("then") if self.matches(node["if"], value) else node.get("else")
            self.walk(branch, value, prefix)
        for part in node.get("allOf", ()):
            self.walk(part, value, prefix)
        for keyword in ("anyOf", "oneOf"):
            for part in node.get(keyword, ()):
                if self.matches(part, value):
                    self.walk(part, value, prefix)
        if isinstance(value, dict):
            self._object(node, value, prefix)
        elif isinstance(value, list) and isinstance(node.get("items"), dict):
            for item in value:
                self.walk(node["items"], item, prefix)

    def _object(self, node: dict[str, Any], value: dict[str, Any], prefix: str) -> None:
        properties = node.get("properties", {})
        extra = node.get("additionalProperties")
        for key, item in value.items():
            sub = properties.get(key)
            if sub is not None:
                self.found.add(f"{prefix}.{key}")
                self.walk(sub, item, f"{prefix}.{key}")
            elif isinstance(extra, dict):
                self.walk(extra, item, prefix)
        if self.omissions:
            for key in properties:
                feature = f"{prefix}.{key}?"
                if key not in value and feature in self.omissions:
                    self.found.add(feature)

    def matches(self, node: Any, value: Any) -> bool:
        """Whether ``value`` fits ``node`` as far as a discriminator asks (type, const,
        enum, required keys and their values): enough to pick a branch, no validator."""
        if not isinstance(node, dict):
            return node is not False
        if "$ref" in node:
            return self.matches(self.defs.get(node["$ref"].rsplit("/", 1)[-1]), value)
        kind = node.get("type")
        if kind is not None and not any(_is(t, value) for t in
                                        (kind if isinstance(kind, list) else [kind])):
            return False
        if "const" in node and value != node["const"]:
            return False
        if "enum" in node and value not in node["enum"]:
            return False
        if isinstance(value, dict):
            if any(k not in value for k in node.get("required", ())):
                return False
            properties = node.get("properties", {})
            if any(not self.matches(properties[k], v) for k, v in value.items()
                   if k in properties):
                return False
            if node.get("additionalProperties") is False and any(
                    k not in properties for k in value):
                return False
        if "if" in node:
            branch = node.get("then") if self.matches(node["if"], value) else node.get("else")
            if branch is not None and not self.matches(branch, value):
                return False
        if any(not self.matches(part, value) for part in node.get("allOf", ())):
            return False
        for keyword in ("anyOf", "oneOf"):
            if keyword in node and not any(self.matches(p, value) for p in node[keyword]):
                return False
        return True


_TYPES: dict[str, type | tuple[type, ...]] = {
    "object": dict, "array": list, "string": str, "boolean": bool, "null": type(None),
    "number": (int, float), "integer": int}


def _is(kind: str, value: Any) -> bool:
    if isinstance(value, bool) and kind in ("number", "integer"):
        return False
    return isinstance(value, _TYPES.get(kind, object))


def features(ruleset: str, scenario: Mapping[str, Any]) -> set[str]:
    """The features a case or scenario (``{"setup": ..., "steps": [...]}``) uses: its
    setup, every step's action and every expectation (an observed field or an event
    type a version does not have is as foreign to its engines as an action)."""
    document = _document(ruleset)
    walk = _Walk(document, _omissions(ruleset))
    entry = {"setup": scenario.get("setup", {}), "steps": list(scenario.get("steps", []))}
    defs = document.get("$defs", {})
    if "scenario" in defs:
        walk.walk(defs["scenario"], entry, "scenario")
    else:  # a pack whose vocabulary has the entry points but no scenario
        walk.walk(defs.get("setup"), entry["setup"], "setup")
        for step in entry["steps"]:
            walk.walk(defs.get("action"), step.get("do"), "action")
            walk.walk(defs.get("expect"), step.get("expect"), "expect")
    return walk.found


@cache
def _omissions(ruleset: str) -> frozenset[str]:
    """The ``key?`` features some version introduced: only leaving out those is news (a key
    new in that version, optional from the start, is left out by every older setup)."""
    found = history(ruleset)
    return frozenset(f for f, v in found.introduced.items()
                     if f.endswith("?") and v > 1 and found.introduced.get(f[:-1]) != v)


# -- a strict check, and the schema of one version ---------------------------------------
def check(ruleset: str, version: int, setup_or_action: Mapping[str, Any],
          entry: str | None = None) -> None:
    """Raise `Unsupported` naming the first feature of ``setup_or_action`` that
    ``version`` of the vocabulary does not have.

    For Python adapters that speak an older version and would rather say so than
    guess: ``check("vision", 1, setup)`` in ``start``, the same with an action
    in ``act``.  ``entry`` is the $defs name to read it as (default: ``action``
    when the dict has one of the action keys, else ``setup``).
    """
    document = _document(ruleset)
    if entry is None:
        action_keys = document.get("$defs", {}).get("action", {}).get("properties", {})
        entry = "action" if any(k in action_keys for k in setup_or_action) else "setup"
    walk = _Walk(document, _omissions(ruleset))
    walk.walk(document.get("$defs", {}).get(entry), setup_or_action, entry)
    for feature in sorted(walk.found):
        introduced = history(ruleset).introduced.get(feature, 1)
        if introduced > version:
            raise Unsupported(f"{feature} is {ruleset} vocabulary {introduced}; "
                              f"this engine speaks {version}")


def schema(ruleset: str, version: int) -> dict[str, Any]:
    """The ruleset's vocabulary JSON Schema as version ``version`` had it: today's
    document without the words later versions introduced (a key left out again, an
    enum value dropped, a key once required required again).  Harness-only forms stay."""
    found = history(ruleset)
    if not 1 <= version <= found.latest:
        raise ValueError(f"{ruleset} has vocabulary versions 1 to {found.latest}, not {version}")
    later = {f for f, v in found.introduced.items()
             if v > version and f not in found.harness_only}
    document = copy.deepcopy(_document(ruleset))
    for name, definition in document.get("$defs", {}).items():
        for node, prefix in _nodes(definition, name):
            _restrict(node, prefix, later)
    document["version"] = version
    document["title"] = f"{document.get('title', ruleset)}, version {version}"
    return document


def _restrict(node: dict[str, Any], prefix: str, later: set[str]) -> None:
    """Take out of one schema object the words in ``later``."""
    if "enum" in node:
        node["enum"] = [v for v in node["enum"] if f"{prefix}={v}" not in later]
    properties = node.get("properties", {})
    for key in list(properties):
        if f"{prefix}.{key}" in later:
            del properties[key]
        elif f"{prefix}.{key}?" in later:
            node.setdefault("required", [])
            if key not in node["required"]:
                node["required"].append(key)
