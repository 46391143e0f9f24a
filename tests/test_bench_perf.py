"""bench/perf runs end to end on a small generated tree (the real corpora are measured by hand).

Only that it runs and reports every measure is checked here: speed is measured in bench/, and
its figures live in docs/performance.md, never in assertions.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .conftest import write_files

REPO = Path(__file__).resolve().parent.parent


def test_bench_perf_runs_on_a_small_tree(tmp_path):
    """One command measures rg, the cold index, the warm CLI, the server and a save."""
    files = {f"app/module_{i}.py": f"def handle_{i}(request):\n    '''Handle request {i}.'''\n"
             f"    return request.user.token_{i}\n" + "# padding line\n" * 150
             for i in range(30)}
    root = write_files(tmp_path / "tree", files)
    out, md = tmp_path / "perf.json", tmp_path / "perf.md"
    run = subprocess.run(
        [sys.executable, "-m", "bench.perf", f"small={root}", "--repeats", "1", "--tasks", "1",
         "--edits", "1", "--out", str(out), "--markdown", str(md)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    res = json.loads(out.read_text())["corpora"][0]
    assert res["name"] == "small" and res["files"] == 30
    assert res["cold_index"]["seconds"]["n"] == 1 and res["cold_index"]["index_mb"] > 0
    assert res["cli_warm"]["seconds"]["n"] == 1
    assert res["lsp"]["retrieve_1"]["n"] == res["lsp"]["retrieve_3"]["n"] == 1
    assert res["lsp"]["save"]["n"] == res["lsp"]["change"]["n"] == 1
    assert res["lsp_cold"]["ready_seconds"] > 0
    for rel, text in files.items():  # the edited file was put back
        assert (root / rel).read_text() == text
    table = md.read_text()
    assert "cold index" in table and "| small |" in table
