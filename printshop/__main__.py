"""Allows `python -m printshop`."""

import sys

from printshop.cli import main

sys.exit(main())
