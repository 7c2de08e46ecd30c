"""The suite's version: one place, read by the package and by every report it writes."""

__version__ = "0.1.0"
