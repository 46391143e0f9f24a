"""Commit scopes against paths: which files a `fix(http): …` or `ignore: …` task points at.

A scope names a file (`http` → http.js), part of a file name (`templateRef` →
rendererTemplateRef.ts), a folder (`runtime-core` → packages/runtime-core/…) or a word of a folder
(`legacy` → plugins/plugin-legacy/ when that folder is no package of its own). Matching is on
squashed forms (lower case, letters and digits only), so `v-on` meets vOn.ts. The path keys are
built once per version of the file list, since a scope is tried against every file.

In a repository of several packages, a scope names a package: that is how projects that title
their commits this way use it (`fix(derive)` is the clap_derive crate, `fix(legacy)` the
plugin-legacy package). So when the scope is a package's name or its last word, the package's
files are in the scope as its folder is, and a file or folder of that name elsewhere (clap's
own src/derive.rs) only as a folder word is. A package is a folder with a manifest (Cargo.toml,
package.json, …) that is not a test, an example or a doc (vite's playground/css is a fixture).
A scope that names no package as written may name one by its words' stems: Vue's history
titles 11 commits `fix(compile-sfc)` for the compiler-sfc package.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .index.classify import classify
from .tokenize import stem

NAME = 1.0
IN_NAME = 0.7
FOLDER = 0.4
FOLDER_WORD = 0.3
UNDER_PATH = 0.7
"""A file under the folder a scope's path names (`fix(router/trie-router)`: every file of
src/router/trie-router/), as squarely as a file whose name holds the scope."""
MIN_IN_NAME = 4
"""A scope shorter than this must be a whole file name: `ui` is inside too many names."""

MANIFESTS = frozenset({
    "cargo.toml", "package.json", "pyproject.toml", "setup.py", "setup.cfg", "go.mod",
    "pom.xml", "build.gradle", "build.gradle.kts", "composer.json", "mix.exs", "pubspec.yaml",
})
"""File names that make their folder a package of its own."""

_NON_ALNUM = re.compile(r"[^a-z0-9]")
_WORD_SEP = re.compile(r"[-_.]")


def squash(s: str) -> str:
    return _NON_ALNUM.sub("", s.lower())


def stemmed(s: str) -> str:
    """`compile-sfc` and `compiler-sfc` alike: each word stemmed, then squashed."""
    return "".join(stem(w) for w in re.split(r"[^A-Za-z0-9]+", s.lower()) if w)


@dataclass(frozen=True)
class PathKeys:
    """Squashed file names and folders of an index's file list, each with its files."""

    names: dict[str, list[int]]
    folders: list[tuple[str, frozenset[str], frozenset[str], list[int]]]
    """Per folder: its path (lower case, with a closing slash), its and its parents' squashed
    names, their words, the files directly in it."""
    packages: dict[str, list[str]]
    """Squashed name of a package (its whole folder name, and its last word) → its folders."""
    stemmed_packages: dict[str, list[str]]
    """A package's name, its words stemmed (`stemmed`) → its folders: tried when a scope names
    no package as written."""


def path_keys(files: list[tuple[int, str]]) -> PathKeys:
    names: dict[str, list[int]] = {}
    in_folder: dict[str, list[int]] = {}
    packages: dict[str, list[str]] = {}
    stemmed_packages: dict[str, list[str]] = {}
    for fid, rel in files:
        folder, _, name = rel.rpartition("/")
        names.setdefault(squash(name.split(".", 1)[0]), []).append(fid)
        in_folder.setdefault(folder.lower(), []).append(fid)
        if folder and name.lower() in MANIFESTS and classify(rel, None) == "config":
            own = folder.rsplit("/", 1)[-1]
            for key in {squash(own), squash(_WORD_SEP.split(own)[-1])} - {""}:
                packages.setdefault(key, []).append(folder.lower() + "/")
            stemmed_packages.setdefault(stemmed(own), []).append(folder.lower() + "/")
    folders = []
    for folder, fids in in_folder.items():
        segs = [s for s in folder.split("/") if s]
        if segs:
            words = frozenset(w for s in segs for w in _WORD_SEP.split(s) if w)
            folders.append((folder + "/", frozenset(squash(s) for s in segs), words, fids))
    return PathKeys(names, folders, packages, stemmed_packages)


def scope_matches(scope: str, keys: PathKeys) -> dict[int, float]:
    """file id → how squarely its path is the scope (NAME, IN_NAME, FOLDER or FOLDER_WORD)."""
    key = squash(scope)
    if len(key) < 2:
        return {}
    out: dict[int, float] = {}
    claimed = tuple(keys.packages.get(key) or keys.stemmed_packages.get(stemmed(scope)) or ())
    inside: set[int] = set()
    for folder, segs, words, fids in keys.folders:
        if claimed and folder.startswith(claimed):
            inside.update(fids)
            m = FOLDER
        elif claimed:
            m = FOLDER_WORD if key in segs or key in words else 0.0
        else:
            m = FOLDER if key in segs else FOLDER_WORD if key in words else 0.0
        if m:
            for fid in fids:
                out[fid] = m
    bare = key.rstrip("s")
    for name, fids in keys.names.items():
        if name == key or name.rstrip("s") == bare:
            m = NAME
        elif len(key) >= MIN_IN_NAME and key in name:
            m = IN_NAME
        else:
            continue
        for fid in fids:
            out[fid] = m if not claimed or fid in inside else min(m, FOLDER_WORD)
    return out


def as_folder(path: str) -> str:
    """A commit scope written as a path (`router/trie-router`), marked apart from a module's
    dotted path (`sympy/vector`, whose package entry alone stands for it) by a closing slash."""
    return path.rstrip("/") + "/"


def folder_path(scope: str) -> str | None:
    """The path of a scope as_folder marked, else None."""
    return scope[:-1] if scope.endswith("/") else None


def under_path(path: str, keys: PathKeys) -> dict[int, float]:
    """file id → UNDER_PATH for the files under a folder whose path holds the scope's path
    (`router/trie-router` → src/router/trie-router/…), its segments squashed as scopes are."""
    want = [squash(p) for p in path.split("/") if p.strip()]
    if len(want) < 2 or not all(want):
        return {}
    k = len(want)
    out: dict[int, float] = {}
    for folder, _, _, fids in keys.folders:
        segs = [squash(p) for p in folder.split("/") if p]
        if any(segs[i:i + k] == want for i in range(len(segs) - k + 1)):
            out.update(dict.fromkeys(fids, UNDER_PATH))
    return out
