"""The JSON Schemas shipped as package data, each read and compiled once.

Case files, rule indexes, report.json, protocol messages and ruleset
vocabularies are all described by schemas under ``conformance/``; this is the
one place that finds them (with importlib.resources, so an installed package
works) and builds their validators.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema


@cache
def load(*parts: str) -> dict[str, Any]:
    """The schema at ``conformance/<parts...>``; FileNotFoundError if absent."""
    return json.loads(resources.files("conformance").joinpath(*parts).read_text("utf-8"))


@cache
def validator(*parts: str, entry: str | None = None) -> jsonschema.protocols.Validator:
    """A compiled validator for that schema, or for its ``$defs/<entry>``."""
    schema = load(*parts)
    if entry is not None:
        schema = {**schema, "$ref": f"#/$defs/{entry}"}
    return jsonschema.validators.validator_for(schema)(schema)
