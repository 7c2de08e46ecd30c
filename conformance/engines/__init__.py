"""Adapters the suite ships for existing third-party engines (docs/engines/README.md)."""
