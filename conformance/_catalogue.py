"""Load and validate the case catalogue: rule indexes and case files.

Loading never stops at the first problem: it collects every `CatalogueError`
(with file, line and a fix) so one `conformance validate` shows them all.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.machinery
import os
import re
import sys
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import yaml

if TYPE_CHECKING:
    import jsonschema

from conformance import _cache, _discovery, _schemas, _yaml
from conformance._errors import CatalogueError, InvalidCatalogue

#: Larger case files are refused: a case is a board and a few steps.
MAX_FILE_BYTES = 256 * 1024
#: Larger rule indexes are refused.
MAX_INDEX_BYTES = 2 * 1024 * 1024
RULES_FILE = "rules.yaml"
#: Index entries whose text is the seed's own; a certification is judged on these.
SEED_KINDS = frozenset({"rule", "qa", "example", "informative"})
#: The catalogue's answer where the seed is silent; reported apart, never judged on.
READING = "reading"
#: A rule from outside the seed that cases lean on (its `source` says where from).
CONTEXT = "context"


@dataclasses.dataclass(frozen=True)
class Rule:
    id: str
    ruleset: str
    ref: str
    kind: str
    title: str
    text: str
    summary: str
    invariant: bool
    path: str
    line: int
    see: tuple[str, ...] = ()
    seed: str = ""
    interprets: tuple[str, ...] = ()
    why: str = ""
    source: str = ""


@dataclasses.dataclass(frozen=True)
class Case:
    id: str
    title: str
    ruleset: str
    rules: tuple[str, ...]
    source: dict[str, Any]
    notes: str
    flags: tuple[str, ...]
    setup: dict[str, Any]
    steps: tuple[dict[str, Any], ...]
    path: str
    line: int
    step_lines: tuple[int, ...] = ()   # line of each step's `do`, for "defined at"
    #: readings the notes name only to say the case does not rely on them
    not_relied_on: tuple[str, ...] = ()
    #: a case is judged against the seed, never against the reference engine (cf. Property)
    compares_reference: ClassVar[bool] = False


@dataclasses.dataclass
class Catalogue:
    #: The --cases folder (``<root>/<ruleset>/``); None when every ruleset's
    #: catalogue came from where its installed pack says (`folders`).
    root: Path | None
    rules: dict[str, Rule]
    cases: list[Case]
    errors: list[CatalogueError]
    digest: str
    #: ruleset -> the folder its rules.yaml and cases were read from.
    folders: dict[str, Path] = dataclasses.field(default_factory=dict)
    #: ruleset -> the digest of its files alone: two runs of one catalogue with
    #: different --ruleset have different `digest`s but agree on these
    ruleset_digests: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def rulesets(self) -> list[str]:
        return sorted({r.ruleset for r in self.rules.values()})

    @property
    def where(self) -> str:
        """Where the catalogue was read, for people: the root, or the folder that holds
        every ruleset's catalogue, or each ruleset's folder."""
        if self.root is not None:
            return str(self.root)
        if not self.folders:
            return "(no ruleset selected)"
        parents = {folder.parent for folder in self.folders.values()}
        if len(parents) == 1 and all(f.name == n for n, f in self.folders.items()):
            return str(parents.pop())
        return ", ".join(f"{name}: {folder}" for name, folder in sorted(self.folders.items()))

    def uncovered(self) -> list[Rule]:
        """Rules that no case names, informative entries left out: they state nothing an
        engine does, so no case can fail on them, and a tag would only make them look
        tested."""
        covered = {rule for case in self.cases for rule in case.rules}
        return [r for r in self.rules.values()
                if r.id not in covered and r.kind != "informative"]


def catalogue_folders(root: Path | None = None) -> dict[str, Path]:
    """ruleset -> its catalogue folder: ``root/<ruleset>`` under an explicit root
    (``--cases DIR``), else each installed pack's. A ``./cases`` folder in the current
    folder is never taken implicitly: an engine's repository holding a trimmed copy of
    the catalogue would otherwise certify against it (docs/security.md)."""
    def subfolders(parent: Path) -> dict[str, Path]:
        return {p.name: p for p in sorted(parent.iterdir())
                if p.is_dir() and not p.name.startswith((".", "_"))}

    if root is not None:
        return subfolders(root)
    packs = [_discovery.find_ruleset(name) for name in _discovery.ruleset_names()]
    folders = {pack.name: pack.cases() for pack in packs if pack is not None}
    return dict(sorted(folders.items()))


def load_catalogue(root: Path | None = None, rulesets: Iterable[str] | None = None) -> Catalogue:
    """Load every ruleset's catalogue (or only ``rulesets``) from `catalogue_folders`,
    ``root`` being ``--cases DIR``."""
    root = Path(root) if root is not None else None
    errors: list[CatalogueError] = []
    rules: dict[str, Rule] = {}
    cases: list[Case] = []
    digest = hashlib.sha256()
    if root is not None and not root.is_dir():
        errors.append(CatalogueError(
            "no catalogue folder here", path=str(root),
            hint="pass --cases DIR pointing at a folder with <ruleset>/rules.yaml"))
        return Catalogue(root, rules, cases, errors, "sha256:" + digest.hexdigest())
    folders = catalogue_folders(root)
    if rulesets:
        wanted = set(rulesets)
        for name in sorted(wanted - set(folders)):
            if root is not None:
                errors.append(CatalogueError(
                    f"no ruleset {name!r} in the catalogue", path=str(root),
                    hint=f"choose one of {sorted(folders)}"))
            else:
                errors.append(CatalogueError(
                    _discovery.unknown_ruleset(name),
                    hint="choose an installed ruleset, or install the pack that has it"))
        folders = {name: folder for name, folder in folders.items() if name in wanted}
    for name in folders:
        _vocabulary(name)   # an installed pack without one is an error, even with no case yet
    known = _KnownValid()
    own: dict[str, str] = {}
    for name, folder in folders.items():
        alone = hashlib.sha256()
        _load_ruleset(name, folder, rules, cases, errors, _Both(digest, alone), known)
        own[name] = "sha256:" + alone.hexdigest()
    known.save()
    _check_references(rules, cases, errors)
    return Catalogue(root, rules, cases, errors, "sha256:" + digest.hexdigest(), folders, own)


class _Both:
    """Two digests fed the same bytes: the catalogue's and one ruleset's."""

    def __init__(self, *digests: Any) -> None:
        self.digests = digests

    def update(self, data: bytes) -> None:
        for d in self.digests:
            d.update(data)


def load_valid_catalogue(root: Path | None, rulesets: list[str] | None) -> Catalogue:
    """The catalogue, or `InvalidCatalogue`: never run on a half-loaded catalogue."""
    catalogue = load_catalogue(root, rulesets)
    if catalogue.errors:
        raise InvalidCatalogue(catalogue.errors)
    return catalogue


def _files(folder: Path) -> list[Path]:
    """A ruleset folder's case files, at any depth, in the order they are read (and
    digested): sorted as paths, by their parts.  Like ``Path.rglob``, which took a
    fifth of loading a large catalogue, it does not follow links to folders."""
    found = [Path(here, name) for here, _, names in os.walk(folder) for name in names
             if name != RULES_FILE and os.path.splitext(name)[1] in (".yaml", ".yml")]
    return sorted(found, key=lambda path: path.parts)


class _KnownValid:
    """The files this suite has already found valid, so an unchanged one is not checked again.

    Checking files against their schema, vocabulary and card ids is nine tenths of
    a catalogue load (about 1.8 s of 2 s, benchmarks/README.md).  A file that
    passed is remembered by its seal (a digest of its bytes, schema, ruleset and
    vocabulary) in one cache entry keyed by `_verdict_digest`.  Only passes are
    remembered: a file with errors is checked, and explained, every time.
    """

    #: Past this many remembered files, only the current load's are kept.
    LIMIT = 50_000

    def __init__(self) -> None:
        self._key = _verdict_digest() if _cache.cache_dir() is not None else ""
        stored = _cache.load("valid", self._key) if self._key else None
        self._known: frozenset[str] = stored if isinstance(stored, frozenset) else frozenset()
        self.passed: set[str] = set()   # this load's seals that passed: known ones, new ones

    def seal(self, schema_name: str, ruleset: str, raw: bytes) -> str:
        """``""`` when the file is known to be valid, else its seal, for `passed` once it is."""
        seal = hashlib.sha256(f"{schema_name}\0{ruleset}\0".encode()
                              + _vocabulary_bytes(ruleset) + b"\0" + raw).hexdigest()
        if seal in self._known:
            self.passed.add(seal)
            return ""
        return seal

    def save(self) -> None:
        if self._key and not self.passed <= self._known:
            merged = self._known | self.passed
            _cache.store("valid", self._key, merged if len(merged) <= self.LIMIT
                         else frozenset(self.passed))


@cache
def _vocabulary_bytes(ruleset: str) -> bytes:
    """The ruleset's vocabulary schema as it is now: a pack installed from another
    distribution is outside `_verdict_digest`, so each seal carries its schema."""
    path = _vocabulary(ruleset)
    return Path(path).read_bytes() if path else b""


@cache
def _verdict_digest() -> str:
    """Of what decides whether a file is valid, besides the file: every schema and
    vocabulary, the code that checks (this module, `_schemas`, `_compiled`), and
    the Python and validator libraries it runs on (their files' size and time,
    as ``__pycache__`` does, not to import them)."""
    sha = hashlib.sha256(sys.version.encode())
    code = [("_catalogue.py",), ("_schemas.py",), ("_compiled.py",)]
    for parts in [*code, *_schemas.shipped("schemas"), *_schemas.shipped("rulesets")]:
        sha.update("/".join(parts).encode() + b"\0" + Path(__file__).parent.joinpath(*parts)
                   .read_bytes())
    for library in ("fastjsonschema", "jsonschema", "referencing"):
        spec = importlib.machinery.PathFinder.find_spec(library)
        origin = spec.origin if spec is not None else None
        stat = os.stat(origin) if origin else None
        sha.update(f"{library} {origin} {stat and stat.st_size} {stat and stat.st_mtime_ns}"
                   .encode())
    return sha.hexdigest()


def _fields(data: dict[str, Any], **defaults: Any) -> dict[str, Any]:
    """A schema-valid mapping as the fields of a `Rule` or `Case`: lists as tuples."""
    return {**defaults, **{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}}


def _load_ruleset(ruleset: str, folder: Path, rules: dict[str, Rule], cases: list[Case],
                  errors: list[CatalogueError], digest: Any, known: _KnownValid) -> None:
    def misplaced(what: str, data: dict[str, Any], lines: _yaml.Lines, path: Path) -> None:
        said = data.get("ruleset")
        if isinstance(said, str) and said != ruleset:
            errors.append(CatalogueError(
                f"{what} says ruleset {said!r} but lives in {folder.name}/, "
                f"the catalogue of {ruleset!r}", path=str(path), line=lines.line(["ruleset"]),
                hint=f"set 'ruleset: {ruleset}' or move the file"))

    index = folder / RULES_FILE
    if not index.is_file():
        errors.append(CatalogueError(
            "this ruleset has no rule index", path=str(index),
            hint=f"create {RULES_FILE} listing the seed's rules (see docs/cases.md)"))
    elif (doc := _read_yaml(index, MAX_INDEX_BYTES, "rules.json", ruleset, errors, digest,
                            known)) is not None and doc[2] is not None:
        data, lines, seal, _ = doc
        if seal:
            known.passed.add(seal)
        misplaced("rule index", data, lines, index)
        for i, entry in enumerate(data["rules"]):
            line = lines.line(["rules", i])
            rid = entry["id"]
            if not rid.startswith(ruleset + "/"):
                errors.append(CatalogueError(
                    f"rule id {rid!r} does not start with {ruleset + '/'!r}",
                    path=str(index), line=line, hint=f"rename it {ruleset}/{rid}"))
            if rid in rules:
                errors.append(CatalogueError(
                    f"duplicate rule id {rid!r} (first at line {rules[rid].line})",
                    path=str(index), line=line, hint="give each rule its own id"))
                continue
            rules[rid] = Rule(**_fields(entry, invariant=False), ruleset=ruleset,
                              path=str(index), line=line or 0, seed=data["seed"])
    seen: dict[str, Case] = {c.id: c for c in cases}
    for path in _files(folder):
        doc = _read_yaml(path, MAX_FILE_BYTES, "case.json", ruleset, errors, digest, known)
        if doc is None:
            continue
        data, lines, seal, problems = doc
        line = lines.line(["id"]) or 1
        misplaced("case", data, lines, path)
        if isinstance(data.get("id"), str) and not data["id"].startswith(ruleset + "/"):
            errors.append(CatalogueError(
                f"case id {data['id']!r} does not start with {ruleset + '/'!r}",
                path=str(path), line=line, hint=f"rename it {ruleset}/..."))
        if seal is None:  # the case schema failed: still word what else is wrong, the
            # vocabulary too if the setup and steps are of the schema's shape
            if "setup" in data and "steps" in data and all(
                    not err.path or err.path[0] not in ("setup", "steps") for err in problems):
                errors.extend(_vocabulary_errors(ruleset, data, lines, str(path)))
            continue
        if data["id"] in seen:
            first = seen[data["id"]]
            errors.append(CatalogueError(
                f"duplicate case id {data['id']!r} (also {first.path}:{first.line})",
                path=str(path), line=line, hint="case ids must be unique: rename one"))
            continue
        if seal:  # not known to be valid: check the vocabulary too, remember a pass
            found = _vocabulary_errors(ruleset, data, lines, str(path))
            found = found or _unknown_ids(ruleset, data, lines, str(path))
            if found:
                errors.extend(found)
                continue
            known.passed.add(seal)
        steps = range(len(data["steps"]))
        case = Case(**_fields(data, notes="", flags=(), not_relied_on=()), path=str(path),
                    line=line,
                    step_lines=tuple(lines.line(["steps", i, "do"]) or line for i in steps))
        seen[case.id] = case
        cases.append(case)


@cache
def _vocabulary(ruleset: str) -> str | None:
    """The ruleset's vocabulary schema (an absolute path), from its installed pack; None
    for a ruleset no pack registers: its cases (under an explicit --cases folder) are
    checked against the case schema only."""
    pack = _discovery.find_ruleset(ruleset)
    return None if pack is None else str(pack.vocabulary)


def _error_at(place: list[Any], message: str, where: str, lines: _yaml.Lines,
              hint: str) -> CatalogueError:
    """An error about the value at ``place`` in a file: its path leads, its line locates."""
    return CatalogueError(f"{'/'.join(str(p) for p in place) or '(top)'}: {message}",
                          path=where, line=lines.line(place), hint=hint)


def _scenario(ruleset: str, data: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The vocabulary's schema and the case's scenario, when the vocabulary defines one."""
    schema = _vocabulary(ruleset)
    if schema is None or "scenario" not in _schemas.load(schema).get("$defs", {}):
        return None
    return schema, {"setup": data["setup"], "steps": data["steps"]}


def _vocabulary_errors(ruleset: str, data: dict[str, Any], lines: _yaml.Lines,
                       where: str) -> list[CatalogueError]:
    """Check a case's setup, actions and expectations against the ruleset's vocabulary.

    One error per offending value (the best match), so a typo gives one line,
    not a page of oneOf alternatives.
    """
    schema = _vocabulary(ruleset)
    if schema is None:
        return []
    scenario = _scenario(ruleset, data)
    if scenario is not None and _schemas.check(schema, entry="scenario")(scenario[1]):
        return []  # the whole scenario in one compiled check; explain piece by piece below
    checks: list[tuple[list[Any], Any, str]] = [(["setup"], data["setup"], "setup")]
    for i, step in enumerate(data["steps"]):
        at = ["steps", i]
        checks.append(([*at, "do"], step["do"], "action"))
        expect = step.get("expect", {})
        for key, entry in (("cards", "card_state"), ("players", "player_state")):
            for name, value in expect.get(key, {}).items():
                checks.append(([*at, "expect", key, name], value, entry))
        events = expect.get("events", {})
        for kind in ("include", "exclude", "order"):
            for j, pattern in enumerate(events.get(kind, [])):
                checks.append(([*at, "expect", "events", kind, j], pattern, "event"))
        for j, rule in enumerate(events.get("count", [])):
            checks.append(([*at, "expect", "events", "count", j, "match"], rule["match"],
                           "event"))
    found = []
    for place, value, entry in checks:
        error = _schemas.best_error(value, schema, entry=entry)
        if error is not None:
            found.append(_error_at(
                place + list(error.path), f"{error.message} (not {ruleset} vocabulary)",
                where, lines, f"use the words of the {ruleset} pack's vocabulary (docs/"
                f"rulesets/{ruleset}.md for a bundled pack); the schema is {schema}"))
    return found


ID_REFS = frozenset({"#/$defs/id", "#/$defs/new_id"})


def _unknown_ids(ruleset: str, data: dict[str, Any], lines: _yaml.Lines,
                 where: str) -> list[CatalogueError]:
    """Card ids a case names (where its vocabulary reads an ``id``, and as keys of
    ``expect.cards``) that neither its setup nor an action (``new_id``) gives to a card.

    Without this, a typo'd id reaches the engine, which rejects the action or observes
    nothing, and the case reads as the engine's failure.
    """
    found = _scenario(ruleset, data)
    if found is None:
        return []
    schema, scenario = found
    named = _schemas.named(scenario, schema, entry="scenario", refs=ID_REFS)
    given = {node["id"] for _, node in _walk(data["setup"])
             if isinstance(node, dict) and isinstance(node.get("id"), str)}
    defined = given | {v for ref, v in named if ref.endswith("new_id")}
    places: dict[str, list[Any]] = {}
    for i, step in enumerate(data["steps"]):
        for key in step.get("expect", {}).get("cards", {}):
            places.setdefault(key, ["steps", i, "expect", "cards", key])
    first: dict[str, list[Any]] = {}   # each string's first place, in document order
    for at, node in _walk(scenario):
        if isinstance(node, str):
            first.setdefault(node, at)
    for _, value in named:
        places.setdefault(value, first.get(value, ["setup"]))
    known = ", ".join(sorted(defined)) or "none"
    return [_error_at(place, f"card id {name!r} is not in the setup", where, lines,
                      f"give a card 'id: {name}' in the setup, or name one it has ({known})")
            for name, place in places.items() if name not in defined]


def _walk(value: Any, at: list[Any] | None = None) -> Iterator[tuple[list[Any], Any]]:
    """Every node of a document with its path, in document order."""
    at = at or []
    yield at, value
    items = value.items() if isinstance(value, dict) else (
        enumerate(value) if isinstance(value, list) else ())
    for key, child in items:
        yield from _walk(child, [*at, key])


def _check_references(rules: dict[str, Rule], cases: list[Case],
                      errors: list[CatalogueError]) -> None:
    def error(at: Rule | Case, message: str, hint: str) -> None:
        errors.append(CatalogueError(message, path=at.path, line=at.line, hint=hint))

    # `see` only links rules for readers; nothing follows the links, so mutual
    # references are fine, but a dangling or self reference is a mistake.
    for rule in rules.values():
        for other in rule.interprets:
            if other not in rules or rules[other].kind not in SEED_KINDS:
                error(rule, f"reading {rule.id!r} interprets {other!r}, which is not a seed "
                      "entry", "list the ids of the seed rules whose sentences it reads")
        for other in rule.see:
            if other == rule.id:
                error(rule, f"rule {rule.id!r} lists itself under see",
                      "remove it from its own see list")
            elif other not in rules:
                error(rule, f"rule {rule.id!r} sees unknown rule {other!r}",
                      "fix the id or add that rule to the index")
    readings = {rid for rid, rule in rules.items() if rule.kind == READING}
    for case in cases:
        for rid in case.rules:
            if rid not in rules:
                near = [r for r in rules if r.split("/")[-1] == rid.split("/")[-1]]
                error(case, f"case {case.id!r} names unknown rule {rid!r}",
                      f"did you mean {near[0]!r}?" if near
                      else "add the rule to the ruleset's rules.yaml or fix the id")
        for rid in case.not_relied_on:
            if rid not in readings or rid in case.rules:
                error(case, f"case {case.id!r} lists {rid!r} under not_relied_on, which is "
                      + ("in its rules" if rid in case.rules else "no reading"),
                      "not_relied_on lists readings the notes name without relying on them")
        untagged = sorted(named_readings(case, readings) - set(case.rules)
                          - set(case.not_relied_on))
        if untagged:
            error(case, f"case {case.id!r} names {', '.join(map(repr, untagged))} in its "
                  "notes or source, but its rules lack it",
                  "tag every reading the case relies on in `rules:` (CONTRIBUTING.md, "
                  "'Adding a case'); if the notes name it to say the case does not rely "
                  "on it, list it under `not_relied_on:`")


#: A reading named in prose: its full id, or "reading <slug>" / "Reading <slug>".
_READING_ID = re.compile(r"\b([a-z0-9_]+/reading/[a-z0-9]+(?:-[a-z0-9]+)*)")
_READING_SLUG = re.compile(r"\b[Rr]eadings? `?([a-z0-9]+(?:-[a-z0-9]+)+)")


def named_readings(case: Case, readings: set[str]) -> set[str]:
    """The readings ``case``'s notes, source and step notes name (of ``readings``): a case
    that explains itself by a reading relies on it, so its verdict must not rest on the seed
    alone (issue 41)."""
    texts = [case.notes, *(v for _, v in _walk(case.source) if isinstance(v, str)),
             *(str(step.get("note", "")) for step in case.steps)]
    found: set[str] = set()
    for text in texts:
        found.update(m for m in _READING_ID.findall(text) if m in readings)
        found.update(f"{case.ruleset}/reading/{slug}" for slug in _READING_SLUG.findall(text)
                     if f"{case.ruleset}/reading/{slug}" in readings)
    return found


_Read = tuple[dict[str, Any], _yaml.Lines, str | None, list["jsonschema.ValidationError"]]


def _read_yaml(path: Path, limit: int, schema_name: str, ruleset: str,
               errors: list[CatalogueError], digest: Any, known: _KnownValid) -> _Read | None:
    """Read, parse and schema-check one file; append errors, and return None when
    there is no mapping to look at.  With the data and lines: the file's seal for
    `_KnownValid` (``""``: known to be valid, not checked again; None: it breaks
    the schema) and the schema errors (appended too: the caller may word others).
    """
    try:
        raw, data, lines = _parse(path, limit, digest)
    except CatalogueError as error:
        errors.append(error)
        return None
    seal = known.seal(schema_name, ruleset, raw)
    if not seal:
        return data, lines, "", []
    problems = _schemas.errors(data, "schemas", schema_name)
    errors.extend(_error_at(list(err.path), err.message, str(path), lines,
                            _schema_hint(err, schema_name)) for err in problems)
    return data, lines, None if problems else seal, problems


def _parse(path: Path, limit: int, digest: Any) -> tuple[bytes, dict[str, Any], _yaml.Lines]:
    """One file's bytes (digested once read), its mapping and its lines; the
    `CatalogueError` when it is not a readable YAML mapping."""
    def fail(message: str, hint: str, line: int | None = None) -> CatalogueError:
        return CatalogueError(message, path=str(path), line=line, hint=hint)

    try:
        size = path.stat().st_size
        if size > limit:
            raise fail(f"file is {size} bytes, over the {limit}-byte limit",
                       "split it; a case is one board and a few steps")
        raw = path.read_bytes()
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise fail(f"not UTF-8 text (byte {exc.start})", "save the file as UTF-8",
                   raw[: exc.start].count(b"\n") + 1) from None
    except OSError as exc:
        raise fail(f"cannot read: {exc.strerror}", "check the file's permissions") from None
    digest.update(path.name.encode() + b"\0" + raw)
    try:
        data, lines = _yaml.parse(text)
    except _yaml.DuplicateKeyError as exc:
        raise fail(f"{exc.problem} (the first is at line {exc.first_line})",
                   "keep one of them: YAML would keep the last and drop the first "
                   "without a word", _mark_line(exc)) from None
    except yaml.constructor.ConstructorError as exc:
        raise fail(f"YAML tag not allowed: {exc.problem}", "remove the tag; cases are plain "
                   "data (safe loading never builds objects)", _mark_line(exc)) from None
    except _yaml.AliasError as exc:
        raise fail(str(exc.problem), "write the value out in full instead of &anchor / *alias",
                   _mark_line(exc)) from None
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise fail(f"invalid YAML: {problem}", "fix the YAML syntax at that line "
                   "(indentation, quotes, colons)", _mark_line(exc)) from None
    except RecursionError:
        raise fail("nested too deeply to read", "flatten the document; a case needs only a "
                   "few levels") from None
    if not isinstance(data, dict):
        raise fail(f"expected a mapping at the top, found {type(data).__name__}",
                   "a case file is a YAML mapping with id, title, ruleset, rules, ...", 1)
    return raw, data, lines


def _schema_hint(err: jsonschema.ValidationError, schema_name: str) -> str:
    if err.validator == "additionalProperties" and isinstance(err.schema, dict):
        allowed = sorted(err.schema.get("properties", {}))
        return f"remove the unknown key; allowed here: {', '.join(allowed)}"
    if err.validator == "required":
        return "add the missing key (see docs/cases.md)"
    if err.validator == "pattern":
        return f"the value must match {err.validator_value}"
    return f"see conformance/schemas/{schema_name} and docs/cases.md"


def _mark_line(exc: Exception) -> int | None:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    return mark.line + 1 if mark is not None else None
