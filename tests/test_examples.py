"""The pattern's two worked examples, end to end over the shipped sample workspaces."""

from __future__ import annotations

import shutil

import pytest

from iterative_retrieval.config import Settings
from iterative_retrieval.engine import Engine

from .conftest import EXAMPLES, make_repo

AUTH = ["src/auth/auth.ts", "src/auth/tokens.ts", "src/auth/session-manager.ts",
        "src/auth/jwt-utils.ts"]
THROTTLE = ["src/middleware/throttle.ts", "src/middleware/index.ts", "src/router-setup.ts"]


@pytest.fixture(params=["plain", "git"])
def workspace(request, tmp_path):
    """Each example as a plain folder and as a git repository (git's file listing)."""

    def make(name: str):
        dst = tmp_path / name
        shutil.copytree(EXAMPLES / name, dst)
        if request.param == "git":
            make_repo(dst, {})
        return dst

    return make


def test_auth_token_expiry(workspace):
    """(a) The four auth files lead; user.ts is below them or excluded; refresh/jwt are learned."""
    root = workspace("auth-service")
    res = Engine([root], Settings()).retrieve("Fix the authentication token expiry bug")
    paths = [f.path for f in res.files]
    assert set(paths[:4]) == set(AUTH), paths
    for f in res.files[:4]:
        assert f.relevance >= 0.7 and f.reason
        assert f.regions and all(r.start_line <= r.end_line for r in f.regions)
    if "src/models/user.ts" in paths:
        assert paths.index("src/models/user.ts") > 3
    learned_c1 = {w.lower() for w in res.trace[0].learned}
    assert {"refresh", "jwt"} <= learned_c1, learned_c1
    assert "src/models/user.ts" not in paths[:4]


def test_rate_limit_finds_throttle(workspace):
    """(b) 'rate limit' matches nothing; refine learns 'throttle'; the three throttle files lead."""
    root = workspace("rate-limit-api")
    res = Engine([root], Settings()).retrieve("Add rate limiting to API endpoints")
    first = res.trace[0]
    assert first.kept == 0, "cycle 1 has no direct match: the code never says 'rate limit'"
    assert "throttle" in {w.lower() for w in first.learned}
    paths = [f.path for f in res.files]
    assert set(paths[:3]) == set(THROTTLE), paths
    assert all(f.relevance >= 0.7 for f in res.files[:3])
    assert len(res.trace) >= 2


def test_trace_records_each_cycle():
    """Every cycle records its query, counts, what it learned and excluded, and why it stopped."""
    res = Engine([EXAMPLES / "rate-limit-api"], Settings()).retrieve("Add rate limiting to API endpoints")
    for i, t in enumerate(res.trace, 1):
        assert t.cycle == i and t.candidates > 0
        d = t.to_dict()
        assert d["query"]["keywords"]
    assert res.trace[-1].stop_reason
    assert res.trace[1].query.keywords[-1].kind in ("learned", "synonym", "variant")


def test_max_cycles_one_stops_after_dispatch_and_evaluate():
    """--max-cycles 1 runs a single cycle."""
    res = Engine([EXAMPLES / "rate-limit-api"], Settings(max_cycles=1)).retrieve(
        "Add rate limiting to API endpoints")
    assert len(res.trace) == 1


def test_budget_is_respected():
    """Regions fit the token budget."""
    from iterative_retrieval.context import estimate_tokens

    res = Engine([EXAMPLES / "auth-service"], Settings(budget=600)).retrieve(
        "Fix the authentication token expiry bug")
    used = sum(estimate_tokens(r.text) for f in res.files for r in f.regions)
    assert used <= 600
    assert res.files[0].regions, "the best file still gets a region under a small budget"
