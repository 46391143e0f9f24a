"""Shared fixtures: real files on disk, real git repositories, an isolated cache folder."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import textwrap
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    """Every test gets its own cache folder, so no index leaks between tests or into ~/.cache."""
    cache = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.delenv("ITERATIVE_RETRIEVAL_CACHE", raising=False)
    return cache


def write_files(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8")
    return root


def git(root: Path, *args: str) -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, env=env)


def make_repo(root: Path, files: dict[str, str | bytes]) -> Path:
    write_files(root, files)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "init")
    return root


# -- reliability tests: sizes, hang guard, an unprivileged user --------------------------------

LONG = os.environ.get("IR_LONG") == "1"
"""`IR_LONG=1`: the full fuzz, load and fault runs (docs/reliability.md); CI runs reduced ones."""


def examples(ci: int, long: int) -> int:
    """How many hypothesis examples a property runs: `ci` in the test suite, `long` with IR_LONG=1."""
    return long if LONG else ci


class Hang(AssertionError):
    """A call did not return within its (generous) hang guard."""


@contextlib.contextmanager
def no_hang(seconds: float, what: str = "call"):
    """Fail, rather than hang the suite, when the block runs longer than `seconds`.

    A hang guard, not a speed check: the bound is many times the expected time. Main thread only
    (it uses SIGALRM), which is where pytest and hypothesis run a test.
    """

    def fire(signum, frame):
        raise Hang(f"{what} did not return within {seconds}s (a hang)")

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# -- a generated workspace of any size --------------------------------------------------------


def module_text(i: int, words: tuple[str, ...]) -> str:
    w = words[i % len(words)]
    return textwrap.dedent(f"""\
        \"\"\"Module {i}: {w} handling.\"\"\"

        def {w}_handler_{i}(request):
            \"\"\"Handle the {w} of a request ({i}).\"\"\"
            value = request.get("{w}_{i}")
            return compute_{w}(value, {i})


        class {w.title()}Store{i}:
            def load(self):
                return [{i}, "{w}"]
        """)


WORDS = ("token", "expiry", "session", "invoice", "billing", "cache", "logger", "router")


def generated_tree(root: Path, n: int) -> dict[str, str]:
    files = {f"pkg/m{i // 50}/mod_{i}.py": module_text(i, WORDS) for i in range(n)}
    files["src/auth/tokens.py"] = (
        "def refresh_token_expiry(token):\n    \"\"\"Fix here: the token expiry.\"\"\"\n"
        "    return token.expires_at\n"
    )
    write_files(root, files)
    return files
