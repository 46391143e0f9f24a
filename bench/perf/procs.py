"""Wall time and peak memory of a command and everything it starts (Linux /proc)."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass

PAGE = os.sysconf("SC_PAGE_SIZE")


def tree_rss(pid: int) -> int:
    """Resident bytes of a process and all its descendants (0 when it is gone).

    It follows each thread's `children` list, reading a few files for the measured tree: a
    sample must not take the CPU it measures (a scan of every process in /proc took 2 ms,
    every 50 ms, on a 2-core machine). Kernels without those lists get the full scan.
    """
    if not os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children"):
        return _tree_rss_scan(pid)
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/statm", "rb") as fh:
                total += int(fh.read().split()[1]) * PAGE  # resident pages
            tasks = os.listdir(f"/proc/{p}/task")
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
        for task in tasks:
            try:
                with open(f"/proc/{p}/task/{task}/children", "rb") as fh:
                    todo.extend(map(int, fh.read().split()))
            except (OSError, ValueError):
                continue
    return total


def _tree_rss_scan(pid: int) -> int:
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        p = int(name)
        children.setdefault(int(fields[1]), []).append(p)  # field 4: the parent's pid
        rss[p] = int(fields[21]) * PAGE  # field 24: rss in pages
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo.extend(children.get(p, ()))
    return total


class PeakRss:
    """Samples a process tree's resident memory every `every` seconds; `peak` is the highest."""

    def __init__(self, pid: int, every: float = 0.05):
        self.pid, self.every, self.peak = pid, every, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, tree_rss(self.pid))
            self._stop.wait(self.every)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


@dataclass
class Run:
    seconds: float
    peak_rss: int
    returncode: int
    stdout: bytes
    stderr: bytes


def run(cmd: list[str], env: dict[str, str] | None = None, cwd: str | None = None,
        sample_rss: bool = False, timeout: float | None = None) -> Run:
    """Run a command to its end: wall seconds, peak RSS of its process tree, its output."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            cwd=cwd)
    sampler = PeakRss(proc.pid) if sample_rss else None
    out, err = proc.communicate(timeout=timeout)
    seconds = time.perf_counter() - t0
    peak = sampler.stop() if sampler else 0
    return Run(seconds, peak, proc.returncode, out, err)
