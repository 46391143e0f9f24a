"""Write a task file whose tasks are pasted into issue templates, as reporters paste them.

    python -m bench.quality.wrap --tasks ../shared/bench-dev/tasks.jsonl --out /tmp/tpl.jsonl \
        [--set rules|check]

Each task goes into one of two templates, in turn. `rules` holds the two the boilerplate rules
of server/iterative_retrieval/pasted.py were written against: GitHub's default bug report and
an issue form. `check` holds two written after them, to check that the rules carry: a
matplotlib-style issue form and a Sphinx-style report, with their fields filled in (the
reporter's answers, which stay). Run the file with `python -m bench.quality --tasks` and compare
with the bare tasks (docs/design.md, "Reading the task").
"""

from __future__ import annotations

import argparse
import json

GITHUB_BUG = """**Describe the bug**
{task}

**To Reproduce**
Steps to reproduce the behavior:
1. Go to '...'
2. Click on '....'
3. Scroll down to '....'
4. See error

**Expected behavior**
A clear and concise description of what you expected to happen.

**Screenshots**
If applicable, add screenshots to help explain your problem.

**Desktop (please complete the following information):**
 - OS: [e.g. iOS]
 - Browser [e.g. chrome, safari]
 - Version [e.g. 22]

**Additional context**
Add any other context about the problem here.
"""

ISSUE_FORM = """### Bug description

{task}

### Steps to reproduce

_No response_

### Expected behavior

_No response_

### Operating system

Ubuntu 22.04

### Python version

3.11.4

### Package version

1.4.2

### Additional information

_No response_
"""

FORM_FILLED = """### Bug summary

{task}

### Code for reproduction

```python
# see above
```

### Actual outcome

See the summary.

### Expected outcome

It should work.

### Additional information

_No response_

### Operating system

macOS 14.1

### Project Version

3.8.2

### Backend

QtAgg

### Python version

3.11.5

### Jupyter version

_No response_

### Installation

pip
"""

REPORT_FILLED = """**Describe the bug**

{task}

**How to Reproduce**

```
$ pip install -e .
$ make test
```

**Expected behavior**

No error.

**Your project**

(private)

**Screenshots**

N/A

**Environment info**
- OS: Windows 11
- Python version: 3.10.12
- Project version: 5.0.2
- Extensions: autodoc, napoleon
- Extra tools: none

**Additional context**

N/A
"""

SETS = {"rules": (GITHUB_BUG, ISSUE_FORM), "check": (FORM_FILLED, REPORT_FILLED)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--set", choices=sorted(SETS), default="rules")
    a = ap.parse_args(argv)
    templates = SETS[a.set]
    with open(a.tasks, encoding="utf-8") as src, open(a.out, "w", encoding="utf-8") as out:
        for i, line in enumerate(src):
            task = json.loads(line)
            task["task"] = templates[i % len(templates)].format(task=task["task"])
            out.write(json.dumps(task) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
