"""Commit scopes against paths: which files a `fix(http): …` or `ignore: …` task points at.

A scope names a file (`http` → http.js), part of a file name (`templateRef` →
rendererTemplateRef.ts), a folder (`runtime-core` → packages/runtime-core/…) or a word of a folder
(`legacy` → plugin-legacy/). Matching is on squashed forms (lower case, letters and digits only),
so `v-on` meets vOn.ts. The path keys are built once per version of the file list, since a scope
is tried against every file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NAME = 1.0
IN_NAME = 0.7
FOLDER = 0.4
FOLDER_WORD = 0.3
MIN_IN_NAME = 4
"""A scope shorter than this must be a whole file name: `ui` is inside too many names."""

_NON_ALNUM = re.compile(r"[^a-z0-9]")
_WORD_SEP = re.compile(r"[-_.]")


def squash(s: str) -> str:
    return _NON_ALNUM.sub("", s.lower())


@dataclass(frozen=True)
class PathKeys:
    """Squashed file names and folders of an index's file list, each with its files."""

    names: dict[str, list[int]]
    folders: list[tuple[frozenset[str], frozenset[str], list[int]]]
    """Per folder: its and its parents' squashed names, their words, the files directly in it."""


def path_keys(files: list[tuple[int, str]]) -> PathKeys:
    names: dict[str, list[int]] = {}
    in_folder: dict[str, list[int]] = {}
    for fid, rel in files:
        folder, _, name = rel.rpartition("/")
        names.setdefault(squash(name.split(".", 1)[0]), []).append(fid)
        in_folder.setdefault(folder.lower(), []).append(fid)
    folders = []
    for folder, fids in in_folder.items():
        segs = [s for s in folder.split("/") if s]
        if segs:
            words = frozenset(w for s in segs for w in _WORD_SEP.split(s) if w)
            folders.append((frozenset(squash(s) for s in segs), words, fids))
    return PathKeys(names, folders)


def scope_matches(scope: str, keys: PathKeys) -> dict[int, float]:
    """file id → how squarely its path is the scope (NAME, IN_NAME, FOLDER or FOLDER_WORD)."""
    key = squash(scope)
    if len(key) < 2:
        return {}
    out: dict[int, float] = {}
    for segs, words, fids in keys.folders:
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
            out[fid] = m
    return out
