"""The brace scan: one pass over a cleaned file of a brace language (or Ruby's keyword blocks)
that finds its definitions with a `Spec` and where each one ends.

A definition waits as `Pending` until its body brace opens (the brace is tagged with it), or its
header ends (`;`, balanced brackets and no continuation), or MAX_HEADER lines pass. A closing
brace ends the definition whose body it closes; function bodies are not outlined inside, but for
the definitions a Spec tries inside them too (Rule.inner).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import accumulate

from .definitions import MATCH_WIDTH, MAX_HEADER, MAX_SYMBOLS, Definition
from .rules import Found, Spec, match_rule

_EV_STEP = {"{": 1, "}": -1}
_CONT_END = (",", "(", "[", "=", "=>", "->", "+", "-", "*", "/", "%", "|", "&", ":", ".", "\\",
             "<", "where")
_CONT_NEXT = re.compile(
    r"(?:[{:.?,|=&+]|->|(?:where|throws|extends|implements|with|requires|noexcept)\b)")


@dataclass(slots=True, eq=False)
class Tag:
    """What an open block is the body of (compared by identity)."""

    body: str | None
    """func (its insides are not outlined), class (functions in it are methods), ns, or None."""
    index: int
    """The definition's index in the outline, or -1 (a bare container like `impl`)."""
    name: str | None
    indent: int
    """The indentation of the definition's header line."""


@dataclass(slots=True, eq=False)
class Pending:
    """A definition whose body or end is not known yet."""

    tag: Tag
    start: int
    base: int
    """The block depth at its header: its body is the block opened at this depth."""
    brackets: int = 0
    """Open parentheses and square brackets in its header so far."""
    closed: bool = False
    """A body opened and closed on the current line."""


@dataclass(slots=True)
class Group:
    """An open Go `const (` / `var (` / `type (` group."""

    kind: str
    parens: int
    depth: int
    """The block depth at its header: items are read at this depth only."""


@dataclass(frozen=True)
class GroupStart:
    """A line that opens a group (Rule.block) of definitions of this kind."""

    kind: str


def _continues(clean: list[str], i: int) -> bool:
    """Whether the statement on line i goes on to the next line (operator, `{`, `where`...)."""
    t = clean[i].rstrip()
    if t.endswith(";"):
        return False
    if t.endswith(_CONT_END):
        return True
    for j in range(i + 1, min(len(clean), i + 4)):
        u = clean[j].lstrip()
        if u:
            return u[0] != "\x01" and _CONT_NEXT.match(u) is not None
    return False


def _annotated_start(clean: list[str], i: int, prefixes: tuple[str, ...]) -> int:
    """Line i moved up over the decorator/annotation/attribute lines directly above it."""
    j = i
    while prefixes and j > 0 and i - j < 20:
        t = clean[j - 1].strip()
        if (not t or not t.startswith(prefixes) or t.endswith((";", "{", "}"))
                or (t[0] == "[" and not t.endswith("]"))):
            break  # not an annotation line (or an annotated field/statement)
        j -= 1
    return j


def _last_code(clean: list[str], start: int, j: int) -> int:
    """The last line in start..j that is not blank."""
    while j > start and not clean[j].strip():
        j -= 1
    return max(start, j)


def _set_end(defs: list[Definition], tag: Tag, line: int) -> None:
    """End the tag's definition on `line` unless a closing brace already did."""
    if tag.index >= 0 and defs[tag.index].end is None:
        defs[tag.index].end = line


class _Blocks:
    """The open blocks of a brace scan.

    Each entry is None or the Tag of the definition whose body it is; `funcs` holds the stack
    positions of open function bodies (whose insides are not outlined) and `classes` counts
    open class-like bodies.
    """

    __slots__ = ("classes", "defs", "funcs", "stack")

    def __init__(self, defs: list[Definition]) -> None:
        self.stack: list[Tag | None] = []
        self.funcs: list[int] = []
        self.classes = 0
        self.defs = defs

    def push(self, tag: Tag | None) -> None:
        self.stack.append(tag)
        if tag is not None:
            if tag.body == "func":
                self.funcs.append(len(self.stack) - 1)
            elif tag.body == "class":
                self.classes += 1

    def pop(self, line: int) -> Tag | None:
        """Close the innermost block on `line`; a stray closing brace is ignored."""
        if not self.stack:
            return None
        tag = self.stack.pop()
        if tag is not None:
            self.closed(tag, line)
        return tag

    def truncate(self, pos: int, line: int) -> None:
        """Close every block from stack position `pos` inward, ending them on `line`."""
        for tag in reversed(self.stack[pos:]):
            if tag is not None:
                self.closed(tag, line)
        del self.stack[pos:]

    def bulk(self, evs: str | list[str], line: int) -> None:
        """Apply many braces at once (minified or generated lines), without tagging."""
        low = min(accumulate(map(_EV_STEP.__getitem__, evs), initial=0))
        self.truncate(max(0, len(self.stack) + low), line)
        self.stack.extend([None] * (evs.count("{") - evs.count("}") - low))

    def closed(self, tag: Tag, line: int) -> None:
        if tag.body == "func":
            self.funcs.pop()
        elif tag.body == "class":
            self.classes -= 1
        if tag.index >= 0:
            self.defs[tag.index].end = line


# C901: the one pass over every line of a file; its steps are inlined rather than called (a
# call per line cost a third of the scan).
def outline_structured(spec: Spec, clean: list[str], braces: list[str],  # noqa: C901
                       defs: list[Definition]) -> None:
    """Definitions of a brace (or keyword-block) file into `defs`."""
    blocks = _Blocks(defs)
    funcs, stack = blocks.funcs, blocks.stack  # mutated in place, never rebound
    events = spec.keyword_blocks
    inner_gate = spec.inner_gate
    pend: Pending | None = None
    group: Group | None = None
    for i, line in enumerate(clean):
        s = line.lstrip()
        if s and s[0] != "\x01":
            # most lines are inside a function body, indented deeper than its header: _resync
            # would return at once, so it is not called for them (a third of the loop's time)
            if funcs and s[0] not in "})]" and \
                    len(line) - len(s) <= stack[funcs[-1]].indent:  # type: ignore[union-attr]
                _resync(spec, blocks, s, line, clean, i)
            hit: Found | None = None
            if group is not None:
                if group.parens == 1 and len(stack) == group.depth and s[0] != ")":
                    assert spec.group_item is not None
                    hit = spec.group_item(group.kind, s, i)
            elif not funcs and len(defs) < MAX_SYMBOLS:
                top = stack[-1] if stack else None
                found = _detect(spec, s, line, clean, i, top, blocks.classes)
                if isinstance(found, GroupStart):
                    group = Group(found.kind, 0, len(stack))
                else:
                    hit = found
            elif inner_gate is not None and len(defs) < MAX_SYMBOLS and inner_gate(s):
                found = _detect(spec, s, line, clean, i, None, 0, inner=True)
                if isinstance(found, Found):
                    hit = found
            if hit is not None:
                pend = _begin(spec, hit, pend, clean, i, blocks)
        evs = (events(line) if s else ()) if events is not None else braces[i]
        if len(evs) > 64:
            blocks.bulk(evs, i)  # type: ignore[arg-type]
        else:
            for ev in evs:  # blocks.push and blocks.pop, inlined for untagged blocks
                if ev == "{":
                    if pend is not None and len(stack) == pend.base:
                        blocks.push(pend.tag)
                    else:
                        stack.append(None)
                elif stack:
                    tag = stack.pop()
                    if tag is not None:
                        blocks.closed(tag, i)
                        if pend is not None and tag is pend.tag:
                            pend.closed = True  # a body opened and closed on this line
        if pend is not None:
            pend = _settle(pend, stack, clean, i, defs, spec.bodyless_fallback)
        if group is not None:
            group.parens += line.count("(") - line.count(")")
            if group.parens <= 0:
                group = None


def _detect(spec: Spec, s: str, line: str, clean: list[str], i: int, top: Tag | None,
            classes: int, inner: bool = False) -> Found | GroupStart | None:
    """The definition starting on line i, a group's start, or None; `top` is the tag of the
    innermost open block; `inner`: the line is inside a function body."""
    member = top is not None and top.body == "class"
    owner = top.name if top is not None and member else None
    ws = s[:MATCH_WIDTH]
    found = match_rule(spec, ws, member, owner, classes, inner)
    if found is not None:
        if found.rule.block:
            return GroupStart({"const": "constant", "var": "variable"}.get(found.kind or "",
                                                                             "type"))
        if found.rule.col0 and len(s) != len(line):
            return None
        return Found(found.name, found.kind, found.body, i)
    if spec.hook is not None and not inner:
        return spec.hook(ws, clean, i, member, owner)
    return None


def _resync(spec: Spec, blocks: _Blocks, s: str, line: str, clean: list[str], i: int) -> None:
    """Close function bodies whose closing brace was lost (a regex literal, an apostrophe in
    JSX text, `#if` branches): a function or class indented no deeper than the enclosing
    function's header cannot be inside it."""
    indent = len(line) - len(s)
    while blocks.funcs:
        pos = blocks.funcs[-1]
        tag = blocks.stack[pos]
        if tag is None or indent > tag.indent:
            return
        top = blocks.stack[pos - 1] if pos > 0 else None
        hit = _detect(spec, s, line, clean, i, top, blocks.classes)
        if not isinstance(hit, Found) or hit.body not in ("func", "class"):
            return
        blocks.truncate(pos, _last_code(clean, 0, i - 1))


def _begin(spec: Spec, hit: Found, pend: Pending | None, clean: list[str], i: int,
           blocks: _Blocks) -> Pending:
    """Record a definition (unless it is a bare container like `impl`) and make it pending."""
    defs = blocks.defs
    if pend is not None:
        _set_end(defs, pend.tag, _last_code(clean, pend.start, i - 1))
    idx = -1
    if hit.kind is not None and hit.name and len(defs) < MAX_SYMBOLS:
        idx = len(defs)
        defs.append(Definition(hit.name, hit.kind,
                               _annotated_start(clean, hit.start, spec.annotations), None,
                               len(blocks.stack)))
    indent = len(clean[i]) - len(clean[i].lstrip())
    return Pending(Tag(hit.body, idx, hit.name, indent), hit.start, len(blocks.stack))


def _settle(pend: Pending, stack: list[Tag | None], clean: list[str], i: int,
            defs: list[Definition], fallback: bool) -> Pending | None:
    """After line i: keep waiting for the pending definition's body, or decide its end."""
    tag, start, base = pend.tag, pend.start, pend.base
    if len(stack) > base and stack[base] is tag:
        return None  # body open; its closing brace sets the end
    if len(stack) < base:
        _set_end(defs, tag, i)
        return None
    line = clean[i]
    pend.brackets += line.count("(") + line.count("[") - line.count(")") - line.count("]")
    goes_on = pend.brackets > 0 or _continues(clean, i)
    if pend.closed:  # a body opened and closed on this line
        pend.closed = False
        return pend if goes_on else None
    if not goes_on:
        if not fallback:
            _set_end(defs, tag, i)
        return None
    return pend if i - start < MAX_HEADER else None
