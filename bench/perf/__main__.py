"""`python -m bench.perf CORPUS [CORPUS ...]`: see run.py and docs/performance.md."""

import sys

from .run import main

sys.exit(main())
