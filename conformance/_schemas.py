"""The JSON Schemas shipped as package data: the only validators, fast and slow.

Case files, rule indexes, report.json, protocol messages and ruleset
vocabularies are all described by schemas under ``conformance/``; this is the
one place that finds them (with importlib.resources, so an installed package
works) and builds their validators.

Validate fast, explain slowly: `check` is a schema compiled to Python by
fastjsonschema (a few µs per message), used on every message and file;
`validator` is the full jsonschema validator, imported and built only to word
the error once a check has failed.  Both read the same schema, and
tests/harness/test_schemas.py holds them to the same verdicts.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance import _compiled

if TYPE_CHECKING:
    import jsonschema

Check = Callable[[Any], bool]


@cache
def load(*parts: str) -> dict[str, Any]:
    """The schema at ``conformance/<parts...>``, or at the absolute path that is the only
    part (a ruleset pack's vocabulary, wherever its distribution put it);
    FileNotFoundError if absent."""
    absolute = len(parts) == 1 and os.path.isabs(parts[0])
    file = Path(parts[0]) if absolute else resources.files("conformance").joinpath(*parts)
    schema: dict[str, Any] = json.loads(file.read_text("utf-8"))
    return schema


def shipped(folder: str) -> list[tuple[str, ...]]:
    """The parts of every JSON file under ``conformance/<folder>/``, at any depth, sorted."""
    here = Path(__file__).parent
    return sorted(path.relative_to(here).parts for path in (here / folder).rglob("*.json"))


@cache
def _by_id() -> dict[str, dict[str, Any]]:
    """Every schema under ``conformance/schemas/`` by its ``$id``, for ``$ref`` across files."""
    schemas = [load(*parts) for parts in shipped("schemas")]
    return {schema["$id"]: schema for schema in schemas}


@cache
def _library() -> tuple[str, bool]:
    """What every check's schema may reference, walked once per process: its digest,
    and whether compiled code means what jsonschema does there (`_compilable`)."""
    schemas = _by_id()
    return (hashlib.sha256(json.dumps(sorted(schemas.items())).encode()).hexdigest(),
            all(_compilable(schema) for schema in schemas.values()))


def _compilable(schema: dict[str, Any]) -> bool:
    """Whether every keyword is one we compile and no enum or const is
    `_compiled.confusable`; any other schema is jsonschema's alone (slower, never wrong)."""
    return _compiled.fast_enough(schema) and not _compiled.confusable(schema)


#: What an entry's schema keeps of its file: identity and definitions, not the
#: file's own constraints (a reply file's ``seq`` does not bind its answer).
_FILE_KEYS = ("$schema", "$id", "$defs")


def _rooted(schema: dict[str, Any], entry: str | None) -> dict[str, Any]:
    """The schema, or (``entry``) one of its ``$defs`` as the root of that file."""
    if entry is None:
        return schema
    return {**{k: schema[k] for k in _FILE_KEYS if k in schema}, "$ref": f"#/$defs/{entry}"}


@cache
def check(*parts: str, entry: str | None = None) -> Check:
    """A compiled check for that schema (or its ``$defs/<entry>``): True when valid."""
    schema = load(*parts)
    library_digest, library_compilable = _library()
    if not (library_compilable and _compilable(schema)):
        return validator(*parts, entry=entry).is_valid
    import fastjsonschema

    form = _compiled.for_compiler(_rooted(schema, entry))
    compiled = _compiled.compile_check(form, f"{parts} {entry}", _by_id(), library_digest)
    invalid = fastjsonschema.JsonSchemaException

    def is_valid(value: Any) -> bool:
        try:
            compiled(value)
        except invalid:
            return False
        return True

    return is_valid


@cache
def validator(*parts: str, entry: str | None = None) -> jsonschema.protocols.Validator:
    """The full validator for that schema (or its ``$defs/<entry>``), to explain errors."""
    import jsonschema

    schema = _rooted(load(*parts), entry)
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema, registry=_registry())


@cache
def _registry() -> Any:
    """Schemas $ref each other by relative URL ("common.json#/$defs/seq"): resolve
    those from the files shipped here, never over the network."""
    from referencing import Registry, Resource

    return Registry().with_resources(
        (uri, Resource.from_contents(found)) for uri, found in _by_id().items())


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

    best: jsonschema.ValidationError | None = best_match(  # unannotated in types-jsonschema
        validator(*parts, entry=entry).iter_errors(value))
    return best


def named(value: Any, *parts: str, entry: str | None, refs: frozenset[str]
          ) -> list[tuple[str, str]]:
    """The strings in a *valid* ``value`` that the schema reads through one of ``refs``
    (``"#/$defs/id"``: the card ids a case names), as ``(ref, string)`` in schema order.

    The schema, not a list of key names, says where an id goes: a vocabulary that
    adds an action naming a card needs no change here.
    """
    import jsonschema

    base = validator(*parts, entry=entry)
    follow = type(base).VALIDATORS["$ref"]
    found: list[tuple[str, str]] = []

    def ref(v: Any, target: str, instance: Any, schema: dict[str, Any]) -> Any:
        errors = list(follow(v, target, instance, schema))
        if target in refs and not errors and isinstance(instance, str):
            found.append((target, instance))
        yield from errors

    cls = jsonschema.validators.extend(  # type: ignore[no-untyped-call]  # unannotated in types-jsonschema
        type(base), {"$ref": ref})
    for _ in cls(base.schema, registry=_registry()).iter_errors(value):
        pass
    return found
