"""``python -m fuzz`` (run from the repository's root): see the package's docstring."""

import sys

from fuzz.harness import main

if __name__ == "__main__":
    sys.exit(main())
