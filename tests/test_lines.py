"""Lines are counted and cut one way everywhere (lines.py): the index, the outline, hit lines,
regions, the text output and the language server's buffers agree on every line number, also in
files with form feeds and Unicode separators that `str.splitlines()` would break at."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from iterative_retrieval.lines import (
    count_lines,
    normalize,
    split_lines,
    split_lines_keeping_ends,
)

from .conftest import write_files
from .test_lsp_server import SERVER, start, wait_ready

# Characters str.splitlines() breaks at and a line break does not end at.
NOT_BREAKS = ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize(("text", "lines"), [
    ("", []),
    ("a", ["a"]),
    ("a\n", ["a"]),
    ("a\n\n", ["a", ""]),
    ("\n", [""]),
    ("a\r\nb\rc\nd", ["a", "b", "c", "d"]),
    ("a\r\n", ["a"]),
    ("a\r", ["a"]),
    ("a\r\r\nb", ["a", "", "b"]),
    ("".join(f"x{c}y\n" for c in NOT_BREAKS), [f"x{c}y" for c in NOT_BREAKS]),
])
def test_split_and_count_agree(text, lines):
    """Lines end at \\n, \\r\\n and \\r only; the three functions agree with each other."""
    assert split_lines(text) == lines
    assert count_lines(text) == len(lines)
    assert "".join(split_lines_keeping_ends(text)) == text
    assert len(split_lines_keeping_ends(text)) == len(lines)
    assert normalize(text).split("\n")[: len(lines)] == lines


def page_broken_source() -> tuple[str, int]:
    """A module with 150 form-feed page breaks and every other separator before a function;
    the function's line number by \\n."""
    out = []
    for i in range(450):
        sep = NOT_BREAKS[i % len(NOT_BREAKS)]
        out.append("\f" if i % 3 == 0 else f"# note {i}: part{sep}two")
    out.append("")
    out.append("def refresh_token_expiry(token):")
    out.append('    """Renew the expiry of a session token."""')
    out.append("    return token.expires_at + 3600")
    text = "\n".join(out) + "\n"
    return text, text.split("\n").index("def refresh_token_expiry(token):") + 1


def _defining_region(files: list[dict], path: str) -> dict:
    f = next(f for f in files if f["path"] == path)
    return next(r for r in f["regions"] if "refresh_token_expiry" in r.get("why", ""))


def test_regions_after_page_breaks_are_the_named_lines(tmp_path):
    """The CLI's region for a function defined after form feeds and Unicode separators starts
    at its line and holds its text; the text output numbers the same lines."""
    text, line = page_broken_source()
    assert line == 452
    root = write_files(tmp_path / "ws", {"auth/tokens.py": text,
                                        "auth/other.py": "def unrelated():\n    return 1\n"})
    base = [sys.executable, "-m", "iterative_retrieval", "retrieve", "Fix refresh_token_expiry",
            "--root", str(root), "--cache-dir", str(tmp_path / "cache")]
    p = subprocess.run([*base, "--json"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    region = _defining_region(json.loads(p.stdout)["files"], "auth/tokens.py")
    assert region["start_line"] == line
    assert region["text"].split("\n")[0] == "def refresh_token_expiry(token):"
    assert region["text"].split("\n") == text.split("\n")[line - 1 : region["end_line"]]
    p = subprocess.run([*base, "--regions"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert f"{line} def refresh_token_expiry(token):" in p.stdout
    # every numbered line of the text output is that line of the file
    numbered = [ln.split(None, 1) for ln in p.stdout.split("\n") if ln.startswith("      ")]
    file_lines = text.split("\n")
    checked = 0
    for parts in numbered:
        if len(parts) == 2 and parts[0].isdigit():
            assert file_lines[int(parts[0]) - 1].strip() == parts[1].strip(), parts
            checked += 1
    assert checked >= 3


def test_old_mac_line_breaks_count_as_lines(tmp_path):
    """A file whose lines end with a lone \\r has its definitions, regions and hit lines on the
    same numbers (as an editor shows them)."""
    text, line = page_broken_source()
    root = write_files(tmp_path / "ws", {"auth/tokens.py": text.replace("\n", "\r").encode()})
    p = subprocess.run([sys.executable, "-m", "iterative_retrieval", "retrieve",
                        "Fix refresh_token_expiry", "--root", str(root), "--cache-dir",
                        str(tmp_path / "cache"), "--json"], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    region = _defining_region(json.loads(p.stdout)["files"], "auth/tokens.py")
    assert region["start_line"] == line
    assert region["text"].startswith("def refresh_token_expiry(token):\n")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def lsp(lsp_client: LanguageClient, tmp_path):
    root = write_files(tmp_path / "ws", {"auth/other.py": "def unrelated():\n    return 1\n"})
    lsp_client.root = root
    await start(lsp_client, tmp_path, [root])
    await wait_ready(lsp_client)
    yield
    await lsp_client.shutdown_session()


async def test_incremental_edits_after_separators_land_on_their_line(lsp: LanguageClient):
    """An editor's incremental edit below form feeds and U+2028 changes the line the editor
    means: the server's buffer, and so the region it hands out, is the editor's text."""
    client = lsp
    text, line = page_broken_source()
    uri = (client.root / "auth/tokens.py").as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1,
                                             text=text)))
    # rename the function on its line, as an editor sends a keystroke's change
    col = len("def ")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=line - 1, character=col),
                              end=types.Position(line=line - 1, character=col + len("refresh"))),
            text="renew")]))
    expected = text.split("\n")
    expected[line - 1] = "def renew_token_expiry(token):"
    result = await asyncio.wait_for(client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="iterativeRetrieval.retrieve",
                                   arguments=[{"task": "Fix renew_token_expiry"}])), 60)
    f = next(f for f in result["files"] if f["path"] == "auth/tokens.py")
    region = next(r for r in f["regions"] if "renew_token_expiry" in r.get("why", ""))
    assert region["start_line"] == line
    assert region["text"].split("\n") == expected[line - 1 : region["end_line"]]
