"""The credential corpus, measured: recall and false positives on every output, held to targets.

The corpus (tests/secrets_corpus.py) plants credentials in many formats and look-alikes that are
not; each corpus file is retrieved by a task of its own. The targets of issue 17: at least 98 %
of the planted credentials kept out of every output (no 8 characters of one in a row), and at
most 2 % of the look-alikes masked. In-process the whole corpus runs through the engine and the
surfaces' own serialisers; a sample runs through the real command line, language server and MCP
server. `IR_LONG=1` measures four more seeds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from iterative_retrieval.config import Settings
from iterative_retrieval.engine import Engine

from . import secrets_corpus as sc
from . import secrets_measure as sm
from .conftest import LONG
from .test_lsp_server import SERVER, command, start, wait_ready
from .test_reliability_secrets import mcp_calls

RECALL = 0.98
FALSE_POSITIVES = 0.02
SEEDS = [17, 3, 29, 41, 58] if LONG else [17]
SAMPLE = 9
"""Every 9th plant and look-alike goes through the real processes too."""


def corpus_root(tmp: Path, seed: int) -> tuple[sc.Corpus, Path]:
    corpus = sc.build(seed)
    root = tmp / f"corpus-{seed}"
    root.mkdir()
    sc.write(corpus, root)
    return corpus, root.resolve()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return corpus_root(tmp_path_factory.mktemp("corpus"), 17)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_corpus_meets_the_targets_on_every_output(seed, tmp_path):
    """At least 150 credentials in 40 formats and 150 look-alike values, every one measured;
    recall >= 98 % and false positives <= 2 % on regions, trace, reasons, text, JSON, Markdown,
    the language server's JSON and MCP's answer."""
    corpus, root = corpus_root(tmp_path, seed)
    engine = Engine([root], Settings(cache_dir=str(tmp_path / "cache"), include_tests=True))
    try:
        fig = sm.measure(corpus, root, engine)
    finally:
        engine.close()
    assert fig.plants >= 150 and fig.formats >= 40
    assert fig.lookalike_values >= 150 and not fig.not_found, fig.not_found  # all measured
    for output in sm.OUTPUTS:
        assert fig.recall(output) >= RECALL, (output, fig.leaks[output])
        assert fig.false_positive_rate(output) <= FALSE_POSITIVES, (output, fig.masked[output])


def sample(items: list) -> list:
    return items[::SAMPLE]


def assert_clean(text: str, plants, lookalikes=()) -> None:
    low = text.lower()
    for p in plants:
        for s in p.secrets:
            assert not sm.leaked(s, low), f"a piece of the {p.fmt} in {p.rel} came out"
    for la in lookalikes:
        for v in la.values:
            assert v in text or json.dumps(v)[1:-1] in text, f"{la.category} {v} was masked"


@pytest.mark.parametrize("fmt", [["--json"], ["--markdown"], ["--regions"]])
def test_a_sample_through_the_command_line(corpus, tmp_path, fmt):
    """The command line's JSON, Markdown and text view, as processes, on a sample."""
    corpus, root = corpus
    items = sample(corpus.plants)[::3] + sample(corpus.lookalikes)[::2]
    for item in items:
        p = subprocess.run([sys.executable, "-m", "iterative_retrieval", "retrieve", item.task,
                            "--root", str(root), "--cache-dir", str(tmp_path / "c"), "--tests",
                            *fmt],
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        assert (item.rel in p.stdout) is not getattr(item, "secret_file", False)
        if isinstance(item, sc.Plant):
            assert_clean(p.stdout, [item])
        else:
            assert_clean(p.stdout, [], [item])


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module",
                    loop_scope="module")
async def corpus_lsp(lsp_client: LanguageClient, corpus, tmp_path_factory):
    _, root = corpus
    await start(lsp_client, tmp_path_factory.mktemp("corpus-lsp"), [root])
    await wait_ready(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_a_sample_through_the_language_server(corpus_lsp: LanguageClient, corpus):
    """`retrieve` and `renderContext` over stdio, on a sample."""
    corpus, _ = corpus
    for item in sample(corpus.plants) + sample(corpus.lookalikes):
        args = {"task": item.task, "includeTests": True}
        result = await command(corpus_lsp, "iterativeRetrieval.retrieve", args)
        md = await command(corpus_lsp, "iterativeRetrieval.renderContext", args)
        text = json.dumps(result, ensure_ascii=False) + md["text"]
        if isinstance(item, sc.Plant):
            assert_clean(text, [item])
        else:
            assert item.rel in {f["path"] for f in result["files"]}
            assert_clean(text, [], [item])


def test_a_sample_through_mcp(corpus, tmp_path):
    """`retrieve_context` over MCP (Markdown and structured result), on a sample."""
    corpus, root = corpus
    items = sample(corpus.plants) + sample(corpus.lookalikes)
    answers = mcp_calls(root, tmp_path / "c", [("retrieve_context", {"task": i.task})
                                               for i in items])
    for item, res in zip(items, answers, strict=True):
        assert not res.is_error
        text = res.content[0].text + json.dumps(res.structured_content, ensure_ascii=False)
        if isinstance(item, sc.Plant):
            assert_clean(text, [item])
        else:
            assert_clean(text, [], [item])
