"""``python -m hotspot.cli``: the command line, as ``hotspot``."""

import sys

from . import main

sys.exit(main())
