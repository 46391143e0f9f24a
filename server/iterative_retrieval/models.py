"""Typed values that flow between the phases of the loop.

Every phase takes and returns these, so that the loop reads as four calls in order and every
surface (CLI, language server, MCP) serialises the same result with `to_dict`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from .contract import (
    SCHEMA_VERSION,
    Band,
    CycleTraceJson,
    FileJson,
    RefreshJson,
    ResultJson,
    Role,
    StatsJson,
    TraceQueryJson,
)

__all__ = ["SCHEMA_VERSION"]  # re-exported: surfaces read the version with the result


@dataclass(frozen=True)
class Symbol:
    """A definition found in a source file."""

    name: str
    """The defined name as written (`refreshToken`, `TokenStore`)."""
    kind: str
    """function, method, class, interface, type, struct, enum, constant, variable, module."""
    start_line: int
    """1-based first line of the definition."""
    end_line: int
    """1-based last line of the definition (best effort for pattern-based languages)."""
    terms: tuple[str, ...] = field(default=(), compare=False, repr=False)
    """Stemmed index terms of the name (filled by the index, so evaluation need not re-split)."""


class SymbolRows(Sequence[Symbol]):
    """A file's symbols as the index stores them: (file id, name, kind, start, end, stemmed terms
    joined by spaces) rows, made into Symbol values only when someone reads them as such.

    A retrieval weighs a couple of hundred candidate files, some of them generated with
    thousands of definitions, but reads the definitions themselves of only the best few; the
    rest need just the names and terms, which the rows give without a Symbol per definition.
    """

    __slots__ = ("_symbols", "derived", "rows")

    def __init__(self, rows: list[tuple[int, str, str, int, int, str]]):
        self.rows = rows
        self.derived: dict[str, Any] = {}
        """What readers work out from the rows (stems, names), by purpose: kept exactly as long
        as the rows, which the index holds once per file version."""
        self._symbols: tuple[Symbol, ...] | None = None

    def _all(self) -> tuple[Symbol, ...]:
        if self._symbols is None:
            self._symbols = tuple(
                Symbol(n, k, s, e, tuple(t.split())) for _, n, k, s, e, t in self.rows)
        return self._symbols

    def __getitem__(self, i):
        return self._all()[i]

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[Symbol]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SymbolRows):
            return self.rows == other.rows
        if isinstance(other, (list, tuple)):
            return list(self._all()) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SymbolRows({list(self._all())!r})"


def symbol_names(syms: Sequence[Symbol]) -> Iterable[str]:
    """The definitions' names in order, without making Symbols of stored rows."""
    if isinstance(syms, SymbolRows):
        return (row[1] for row in syms.rows)
    return (s.name for s in syms)


@dataclass(frozen=True)
class Outline:
    """What the structural pass learns about one file."""

    symbols: tuple[Symbol, ...] = ()
    imports: tuple[str, ...] = ()
    """Imported module paths or names as written (`./jwt-utils`, `flask.helpers`, `fmt`)."""


@dataclass(frozen=True)
class Concept:
    """One weighted piece of evidence taken from the task text."""

    text: str
    """The surface form (`refreshToken`, `src/auth.ts`, `expiry`)."""
    kind: str
    """path, frame, scope, identifier, quoted, word, phrase, learned, synonym, variant.

    A scope is a Conventional Commits scope in parentheses (`(http)` of `fix(http): …`): it
    matches paths, not text; one with a slash is a module the task names by its dotted path
    (`(sympy/core/mul)` for `sympy.core.mul`), matched as a path. A phrase is two or three of
    the task's words in a row, or one hyphenated word, searched as the one name code would
    write them as (`worker start timeout`: WORKER_START_TIMEOUT; `f-strings`: fstring)."""
    weight: float
    """How much it counts; task identifiers and paths weigh most, learned terms least."""
    terms: tuple[str, ...] = ()
    """Index terms the concept searches for (lower-case, identifier parts and the whole)."""
    origin: tuple[str, ...] = ()
    """For learned synonyms and variants: the task concepts they stand in for."""

    @property
    def strong(self) -> bool:
        """Strong concepts (code-shaped evidence) make a gap critical when nothing covers them."""
        return self.kind in ("path", "frame", "identifier", "quoted")


@dataclass(frozen=True)
class Frame:
    """A stack-trace frame or a `path:line` mention in the task."""

    path: str
    line: int | None = None
    function: str | None = None


@dataclass(frozen=True)
class Query:
    """The pattern's query: what DISPATCH searches for in one cycle."""

    keywords: tuple[Concept, ...]
    patterns: tuple[str, ...] = ()
    """Glob patterns that candidates should match (boosted; never required unless user-given)."""
    excludes: tuple[str, ...] = ()
    """Glob patterns and exact paths that are never candidates."""
    focus_areas: tuple[str, ...] = ()
    """Symbols whose definitions the next cycle must look up (from the gaps)."""
    frames: tuple[Frame, ...] = ()
    include_tests: bool = False
    """Whether tests, docs and fixtures may be candidates (the task is about them)."""
    about_types: bool = False
    """Whether the task speaks of types: declaration files (`.d.ts`, `.pyi`) weigh as code."""
    required_patterns: tuple[str, ...] = ()
    """User-given include globs: candidates must match one of them."""
    fallback: tuple[Concept, ...] = ()
    """The task's generic words (`fix`, `add`, `work`): its keywords when nothing else matches."""
    capitalized: tuple[str, ...] = ()
    """The task's capitalized words inside a sentence (`adding refs to Component in`): names,
    if the code defines them so (query.defined_names)."""
    called: tuple[str, ...] = ()
    """The words the task calls a function or a method (`from tokenize function`): names, if
    the code defines them so (query.defined_names)."""
    members: tuple[tuple[str, str], ...] = ()
    """(type, member) of each name the task qualifies with a type (`Request.get_json`,
    `AbstractProcessingHandler::handle()`): the file defining both is the one it names."""
    follow_up: tuple[str, ...] = ()
    """Keywords that are the last answer's learned terms, which a follow-up searches again."""
    from_branch: tuple[str, ...] = ()
    """Keywords borrowed from the branch's commit messages (changes.work_words)."""
    options: tuple[str, ...] = ()
    """The long command-line options the task names, without their dashes (options.py)."""
    tested: tuple[tuple[str, str], ...] = ()
    """(module, test) for each path keyword that is the module a test the task names tests
    (query.modules_of_named_tests): named through its test."""

    def to_dict(self) -> TraceQueryJson:
        return {
            "patterns": list(self.patterns),
            "keywords": [c.text for c in self.keywords],
            "excludes": list(self.excludes),
            "focus_areas": list(self.focus_areas),
            "follow_up": list(self.follow_up),
            "from_branch": list(self.from_branch),
        }


@dataclass
class Candidate:
    """A file DISPATCH proposes, with the evidence that brought it in."""

    path: str
    file_id: int
    bm25: float = 0.0
    """Sum over concepts of concept weight × fielded BM25 of its terms."""
    matched: dict[str, set[str]] = field(default_factory=dict)
    """concept text → fields it matched in (path, symbols, body)."""
    sources: set[str] = field(default_factory=set)
    """Why it is a candidate: text, definition, path, frame, focus, graph."""


@dataclass(frozen=True)
class Hints:
    """What the caller knows besides the task: where the developer is, and what to keep or drop.

    Paths are relative to a workspace root (or absolute, inside one). None of them is a
    guarantee of a place but `pinned` (always handed out) and `excluded` (never)."""

    pinned: tuple[str, ...] = ()
    """Always handed out, marked pinned, with their own relevance."""
    excluded: tuple[str, ...] = ()
    """Never handed out (nor searched)."""
    seen: tuple[str, ...] = ()
    """Files the caller (an agent) has read already: hand out what is new. They still count as
    evidence for the others (their links, their words)."""
    active_file: str | None = None
    """The file in the editor's focus."""
    selection: tuple[int, int] | None = None
    """1-based first and last line selected in the active file."""
    open_files: tuple[str, ...] = ()
    """The other files open in the editor."""
    follow_up: tuple[str, ...] = ()
    """The words the previous run learned, when this task follows it up: searched from cycle 1."""


@dataclass(frozen=True)
class Region:
    """A span of a file worth reading, with its text."""

    start_line: int
    end_line: int
    text: str
    why: str = ""


@dataclass
class Evaluation:
    """EVALUATE's verdict on one candidate."""

    path: str
    relevance: float
    """The file's role for the task in the pattern's bands (relevance.py)."""
    reason: str
    """The role, then what put the file there ("related: defines `X`, used by a.ts:3; …")."""
    missing: list[str] = field(default_factory=list)
    """Names it uses that files not in the result define."""
    cycle: int = 1
    features: dict[str, float] = field(default_factory=dict)
    defines: list[str] = field(default_factory=list)
    """Task-named symbols this file defines."""
    options: list[tuple[str, int]] = field(default_factory=list)
    """(option, line) of the task's command-line options this file declares (options.py)."""
    hit_lines: list[int] = field(default_factory=list)
    """Lines (1-based) that matched task concepts, for regions."""
    hit_terms: list[tuple[str, ...]] = field(default_factory=list)
    """The distinct stems each hit line says."""
    term_weights: dict[str, float] = field(default_factory=dict)
    """What a line that says each stem is worth (rarer, and the task's own, more)."""
    frames: list[Frame] = field(default_factory=list)
    """The task's stack frames in this file, nearest the error first: their lines are shown."""
    file_id: int = 0
    matched_words: list[str] = field(default_factory=list)
    covers: list[str] = field(default_factory=list)
    """Texts of the task concepts the file itself matches, paths and frames included (gaps)."""
    """Task concepts found anywhere in the file."""
    path_words: list[str] = field(default_factory=list)
    in_name: bool = False
    """Its file name says one of the task's own words (relevance: an indirect role at least)."""
    scopes: list[str] = field(default_factory=list)
    """The task's commit scopes this file's path matches, best first."""
    """Task concepts found in the path."""
    graph_links: list[str] = field(default_factory=list)
    """Import links to the strongest candidates ("imports tokens.ts")."""
    symbols: Sequence[Symbol] = field(default_factory=list)
    """The file's definitions in line order (shared with the index's memo: never changed)."""
    named: list[str] = field(default_factory=list)
    """Definitions whose names carry the task's words."""
    named_after: list[str] = field(default_factory=list)
    """Definitions named after an identifier the task names (`_print_Poly` for `Poly`)."""
    role: str = ""
    """implements, related, indirect or irrelevant (relevance.py)."""
    evidence: str = ""
    """What the file's own signals say (signals.reason), before the role is known."""
    links: list[str] = field(default_factory=list)
    """Its links to the implementing files ("defines `X`, used by a.ts:3", "imported by a.ts")."""
    used_by: list[str] = field(default_factory=list)
    """The names it defines that the implementing files use (its regions show them)."""
    need: float = 0.0
    """How strongly a sure implementing file needs it as context (relevance.py), 0 when none
    does."""
    change: str = ""
    """What the developer did to it lately ("changed on this branch"), from changes.py."""
    editor: str = ""
    """Where it is in the editor ("the active file", "open in the editor")."""
    tested_by: str = ""
    """The test the task names that tests this file, when the task names it only so."""
    score: float = 0.0
    """The file's own evidence (signals.py's logistic model): orders and merges the files."""
    kind: str = "source"
    """What the index classified the file as: source, test, doc, config, example, tool."""

    @property
    def band(self) -> str:
        return band_of(self.relevance)


def band_of(relevance: float) -> str:
    """The pattern's bands: high implements the target, medium related, low indirect."""
    if relevance >= 0.8:
        return "high"
    if relevance >= 0.5:
        return "medium"
    if relevance >= 0.2:
        return "low"
    return "irrelevant"


@dataclass
class CycleTrace:
    """What one cycle searched, found, learned and excluded."""

    cycle: int
    query: Query
    candidates: int
    kept: int
    excluded: list[str]
    learned: list[str]
    gaps: list[str] = field(default_factory=list)
    ranking: list[str] = field(default_factory=list)
    """The merged ranking after this cycle (top paths), for per-cycle recall."""
    stop_reason: str = ""

    def to_dict(self) -> CycleTraceJson:
        return {
            "cycle": self.cycle,
            "query": self.query.to_dict(),
            "candidates": self.candidates,
            "kept": self.kept,
            "excluded": self.excluded,
            "learned": self.learned,
            "gaps": self.gaps,
            "ranking": self.ranking,
            "stop_reason": self.stop_reason,
        }


@dataclass
class FileResult:
    """One file of the final context."""

    path: str
    relevance: float
    reason: str
    missing: list[str]
    cycle: int
    regions: list[Region]
    root: str = ""
    role: str = ""
    """implements, related or indirect: what put the file in its band."""
    pinned: bool = False
    """Handed out because the caller pinned it (its relevance is still its own)."""

    @property
    def band(self) -> str:
        return band_of(self.relevance)

    def to_dict(self) -> FileJson:
        return {
            "path": self.path,
            "root": self.root,
            "relevance": round(self.relevance, 3),
            "band": cast(Band, self.band),  # a result holds files of 0.2 and more
            "role": cast(Role, self.role),
            "pinned": self.pinned,
            "reason": self.reason,
            "missing": self.missing,
            "cycle": self.cycle,
            "regions": [
                {"start_line": r.start_line, "end_line": r.end_line, "why": r.why, "text": r.text}
                for r in self.regions
            ],
        }


@dataclass
class RetrievalResult:
    """The loop's answer: ranked files with regions, the trace and run statistics."""

    task: str
    files: list[FileResult]
    trace: list[CycleTrace]
    stats: dict[str, Any]
    roots: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """What the run could not do as configured, and what it did instead."""

    def to_dict(self) -> ResultJson:
        """The wire object (contract.ResultJson): the same on every surface."""
        return {
            "schema_version": SCHEMA_VERSION,
            "task": self.task,
            "roots": self.roots,
            "files": [f.to_dict() for f in self.files],
            "trace": [t.to_dict() for t in self.trace],
            "stats": cast(StatsJson, self.stats),
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True)
class IndexStats:
    """Counts from one index refresh."""

    files: int
    indexed: int
    """Files (re)read and (re)indexed in this refresh."""
    unchanged: int
    removed: int
    skipped: dict[str, int]
    """reason → count: index.parse.SKIPPED_WHY's reasons and index.parse.BAD_NAME's."""
    seconds: float

    def to_dict(self) -> RefreshJson:
        return {"files": self.files, "indexed": self.indexed, "unchanged": self.unchanged,
                "removed": self.removed, "skipped": dict(self.skipped), "seconds": self.seconds}
