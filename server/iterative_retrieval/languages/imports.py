"""What every family's import finder shares: which lines are live code, joining a statement's
lines, grouped import paths (`a::{b, c}`), and an importer made from one line pattern."""

from __future__ import annotations

import re

from .rules import Importer


def live(clean: list[str], i: int) -> bool:
    """Whether line i has code outside comments and multi-line strings."""
    t = clean[i].lstrip()
    return bool(t) and t[0] != "\x01"


def gather(clean: list[str], i: int, stop: str, limit: int = 50) -> str:
    """Line i joined with the following lines up to the one containing `stop`."""
    parts = [clean[i]]
    j = i
    while stop not in parts[-1] and j + 1 < len(clean) and j - i < limit:
        j += 1
        parts.append(clean[j].replace("\x01", " "))
    return " ".join(parts)


def use_tree(text: str, sep: str) -> list[str]:
    """Paths of a grouped import (`a::b::{c, d::{e}}`, `A\\{B, C}`, `a.b.{C => D}`), prefixes
    included; stops at `;`."""
    text = text.split(";", 1)[0][:2000]
    out: list[str] = []

    def join(prefix: str, part: str) -> str:
        if not prefix:
            return part
        glued = prefix.endswith(sep) or part.startswith(sep)
        return prefix + part if glued else prefix + sep + part

    def walk(pos: int, prefix: str, level: int) -> int:
        while pos < len(text):
            j = pos
            while j < len(text) and text[j] not in ",{}":
                j += 1
            part = re.split(r"\s+as\s+|\s*=>", text[pos:j].strip(), maxsplit=1)[0].strip()
            if j < len(text) and text[j] == "{" and level < 8:
                base = join(prefix, part).rstrip(sep).rstrip(".")
                if base:
                    out.append(base)
                pos = walk(j + 1, base, level + 1)
                while pos < len(text) and text[pos] not in ",}":
                    pos += 1
            else:
                if part == "self" and prefix:
                    out.append(prefix)
                elif part and part not in ("*", "_", "self"):
                    out.append(join(prefix, part).rstrip(sep))
                pos = j
            if pos >= len(text) or text[pos] == "}":
                return pos + 1
            pos += 1
        return pos

    walk(0, "", 0)
    return [p.strip() for p in out if p.strip()]


def line_imports(rx: re.Pattern[str], needle: str, group: int = 1,
                 raw_text: bool = False) -> Importer:
    """An importer matching `rx` at the start of every live line that contains `needle`."""

    def imports(raw: list[str], clean: list[str]) -> list[str]:
        src = raw if raw_text else clean
        out = []
        for i, line in enumerate(src):
            if needle in line:
                m = rx.match(line[:1000])
                if m and m.group(group) != "var" and live(clean, i):
                    out.append(m.group(group))
        return out

    return imports
