"""The renderers (render.py): one per format, the same for every surface."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from iterative_retrieval.contract import FORMATS
from iterative_retrieval.lsp.protocol import parse_render
from iterative_retrieval.models import FileResult, Region, RetrievalResult
from iterative_retrieval.render import RENDERERS, fence_for, render, to_markdown, to_text, to_xml

FIXTURES = Path(__file__).resolve().parents[1] / "client-vscode" / "test" / "fixtures"

AWKWARD = 'a < b && c > d\n</source></document>\n]]> and ]]]]> "quoted"\n````\ncode\n````'


def _result(*texts: str, path: str = "src/a.md") -> RetrievalResult:
    regions = [Region(i * 10 + 1, i * 10 + 2, t, "matched lines") for i, t in enumerate(texts)]
    files = [FileResult(path, 0.91, "implements: has `a` & <b>", ["B"], 1, regions, "/ws",
                        "implements")]
    return RetrievalResult('Fix "a" <now>', files, [], {}, ["/ws"])


def test_one_renderer_per_format():
    """Every format the surfaces offer has its renderer, and only those."""
    assert tuple(RENDERERS) == FORMATS
    with pytest.raises(ValueError, match="unknown format"):
        render(_result("x"), "html")


@pytest.mark.parametrize(("text", "fence"), [
    ("plain", "```"), ("x ``` y", "````"), ("a\n````\nb", "`````"), ("``````", "```````"),
    ("`` two", "```"),
])
def test_a_region_never_closes_its_fence(text, fence):
    """The fence is longer than any run of backticks in the region (four closed it early)."""
    assert fence_for(text) == fence
    md = to_markdown(_result(text))
    assert f"{fence}markdown\n{text}\n{fence}" in md


def test_xml_documents_are_well_formed_and_carry_the_code_as_it_is():
    """One <document> per file with path and relevance; each region's text comes back exactly,
    whatever it holds (markup, `]]>`, quotes)."""
    result = _result(AWKWARD, "def f():\n    return 1")
    doc = ET.fromstring(to_xml(result))
    assert doc.tag == "documents" and doc.get("task") == 'Fix "a" <now>'
    (d,) = doc.findall("document")
    assert (d.get("path"), d.get("relevance"), d.get("band"), d.get("role")) == \
        ("src/a.md", "0.91", "high", "implements")
    assert d.findtext("reason") == "implements: has `a` & <b>"
    sources = d.findall("source")
    assert [s.get("lines") for s in sources] == ["1-2", "11-12"]
    assert [s.text.removeprefix("\n").removesuffix("\n") for s in sources] == \
        [r.text for r in result.files[0].regions]


def test_xml_of_a_real_retrieval(tmp_path):
    """A real result: every file a document, in order."""
    from iterative_retrieval.config import Settings
    from iterative_retrieval.engine import Engine

    from .conftest import EXAMPLES

    engine = Engine([EXAMPLES / "auth-service"], Settings(cache_dir=str(tmp_path)))
    try:
        result = engine.retrieve("Fix the authentication token expiry bug")
    finally:
        engine.close()
    docs = ET.fromstring(render(result, "xml")).findall("document")
    assert [d.get("path") for d in docs] == [f.path for f in result.files]
    assert json.loads(render(result, "json"))["files"][0]["path"] == result.files[0].path


def test_the_clients_fixture_renders_as_the_server_always_rendered_it():
    """A result the VS Code client sends back (renderContext) renders byte for byte as before:
    the client no longer renders it itself."""
    raw = json.loads((FIXTURES / "auth-result.json").read_text("utf-8"))
    req = parse_render(({"result": raw, "format": "markdown"},))
    assert to_markdown(req.result) == (FIXTURES / "auth-result.md").read_text("utf-8")


def test_a_task_that_finds_nothing_says_what_was_searched_and_why_it_stopped(tmp_path):
    """No file says the task's words, or the task holds no word to search (a script the code
    does not write): the trace's stop reason says which, and the context for a chat says what
    was searched, so that a user or an agent can reword it."""
    from iterative_retrieval.config import Settings
    from iterative_retrieval.engine import Engine

    from .conftest import EXAMPLES

    engine = Engine([EXAMPLES / "auth-service"], Settings(cache_dir=str(tmp_path)))
    try:
        foreign = engine.retrieve("修复认证令牌过期的错误")
        unsaid = engine.retrieve("Beheben Sie den Fehler beim Ablauf")
        found = engine.retrieve("Fix the authentication token expiry bug")
        once = engine.retrieve("Beheben Sie den Fehler beim Ablauf",
                               Settings(cache_dir=str(tmp_path), max_cycles=1))
    finally:
        engine.close()
    assert not foreign.files and not unsaid.files
    assert foreign.trace[-1].stop_reason == (
        "nothing new to learn: the task holds no word or name to search for")
    assert unsaid.trace[-1].stop_reason == (
        "nothing new to learn: no file in scope says the task's words")
    assert "keywords: (none)" in to_text(foreign)
    md = to_markdown(unsaid)
    assert "_No relevant files found._" in md
    assert "Searched for: `beheben`, `sie`, `den`, `fehler`, `beim`, `ablauf`; stopped: " \
        "nothing new to learn: no file in scope says the task's words." in md
    assert found.files and "no file" not in found.trace[-1].stop_reason
    assert once.trace[-1].stop_reason == (  # whatever stopped the loop, the why is said
        "max cycles reached: no file in scope says the task's words")


def test_the_terminal_view_says_each_warning_under_the_task():
    """A run's warnings (a folder's gitBase that names no commit) come right under the task,
    before the files; a run without any shows no such line."""
    from dataclasses import replace

    raw = json.loads((FIXTURES / "auth-result.json").read_text("utf-8"))
    result = parse_render(({"result": raw},)).result
    warning = ("git base 'release/9' is no branch, tag or commit in /w/api (the folder's "
               "gitBase setting): its branch was measured from the default branch instead")
    lines = to_text(replace(result, warnings=[warning])).splitlines()
    assert lines[:3] == [f"Task: {result.task}", f"Warning: {warning}", ""]
    assert not any(ln.startswith("Warning:") for ln in to_text(result).splitlines())
