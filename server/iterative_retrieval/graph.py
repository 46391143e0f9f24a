"""The code graph around the best files: who imports whom, and where what they use is defined.

Two kinds of link join a file to the files a task is about:
- an import link: it imports one of them, or one of them imports it (module names as import
  statements write them, in any language the outline reads);
- a definition link: it defines a name one of them uses, a call or a type, found through the
  index's definitions — the context a fix needs besides the file it changes.
EVALUATE weighs import links to the strongest candidates as evidence; relevance.py puts the
files linked to the task's best files in the related band, with the link as the reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice

from .index import FileRow, Index
from .languages.builtins import is_builtin_method
from .languages.detect import family, language_for
from .languages.go import STANDARD_PACKAGES as GO_STANDARD_PACKAGES
from .languages.javascript import NODE_BUILTINS
from .languages.jvm import STANDARD_ROOTS as JVM_STANDARD_ROOTS
from .languages.outline import code_text
from .languages.rust import STANDARD_CRATES as RUST_STANDARD_CRATES
from .models import Evaluation, symbol_names
from .run import Run
from .textmemo import TextMemo
from .tokenize import identifier_terms, stem

COMMON_NAME = 3
"""A name defined in more files than this is too common to point at one of them."""
USES_PER_FILE = 8
"""The names of one file whose definitions are looked up: the most telling first."""
REPEAT_WORTH, REPEAT_MAX = 0.5, 2
"""Each further use of a name in the file adds this to how telling it is, up to the max uses."""
TASK_LINE_WORTH = 2.0
"""A name used on a line that says one of the task's words is on the task's path (the line
`if (isExpired(claims) && !sessions.isOpen(…))`): as telling as a task word in its name."""
TELLING = 3.0
"""A use this telling gives its definition link its full worth (relevance.py)."""
USED_NAMES_MAX = 400


@dataclass(frozen=True)
class Link:
    """A link from a file to one of the task's best files (`other`)."""

    kind: str
    """imports, imported by, or defines (a name `other` uses)."""
    other: str
    """Path of the best file at the other end."""
    name: str = ""
    """For a definition link: the name `other` uses…"""
    line: int = 0
    """…and the line where it first does (1-based; 0 when unknown)."""
    hop: int = 1
    """1: `other` implements what the task names; 2: `other` is a file related to one that does."""
    weight: float = 0.0
    """For a definition link: how telling the use is (Use.weight)."""

    def __str__(self) -> str:
        base = self.other.rsplit("/", 1)[-1]
        if self.kind == "defines":
            return f"defines `{self.name}`, used by {base}" + (f":{self.line}" if self.line else "")
        return f"{self.kind} {base}"


# -- import links --------------------------------------------------------------------------------

_SEP_RE = re.compile(r"[\\/.:]+")
_FOLDER_MODULES = ("index", "__init__", "mod", "main")
"""Files an import of their folder means (JS/TS index, Python package, Rust mod.rs)."""
_PACKAGE_FOLDER_EXTS = (".go",)
"""Languages that import a folder (a Go package), not a file."""
SUFFIX_PARTS = 3
AMBIGUOUS = 3
"""An import resolved by its last segment alone must name at most this many files."""
_NOT_MODULES = frozenset({"js", "ts", "mjs", "cjs", "jsx", "tsx", "py", "go", "rs", "h", "hpp"})
_STANDARD: dict[str, frozenset[str]] = {
    "go": GO_STANDARD_PACKAGES, "rust": RUST_STANDARD_CRATES, "jvm": JVM_STANDARD_ROOTS,
    "javascript": NODE_BUILTINS,
}
"""By the importer's language family (languages/detect.py): the first elements of the import
paths that name the language's own library (languages/go.py, rust.py, jvm.py, javascript.py),
never a file of the project."""


def _standard(importer: str, target: str) -> bool:
    """Whether a (non-relative) import names the language's own library."""
    roots = _STANDARD.get(family(language_for(importer)) or "")
    if not roots:
        return False
    if target.startswith("node:"):
        return roots is NODE_BUILTINS
    first = next((s for s in _SEP_RE.split(target) if s), "")
    return first in roots


def module_parts(path: str) -> list[str]:
    """The module path an import names this file by: its path without extension, its folder for
    a folder's index file or a Go file (lower case)."""
    stem = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
    parts = stem.lower().split("/")
    if len(parts) > 1 and (parts[-1] in _FOLDER_MODULES or path.endswith(_PACKAGE_FOLDER_EXTS)):
        parts = parts[:-1]
    return parts


def module_table(index: Index, files: dict[int, FileRow]) -> dict[str, list[str]]:
    """The last one to SUFFIX_PARTS segments of each file's module path → the files, once per
    index version (a file is also under its own stem, so `import ./throttle` finds
    throttle.ts whatever its folder's module name)."""
    memo = index.derived("modules")
    table = memo.get("table")
    if table is None:
        table = {}
        for row in files.values():
            own = row.path.rsplit(".", 1)[0].lower().split("/")
            for parts in (module_parts(row.path), own):
                for k in range(1, min(SUFFIX_PARTS, len(parts)) + 1):
                    bucket = table.setdefault("/".join(parts[-k:]), [])
                    if not bucket or bucket[-1] != row.path:
                        bucket.append(row.path)
        memo["table"] = table
    return table


def python_packages(index: Index, files: dict[int, FileRow]) -> frozenset[str]:
    """The folders that are Python packages (they hold an `__init__.py`), once per index
    version."""
    memo = index.derived("modules")
    packages = memo.get("packages")
    if packages is None:
        packages = memo["packages"] = frozenset(
            row.path.rsplit("/", 1)[0] if "/" in row.path else ""
            for row in files.values() if row.path.rsplit("/", 1)[-1] == "__init__.py")
    return packages


def resolve_import(importer: str, target: str, table: dict[str, list[str]],
                   packages: frozenset[str] = frozenset()) -> list[str]:
    """The files an import statement of `importer` names: a relative import from its folder,
    a dotted or slashed module path by its longest known suffix (`sympy.core` is sympy/core/,
    not strategies/core.py); a bare name only when few files carry it.

    A Python import written whole (`import logging`) names a top-level module: not a module
    inside one of the project's `packages` (pytest's _pytest/logging.py is `_pytest.logging`)."""
    target = target.strip("'\"<> ")
    if not target:
        return []
    exact = target.startswith(".")
    segs = _relative_parts(importer, target) if exact else \
        [s for s in _SEP_RE.split(target) if s]
    package = importer.endswith(_PACKAGE_FOLDER_EXTS) and not exact
    if not exact and _standard(importer, target):
        return []
    segs = [s.lower() for s in segs]
    if segs and segs[-1] in _NOT_MODULES:
        segs = segs[:-1]
    longest = min(SUFFIX_PARTS, len(segs))
    # a relative import names one place: no shorter, looser guess
    for k in ([longest] if exact else range(longest, 0, -1)):
        hits = table.get("/".join(segs[-k:]))
        if hits and package:  # a Go import names a package's folder, never a file's name
            hits = [h for h in hits if h.endswith(_PACKAGE_FOLDER_EXTS)
                    and h.lower().split("/")[:-1][-k:] == segs[-k:]]
        elif hits and packages and k == len(segs) and importer.endswith(".py"):
            hits = [h for h in hits if not _inside_package(h, k, packages)]
        if hits and (exact or k > 1 or len(hits) <= AMBIGUOUS):
            return [h for h in hits if h != importer]
    return []


def _relative_parts(importer: str, target: str) -> list[str]:
    """The path parts a relative import names from the importer's folder: JS/TS `./a`,
    `../b/c` (an ES module's `../utils.js` is the module `utils`), Python `.a.b`, `..c`."""
    folder = importer.rsplit("/", 1)[0].split("/") if "/" in importer else []
    if "/" in target or target in (".", ".."):
        base = list(folder)
        for seg in target.split("/"):
            if seg == "..":
                base = base[:-1]
            elif seg not in (".", ""):
                base.append(seg)
        stem, dot, ext = base[-1].rpartition(".") if base else ("", "", "")
        if dot and stem and ext.lower() in _NOT_MODULES:
            base[-1] = stem
        return base
    dots = len(target) - len(target.lstrip("."))
    base = folder[: len(folder) - (dots - 1)] if dots > 1 else list(folder)
    return base + [s for s in target[dots:].split(".") if s]


def _inside_package(path: str, k: int, packages: frozenset[str]) -> bool:
    """Whether the Python module at `path`, named by its last k module parts, lies in one of
    the `packages` (so that its import name is longer than those k parts). The tree's root is
    never a package: a top-level module's import name is its own."""
    if not path.endswith(".py"):
        return False
    folders = path.split("/")[:-1]
    below = k if path.endswith("/__init__.py") else k - 1  # module parts that are folders
    containing = folders[: len(folders) - below]
    return bool(containing) and "/".join(containing) in packages


def import_links(
    index: Index, files: dict[int, FileRow], evals: Sequence[Evaluation],
    anchors: Sequence[Evaluation], hop: int = 1,
) -> dict[int, list[Link]]:
    """id(evaluation) → its import links to the anchors, "imported by" first, each kind in the
    anchors' order (so that a reason reads the same on every run)."""
    if not anchors:
        return {}
    table = module_table(index, files)
    packages = python_packages(index, files)
    imports = index.imports_of_many(list({e.file_id for e in [*evals, *anchors]}))
    # a file's resolved imports, until the index changes: the same files come back each cycle
    resolved: dict[int, frozenset[str]] = index.derived("modules").setdefault("resolved", {})

    def targets(ev: Evaluation) -> frozenset[str]:
        hit = resolved.get(ev.file_id)
        if hit is None:
            hit = resolved[ev.file_id] = frozenset(
                p for t in imports.get(ev.file_id, ())
                for p in resolve_import(ev.path, t, table, packages))
        return hit

    anchor_targets = {id(a): targets(a) for a in anchors}
    anchor_paths = {a.path for a in anchors}
    out: dict[int, list[Link]] = {}
    for ev in evals:
        links = [Link("imported by", a.path, hop=hop) for a in anchors
                 if a.path != ev.path and ev.path in anchor_targets[id(a)]]
        mine = targets(ev) & anchor_paths if ev.path not in anchor_paths or len(anchors) > 1 \
            else set()
        links += [Link("imports", a.path, hop=hop) for a in anchors
                  if a.path != ev.path and a.path in mine]
        if links:
            out[id(ev)] = list(dict.fromkeys(links))
    return out


# -- definition links ---------------------------------------------------------------------------

# Possessive runs: a shorter run would end before a word character, where neither pattern can
# go on, so the matches are the same without the backtracking over every identifier.
_CALL_RE = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]{2,}+)\s*\(")
_TYPE_RE = re.compile(r"\b([A-Z][a-z0-9]++[A-Z][A-Za-z0-9]*+)\b")


def _names_used_by(text: str) -> tuple[str, ...]:
    """Every name over three characters a text calls or mentions as a type, sorted."""
    used = set(_CALL_RE.findall(text)) | set(_TYPE_RE.findall(text))
    return tuple(sorted(u for u in used if len(u) > 3))


_names_in = TextMemo(_names_used_by)


def used_names(run: Run, ev: Evaluation) -> list[str]:
    """Names a file calls or mentions as types, minus its own (remembered for the run)."""
    hit = run.used.get(ev.path)
    if hit is not None:
        return hit
    text = run.read_text(ev.path)
    out: list[str] = []
    if text:
        own = set(symbol_names(ev.symbols))
        for name in _names_in(text):
            if name not in own:
                out.append(name)
                if len(out) == USED_NAMES_MAX:
                    break
    run.used[ev.path] = out
    return out


@dataclass(frozen=True)
class Use:
    """A name a file uses whose definition lies in other files."""

    name: str
    user: str
    """Path of the file that uses it."""
    line: int
    """1-based line of its first use (0 when not found)."""
    definers: tuple[str, ...]
    """Paths of the files that define it (at most COMMON_NAME)."""
    weight: float
    """How telling the name is: its words the task says, a type name's capital, its uses."""


CASELESS = frozenset({"php"})
"""Families whose code may name a definition in another case (PHP's functions and classes).
Elsewhere a use names it in its own case: a Go field's `string` is no `String` method, flask's
`response` variable no `Response` class."""
_APART = frozenset({"test", "example", "doc"})
"""Kinds of file whose definitions only their own kind uses: a source file that names a test's
`MySessionInterface` (flask's sessions.py, in a docstring's example) does not need that test."""


def uses_of(run: Run, ev: Evaluation) -> list[Use]:
    """The names `ev` uses that other files define, most telling first (at most USES_PER_FILE):
    names that share the task's words, then type-like names; a name defined in many files
    (a common method name) points nowhere and is left out, and so are the definitions in
    another language family (a vendored jquery.js defines no `append` a Python file calls),
    in a test, example or doc a source file uses (`_APART`), and a method of the language's
    own types called on an object (`items.append(x)`)."""
    names = used_names(run, ev)
    if not names:
        return []
    files = run.files()
    task_stems = run.task_stems
    defs = run.index.named_definers(n.lower() for n in names)
    text = run.read_text(ev.path) or ""
    on_path = _task_line_names(text, task_stems)
    language = language_for(ev.path)
    kin = family(language)
    any_case = kin in CASELESS
    ranked: list[tuple[float, str, tuple[str, ...]]] = []
    for name in names:
        where = [fid for fid, defined in defs.get(name.lower(), ())
                 if any_case or defined == name]
        if not where or (is_builtin_method(kin, name) and not _called_bare(text, name)):
            continue
        paths: list[str] = []
        for fid in where:
            row: FileRow | None = files.get(fid)
            if row is not None and row.path not in paths and (
                    kin is None or family(row.lang) in (kin, None)) and (
                    row.kind not in _APART or row.kind == ev.kind):
                paths.append(row.path)
                if len(paths) > COMMON_NAME:
                    break
        if not paths or len(paths) > COMMON_NAME or ev.path in paths:
            continue
        overlap = len({stem(t) for t in identifier_terms(name)} & task_stems)
        weight = overlap * 2 + (1 if name[0].isupper() else 0) \
            + (TASK_LINE_WORTH if name in on_path else 0)
        if weight > 0:
            ranked.append((weight, name, tuple(sorted(paths))))
    repeats = REPEAT_MAX + 1
    ranked = [(w + REPEAT_WORTH * min(_count(text, name, repeats) - 1, REPEAT_MAX), name, paths)
              for w, name, paths in ranked]
    ranked.sort(key=lambda t: -t[0])
    # a name said only in prose is still a use: sympy's doctests show what a function works with
    return [Use(name, ev.path, first_line(text, name, language), paths, w)
            for w, name, paths in ranked[:USES_PER_FILE]]


_IDENT_RE = re.compile(r"[A-Za-z_$][\w$]*")


def _called_bare(text: str, name: str) -> bool:
    """Whether `name(` stands on its own somewhere in text, not only as `x.name(`: then it may
    be the project's function, not a method of the language's own types. The pattern starts
    with the name, so that the regex engine scans for it at C speed (as in _word_starts)."""
    for m in re.finditer(re.escape(name) + r"\s*\(", text):
        i = m.start()
        if not i or not (_IS_NAME_CHAR(text, i - 1) or text[i - 1] == "."):
            return True
    return False


def _task_line_names(text: str, task_stems: set[str]) -> set[str]:
    """Names on the lines where another identifier or word says a task stem."""
    stems = sorted((t for t in task_stems if len(t) >= 3), key=len, reverse=True)
    if not stems:
        return set()
    return _line_names.get((tuple(stems), text), text, lambda t: _names_on_lines(t, stems))


def _names_on_lines(text: str, stems: list[str]) -> set[str]:
    says = re.compile("|".join(map(re.escape, stems))).search  # one C-speed test per line
    out: set[str] = set()
    for line in text.splitlines():
        if not says(line.lower()):
            continue
        names = _IDENT_RE.findall(line)
        saying = [n for n in names if says(n.lower())]
        for n in names:
            if any(m != n for m in saying):
                out.add(n)
    return out


_line_names = TextMemo[set[str]]()
"""_names_on_lines by (stems, text): a file's uses are weighed in every cycle."""


_NAME_CHAR = r"[\w$]"
"""A character of a name: a whole-word use has none just before or after it."""
_IS_NAME_CHAR = re.compile(_NAME_CHAR).match


def _word_starts(text: str, name: str) -> Iterator[int]:
    """Where `name` stands as a whole word in text. The pattern starts with the name itself, so
    that the regex engine scans for it at C speed (a leading look-behind made it try every
    position: seconds on a long file); the character before is checked here."""
    for m in re.finditer(re.escape(name) + f"(?!{_NAME_CHAR})", text):
        i = m.start()
        if not i or not _IS_NAME_CHAR(text, i - 1):
            yield i


def _count(text: str, name: str, limit: int) -> int:
    """Whole-word uses of `name`, counted up to `limit`."""
    return sum(1 for _ in islice(_word_starts(text, name), limit))


_COMMENT_STARTS = ("#", "//", "/*", "*", "--", ";", '"""', "'''")
"""A line the cleaner left starting so is prose still (a language it does not know)."""
_LINE_LEAD = " \t\x01"
"""Indentation, and the mark of a line that starts inside a multi-line string or comment."""
_IMPORT_STARTS = ("from ", "import ", "use ", "using ", "require", "#include")
_USES_LOOKED_AT = 50


_code_texts: TextMemo[str | None] = TextMemo()
"""code_text by (language, text): a file's uses are looked up again each cycle."""


def first_line(text: str, name: str, language: str | None = None) -> int:
    """1-based line of the first use of `name` in text (code_line), else of its first
    whole-word mention; 0 when absent."""
    line = code_line(text, name, language)
    if line:
        return line
    i = next(_word_starts(text, name), None)
    return text.count("\n", 0, i) + 1 if i is not None else 0


def code_line(text: str, name: str, language: str | None = None) -> int:
    """1-based line of the first use of `name` in text — an import, a call, or a type's
    mention — in code: not in a comment, a docstring or a string, as the language's own
    cleaner reads them (languages.outline.code_text): the line a reason points the reader to
    (flask's app.py says `response` in a comment 1100 lines before it calls
    `json.response(`). 0 when the text names it only in prose, or not at all."""
    is_type = _TYPE_RE.fullmatch(name) is not None
    code = _code_texts.get((language, text), text, lambda t: code_text(t, language))
    if code is None:
        code = text  # a kind with no code: its lines are read as written
    for i in islice(_word_starts(code, name), _USES_LOOKED_AT):
        start = code.rfind("\n", 0, i) + 1
        before = code[start:i].lstrip(_LINE_LEAD)
        if before.startswith(_COMMENT_STARTS):
            continue
        if is_type or before.startswith(_IMPORT_STARTS) or \
                code[i + len(name):i + len(name) + 40].lstrip(" \t").startswith("("):
            return code.count("\n", 0, i) + 1
    return 0


def definition_links(uses: Iterable[Use], hop: int = 1) -> dict[str, list[Link]]:
    """definer path → its definition links (one per name and user, the most telling first)."""
    out: dict[str, list[Link]] = {}
    for u in sorted(uses, key=lambda u: -u.weight):
        for p in u.definers:
            link = Link("defines", u.user, u.name, u.line, hop, u.weight)
            if link not in out.setdefault(p, []):
                out[p].append(link)
    return out


def missing(run: Run, ev: Evaluation, handed_out: Sequence[Evaluation]) -> list[str]:
    """The names an implementing file uses whose definitions are in no file handed out."""
    if ev.role != "implements":
        return []
    given = {e.path for e in handed_out}
    return [u.name for u in uses_of(run, ev) if given.isdisjoint(u.definers)]
