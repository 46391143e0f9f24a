"""One retrieval's run: the value that passes through DISPATCH, EVALUATE, REFINE and LOOP.

Every phase takes the Run instead of a long list of positional parameters: the index it
searches, the task's own concepts, how to read a file, how to stop and report, and the memos
the phases fill, each named for what it holds and who fills it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from .changes import Change
from .index import FileRow, Index
from .models import Concept
from .search import SearchCache

SEEDS = 40
SEED_STRENGTH = 0.3
"""Changes this strong (all but commits of over a few days ago) are candidates in any case."""

Report = Callable[[str, int, int], None]
"""report(message, cycle, max_cycles)."""


class Cancelled(Exception):
    """The caller asked the loop to stop."""


def _never() -> bool:
    return False


def _silent(message: str, cycle: int, total: int) -> None:
    return None


@dataclass
class Run:
    """What every phase of one retrieval reads, and the memos they share."""

    index: Index
    task: str
    task_concepts: tuple[Concept, ...]
    """The concepts the task itself says (REFINE adds learned ones to the query, not here)."""
    read_text: Callable[[str], str | None]
    """A file's current text by relative path (open buffer first), None when unreadable."""
    should_stop: Callable[[], bool] = _never
    report: Report = _silent
    search: SearchCache = field(default_factory=SearchCache)
    """Index look-ups (term hits, the file list, path matches), shared by every phase."""
    used: dict[str, list[str]] = field(default_factory=dict)
    """path → names the file calls or mentions as types (EVALUATE, for missing context)."""
    counts: dict[str, Counter[str]] = field(default_factory=dict)
    """path → stemmed term counts of the file's text (REFINE's feedback)."""
    guess: bool = False
    """Only the task's generic words found anything (LOOP): relevance stays in the related band."""
    superseded: frozenset[str] = frozenset()
    """Task words the codebase says in other words (REFINE): not the task's words on their own."""
    changes: dict[str, Change] = field(default_factory=dict)
    """path → what the developer changed lately (changes.py), for EVALUATE and DISPATCH."""
    lean: float = 0.0
    """How much the task is about the work in progress (changes.lean): the changes' weight."""
    editor: dict[str, tuple[float, str]] = field(default_factory=dict)
    """path → (strength, what it is) of the files the editor shows."""
    pinned: tuple[str, ...] = ()
    """Files the caller pinned: evaluated after the last cycle when no cycle found them."""
    others: tuple[tuple[Index, SearchCache], ...] = ()
    """The workspace's other roots (their indexes and look-ups): a task word's rarity is the
    whole workspace's, so that a root's best match for words its code hardly says is not made
    the task's target by that root's own statistics."""

    @property
    def task_stems(self) -> set[str]:
        return {t for c in self.task_concepts if c.text not in self.superseded for t in c.terms}

    def work(self) -> dict[str, float]:
        """path → strength of the developer's own changes, when the task says it is about them
        ("the failing test I just wrote", "continue the work on this branch"): the files it
        names; else nothing."""
        if self.lean < 1.0:  # changes.lean: 1 when the task says so
            return {}
        return {p: ch.strength for p, ch in self.changes.items() if ch.is_work}

    def seeds(self) -> list[tuple[str, str]]:
        """(path, source) of the files DISPATCH takes as candidates whatever the words: the
        editor's files, and the strongest changes (at most SEEDS, strongest first)."""
        out = [(p, "editor") for p in self.editor]
        changed = sorted(self.changes.items(), key=lambda kv: -kv[1].strength)
        out += [(p, "changed") for p, ch in changed[:SEEDS] if ch.strength >= SEED_STRENGTH]
        return out

    def files(self) -> dict[int, FileRow]:
        """id → row of every indexed file (the index's memo: read-only)."""
        return self.search.all_files(self.index)

    def check(self) -> None:
        """Raise Cancelled when the caller asked to stop."""
        if self.should_stop():
            raise Cancelled()
