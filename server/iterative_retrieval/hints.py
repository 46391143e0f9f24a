"""The caller's hints for one root: pins, excludes, files already seen, the editor's files,
the words of the run a task follows up — as paths relative to the root and as concepts.

A hint path is relative to a workspace root, or absolute inside one; one that names nothing in
the root is left out (never an error: an editor may send a file outside every root).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .models import Concept, Hints
from .tokenize import identifier_terms, stem

ACTIVE = 1.0
SELECTION = 1.0
OPEN = 0.4
"""What the editor's files say about where the developer is (the signals' `editor` value)."""
FOLLOW_UP_WEIGHT = 0.6
"""The previous run's learned words weigh as learned terms do (refine.LEARNED_WEIGHT)."""


@dataclass(frozen=True)
class RootHints:
    """The hints that name files of one root, as its relative paths."""

    pinned: tuple[str, ...] = ()
    excluded: frozenset[str] = frozenset()
    seen: frozenset[str] = frozenset()
    editor: dict[str, tuple[float, str]] = field(default_factory=dict)
    """path → (strength, what it is) for the editor signal."""


def for_root(hints: Hints | None, root: Path,
             root_of: Callable[[str], tuple[Path, str] | None],
             use_editor: bool = True) -> RootHints:
    """The hints of `hints` that name files under `root`."""
    if hints is None:
        return RootHints()

    def mine(paths) -> list[str]:
        out = []
        for p in paths:
            rel = _relative(p, root, root_of)
            if rel is not None and rel not in out:
                out.append(rel)
        return out

    editor: dict[str, tuple[float, str]] = {}
    if use_editor:
        for rel in mine(hints.open_files):
            editor[rel] = (OPEN, "open in the editor")
        active = mine([hints.active_file] if hints.active_file else [])
        if active:
            sel = hints.selection
            what = (f"selected lines {sel[0]}-{sel[1]} in the editor" if sel
                    else "the file in the editor's focus")
            editor[active[0]] = (SELECTION if sel else ACTIVE, what)
    return RootHints(tuple(mine(hints.pinned)), frozenset(mine(hints.excluded)),
                     frozenset(mine(hints.seen)), editor)


def _relative(path: str, root: Path, root_of: Callable[[str], tuple[Path, str] | None]
              ) -> str | None:
    if not path or "\0" in path:
        return None
    if os.path.isabs(path):
        hit = root_of(path)
        return hit[1] if hit is not None and hit[0] == root else None
    rel = Path(path.replace("\\", "/")).as_posix().lstrip("/")
    if rel.startswith("../") or "/../" in rel or rel in ("", ".", ".."):
        return None
    return rel if (root / rel).is_file() else None


def follow_up_concepts(words: tuple[str, ...], known: set[str]) -> tuple[Concept, ...]:
    """The previous run's learned words as learned concepts (those the task does not say)."""
    out = []
    for word in words:
        terms = tuple(dict.fromkeys(stem(t) for t in identifier_terms(word) or [word]))
        if terms and not known.issuperset(terms):
            out.append(Concept(word, "learned", FOLLOW_UP_WEIGHT, terms))
            known.update(terms)
    return tuple(out)
