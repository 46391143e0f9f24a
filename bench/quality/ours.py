"""The system under test: the engine in-process (one Engine per tree) and its CLI as a process.

Every call is guarded: while the engine is being edited it may be missing or crash, and the
benchmark must count that per task and keep going.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field

from .metrics import Region


@dataclass
class OursOutcome:
    """What one retrieval returned, reduced to what the metrics need."""

    ranking: list[str] = field(default_factory=list)
    """The returned files in order: what the user receives, nothing appended."""
    cycle_rankings: list[list[str]] = field(default_factory=list)
    """The trace's merged ranking after each cycle (a diagnostic: not handed out)."""
    stop_reason: str = ""
    """Why the loop stopped, as the trace's last cycle says."""
    files: list[tuple[str, float]] = field(default_factory=list)
    """(path, relevance) of the returned files."""
    regions: list[Region] = field(default_factory=list)
    tokens_sent: int = 0
    """Characters of the regions' text / 4."""
    cycles: int = 0
    seconds: float = 0.0
    error: str | None = None


@dataclass
class TreeIndex:
    """Index build of one tree: time, file counts, and the error when it failed."""

    seconds: float = 0.0
    files: int = 0
    indexed: int = 0
    error: str | None = None


def _short_traceback() -> str:
    return traceback.format_exc(limit=12).strip()


class OursTree:
    """The engine over one tree, reused by all its tasks."""

    def __init__(self, root: str, cache_dir: str):
        self.root = root
        self.cache_dir = cache_dir
        self.engine = None
        self.index = TreeIndex()
        t0 = time.perf_counter()
        try:
            from iterative_retrieval.config import Settings
            from iterative_retrieval.engine import Engine

            self.engine = Engine([root], Settings(cache_dir=cache_dir))
            stats = self.engine.refresh()
            self.index.files = sum(s.files for s in stats)
            self.index.indexed = sum(s.indexed for s in stats)
        except Exception:  # noqa: BLE001 - any engine failure is a benchmark finding
            self.index.error = _short_traceback()
            self.engine = None
        self.index.seconds = time.perf_counter() - t0

    def retrieve(self, task: str) -> OursOutcome:
        if self.engine is None:
            return OursOutcome(error="no engine for this tree:\n" + (self.index.error or ""))
        t0 = time.perf_counter()
        try:
            res = self.engine.retrieve(task)
        except Exception:  # noqa: BLE001
            return OursOutcome(seconds=time.perf_counter() - t0, error=_short_traceback())
        seconds = time.perf_counter() - t0
        try:
            return outcome_of(res, seconds)
        except Exception:  # noqa: BLE001 - a result that does not have the documented shape
            return OursOutcome(seconds=seconds, error=_short_traceback())

    def close(self) -> None:
        if self.engine is not None:
            with contextlib.suppress(Exception):
                self.engine.close()


def outcome_of(res, seconds: float) -> OursOutcome:
    """Reduce a RetrievalResult to the handed-out files, their relevances and regions."""
    ranking = [f.path for f in res.files]
    cycle_rankings = [list(t.ranking) for t in res.trace]
    regions = [(f.path, r.start_line, r.end_line) for f in res.files for r in f.regions]
    chars = sum(len(r.text) for f in res.files for r in f.regions)
    return OursOutcome(
        ranking=ranking,
        cycle_rankings=cycle_rankings,
        files=[(f.path, float(f.relevance)) for f in res.files],
        regions=regions,
        tokens_sent=(chars + 3) // 4,
        cycles=len(res.trace),
        stop_reason=res.trace[-1].stop_reason if res.trace else "",
        seconds=seconds,
    )


def cli_command() -> list[str]:
    """The installed console script, else `python -m iterative_retrieval`."""
    exe = shutil.which("iterative-retrieval")
    return [exe] if exe else [sys.executable, "-m", "iterative_retrieval"]


def cli_latency(
    root: str, task: str, cache_dir: str, timeout: float = 300
) -> tuple[float, str | None]:
    """Wall seconds of one fresh `iterative-retrieval retrieve --json` process (warm index)."""
    fd, path = tempfile.mkstemp(prefix="bench-task-", suffix=".txt")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(task)
        cmd = cli_command() + ["retrieve", "--task-file", path, "--root", root, "--json",
                               "--cache-dir", cache_dir, "-q"]
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(cmd, check=False, capture_output=True, text=True,
                                  timeout=timeout)
        except (OSError, subprocess.SubprocessError) as exc:
            return time.perf_counter() - t0, f"{type(exc).__name__}: {exc}"
        seconds = time.perf_counter() - t0
        if proc.returncode != 0:
            return seconds, f"exit {proc.returncode}: {proc.stderr.strip()[-2000:]}"
        return seconds, None
    finally:
        os.unlink(path)
