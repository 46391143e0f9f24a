"""Every rendering of a result, one function per format: the terminal's table, and the formats
handed to people and agents — Markdown, JSON and XML documents (`render(result, format)`).

Every surface renders through here (the command line's `--format`, the language server's
`renderContext`, the MCP tool's `format`, the VS Code client's copy commands, which ask the
server), so a format is written once.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable

from .contract import FORMATS, ExplanationJson
from .lines import split_lines
from .models import CycleTrace, RetrievalResult

FENCE_LANGUAGES = {
    ".py": "python", ".ts": "typescript", ".tsx": "tsx", ".js": "javascript", ".jsx": "jsx",
    ".go": "go", ".rs": "rust", ".java": "java", ".rb": "ruby", ".php": "php", ".cs": "csharp",
    ".c": "c", ".h": "c", ".cpp": "cpp", ".cc": "cpp", ".hpp": "cpp", ".kt": "kotlin",
    ".swift": "swift", ".scala": "scala", ".sh": "bash", ".md": "markdown", ".json": "json",
    ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".mjs": "javascript",
    ".cjs": "javascript",
}
"""The fence's language by file extension (the VS Code client gets this table too)."""


def render(result: RetrievalResult, fmt: str) -> str:
    """The result in one of contract.FORMATS (ValueError for any other)."""
    try:
        renderer = RENDERERS[fmt]
    except KeyError:
        raise ValueError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})") from None
    return renderer(result)


def to_json(result: RetrievalResult) -> str:
    """The wire object (docs/json-schema.md), indented."""
    return json.dumps(result.to_dict(), indent=2, ensure_ascii=False)


def to_text(result: RetrievalResult, show_regions: bool = False, color: bool = False) -> str:
    """The terminal view: rank, relevance, band, path, reason; then the trace."""
    lines = [f"Task: {one_line(result.task)}", *(f"Warning: {w}" for w in result.warnings), ""]
    if not result.files:
        lines.append("No relevant files found.")
    many = len(result.roots) > 1
    # by place, not path: two roots may hold the same relative path
    label = [shown_path((os.path.basename(f.root) + ":" if many and f.root else "") + f.path)
             for f in result.files]
    width = max((len(v) for v in label), default=10)
    width = min(max(width, 10), 70)
    for i, f in enumerate(result.files, 1):
        ranges = ", ".join(f"{r.start_line}-{r.end_line}" for r in f.regions[:4])
        lines.append(f"{i:>2}. {f.relevance:.2f} {f.band:<6} {label[i - 1]:<{width}}  {f.reason}")
        if ranges:
            lines.append(f"{'':>4}{'':>12}lines {ranges}" + (" …" if len(f.regions) > 4 else ""))
        if f.missing:
            lines.append(f"{'':>16}missing: {', '.join(f.missing[:5])}")
        if show_regions:
            for r in f.regions:
                lines.append(f"{'':>6}--- {label[i - 1]}:{r.start_line}-{r.end_line}")
                lines.extend(f"{'':>6}{n:>5} {t}"
                             for n, t in enumerate(split_lines(r.text), r.start_line))
    lines.append("")
    lines.append("Trace:")
    for t in result.trace:
        lines.extend(_cycle_lines(t))
    st = result.stats
    lines.append(
        f"{st.get('files_indexed', 0)} files indexed ({st.get('files_reindexed', 0)} re-read), "
        f"{st.get('tokens', 0)}/{st.get('budget', 0)} tokens, {st.get('seconds', 0):.2f}s"
    )
    return "\n".join(lines)


def _cycle_lines(t: CycleTrace) -> list[str]:
    """One cycle of the terminal view's trace."""
    q = t.query.to_dict()
    kw = ", ".join(q["keywords"][:10]) + (" …" if len(q["keywords"]) > 10 else "") or "(none)"
    lines = [f"  cycle {t.cycle}: {t.candidates} candidates, {t.kept} ≥ 0.7; keywords: {kw}"]
    if t.cycle == 1 and q["follow_up"]:  # the same in every cycle: said once
        lines.append(f"    kept from the last answer: {', '.join(q['follow_up'])}")
    if t.cycle == 1 and q["from_branch"]:
        lines.append(f"    from the branch's commit messages: {', '.join(q['from_branch'])}")
    if t.learned:
        lines.append(f"    learned: {', '.join(t.learned)}")
    if t.excluded:
        n = len(t.excluded)
        lines.append(f"    excluded: {n} file{'' if n == 1 else 's'} under 0.2")
    if q["focus_areas"]:
        lines.append(f"    focus: {', '.join(q['focus_areas'])}")
    if t.stop_reason:
        lines.append(f"    stop: {t.stop_reason}")
    return lines


def to_markdown(result: RetrievalResult) -> str:
    """Context ready to paste into a chat: why each file matters, then its regions."""
    out = [f"## Context for: {one_line(result.task)}", ""]
    if not result.files:
        out.append("_No relevant files found._")
        if result.trace:  # what was searched, and why it stopped: what an agent can reword
            first, last = result.trace[0].query.to_dict(), result.trace[-1]
            said = ", ".join(f"`{k}`" for k in first["keywords"][:10]) or "(none)"
            out += ["", f"Searched for: {said}; stopped: {last.stop_reason}."]
        return "\n".join(out)
    out.append("| # | relevance | file | why |")
    out.append("|---|---|---|---|")
    for i, f in enumerate(result.files, 1):
        out.append(f"| {i} | {f.relevance:.2f} ({f.band}) | `{shown_path(f.path)}` |"
                   f" {_cell(f.reason)} |")
    out.append("")
    for f in result.files:
        if not f.regions:
            continue
        lang = FENCE_LANGUAGES.get(os.path.splitext(f.path)[1].lower(), "")
        out.append(f"### `{shown_path(f.path)}` — {f.relevance:.2f}")
        out.append(f"{f.reason}")
        if f.missing:
            out.append(f"Uses, defined elsewhere: {', '.join(f'`{m}`' for m in f.missing[:5])}")
        for r in f.regions:
            fence = fence_for(r.text)
            out.append(f"\nLines {r.start_line}–{r.end_line}:")
            out.append(f"{fence}{lang}\n{r.text}\n{fence}")
        out.append("")
    return "\n".join(out)


_BACKTICKS = re.compile(r"`{3,}")


def fence_for(text: str) -> str:
    """A code fence the text cannot close: longer than any run of three or more backticks in it
    (CommonMark closes a fence with a run at least as long as the opening one)."""
    longest = max((len(m) for m in _BACKTICKS.findall(text)), default=0)
    return "`" * max(3, longest + 1)


def to_xml(result: RetrievalResult) -> str:
    """The context as XML documents, the form Anthropic's long-context guidance recommends for
    handing documents to a model: one `<document>` per file, best first, with its path and
    relevance as attributes, why it matters, and each region's lines in a `<source>`.

    Code goes in CDATA, as it is (no `&lt;` to read around); a `]]>` inside it is split over
    two sections, so the output is always well-formed XML.
    """
    out = [f"<documents task={_attr(one_line(result.task, 200))}>"]
    for i, f in enumerate(result.files, 1):
        attrs = {"index": str(i), "path": f.path, "relevance": f"{f.relevance:.2f}",
                 "band": f.band, "role": f.role}
        if len(result.roots) > 1 and f.root:
            attrs["root"] = f.root
        out.append("<document " + " ".join(f"{k}={_attr(v)}" for k, v in attrs.items() if v)
                   + ">")
        out.append(f"<reason>{_text(f.reason)}</reason>")
        if f.missing:
            out.append(f"<missing>{_text(', '.join(f.missing))}</missing>")
        for r in f.regions:
            why = f" why={_attr(r.why)}" if r.why else ""
            out.append(f'<source lines="{r.start_line}-{r.end_line}"{why}>{_cdata(r.text)}'
                       "</source>")
        out.append("</document>")
    out.append("</documents>")
    return "\n".join(out)


_XML_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}
_XML_SPECIAL = re.compile(r'[&<>"]')
# characters XML 1.0 cannot carry at all, even escaped (controls but tab and line breaks, lone
# surrogates, U+FFFE/U+FFFF): shown as U+FFFD
_XML_INVALID = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _text(s: str) -> str:
    return _XML_SPECIAL.sub(lambda m: _XML_ESCAPES[m.group()], _XML_INVALID.sub("\ufffd", s))


def _attr(s: str) -> str:
    return '"' + _text(s).replace("\n", "&#10;").replace("\r", "&#13;") + '"'


def _cdata(s: str) -> str:
    s = _XML_INVALID.sub("\ufffd", s)
    return "<![CDATA[\n" + s.replace("]]>", "]]]]><![CDATA[>") + "\n]]>"


RENDERERS: dict[str, Callable[[RetrievalResult], str]] = {
    "markdown": to_markdown, "json": to_json, "xml": to_xml,
}
"""One renderer per format of contract.FORMATS (tests/test_render.py holds them equal)."""


def explanation_text(e: ExplanationJson) -> str:
    """One file's explanation (Engine.explain) for people and agents."""
    if e["rank"] is None:
        return f"`{e['path']}` — {e['band']}: {e['reason']}."
    lines = [f"`{e['path']}` — {e['relevance']:.2f} ({e['band']}), rank {e['rank']} of "
             f"{e['of']} for this task.", f"Why: {e['reason']}"]
    if e["missing"]:
        lines.append("Uses, defined elsewhere: " + ", ".join(f"`{m}`" for m in e["missing"]))
    if e["regions"]:
        lines.append("Relevant lines: " + ", ".join(
            f"{r['start_line']}-{r['end_line']}" for r in e["regions"]))
    return "\n".join(lines)


_UNSHOWABLE = re.compile(r'[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff"\\]')
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"', "\\": "\\\\"}


def shown_path(path: str) -> str:
    """A path as one line of text, as git shows it: one with a control character, a line
    separator, a byte that is not UTF-8, a quote or a backslash is quoted, C-style
    ("a\\nb.py"); any other is as it is. A file named with a newline otherwise broke the
    ranked list into a line that looked like another entry."""
    if not _UNSHOWABLE.search(path):
        return path
    return '"' + _UNSHOWABLE.sub(_escape, path) + '"'


def _escape(m: re.Match[str]) -> str:
    ch = m.group(0)
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    if "\udc80" <= ch <= "\udcff":  # a byte the file system name held that is not UTF-8
        return f"\\x{ord(ch) - 0xdc00:02x}"
    return f"\\u{ord(ch):04x}" if ord(ch) > 0xff else f"\\x{ord(ch):02x}"


def one_line(s: str, n: int = 120) -> str:
    """Whitespace collapsed, cut to n characters with an ellipsis (a task in a heading)."""
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def _cell(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")
