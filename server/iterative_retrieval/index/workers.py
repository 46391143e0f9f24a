"""Parsing many files at once: a pool of worker processes, each reading and parsing a chunk.

A first index parses in worker processes (forked from the command line, spawned from the
threaded language and MCP servers) while the indexing process stores their rows, in order; a few
files are parsed in-process, where starting workers would cost more.
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
from collections import deque
from collections.abc import Iterator

from .. import heap
from .parse import Row, read_and_parse, to_row

log = logging.getLogger("iterative_retrieval.index")

PARALLEL_THRESHOLD = 400
"""Fewer files to read than this are parsed in-process: starting workers would cost more."""
MAX_WORKERS = 8
PARSE_CHUNK = 64
"""Files per task sent to a worker."""
IN_FLIGHT = 4
"""Chunks in flight per worker."""

Todo = tuple[str, str, int, int, int]
"""A file to read: (rel, abs, size, mtime_ns, max bytes)."""


def die_with_parent(parent: int | None = None) -> None:
    """Worker initializer: end when the indexing process dies, even by SIGKILL (Linux).

    Otherwise a killed `iterative-retrieval index` leaves its workers waiting on a queue whose
    other end their siblings still hold: for ever. A parent killed between the fork and this
    call sends no signal, so `parent` (its pid) is checked after asking for one.
    """
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: nothing to do
        pass
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def _start_worker(parent: int) -> None:
    """Worker initializer: die_with_parent, and no cyclic garbage collector (heap.short_run).

    A forked worker inherits a command line's setting, a spawned one (a server's) does not.
    Parsing makes no reference cycles (a full collection after 5k Go files found 11 objects),
    so the collector's passes over the growing memos found nothing and cost 5% of the CPU.
    """
    die_with_parent(parent)
    heap.short_run()


def _read_batch(items: list[Todo]) -> list[Row]:
    """Worker entry: a chunk of files read and parsed into rows."""
    return [to_row(read_and_parse(it)) for it in items]


def parse_all(todo: list[Todo]) -> Iterator[Row]:
    """Rows of the files to read, in order: in worker processes when there are many."""
    if len(todo) < PARALLEL_THRESHOLD or (os.cpu_count() or 1) < 2:
        return (to_row(read_and_parse(it)) for it in todo)
    return _parse_parallel(todo)

def _parse_parallel(todo: list[Todo]) -> Iterator[Row]:
    # Forking is only safe from a single-threaded process (the CLI); a threaded host (the
    # language server, the MCP server) spawns fresh interpreters instead, which costs a
    # fraction of a second to start but keeps its threads out of the children.
    import multiprocessing  # only a cold start needs them: not imported on the warm path
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    method = "fork" if threading.active_count() == 1 and "fork" in methods else "spawn"
    workers = max(1, min(os.cpu_count() or 2, MAX_WORKERS))
    chunks = [todo[i : i + PARSE_CHUNK] for i in range(0, len(todo), PARSE_CHUNK)]
    done = 0
    pool = None
    try:
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method),
                                   initializer=_start_worker, initargs=(os.getpid(),))
        # A bounded window of chunks in flight: results wait in memory only while the store
        # is behind, and a stopped refresh leaves little work to cancel.
        pending: deque = deque()
        it = iter(chunks)
        for chunk in itertools.islice(it, workers * IN_FLIGHT):
            pending.append(pool.submit(_read_batch, chunk))
        while pending:
            rows = pending.popleft().result()
            nxt = next(it, None)
            if nxt is not None:
                pending.append(pool.submit(_read_batch, nxt))
            yield from rows
            done += len(rows)
    except (OSError, RuntimeError, BrokenProcessPool) as exc:
        # no processes allowed here, or a worker died: do the rest inline
        log.warning("parallel indexing unavailable (%s); indexing in-process", exc)
        yield from (to_row(read_and_parse(it)) for it in todo[done:])
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
