"""JSON Schema 2020-12, compiled to Python by fastjsonschema, with the same meaning.

fastjsonschema implements draft 7; `for_compiler` rewrites the few places
where 2020-12 means something else (keywords beside ``$ref``; ``==`` that
confuses True with 1 in enum and const), `fast_enough` tells which schemas
use only keywords it compiles, and `compile_check` caches the generated code
(`conformance._cache`).  tests/harness/test_schemas.py compares the result with
jsonschema on real and mutated documents.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from conformance import _cache

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
    "version",   # an annotation: a vocabulary's version (conformance/vocabulary.py)
    "x-compare",  # an annotation: an attribute compared as a set (vocabulary.set_valued)
})
#: Keywords whose value is a map of names to subschemas (not schemas themselves).
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs"})
#: Keywords whose value is plain data, never a subschema.
_DATA = frozenset({"enum", "const", "examples", "default", "required"})


def compile_check(schema: dict[str, Any], identity: str, library: dict[str, dict[str, Any]],
                  library_digest: str) -> Callable[[Any], Any]:
    """The schema compiled to a Python function, through an on-disk cache of code objects.

    Generating and compiling a ruleset vocabulary's code takes a few hundred ms,
    more than loading the whole catalogue; like ``__pycache__``, the code object
    is kept (`conformance._cache`), keyed by ``identity`` (which schema), its
    form, ``library_digest`` (what it may reference: ``library``, by ``$id``),
    this module's source and the versions of Python and fastjsonschema.
    """
    import fastjsonschema
    from fastjsonschema.ref_resolver import RefResolver

    # the schema's own form too: how a caller roots an entry may change with no
    # schema file changing (a stale code object would then judge wrongly)
    parts = [identity, json.dumps(schema, sort_keys=True), library_digest,
             Path(__file__).read_text("utf-8"), fastjsonschema.VERSION, sys.version]
    key = hashlib.sha256("\0".join(parts).encode()).hexdigest()
    found = _cache.load("schema", key)
    if found is None:   # generate: a schema that does not compile raises, and is not stored
        handlers = {"https": lambda uri: for_compiler(library[uri.split("#")[0]])}
        name = RefResolver.from_schema(schema, handlers=handlers).get_scope_name()
        source = fastjsonschema.compile_to_code(schema, handlers=handlers, use_default=False,
                                                use_formats=False)
        found = name, compile(source, f"<compiled schema {schema.get('$id', '')}>", "exec")
        _cache.store("schema", key, found)
    name, code = found
    namespace: dict[str, Any] = {}
    exec(code, namespace)  # noqa: S102 - code generated here from our own schemas
    validate: Callable[[Any], Any] = namespace[name]
    return validate


def _subschemas(schema: Any) -> Iterator[Any]:
    if not isinstance(schema, dict):
        return
    yield schema
    for key, value in schema.items():
        if key in _DATA:
            continue
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            value = list(value.values())
        for sub in value if isinstance(value, list) else [value]:
            yield from _subschemas(sub)


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


def confusable(schema: dict[str, Any]) -> bool:
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


def fast_enough(schema: dict[str, Any]) -> bool:
    """Whether every keyword of the schema is one we compile."""
    return all(set(sub) <= FAST_KEYWORDS for sub in _subschemas(schema))


def for_compiler(schema: Any) -> Any:
    """The schema as fastjsonschema must get it to apply 2020-12's meaning.

    fastjsonschema follows draft 7, where ``$ref`` hides its sibling keywords;
    in 2020-12 they all apply, which ``allOf`` says in either draft.  And a
    bool or number in an enum or const gets the type guard `_bool_guard`.
    """
    if isinstance(schema, list):
        return [for_compiler(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: (v if k in _DATA else for_compiler(v)) for k, v in schema.items()}
    keywords = set(out) - {"$ref", "$schema", "$id", "$defs", "$comment", "title",
                           "description", "examples"}
    if "$ref" in out and keywords:
        ref = out.pop("$ref")
        out["allOf"] = [{"$ref": ref}, *out.pop("allOf", [])]
    guard = _bool_guard(out)
    if guard is not None:
        out["allOf"] = [*out.get("allOf", []), guard]
    return out
