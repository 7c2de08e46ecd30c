import os

pytest_plugins = ["pytester"]

# The suite's own tests read the CLI's output as a terminal or log shows it; under
# GitHub Actions the CLI would add annotation lines (docs/ci.md), so the tests run
# as anywhere else (tests/test_report_github.py sets it where it means to).
os.environ.pop("GITHUB_ACTIONS", None)
