"""The pattern's two worked examples in layouts unlike `examples/` (issue 16, item 6).

Each workspace under tests/layouts/ is a small service written for these tests: a variant of
"Fix the authentication token expiry bug" (an auth module that imports a session manager and a
token module from other folders, the token module importing JWT utilities from a utils folder)
or of "Add rate limiting to API endpoints" (code that says `throttle`, never "rate limit": the
throttle middleware, the registry that builds it, the router that mounts it), in TypeScript,
Python and Go, with distractors that share the task's words (payment and page tokens, a database
session, a cache's expiry, limit/offset pagination, exchange rates).

These tests judge the engine's generality: they are written from what a developer would open,
not from what the engine ranks today, and nothing in the engine may be fitted to them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from iterative_retrieval.config import Settings
from iterative_retrieval.engine import Engine
from iterative_retrieval.models import RetrievalResult

from .conftest import make_repo

LAYOUTS = Path(__file__).resolve().parent / "layouts"
AUTH_TASK = "Fix the authentication token expiry bug"
RATE_TASK = "Add rate limiting to API endpoints"
TOP = 5
RELATED = 0.5


@dataclass(frozen=True)
class Layout:
    name: str
    lang: str
    task: str
    needed: tuple[str, ...]
    """The files a developer opens for the task: each in the top 5 with relevance >= 0.5."""
    distractors: tuple[str, ...]
    """Files sharing the task's words but not its subject: below every needed file, or absent."""
    learned: tuple[str, ...]
    """Words the codebase uses for the task and the task does not say: REFINE should learn each."""

    def __str__(self) -> str:
        return self.name


LAYOUTS_UNDER_TEST = [
    Layout(
        "ts-auth-split", "typescript", AUTH_TASK,
        needed=("src/api/auth/authenticate.ts", "src/token/verify.ts", "src/session/manager.ts",
                "src/utils/jwt.ts"),
        distractors=("src/billing/payment-token.ts", "src/api/invoices/pagination.ts",
                     "src/cache/ttl-cache.ts"),
        learned=("session", "jwt"),
    ),
    Layout(
        "ts-throttle-gateway", "typescript", RATE_TASK,
        needed=("lib/http/guards/throttle.ts", "lib/http/guards/index.ts", "lib/http/mount.ts"),
        distractors=("lib/support/paginate.ts", "lib/domain/fx-rates.ts"),
        learned=("throttle",),
    ),
    Layout(
        "py-auth-security", "python", AUTH_TASK,
        needed=("app/services/auth.py", "app/security/tokens.py", "app/security/session.py",
                "app/utils/jwt.py"),
        distractors=("app/billing/payment_tokens.py", "app/db/session.py", "app/security/csrf.py",
                     "app/cache/ttl.py"),
        learned=("session", "jwt"),
    ),
    Layout(
        "py-throttle-api", "python", RATE_TASK,
        needed=("apiserver/middleware/throttle.py", "apiserver/middleware/registry.py",
                "apiserver/routing.py"),
        distractors=("apiserver/utils/pagination.py", "apiserver/services/exchange_rates.py"),
        learned=("throttle",),
    ),
    Layout(
        "go-auth-internal", "go", AUTH_TASK,
        needed=("internal/auth/auth.go", "internal/token/token.go", "internal/session/manager.go",
                "pkg/utils/jwt.go"),
        distractors=("internal/payments/cardtoken.go", "internal/db/session.go",
                     "internal/cache/ttl.go", "internal/api/pagination.go"),
        learned=("session", "jwt"),
    ),
    Layout(
        "go-throttle-ingest", "go", RATE_TASK,
        needed=("internal/middleware/throttle.go", "internal/middleware/registry.go",
                "internal/server/router.go"),
        distractors=("internal/store/pagination.go", "internal/fx/rates.go"),
        learned=("throttle",),
    ),
    Layout(
        "py-auth-split-core", "python", AUTH_TASK,
        needed=("src/hub/accounts/login.py", "src/hub/core/tokens/verify.py",
                "src/hub/core/sessions.py", "src/hub/lib/jwt_utils.py"),
        distractors=("src/hub/payments/tokenization.py", "src/hub/lib/db.py",
                     "src/hub/feeds/pagination.py", "src/hub/cache/expiring.py"),
        learned=("session", "jwt"),
    ),
]

MODES = ("plain", "git")
"""Each workspace as a plain folder (the walker's listing) and as a git repository (git's)."""


def copy_workspace(layout: Layout, dst: Path, mode: str) -> Path:
    root = dst / layout.name
    shutil.copytree(LAYOUTS / layout.name, root)
    if mode == "git":
        make_repo(root, {})
    return root


_GAP = {
    "test_needed_files_lead": "a needed file ranks below the implementing file's generic "
                              "dependencies (errors, config) or comes only as a second hop",
    "test_cli_hands_out_needed_files": "as test_needed_files_lead, through the command line",
    "test_distractors_rank_below_needed_files": "a distractor that shares a task word is linked "
                                                "to the best file (fx rates, a DB session)",
    "test_learns_the_codebases_words": "the codebase's word is in over 30% of this small "
                                       "workspace's files: too common to be learned",
    "test_stops_as_good_enough": "the throttle's context stays under 0.7: max cycles reached",
}
KNOWN_GAPS: dict[tuple[str, str], str] = {
    (test, ws): _GAP[test] for test, spaces in {
        "test_needed_files_lead": ("go-throttle-ingest", "py-auth-security", "py-auth-split-core",
                                   "ts-auth-split", "ts-throttle-gateway"),
        "test_cli_hands_out_needed_files": ("go-throttle-ingest", "py-auth-security",
                                            "py-auth-split-core", "ts-auth-split",
                                            "ts-throttle-gateway"),
        "test_distractors_rank_below_needed_files": ("go-throttle-ingest", "py-auth-security",
                                                     "py-throttle-api", "ts-throttle-gateway"),
        "test_learns_the_codebases_words": ("go-auth-internal", "py-auth-security",
                                            "py-auth-split-core", "ts-auth-split"),
        "test_stops_as_good_enough": ("py-throttle-api",),
    }.items() for ws in spaces
}
"""(test, workspace) pairs today's engine does not pass: issue 16 stays open for them. They run
as strict xfails, so that a pair that starts to pass fails the suite until it is taken off."""


@pytest.fixture(autouse=True)
def _known_gaps(request):
    """Mark a known gap as a strict expected failure (it still runs, and is told when it passes)."""
    spec = getattr(request.node, "callspec", None)
    if spec is None:
        return
    param = spec.params.get("run") or spec.params.get("layout")
    layout = param[0] if isinstance(param, tuple) else param
    reason = KNOWN_GAPS.get((request.node.originalname, getattr(layout, "name", "")))
    if reason:
        request.applymarker(pytest.mark.xfail(strict=True, reason=reason))


@dataclass
class Run:
    layout: Layout
    root: Path
    engine: Engine
    res: RetrievalResult

    @property
    def paths(self) -> list[str]:
        return [f.path for f in self.res.files]

    def table(self) -> str:
        """The handed-out files and the trace, for failure messages."""
        rows = [f"{f.relevance:.2f} {f.path}" for f in self.res.files[:8]]
        rows += [f"cycle {t.cycle}: learned {t.learned} stop {t.stop_reason!r}"
                 for t in self.res.trace]
        return "\n".join(rows)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The module's retrievals by (workspace, mode), and a folder to copy the workspaces into."""
    done: dict[tuple[str, str], Run] = {}
    yield done, tmp_path_factory.mktemp("layouts")
    for r in done.values():
        r.engine.close()


@pytest.fixture(params=[(lay, mode) for lay in LAYOUTS_UNDER_TEST for mode in MODES],
                ids=lambda p: f"{p[0].name}-{p[1]}")
def run(request, runs) -> Run:
    """One retrieval per workspace and mode, shared by the tests that judge its parts.

    Settings are the defaults; only the index folder is given, because this retrieval outlives
    the per-test cache folder that tests/conftest.py sets.
    """
    layout, mode = request.param
    done, tmp = runs
    key = (layout.name, mode)
    if key not in done:
        base = tmp / mode
        base.mkdir(exist_ok=True)
        root = copy_workspace(layout, base, mode)
        engine = Engine([root], Settings(cache_dir=str(base / f"cache-{layout.name}")))
        done[key] = Run(layout, root, engine, engine.retrieve(layout.task))
    return done[key]


def test_needed_files_lead(run):
    """Every needed file is in the top 5 with relevance >= 0.5 (the related band or better)."""
    top = {f.path: f for f in run.res.files[:TOP]}
    missing = [p for p in run.layout.needed if p not in top]
    assert not missing, f"not in the top {TOP}: {missing}\n{run.table()}"
    low = [(p, round(top[p].relevance, 2)) for p in run.layout.needed if top[p].relevance < RELATED]
    assert not low, f"needed files under {RELATED}: {low}\n{run.table()}"
    for p in run.layout.needed:
        assert top[p].reason, f"{p} has no reason"


def test_distractors_rank_below_needed_files(run):
    """A file that only shares the task's words is handed out below every needed file, or not at all."""
    paths = run.paths
    for d in run.layout.distractors:
        if d not in paths:
            continue
        above = [p for p in run.layout.needed if p not in paths[:paths.index(d)]]
        assert not above, (
            f"distractor {d} (rank {paths.index(d) + 1}) is not below {above}\n{run.table()}")


def test_learns_the_codebases_words(run):
    """REFINE learns the words the codebase uses for what the task names in other words."""
    learned = [w.lower() for t in run.res.trace for w in t.learned]
    lacking = [w for w in run.layout.learned if not any(w in t for t in learned)]
    assert not lacking, f"never learned {lacking}; learned {learned}\n{run.table()}"


def test_stops_as_good_enough(run):
    """The run ends because the context is enough (>= 3 strong files, no critical gap)."""
    reason = run.res.trace[-1].stop_reason.lower()
    assert "no critical gap" in reason or "good enough" in reason, (
        f"stop reason {reason!r}\n{run.table()}")


def test_workspace_is_indexed_whole(run):
    """The copied workspace is its own root: every file is indexed, and the needed files and the
    distractors count as sources (under this repository's tests/ they would be tests)."""
    on_disk = sorted(str(p.relative_to(run.root)) for p in run.root.rglob("*")
                     if p.is_file() and ".git" not in p.relative_to(run.root).parts)
    assert run.res.stats["files_indexed"] == len(on_disk), run.res.stats
    assert not run.res.stats["skipped"], run.res.stats
    kinds = {f.path: f.kind for f in run.engine.index(run.root).all_files()}
    for p in run.layout.needed + run.layout.distractors:
        assert kinds.get(p) == "source", (p, kinds.get(p))


def _cli() -> list[str]:
    exe = shutil.which("iterative-retrieval") or str(Path(sys.executable).with_name(
        "iterative-retrieval"))
    return [exe] if os.path.exists(exe) else [sys.executable, "-m", "iterative_retrieval"]


@pytest.mark.parametrize("layout", LAYOUTS_UNDER_TEST, ids=str)
def test_cli_hands_out_needed_files(layout, tmp_path):
    """Through the command line as a process: the needed files are in the JSON's top 5."""
    root = copy_workspace(layout, tmp_path, "git")
    p = subprocess.run(
        _cli() + ["retrieve", layout.task, "--root", str(root), "--json",
                  "--cache-dir", str(tmp_path / "cache"), "-q"],
        capture_output=True, text=True, timeout=600,
    )
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    top = [f["path"] for f in out["files"][:TOP]]
    missing = [n for n in layout.needed if n not in top]
    assert not missing, (
        f"not in the top {TOP}: {missing}\n"
        + "\n".join(f"{f['relevance']:.2f} {f['path']}" for f in out["files"][:8]))
