"""``python -m game`` starts Tabletop, like ``python main.py`` and the ``tabletop`` command."""

import sys

from game.app import main

if __name__ == "__main__":
    sys.exit(main())
