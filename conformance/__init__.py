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

from conformance._version import __version__ as __version__

#: Public name -> the private module that defines it (the imports below, for type checkers).
_EXPORTS = {name: module for module, names in {
    "_engine": ("PROTOCOL_VERSION", "AdapterRaised", "Engine", "EngineCrashed", "EngineFault",
                "EngineReportedError", "EngineTimeout", "ProtocolViolation", "Unsupported"),
    "_errors": ("CatalogueError", "ConformanceError", "ExitCode", "InvalidCatalogue",
                "UsageError"),
    "_api": ("certify",), "_report": ("Report",), "_protocol": ("serve",),
    "_results": ("Mismatch", "Result"),
}.items() for name in names}
#: Public submodules, imported on first use like the names above.
_SUBMODULES = frozenset({"vocabulary"})   # versioned vocabularies: check, schema, features

__all__ = sorted([*_EXPORTS, *_SUBMODULES, "__version__"])

if TYPE_CHECKING:   # `X as X`: each name is this package's, re-exported
    from conformance import vocabulary as vocabulary
    from conformance._api import certify as certify
    from conformance._engine import PROTOCOL_VERSION as PROTOCOL_VERSION
    from conformance._engine import AdapterRaised as AdapterRaised
    from conformance._engine import Engine as Engine
    from conformance._engine import EngineCrashed as EngineCrashed
    from conformance._engine import EngineFault as EngineFault
    from conformance._engine import EngineReportedError as EngineReportedError
    from conformance._engine import EngineTimeout as EngineTimeout
    from conformance._engine import ProtocolViolation as ProtocolViolation
    from conformance._engine import Unsupported as Unsupported
    from conformance._errors import CatalogueError as CatalogueError
    from conformance._errors import ConformanceError as ConformanceError
    from conformance._errors import ExitCode as ExitCode
    from conformance._errors import InvalidCatalogue as InvalidCatalogue
    from conformance._errors import UsageError as UsageError
    from conformance._protocol import serve as serve
    from conformance._report import Report as Report
    from conformance._results import Mismatch as Mismatch
    from conformance._results import Result as Result


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
