"""``python -m conformance`` is the ``conformance`` command."""

import sys

from conformance._cli import main

sys.exit(main())
