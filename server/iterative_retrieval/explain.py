"""One file's evaluation for a task (`Engine.explain`), the same on every surface.

The loop runs for the task with room for EXPLAIN_MAX_FILES result files, then the file is
looked up among them; a file that is not there is explained by why it is not: a secret, outside
the index's scope, set aside by a cycle, or never a candidate.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, cast
from urllib.parse import urlparse
from urllib.request import url2pathname

from .config import Settings
from .contract import Band, ExplanationJson
from .index.parse import SKIPPED_WHY
from .models import RetrievalResult
from .workspace import Scope, is_default_excluded, is_inside


class Engine(Protocol):
    """What an explanation needs of engine.Engine (which calls this module: no import back)."""

    roots: list[Path]
    settings: Settings

    def root_of(self, path: str) -> tuple[Path, str] | None: ...

    @property
    def retrieve(self) -> Callable[..., RetrievalResult]: ...

    def is_secret(self, root: Path, rel: str) -> bool: ...

    def skip_reason(self, root: Path, rel: str) -> str | None: ...

    def scope(self, root: Path) -> Scope: ...

EXPLAIN_MAX_FILES = 200
"""The loop runs with this many result files, then the file is looked up among them."""


class ExplainError(ValueError):
    """The path names no file of the workspace (the message says why)."""


def resolve(engine: Engine, path: str) -> tuple[Path, str]:
    """(root, path relative to it) of a file inside a root: a path relative to a root (the
    first root where it exists, else the first root), an absolute path or a `file://` URI."""
    raw = (path or "").strip()
    if not raw:
        raise ExplainError("path is empty: give a file path relative to the workspace root")
    if raw.startswith("file://"):
        raw = url2pathname(urlparse(raw).path)
    roots = engine.roots
    if os.path.isabs(raw):
        ab = os.path.abspath(raw)
    else:
        ab = next((os.path.abspath(os.path.join(r, raw)) for r in roots
                   if os.path.lexists(os.path.join(r, raw))),
                  os.path.abspath(os.path.join(roots[0], raw)))
    hit = engine.root_of(ab)
    if hit is None or not is_inside(hit[0], ab):
        where = ", ".join(map(str, roots))
        raise ExplainError(f"path is outside the workspace root {where}: {path}")
    root, rel = hit
    if not os.path.exists(ab):
        raise ExplainError(f"no such file in the workspace: {rel}")
    if os.path.isdir(ab):
        raise ExplainError(f"{rel} is a folder: give one file")
    return root, rel


def explain(engine: Engine, path: str, task: str, settings: Settings | None = None,
            **retrieve_options: Any) -> ExplanationJson:
    """How relevant one file is to a task, and why; ExplainError for a path that names no
    file of the workspace, ValueError for an empty task."""
    root, rel = resolve(engine, path)
    s = (settings or engine.settings).merged(max_files=EXPLAIN_MAX_FILES).validated()
    result = engine.retrieve(task, s, roots=[root], **retrieve_options)
    return explanation(engine, result, root, rel)


def explanation(engine: Engine, result: RetrievalResult, root: Path,
                rel: str) -> ExplanationJson:
    """The file's entry in a result retrieved for the explanation, or why it has none."""
    for rank, f in enumerate(result.files, 1):
        if f.path == rel and (not f.root or Path(f.root) == root):
            return {
                "task": result.task, "path": rel, "root": str(root),
                "relevance": round(f.relevance, 3), "band": cast(Band, f.band),
                "reason": f.reason, "missing": list(f.missing), "rank": rank,
                "of": len(result.files), "cycle": f.cycle,
                "regions": [{"start_line": r.start_line, "end_line": r.end_line}
                            for r in f.regions],
            }
    if engine.is_secret(root, rel):
        reason = ("never read: it is a secret file (keys, .env, credentials: by name, folder, "
                  "link target or content)")
    elif is_default_excluded(rel):
        reason = ("not indexed: a default exclude (tool and dependency folders, build output, "
                  "lock, minified, generated and binary files, IDE project files such as "
                  "Xcode's project.pbxproj, copies of a library's release "
                  "such as jquery-3.5.1.js)")
    elif not engine.scope(root).admits(rel):
        reason = ("not indexed: excluded by the project's .iterative-retrieval-ignore or the "
                  "include and exclude settings")
    elif (skipped := engine.skip_reason(root, rel)) is not None:
        reason = f"not indexed: {SKIPPED_WHY.get(skipped, skipped)}"
    else:
        dropped = next((t.cycle for t in result.trace if rel in t.excluded), None)
        reason = (
            f"evaluated in cycle {dropped} and set aside: relevance below 0.2 for this task"
            if dropped is not None
            else "not among the candidates for this task (relevance below 0.2)"
        )
    return {
        "task": result.task, "path": rel, "root": str(root), "relevance": 0.0,
        "band": "irrelevant", "reason": reason, "missing": [], "rank": None,
        "of": len(result.files), "cycle": None, "regions": [],
    }
