"""The JSON Schemas shipped as package data: the only validators, fast and slow.

Case files, rule indexes, report.json, protocol messages and ruleset
vocabularies are all described by schemas under ``conformance/``; this is the
one place that finds them (with importlib.resources, so an installed package
works) and builds their validators.

Validate fast, explain slowly: `check` is a schema compiled to Python by
fastjsonschema (a few µs per message), used on every message and file;
`validator` is the full jsonschema validator, imported and built only to word
the error once a check has failed.  Both read the same schema, and
tests/test_schemas.py holds them to the same verdicts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import marshal
import os
import sys
from collections.abc import Callable, Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import jsonschema

#: Keywords the compiled checker implements with 2020-12 meaning.  A schema
#: using any other validation keyword is checked by jsonschema alone (slower,
#: never wrong): adding ``unevaluatedProperties`` to a schema cannot silently
#: turn a check off.
FAST_KEYWORDS = frozenset({
    "$schema", "$id", "$ref", "$defs", "$comment", "title", "description", "examples",
    "default", "type", "enum", "const", "properties", "required", "additionalProperties",
    "propertyNames", "patternProperties", "minProperties", "maxProperties", "items",
    "minItems", "maxItems", "uniqueItems", "contains", "minLength", "maxLength", "pattern",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
})
#: Keywords whose value is a map of names to subschemas (not schemas themselves).
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs"})
#: Keywords whose value is plain data, never a subschema.
_DATA = frozenset({"enum", "const", "examples", "default", "required"})

Check = Callable[[Any], bool]


@cache
def load(*parts: str) -> dict[str, Any]:
    """The schema at ``conformance/<parts...>``; FileNotFoundError if absent."""
    return json.loads(resources.files("conformance").joinpath(*parts).read_text("utf-8"))


@cache
def _by_id() -> dict[str, dict[str, Any]]:
    """Every schema under ``conformance/schemas/`` by its ``$id``, for ``$ref`` across files."""
    found: dict[str, dict[str, Any]] = {}
    folder = resources.files("conformance").joinpath("schemas")
    pending: list[tuple[Any, tuple[str, ...]]] = [(folder, ("schemas",))]
    while pending:
        here, parts = pending.pop()
        for entry in here.iterdir():
            if entry.is_dir():
                pending.append((entry, (*parts, entry.name)))
            elif entry.name.endswith(".json"):
                schema = load(*parts, entry.name)
                found[schema["$id"]] = schema
    return found


# What every check's schema may reference: walked and hashed once per process.
@cache
def _library_digest() -> str:
    return hashlib.sha256(json.dumps(sorted(_by_id().items())).encode()).hexdigest()


@cache
def _library_fast() -> bool:
    return all(_fast_enough(schema) for schema in _by_id().values())


@cache
def _library_confusable() -> bool:
    return any(_confusable(schema) for schema in _by_id().values())


def _rooted(schema: dict[str, Any], entry: str | None) -> dict[str, Any]:
    return schema if entry is None else {**schema, "$ref": f"#/$defs/{entry}"}


@dataclasses.dataclass(frozen=True)
class _Prepared:
    """One schema file as the compiler gets it, and what was learnt walking it once."""

    form: dict[str, Any]     # `_for_compiler` of the file
    digest: str              # of the file's content, for the cache key
    fast: bool               # every keyword is one we compile
    confusable: bool         # see `_confusable`


@cache
def _prepared(*parts: str) -> _Prepared:
    schema = load(*parts)
    return _Prepared(
        form=_for_compiler(schema),
        digest=hashlib.sha256(json.dumps(schema, sort_keys=True).encode()).hexdigest(),
        fast=_fast_enough(schema) and _library_fast(),
        confusable=_confusable(schema) or _library_confusable())


@cache
def check(*parts: str, entry: str | None = None) -> Check:
    """A compiled check for that schema (or its ``$defs/<entry>``): True when valid."""
    prepared = _prepared(*parts)
    if not prepared.fast:
        full = validator(*parts, entry=entry)
        return full.is_valid
    import fastjsonschema

    form = prepared.form if entry is None else _rewrite({**prepared.form,
                                                         "$ref": f"#/$defs/{entry}"})
    compiled = _compile(form, f"{prepared.digest} {entry}")
    invalid = fastjsonschema.JsonSchemaException
    # The compiled code compares enum and const with ==, where True == 1;
    # jsonschema does not.  `_for_compiler` guards plain values; where a
    # schema has a rarer shape, a bool in the input is the full validator's call.
    recheck = _lazy_full(parts, entry) if prepared.confusable else None

    def is_valid(value: Any) -> bool:
        try:
            compiled(value)
        except invalid:
            return False
        return recheck is None or not _has_bool(value) or recheck(value)

    return is_valid


@cache
def _own_digest() -> str:
    """Of this module's source: a change to how schemas are compiled voids the cache."""
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()


def _compile(schema: dict[str, Any], identity: str) -> Callable[[Any], Any]:
    """The schema compiled to a Python function, through an on-disk cache of code objects.

    Generating and compiling the code of a ruleset vocabulary takes a few
    hundred ms, more than loading the whole catalogue; like ``__pycache__``,
    the code object is kept under `cache_dir`, keyed by the schemas' content
    (``identity`` names this one), this module's source and the versions of
    Python and fastjsonschema, so only the first run pays.
    """
    import fastjsonschema

    def fetch(uri: str) -> Any:
        return _for_compiler(_by_id()[uri.split("#")[0]])

    key = hashlib.sha256(" ".join([identity, _library_digest(), _own_digest(),
                                   fastjsonschema.VERSION, sys.version]).encode()).hexdigest()
    folder = cache_dir()
    cached = folder / f"schema-{key[:40]}.marshal" if folder is not None else None
    found = None
    if cached is not None:
        with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
            found = marshal.loads(cached.read_bytes())  # noqa: S302 - our own cache, like .pyc
    if found is None:
        handlers = {"https": fetch}
        name = fastjsonschema.RefResolver.from_schema(schema, handlers=handlers).get_scope_name()
        source = fastjsonschema.compile_to_code(schema, handlers=handlers, use_default=False,
                                                use_formats=False)
        found = (name, compile(source, f"<compiled schema {schema.get('$id', '')}>", "exec"))
        if cached is not None:
            with contextlib.suppress(OSError):
                cached.parent.mkdir(parents=True, exist_ok=True)
                partial = cached.with_suffix(f".{os.getpid()}.tmp")
                partial.write_bytes(marshal.dumps(found))
                os.replace(partial, cached)
    name, code = found
    namespace: dict[str, Any] = {}
    exec(code, namespace)  # noqa: S102 - code generated here from our own schemas
    validate: Callable[[Any], Any] = namespace[name]
    return validate


def cache_dir() -> Path | None:
    """Where compiled schemas and parsed catalogue files are kept.

    ``$CONFORMANCE_CACHE`` (empty: nowhere), else ``$XDG_CACHE_HOME/card-conformance``
    or ``~/.cache/card-conformance``.
    """
    return _cache_dir(os.environ.get("CONFORMANCE_CACHE"), os.environ.get("XDG_CACHE_HOME"))


@cache
def _cache_dir(chosen: str | None, xdg: str | None) -> Path | None:
    if chosen is not None:
        return Path(chosen) if chosen else None
    return Path(xdg or os.path.join(os.path.expanduser("~"), ".cache"), "card-conformance")


def _lazy_full(parts: tuple[str, ...], entry: str | None) -> Check:
    def is_valid(value: Any) -> bool:
        return validator(*parts, entry=entry).is_valid(value)
    return is_valid


@cache
def validator(*parts: str, entry: str | None = None) -> jsonschema.protocols.Validator:
    """The full validator for that schema (or its ``$defs/<entry>``), to explain errors."""
    import jsonschema
    from referencing import Registry, Resource

    schema = _rooted(load(*parts), entry)
    # Schemas $ref each other by relative URL ("common.json#/$defs/seq"):
    # resolve those from the files shipped here, never over the network.
    registry: Registry[Any] = Registry().with_resources(
        (uri, Resource.from_contents(found)) for uri, found in _by_id().items())
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema, registry=registry)


def errors(value: Any, *parts: str, entry: str | None = None) -> list[jsonschema.ValidationError]:
    """Every way ``value`` breaks the schema; empty (and cheap) when it is valid."""
    if check(*parts, entry=entry)(value):
        return []
    return sorted(validator(*parts, entry=entry).iter_errors(value),
                  key=lambda e: [str(p) for p in e.path])


def best_error(value: Any, *parts: str, entry: str | None = None
               ) -> jsonschema.ValidationError | None:
    """The one error that best explains why ``value`` is invalid; None when it is valid."""
    if check(*parts, entry=entry)(value):
        return None
    from jsonschema.exceptions import best_match

    return best_match(validator(*parts, entry=entry).iter_errors(value))


def _has_bool(value: Any) -> bool:
    """Whether a bool hides anywhere in ``value`` (where == confuses True and 1)."""
    if isinstance(value, bool):
        return True
    if isinstance(value, dict):
        return any(_has_bool(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_bool(v) for v in value)
    return False


def _subschemas(schema: Any) -> Iterator[Any]:
    if not isinstance(schema, dict):
        return
    yield schema
    for key, value in schema.items():
        if key in _DATA:
            continue
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            for sub in value.values():
                yield from _subschemas(sub)
        elif isinstance(value, list):
            for sub in value:
                yield from _subschemas(sub)
        else:
            yield from _subschemas(value)


def _scalars(sub: dict[str, Any]) -> list[Any]:
    """The values an enum or const of ``sub`` allows."""
    return [*sub.get("enum", []), *([sub["const"]] if "const" in sub else [])]


def _bool_guard(sub: dict[str, Any]) -> dict[str, Any] | None:
    """What keeps ``==`` from confusing True with 1 in this enum or const, if needed."""
    values = _scalars(sub)
    if values and all(isinstance(v, bool) for v in values):
        return {"type": "boolean"}
    if any(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return {"not": {"type": "boolean"}}
    return None


def _confusable(schema: dict[str, Any]) -> bool:
    """Whether an enum or const mixes bools with numbers, or nests them in containers.

    `_bool_guard` makes the compiled check exact for plain bool or number
    values; these rarer shapes are left to the full validator.
    """
    def mixed(values: list[Any]) -> bool:
        kinds = {isinstance(v, bool) for v in values if isinstance(v, bool | int | float)}
        nested = any(isinstance(v, dict | list) and _has_bool_or_number(v) for v in values)
        return len(kinds) > 1 or nested

    return any(mixed(_scalars(sub)) for sub in _subschemas(schema))


def _has_bool_or_number(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_has_bool_or_number(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_bool_or_number(v) for v in value)
    return isinstance(value, bool | int | float)


def _fast_enough(schema: dict[str, Any]) -> bool:
    """Whether every keyword of the schema is one we compile."""
    return all(set(sub) <= FAST_KEYWORDS for sub in _subschemas(schema))


def _for_compiler(schema: Any) -> Any:
    """The schema as fastjsonschema must get it to apply 2020-12's meaning (`_rewrite`)."""
    if isinstance(schema, list):
        return [_for_compiler(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    return _rewrite({k: (v if k in _DATA else _for_compiler(v)) for k, v in schema.items()})


def _rewrite(out: dict[str, Any]) -> dict[str, Any]:
    """One subschema, its own subschemas already rewritten.

    fastjsonschema follows draft 7, where ``$ref`` hides its sibling keywords;
    in 2020-12 they all apply, which ``allOf`` says in either draft.  And a
    bool or number in an enum or const gets the type guard `_bool_guard`.
    """
    keywords = set(out) - {"$ref", "$schema", "$id", "$defs", "$comment", "title",
                           "description", "examples"}
    if "$ref" in out and keywords:
        out = dict(out)
        ref = out.pop("$ref")
        out["allOf"] = [{"$ref": ref}, *out.pop("allOf", [])]
    guard = _bool_guard(out)
    if guard is not None:
        out = {**out, "allOf": [*out.get("allOf", []), guard]}
    return out
