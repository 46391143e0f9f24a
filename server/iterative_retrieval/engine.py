"""The one engine behind every surface: roots, their indexes, open buffers, and `retrieve`.

The CLI, the language server and the MCP server each build an Engine and call the same methods;
none of them re-implements a phase. State lives here and in the index database, nowhere else.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from .changes import NONE as NO_CHANGES
from .changes import Changes, UnknownBase, lean, read_changes, without_process_words, work_words
from .config import SNIFF_BYTES, Settings, ablated
from .context import build_context, estimate_tokens, frames_in, select
from .contract import ExplanationJson, RootStatusJson
from .credential_files import credential_format
from .evaluate import stem_weights, text_pass
from .faults import REBUILD, IndexUnavailable, diagnose
from .graph import missing
from .hints import RootHints, follow_up_concepts
from .hints import for_root as hints_for
from .index import Index, IndexStats, Progress
from .lines import normalize
from .loop import Report, run_loop
from .models import Evaluation, Hints, RetrievalResult
from .query import parse_task
from .redact import Redactor, blanked
from .relevance import order
from .run import Run
from .search import SearchCache
from .workspace import Scope, WorkspaceError, check_root, is_inside, is_secret, secret_target

__all__ = ["Engine", "WorkspaceError"]

log = logging.getLogger(__name__)
T = TypeVar("T")


class Engine:
    """Retrieval over one or more workspace roots."""

    def __init__(self, roots: list[str | os.PathLike[str]], settings: Settings | None = None,
                 folders: Mapping[Path, Settings] | None = None):
        """`folders`: a root's own settings (only its FOLDER_SETTINGS count), where a workspace
        folder sets them for itself."""
        if not roots:
            raise WorkspaceError("no workspace root given")
        self.settings = (settings or Settings()).validated()
        self.roots: list[Path] = []
        for r in roots:
            p = check_root(r)
            if p not in self.roots:
                self.roots.append(p)
        self.folders: dict[Path, Settings] = {
            check_root(r): f.validated() for r, f in (folders or {}).items()}
        self._indexes: dict[Path, Index] = {}
        self._scopes: dict[Path, Scope] = {}
        self._documents: dict[str, str] = {}
        """Absolute path → unsaved text of an open buffer."""
        self._lock = threading.RLock()
        self.last_refresh: dict[str, IndexStats] = {}

    def configure(self, settings: Settings, folders: Mapping[Path, Settings]) -> None:
        """New settings, the workspace's and the folders', for the next retrieve; only for
        changes that leave every index as it is (one of `include`, `exclude` or `cacheDir`
        takes a new engine)."""
        settings = settings.validated()
        mine = {check_root(r): f.validated() for r, f in folders.items()}
        with self._lock:
            self.settings, self.folders = settings, mine

    # -- roots and indexes -------------------------------------------------------------------

    def scope(self, root: Path) -> Scope:
        with self._lock:
            if root not in self._scopes:
                mine = self.settings.for_folder(self.folders.get(root), self.settings)
                self._scopes[root] = Scope(root, mine.include, mine.exclude)
            return self._scopes[root]

    def index(self, root: Path) -> Index:
        with self._lock:
            if root not in self._indexes:
                try:
                    self._indexes[root] = Index.open(root, self.settings.cache_dir)
                except IndexUnavailable as fault:
                    self._indexes[root] = self._in_memory(root, fault)
            return self._indexes[root]

    # -- storage faults: rebuild or fall back, never answer from a broken index ---------------

    def _in_memory(self, root: Path, fault: IndexUnavailable) -> Index:
        log.warning("%s: %s; using a temporary in-memory index for this session (it is "
                    "rebuilt from the files, so answers stay current)", root, fault.problem)
        return Index.memory(root, fault.problem)

    def _recover(self, root: Path, failed: Index, fault: IndexUnavailable) -> Index:
        """Replace a failed index: rebuilt on disk when it was damaged, else in memory; then
        filled from the files and the open buffers before anyone may read it."""
        with self._lock:
            current = self._indexes.get(root)
            if current is not None and current is not failed and not current.needs_refresh:
                return current  # another thread recovered it already
            new: Index | None = None
            if fault.remedy == REBUILD and not failed.in_memory:
                log.warning("%s: %s; rebuilding the index", root, fault.problem)
                try:
                    new = Index.open(root, self.settings.cache_dir, discard=True)
                except IndexUnavailable as again:
                    fault = again
            if new is None:
                new = self._in_memory(root, fault)
            self._indexes[root] = new
            # The failed index is not closed: a request still reading it finishes on its data.
            self._fill(root, new)
            return new

    def _fill(self, root: Path, idx: Index) -> None:
        """Open buffers first (they win over the disk), then every file of the root."""
        with self._lock:
            docs = {p: t for p, t in self._documents.items() if self.root_of(p)}
        for path, text in docs.items():
            hit = self.root_of(path)
            if hit and hit[0] == root:
                idx.put_text(hit[1], text)
        self.last_refresh[str(root)] = idx.refresh(self.scope(root), self.settings.max_file_bytes)

    def _guarded(self, root: Path, fn: Callable[..., T]) -> T:
        """fn(index of root); after a storage fault, once more on a recovered index."""
        idx = self.index(root)
        try:
            return fn(idx)
        except (sqlite3.DatabaseError, IndexUnavailable) as exc:
            fault = diagnose(exc)
            if fault is None:
                raise
            new = self._recover(root, idx, fault)
        return fn(new)

    def root_of(self, path: str | os.PathLike[str]) -> tuple[Path, str] | None:
        """The root containing an absolute path, and the path relative to it (or None).

        The path must lie inside the root once symlinks are resolved too: `root/link/x.py`
        with `link` pointing out of the root has no root.
        """
        ab = Path(os.path.abspath(path))
        for root in sorted(self.roots, key=lambda r: len(str(r)), reverse=True):
            try:
                rel = ab.relative_to(root)
            except ValueError:
                try:
                    rel = Path(os.path.realpath(ab)).relative_to(root)
                except ValueError:
                    continue
            if str(rel) in (".", "") or not is_inside(root, ab):
                return None
            return root, rel.as_posix()
        return None

    def refresh(
        self, progress: Progress | None = None, should_stop: Callable[[], bool] | None = None
    ) -> list[IndexStats]:
        """Bring every root's index up to date (only changed files are re-read)."""
        out = []
        for root in list(self.roots):
            stats = self._guarded(root, lambda idx, root=root: idx.refresh(
                self.scope(root), self.settings.max_file_bytes, progress, should_stop
            ))
            self.last_refresh[str(root)] = stats
            self._restore_buffers(root)
            out.append(stats)
        return out

    def _restore_buffers(self, root: Path) -> None:
        """Put back the open buffers whose rows another process replaced: a command-line run
        on the same root and cache forgets every buffer row when it opens the index (their
        process is gone, as it must assume) and reads the disk."""
        with self._lock:
            docs = [(hit[1], text) for p, text in self._documents.items()
                    if (hit := self.root_of(p)) is not None and hit[0] == root]
        if not docs:
            return
        overlays = set(self._guarded(root, lambda idx: idx.overlay_paths()))
        for rel, text in docs:
            if rel not in overlays:
                log.info("%s: the open buffer of %s was dropped by another process; "
                         "indexed again", root, rel)
                self._guarded(root, lambda idx, rel=rel, text=text: idx.put_text(rel, text))

    def add_root(self, root: str | os.PathLike[str]) -> Path:
        p = check_root(root)
        with self._lock:
            if p not in self.roots:
                self.roots.append(p)
        return p

    def remove_root(self, root: str | os.PathLike[str]) -> None:
        p = Path(os.path.realpath(root))
        with self._lock:
            if p in self.roots:
                self.roots.remove(p)
                idx = self._indexes.pop(p, None)
                if idx is not None:
                    idx.close()
                self._scopes.pop(p, None)

    # -- open buffers ------------------------------------------------------------------------

    def set_document(self, path: str, text: str) -> bool:
        """Index an open buffer's unsaved text; False when it is outside every root or out of
        scope."""
        hit = self.root_of(path)
        if hit is None:
            return False
        root, rel = hit
        if not self.scope(root).admits(rel):
            return False
        secret = credential_format(rel, text) is not None
        with self._lock:
            if secret:  # a kubeconfig pasted into a buffer: kept nowhere, its row says secret
                self._documents.pop(os.path.join(root, rel), None)
            else:
                self._documents[os.path.join(root, rel)] = text
        self._guarded(root, lambda idx: idx.put_text(rel, text))
        return not secret

    def close_document(self, path: str) -> None:
        hit = self.root_of(path)
        if hit is None:
            return
        root, rel = hit
        with self._lock:
            self._documents.pop(os.path.join(root, rel), None)
        self._guarded(root, lambda idx: idx.drop_overlay(
            rel, self.scope(root), self.settings.max_file_bytes))

    def files_changed(self, paths: list[str]) -> None:
        """Saved, created, deleted or renamed files: re-read just those."""
        by_root: dict[Path, list[str]] = {}
        for p in paths:
            hit = self.root_of(p)
            if hit and self.scope(hit[0]).admits(hit[1]):
                by_root.setdefault(hit[0], []).append(hit[1])
        for root, rels in by_root.items():
            self._guarded(root, lambda idx, rels=rels: idx.update_paths(
                rels, self.settings.max_file_bytes))

    def read_text(self, root: Path, rel: str) -> str | None:
        """A file's current text (open buffer first), never outside the root or a secret;
        its line breaks are "\\n" (lines.normalize), as every line number counts them."""
        ab = os.path.join(root, rel)
        with self._lock:
            doc = self._documents.get(ab)
        if doc is not None:
            return normalize(doc)
        if is_secret(rel) or not is_inside(root, ab) or secret_target(root, ab):
            return None
        try:
            with open(ab, "rb") as fh:
                data = fh.read(self.settings.max_file_bytes + 1)
        except OSError:
            return None
        if len(data) > self.settings.max_file_bytes or b"\0" in data[:SNIFF_BYTES]:
            return None
        text = data.decode("utf-8", errors="replace")
        return None if credential_format(rel, text) is not None else normalize(text)

    def is_secret(self, root: Path, rel: str) -> bool:
        """Whether a path of a root is a secret file: by name or folder, by the target of a
        symlink on its way, or by content (as the index last read it)."""
        if is_secret(rel) or secret_target(root, os.path.join(root, rel)):
            return True
        return self.skip_reason(root, rel) == "secret"

    def skip_reason(self, root: Path, rel: str) -> str | None:
        """Why the index of a root stores a file unread (index.parse.SKIPPED_WHY), as it last read
        it; None if it reads it or does not hold it."""
        return self._guarded(root, lambda idx: idx.skip_reason(rel))

    # -- retrieval ---------------------------------------------------------------------------

    def retrieve(
        self,
        task: str,
        settings: Settings | None = None,
        should_stop: Callable[[], bool] = lambda: False,
        report: Report = lambda msg, cycle, total: None,
        roots: list[Path] | None = None,
        refresh: bool = True,
        hints: Hints | None = None,
    ) -> RetrievalResult:
        """Run the loop over the roots and return the ranked, explained context.

        Each root runs its own loop (its own vocabulary and graph); the files of all roots are
        then ranked together and packed into one budget. `hints` carry what the caller knows
        besides the task: pins, excludes, files already seen, the editor's files, a follow-up.
        """
        task = (task or "").strip()
        if not task:
            raise ValueError("the task is empty: say what you want to do")
        s = (settings or self.settings).validated()
        roots = roots or list(self.roots)
        t0 = time.perf_counter()
        if refresh or any(self.index(r).needs_refresh for r in roots):
            self.refresh(should_stop=should_stop)
        else:
            for root in roots:
                self._restore_buffers(root)
        t_index = time.perf_counter() - t0
        # with redaction, every phase reads masked text: nothing is learned from a credential
        red = Redactor() if s.redact_secrets else None
        said = blanked(task) if red else task  # the words searched for: a credential is none
        parsed = parse_task(said, s.include_tests)
        query = replace(
            parsed,
            # "continue the work on this branch": the verbs say what the task is about, not
            # what to find; left out of the search and of the regions' words alike
            keywords=without_process_words(said, parsed.keywords),
            excludes=tuple(s.exclude),
            required_patterns=tuple(s.include),
        )
        if hints is not None and hints.follow_up:
            known = {t for c in query.keywords for t in c.terms}
            kept = follow_up_concepts(hints.follow_up, known)
            query = replace(query, keywords=query.keywords + kept,
                            follow_up=tuple(c.text for c in kept))
        steer: dict[Path, RootHints] = {}
        scored: list[tuple[Path, Evaluation]] = []
        traces = []
        warnings: list[str] = []
        runs: dict[Path, Run] = {}
        caches = {root: SearchCache() for root in roots}
        texts: dict[tuple[Path, str], str | None] = {}  # each file read once per retrieval

        def loop(idx: Index, root: Path) -> tuple[list[Evaluation], list]:
            here = steer[root] = hints_for(hints, root, self.root_of, s.editor_signals)
            mine = s.for_folder(self.folders.get(root), self.settings)
            asked = query if mine is s else replace(
                query, excludes=tuple(mine.exclude), required_patterns=tuple(mine.include))
            work = (self._changes(root, mine.git_base, s.git_base, warnings)
                    if s.git_signals and not ablated("changes") else NO_CHANGES)
            # nothing is learned from a credential a commit message pasted
            borrowed = work_words(said, work, (lambda w: red.words(w) == w) if red else None)
            if borrowed:
                known = {t for c in asked.keywords for t in c.terms}
                words = follow_up_concepts(borrowed, known)
                asked = replace(asked, keywords=asked.keywords + words,
                                from_branch=tuple(c.text for c in words))
            runs[root] = Run(idx, said, asked.keywords, self._reader(root, texts, red),
                             should_stop, report, search=caches[root], changes=work.files,
                             lean=lean(said, query.keywords, work), editor=here.editor,
                             pinned=here.pinned,
                             others=tuple((self.index(r), caches[r]) for r in roots if r != root))
            return run_loop(runs[root], asked, s.max_cycles, set(here.excluded))

        for root in roots:
            evals, trace = self._guarded(root, lambda idx, root=root: loop(idx, root))
            scored.extend((root, e) for e in evals)
            traces.extend(trace)
        scored.sort(key=lambda t: order(t[1]))
        root_of = {id(e): r for r, e in scored}
        pinned = {id(e) for r, e in scored if e.path in steer[r].pinned}
        chosen = select([e for r, e in scored if e.path not in steer[r].seen
                         and e.path not in steer[r].excluded], s.max_files, pinned)
        for e in chosen:
            e.missing = missing(runs[root_of[id(e)]], e, chosen)
        concepts = list(query.keywords) + [
            c for t in traces for c in t.query.keywords if c.kind != "word"]
        for root in dict.fromkeys(root_of[id(e)] for e in chosen):  # one regex per root
            mine = [e for e in chosen if root_of[id(e)] == root]
            here = runs[root]
            frames_in(query, mine, partial(here.search.path_matches, here.index))
            weights = stem_weights(self.index(root), concepts, list(query.keywords))
            text_pass(mine, weights, self._reader(root, texts, red))
        files = build_context(
            chosen, s.budget, lambda e: self._reader(root_of[id(e)], texts, red)(e.path),
            redact=False,  # the reader masked them already
        )
        for e, f in zip(chosen, files, strict=False):
            f.root = str(root_of[id(e)])
            f.pinned = id(e) in pinned
        refreshed = [self.last_refresh[str(r)] for r in roots if str(r) in self.last_refresh]
        stats = {
            "files_indexed": sum(self.index(r).file_count() for r in roots),
            "files_reindexed": sum(x.indexed for x in refreshed) if refresh else 0,
            "skipped": _sum_dicts(self.index(r).skipped_counts() for r in roots),
            "cycles": len(traces),
            "candidates": sum(t.candidates for t in traces),
            "tokens": sum(estimate_tokens(r.text) for f in files for r in f.regions),
            "budget": s.budget,
            "index_seconds": round(t_index, 3),
            "seconds": round(time.perf_counter() - t0, 3),
        }
        result = RetrievalResult(task, files, traces, stats, [str(r) for r in roots], warnings)
        # the one choke point: every surface serialises this result, masked as a whole
        return red.result(result) if red is not None else result

    @staticmethod
    def _changes(root: Path, base: str | None, asked: str | None, warnings: list[str]) -> Changes:
        """The work in progress of a root, measured from `base` (its folder's gitBase, else
        `asked`: the request's or the workspace's). A request's base that names no commit
        fails the request (UnknownBase); a folder's own setting that does not is that folder's
        problem alone: its branch is measured from the default branch, with a warning, and
        the other folders' retrievals go on."""
        try:
            return read_changes(root, base_ref=base)
        except UnknownBase as exc:
            if base == asked:
                raise
            warnings.append(f"{exc} (the folder's gitBase setting): its branch was measured "
                            f"from the default branch instead")
            log.warning("%s", warnings[-1])
            return read_changes(root)

    def _reader(
        self, root: Path, texts: dict[tuple[Path, str], str | None] | None = None,
        red: Redactor | None = None,
    ) -> Callable[[str], str | None]:
        """read_text of one root; with `texts`, each file is read once into it (a retrieval
        reads its best files in several phases, and reads one version of each); with `red`,
        masked."""
        if texts is None:
            return lambda rel: self.read_text(root, rel)

        def read(rel: str) -> str | None:
            key = (root, rel)
            if key not in texts:
                texts[key] = self.read_text(root, rel)
            return texts[key] if red is None else red.text(texts[key])

        return read

    def explain(self, path: str, task: str, settings: Settings | None = None,
                **retrieve_options: Any) -> ExplanationJson:
        """One file's evaluation for a task, on every surface (explain.py); ValueError when the
        path names no file of the workspace or the task is empty."""
        from .explain import explain

        return explain(self, path, task, settings, **retrieve_options)

    def status(self) -> dict[str, list[RootStatusJson]]:
        out: list[RootStatusJson] = []
        for root in self.roots:
            idx = self.index(root)
            last = self.last_refresh.get(str(root))
            files, skipped, buffers = idx.counts()
            out.append({
                "root": str(root),
                "index": str(idx.db_path),
                "index_problem": idx.problem,
                "files": files,
                "skipped": skipped,
                "open_buffers": buffers,
                "last_refresh": last.to_dict() if last else None,
            })
        return {"roots": out}

    def close(self) -> None:
        with self._lock:
            for idx in self._indexes.values():
                idx.close()
            self._indexes.clear()


def _sum_dicts(dicts) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in dicts:
        for k, v in d.items():
            out[k] = out.get(k, 0) + v
    return out
