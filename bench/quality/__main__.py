"""`python -m bench.quality --tasks ../shared/bench-dev/tasks.jsonl --work /tmp/bench-work`."""

import sys

from .run import main

sys.exit(main())
