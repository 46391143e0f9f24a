"""When the cycle collector runs: settled servers freeze their survivors, yet cycles that
became garbage after a freeze are collected at the next full settle."""

from __future__ import annotations

import gc
import weakref

from iterative_retrieval import heap


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_settle_freezes_survivors_and_a_full_settle_collects_frozen_cycles():
    enabled = gc.isenabled()
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a
        probe = weakref.ref(a)
        heap.settle()
        assert gc.get_freeze_count() > 0
        del a, b  # a cycle, garbage only now that it is frozen
        gc.collect()
        assert probe() is not None  # frozen: an ordinary collection does not see it
        for _ in range(heap.FULL_EVERY + 1):
            heap.settle(idle=False)  # a request under way: no full collection
        assert probe() is not None
        heap.settle()  # the first idle settle after FULL_EVERY
        assert probe() is None
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


def test_short_run_turns_the_collector_off():
    try:
        heap.short_run()
        assert not gc.isenabled()
    finally:
        gc.enable()
