"""pytest plugin (filled in by the runner work; registered via the pytest11 entry point)."""
