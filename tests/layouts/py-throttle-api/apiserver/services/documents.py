"""The document archive, indexed in memory for term search."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class Document:
    id: str
    title: str
    body: str
    updated: str


class DocumentStore:
    def __init__(self, documents: list[Document]):
        self._docs = {d.id: d for d in documents}
        self._postings: dict[str, Counter[str]] = defaultdict(Counter)
        for d in documents:
            for word in WORD.findall(f"{d.title} {d.title} {d.body}".lower()):
                self._postings[word][d.id] += 1

    @classmethod
    def from_directory(cls, folder: str) -> DocumentStore:
        docs = []
        for path in sorted(Path(folder).glob("*.md")):
            text = path.read_text(encoding="utf-8")
            title = text.splitlines()[0].lstrip("# ").strip() if text else path.stem
            docs.append(Document(path.stem, title, text, str(int(path.stat().st_mtime))))
        return cls(docs)

    def get(self, doc_id: str) -> Document | None:
        return self._docs.get(doc_id)

    def search(self, query: str) -> list[tuple[Document, float]]:
        """Documents holding any query word, best first (tf-idf)."""
        scores: Counter[str] = Counter()
        n = max(1, len(self._docs))
        for word in set(WORD.findall(query.lower())):
            postings = self._postings.get(word, {})
            idf = math.log(1 + n / (1 + len(postings)))
            for doc_id, tf in postings.items():
                scores[doc_id] += (1 + math.log(tf)) * idf
        return [(self._docs[d], s) for d, s in scores.most_common()]
