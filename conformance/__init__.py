"""card-conformance: rule-by-rule conformance for card-game rules engines.

What an adapter author imports lives here; everything else is private
(`_`-prefixed modules) or a subpackage.
"""

from conformance._engine import (
    PROTOCOL_VERSION,
    Engine,
    EngineCrashed,
    EngineFault,
    EngineReportedError,
    EngineTimeout,
    ProtocolViolation,
    Unsupported,
)
from conformance._errors import CatalogueError, ConformanceError, ExitCode, InvalidCatalogue
from conformance._protocol import serve
from conformance._results import Mismatch, Result

__version__ = "0.1.0"

__all__ = [
    "PROTOCOL_VERSION",
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
    "Result",
    "Unsupported",
    "__version__",
    "serve",
]
