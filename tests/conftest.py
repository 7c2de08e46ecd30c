"""What every test shares: its environment.  The layout is tests/README.md.

Helpers live in tests/support/ (importable from every folder: ``import toy``,
``from commands import conformance_in_process``), fake engines in tests/fakes/.
"""

import os

pytest_plugins = ["pytester"]

# The suite's own tests read the CLI's output as a terminal or log shows it; under
# GitHub Actions the CLI would add annotation lines (docs/ci.md), so the tests run
# as anywhere else (tests/reports/test_report_github.py sets it where it means to).
os.environ.pop("GITHUB_ACTIONS", None)

# A run's default profile follows CI (`ci` there, `certify` elsewhere: docs/cli.md);
# the suite's own tests must give the same results on a laptop and in CI, so they
# never see it: a test that cares about the profile names it (`--profile`,
# `get_profile(...)`), and tests/cli/test_cli.py sets CI where it tests the default.
os.environ.pop("CI", None)
