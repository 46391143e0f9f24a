"""Baselines over whole files: BM25 (bm25s) and a count of distinct task keywords per file.

Both see the files `iterative_retrieval.workspace.Scope` admits (the engine's own file set,
tests and docs included), minus binary files and files over 1 MB, which no system can send.
Tokenization is code-aware and deliberately independent of the engine's: identifiers are split
at `_` and camelCase boundaries and lower-cased; parts of one character or only digits are
dropped, English stop words (NLTK's list) too; a compound of two or more parts is also kept whole;
every file gets its path's tokens.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# NLTK's English stop-word list (the usual one), as the tokenizer sees it: apostrophes split words,
# so only the alphabetic pieces matter.
_STOP_TEXT = """
i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her
hers herself it its itself they them their theirs themselves what which who whom this that these
those am is are was were be been being have has had having do does did doing a an the and but if
or because as until while of at by for with about against between into through during before after
above below to from up down in out on off over under again further then once here there when where
why how all any both each few more most other some such no nor not only own same so than too very
can will just don should now ll re ve ain aren couldn didn doesn hadn hasn haven isn ma mightn
mustn needn shan shouldn wasn weren won wouldn
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())

MAX_FILE_BYTES = 1_000_000
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_IDENT_MEMO: dict[str, tuple[str, ...]] = {}


def identifier_tokens(ident: str) -> tuple[str, ...]:
    """`getUserById` → ('get', 'user', 'id', 'getuserbyid'): parts minus stop words, the whole."""
    hit = _IDENT_MEMO.get(ident)
    if hit is not None:
        return hit
    parts = [p.lower() for chunk in ident.split("_") if chunk for p in _CAMEL.findall(chunk)]
    parts = [p for p in parts if len(p) > 1 and not p.isdigit()]
    out = [p for p in parts if p not in STOP_WORDS]
    if len(parts) > 1:
        out.append(ident.lower())
    res = tuple(out)
    if len(_IDENT_MEMO) < 2_000_000:
        _IDENT_MEMO[ident] = res
    return res


def code_tokens(text: str) -> list[str]:
    """All tokens of a text, in order, with repeats."""
    out: list[str] = []
    for ident in _IDENT.findall(text):
        if len(ident) <= 80:
            out.extend(identifier_tokens(ident))
    return out


def path_tokens(rel: str) -> list[str]:
    """Tokens of every folder and file name of a relative path (extension included)."""
    return code_tokens(rel.replace("/", " ").replace(".", " ").replace("-", " "))


class TokenCache:
    """Content hash → tokens, shared across trees (versions of one repo share most files)."""

    def __init__(self, max_tokens: int = 40_000_000):
        self.max_tokens = max_tokens
        self._data: dict[bytes, tuple[str, ...]] = {}
        self._size = 0

    def tokens(self, data: bytes) -> tuple[str, ...]:
        key = hashlib.blake2b(data, digest_size=16).digest()
        hit = self._data.get(key)
        if hit is not None:
            return hit
        toks = tuple(code_tokens(data.decode("utf-8", errors="replace")))
        if self._size + len(toks) > self.max_tokens:
            self._data.clear()
            self._size = 0
        self._data[key] = toks
        self._size += len(toks)
        return toks


_CACHE = TokenCache()


@dataclass
class Corpus:
    """The tokenized files of one tree, in path order."""

    root: str
    paths: list[str]
    tokens: list[tuple[str, ...]]
    """Body tokens followed by path tokens, per file."""
    sizes: dict[str, tuple[int, int]]
    """path → (characters, lines), for sending files whole."""
    skipped: int = 0

    @classmethod
    def load(cls, root: str, cache: TokenCache = _CACHE) -> Corpus:
        from iterative_retrieval.workspace import Scope

        paths, tokens, sizes, skipped = [], [], {}, 0
        for f in sorted(Scope(Path(root)).files(), key=lambda f: f.rel):
            try:
                if os.path.getsize(f.abs) > MAX_FILE_BYTES:
                    skipped += 1
                    continue
                with open(f.abs, "rb") as fh:
                    data = fh.read()
            except OSError:
                skipped += 1
                continue
            if b"\0" in data[:8192]:
                skipped += 1
                continue
            text_len = len(data.decode("utf-8", errors="replace"))
            paths.append(f.rel)
            tokens.append(cache.tokens(data) + tuple(path_tokens(f.rel)))
            last_open = 1 if data and not data.endswith(b"\n") else 0
            sizes[f.rel] = (text_len, data.count(b"\n") + last_open)
        return cls(root, paths, tokens, sizes, skipped)

    def lines_in_prefix(self, rel: str, chars: int) -> int:
        """Complete lines within the first `chars` characters of a file."""
        try:
            with open(os.path.join(self.root, rel), "rb") as fh:
                text = fh.read().decode("utf-8", errors="replace")
        except OSError:
            return 0
        return text[:chars].count("\n")


def query_tokens(task: str) -> list[str]:
    """The task's tokens, tokenized like the files."""
    return code_tokens(task)


class BM25Ranker:
    """BM25 (bm25s defaults: Lucene variant, k1 1.5, b 0.75) over whole files."""

    def __init__(self, corpus: Corpus):
        import bm25s

        self.corpus = corpus
        self.model = bm25s.BM25()
        self.model.index([list(t) for t in corpus.tokens], show_progress=False)

    def rank(self, task: str) -> list[str]:
        q = [t for t in query_tokens(task) if t in self.model.vocab_dict]
        if not q:
            return list(self.corpus.paths)
        scores = self.model.get_scores(q)
        order = np.argsort(-scores, kind="stable")
        return [self.corpus.paths[i] for i in order]


class KeywordRanker:
    """Files ranked by how many distinct task keywords they contain (ties: path order)."""

    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        self.sets = [frozenset(t) for t in corpus.tokens]

    def rank(self, task: str) -> list[str]:
        kws = set(query_tokens(task))
        scores = np.array([len(kws & s) for s in self.sets], dtype=float)
        order = np.argsort(-scores, kind="stable")
        return [self.corpus.paths[i] for i in order]


def build_rankers(corpus: Corpus, systems: Iterable[str]) -> dict[str, object]:
    """The baseline rankers named in `systems` ('bm25', 'keywords') over one corpus."""
    out: dict[str, object] = {}
    for name in systems:
        if name == "bm25":
            out[name] = BM25Ranker(corpus)
        elif name == "keywords":
            out[name] = KeywordRanker(corpus)
    return out
