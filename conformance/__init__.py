"""card-conformance: rule-by-rule conformance for card-game rules engines.

What an adapter author imports lives here; everything else is private
(`_`-prefixed modules) or a subpackage.

Names are imported on first use (PEP 562): the pytest plugin is registered
through an entry point, so every pytest run of a project that installed the
suite imports this package, and it must cost nothing until ``--engine`` is given.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from conformance._version import __version__

#: Public name -> the private module that defines it.
_EXPORTS = {
    "PROTOCOL_VERSION": "_engine",
    "AdapterRaised": "_engine",
    "Engine": "_engine",
    "EngineCrashed": "_engine",
    "EngineFault": "_engine",
    "EngineReportedError": "_engine",
    "EngineTimeout": "_engine",
    "ProtocolViolation": "_engine",
    "Unsupported": "_engine",
    "CatalogueError": "_errors",
    "ConformanceError": "_errors",
    "ExitCode": "_errors",
    "InvalidCatalogue": "_errors",
    "UsageError": "_errors",
    "certify": "_api",
    "Report": "_report",
    "serve": "_protocol",
    "Mismatch": "_results",
    "Result": "_results",
}
#: Public submodules, imported on first use like the names above.
_SUBMODULES = frozenset({"vocabulary"})   # versioned vocabularies: check, schema, features

__all__ = [
    "PROTOCOL_VERSION",
    "AdapterRaised",
    "CatalogueError",
    "ConformanceError",
    "Engine",
    "EngineCrashed",
    "EngineFault",
    "EngineReportedError",
    "EngineTimeout",
    "ExitCode",
    "InvalidCatalogue",
    "Mismatch",
    "ProtocolViolation",
    "Report",
    "Result",
    "Unsupported",
    "UsageError",
    "__version__",
    "certify",
    "serve",
    "vocabulary",
]

if TYPE_CHECKING:
    from conformance import vocabulary
    from conformance._api import certify
    from conformance._engine import (
        PROTOCOL_VERSION,
        AdapterRaised,
        Engine,
        EngineCrashed,
        EngineFault,
        EngineReportedError,
        EngineTimeout,
        ProtocolViolation,
        Unsupported,
    )
    from conformance._errors import (
        CatalogueError,
        ConformanceError,
        ExitCode,
        InvalidCatalogue,
        UsageError,
    )
    from conformance._protocol import serve
    from conformance._report import Report
    from conformance._results import Mismatch, Result


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"conformance.{name}")
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'conformance' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"conformance.{module}"), name)
    globals()[name] = value  # the next access is a plain lookup
    return value


def __dir__() -> list[str]:
    return __all__
