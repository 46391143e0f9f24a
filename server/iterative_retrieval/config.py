"""Settings shared by every surface, with defaults, and where the index lives."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from .gitignore import pattern_error

DEFAULT_MAX_CYCLES = 3
DEFAULT_BUDGET_TOKENS = 8000
DEFAULT_MAX_FILE_BYTES = 1_000_000
DEFAULT_MAX_FILES = 15
MAX_TASK_CHARS = 200_000
"""A task read whole: a pasted issue with a long stack trace fits; a whole file or log pasted
by mistake does not (the server and the MCP tool refuse it, the command line reads its start)."""
PROJECT_IGNORE_FILE = ".iterative-retrieval-ignore"
SNIFF_BYTES = 8192
"""Bytes looked at for a NUL, which marks binary data (a file, or a task given by mistake)."""


@dataclass(frozen=True)
class Settings:
    """Options of one retrieval; every surface builds one from its flags or configuration."""

    max_cycles: int = DEFAULT_MAX_CYCLES
    budget: int = DEFAULT_BUDGET_TOKENS
    """Token budget of the regions handed out (about 4 characters a token)."""
    max_files: int = DEFAULT_MAX_FILES
    """Most files in the result: every file >= 0.2, best relevance first."""
    include: tuple[str, ...] = ()
    """Glob patterns: when given, only matching files are candidates."""
    exclude: tuple[str, ...] = ()
    """Extra glob patterns never to index or return."""
    include_tests: bool | None = None
    """None: tests count only when the task is about tests."""
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    cache_dir: str | None = None
    """Where indexes live; default: the platform's cache folder."""
    redact_secrets: bool = True
    """Mask credential-looking strings in the regions handed out (see `redact`)."""
    git_signals: bool = True
    """Weigh the branch's changes, uncommitted edits and recent commits (changes.py)."""
    editor_signals: bool = True
    """Weigh the active file, the selection and the open files the caller sends."""

    def merged(self, **overrides: Any) -> Settings:
        """A copy with the non-None overrides applied (unknown keys are refused)."""
        known = {f.name for f in fields(self)}
        bad = set(overrides) - known
        if bad:
            raise ValueError(f"unknown setting(s): {', '.join(sorted(bad))}")
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})

    def validated(self) -> Settings:
        """Raise ValueError with a clear message when a value is out of range."""
        if not 1 <= self.max_cycles <= 10:
            raise ValueError("max_cycles must be between 1 and 10")
        if not 200 <= self.budget <= 1_000_000:
            raise ValueError("budget must be between 200 and 1000000 tokens")
        if not 1 <= self.max_files <= 200:
            raise ValueError("max_files must be between 1 and 200")
        for name in ("include", "exclude"):
            for pattern in getattr(self, name):
                why = pattern_error(pattern)
                if why:
                    raise ValueError(f"{name}: {pattern!r} is not a valid glob pattern: {why}")
        return self


def default_cache_dir() -> Path:
    """The platform's cache folder for this tool (XDG_CACHE_HOME on Linux)."""
    env = os.environ.get("ITERATIVE_RETRIEVAL_CACHE")
    if env:
        return Path(env)
    if sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    elif os.name == "nt":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "iterative-retrieval"


def ablated(signal: str) -> bool:
    """True when the benchmark switched a ranking signal off (IR_ABLATE=graph,feedback,...).

    Only bench/quality sets it, to measure each signal's share; users never need it.
    """
    return signal in ablated_signals()


def ablated_signals() -> frozenset[str]:
    """Every signal IR_ABLATE switches off: read once by a loop over many candidates."""
    value = os.environ.get("IR_ABLATE")
    return frozenset(s.strip() for s in value.split(",")) if value else frozenset()
