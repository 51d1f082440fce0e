"""`python -m informed`: the same as the `informed` command."""

import sys

from informed.cli.main import main

sys.exit(main())
