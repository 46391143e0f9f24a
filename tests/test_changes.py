"""Git and editor signals, pins, excludes, files seen and follow-ups, on real git repositories."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from iterative_retrieval.changes import (
    lean,
    leans_on_changes,
    read_changes,
    without_process_words,
    work_words,
)
from iterative_retrieval.config import Settings
from iterative_retrieval.engine import Engine
from iterative_retrieval.models import Hints
from iterative_retrieval.query import parse_task

from .conftest import git, make_repo, write_files

SHOP = {
    "shop/cart.py": ("class Cart:\n    def add_item(self, item):\n        self.items.append(item)\n\n"
                     "    def total(self):\n        return sum(i.price for i in self.items)\n"),
    "shop/invoice.py": ("from shop.cart import Cart\n\n\ndef render_invoice(cart: Cart):\n"
                        "    return f'total: {cart.total()}'\n"),
    "shop/shipping.py": ("def shipping_cost(weight_kg):\n    # heavier parcels cost more\n"
                         "    return 5 + 2 * weight_kg\n"),
    "shop/search.py": "def search_products(query):\n    return [p for p in query]\n",
    **{f"shop/misc/m{i}.py": f"def helper_{i}(x):\n    return x\n" for i in range(12)},
}


def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "ws", SHOP)


WORK = "continue the work on this branch"


def stacked_repo(root: Path) -> Path:
    """The shop on branch shipping-zones, stacked on the feature branch cart-discount."""
    make_repo(root, SHOP)
    git(root, "checkout", "-q", "-b", "cart-discount")
    (root / "shop/cart.py").write_text(SHOP["shop/cart.py"] + "# discount\n")
    git(root, "commit", "-qam", "cart discount")
    git(root, "checkout", "-q", "-b", "shipping-zones")
    (root / "shop/shipping.py").write_text(SHOP["shop/shipping.py"] + "# zones\n")
    git(root, "commit", "-qam", "shipping zones")
    return root


def test_the_branch_staged_unstaged_and_untracked_files(tmp_path):
    """Each kind of change is read, relative to the root, with its own reason."""
    root = repo(tmp_path)
    git(root, "checkout", "-q", "-b", "feature")
    (root / "shop/cart.py").write_text(SHOP["shop/cart.py"] + "\n# discount\n")
    git(root, "commit", "-qam", "cart discount")
    (root / "shop/invoice.py").write_text(SHOP["shop/invoice.py"] + "# vat\n")
    git(root, "add", "shop/invoice.py")
    (root / "shop/shipping.py").write_text(SHOP["shop/shipping.py"] + "# zones\n")
    (root / "shop/coupons.py").write_text("def apply_coupon(cart):\n    return cart\n")
    ch = read_changes(root)
    kinds = {p: c.kind for p, c in ch.files.items()}
    assert kinds["shop/cart.py"] == "branch"
    assert kinds["shop/invoice.py"] == "staged"
    assert kinds["shop/shipping.py"] == "unstaged"
    assert kinds["shop/coupons.py"] == "untracked"
    assert ch.files["shop/cart.py"].reason == "changed on this branch"
    assert "discount" in ch.text  # the branch's message and changed lines
    sub = read_changes(root / "shop")
    assert sub.files["cart.py"].kind == "branch"  # relative to a root inside the repository


def test_the_branch_is_measured_from_the_nearest_copy_of_the_default_branch(tmp_path):
    """A local `main` weeks behind the remote's, and a fork whose own `main` is behind the
    canonical repository's (`upstream`): the branch is what it changed since it left the
    newest of them, not the commits others merged meanwhile."""
    canonical = repo(tmp_path)
    fork = tmp_path / "fork"
    subprocess.run(["git", "clone", "-q", str(canonical), str(fork)], check=True,
                   capture_output=True)
    (canonical / "shop/search.py").write_text(SHOP["shop/search.py"] + "# ranking\n")
    git(canonical, "commit", "-qam", "someone else's search ranking")
    # the developer's clone: the fork as origin (not updated), the canonical one as upstream
    git(fork, "remote", "add", "upstream", str(canonical))
    git(fork, "fetch", "-q", "upstream")
    git(fork, "checkout", "-q", "-b", "feature", "upstream/main")
    (fork / "shop/cart.py").write_text(SHOP["shop/cart.py"] + "# discount\n")
    git(fork, "commit", "-qam", "cart discount")
    def branch(ch):
        return {p for p, c in ch.files.items() if c.kind == "branch"}

    assert branch(read_changes(fork)) == {"shop/cart.py"}
    # no remote HEAD, and a local main behind the remote's: the remote's is where it left
    git(fork, "remote", "remove", "upstream")
    git(fork, "remote", "set-head", "origin", "-d")
    git(fork, "fetch", "-q", str(canonical), "main:refs/remotes/origin/main")
    ch = read_changes(fork)
    assert branch(ch) == {"shop/cart.py"}, ch.files
    assert ch.files["shop/cart.py"].reason == "changed on this branch"


def test_a_branch_stacked_on_another_is_measured_from_the_base_it_is_given(tmp_path):
    """git_base (CLI --git-base): a branch stacked on another feature branch is its own
    changes since that one, not both branches' since main; a name that is no commit of the
    repository, or that git would read as an option, is a clear error."""
    root = stacked_repo(tmp_path / "ws")

    def branch(ch):
        return {p for p, c in ch.files.items() if c.kind == "branch"}

    assert branch(read_changes(root)) == {"shop/cart.py", "shop/shipping.py"}
    assert branch(read_changes(root, base_ref="cart-discount")) == {"shop/shipping.py"}
    cache = str(tmp_path / "c")
    res = Engine([root], Settings(cache_dir=cache, git_base="cart-discount")).retrieve(
        "continue the work on this branch")
    reasons = {f.path: f.reason for f in res.files}
    assert "changed on this branch" in reasons["shop/shipping.py"]
    assert "changed on this branch" not in reasons.get("shop/cart.py", ""), reasons
    cli = [sys.executable, "-m", "iterative_retrieval", "retrieve", "continue the work on this branch",
           "--root", str(root), "--cache-dir", cache, "-q"]
    ok = subprocess.run([*cli, "--git-base", "cart-discount"], capture_output=True, text=True,
                        timeout=120)
    assert ok.returncode == 0 and "shop/shipping.py" in ok.stdout, ok.stderr
    missing = subprocess.run([*cli, "--git-base", "release/9"], capture_output=True, text=True,
                             timeout=120)
    assert missing.returncode == 2 and "git base 'release/9' is no branch, tag or commit" \
        in missing.stderr, missing.stderr
    option = subprocess.run([*cli, "--git-base=--output=x"], capture_output=True, text=True,
                            timeout=120)
    assert option.returncode == 2 and "must be a git branch, tag or commit name" in option.stderr
    assert not (root / "x").exists()


def test_no_git_a_detached_head_and_a_shallow_clone_answer(tmp_path):
    """No repository, a detached HEAD, a shallow clone without the default branch: no error."""
    plain = write_files(tmp_path / "plain", SHOP)
    assert not read_changes(plain)
    root = repo(tmp_path)
    (root / "shop/cart.py").write_text(SHOP["shop/cart.py"] + "# edit\n")
    git(root, "commit", "-qam", "second")
    git(root, "checkout", "-q", "--detach", "HEAD~1")
    (root / "shop/search.py").write_text(SHOP["shop/search.py"] + "# edit\n")
    detached = read_changes(root)
    assert detached.files["shop/search.py"].kind == "unstaged"
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{root}", str(shallow)],
                   check=True, capture_output=True)
    assert read_changes(shallow).base is None  # nothing to merge with: no branch signal
    eng = Engine([shallow], Settings(cache_dir=str(tmp_path / "c")))
    assert eng.retrieve("shipping cost of heavy parcels").files[0].path == "shop/shipping.py"


def test_a_task_about_the_work_in_progress_leans_on_it(tmp_path):
    """'Continue the change on this branch': the changed file leads, with its reason."""
    root = repo(tmp_path)
    git(root, "checkout", "-q", "-b", "feature")
    (root / "shop/shipping.py").write_text(SHOP["shop/shipping.py"] + "\n\ndef zone(x):\n"
                                           "    return x\n")
    git(root, "commit", "-qam", "zones")
    assert leans_on_changes("continue the change on this branch")
    res = Engine([root], Settings(cache_dir=str(tmp_path / "c"))).retrieve(
        "continue the change on this branch: handle the missing cases")
    assert res.files[0].path == "shop/shipping.py", [f.path for f in res.files]
    assert "changed on this branch" in res.files[0].reason


def test_on_a_long_branch_the_newest_work_leads(tmp_path):
    """A branch of six commits: the files of its last three are the work a task about it
    names; a file only its first commit changed is evidence still, its reason saying how far
    back, but not what the task names. A branch merged into it is one of its commits; a
    merge's message and a bot's lend no words."""
    root = repo(tmp_path)
    git(root, "checkout", "-q", "-b", "feature")
    steps = [("shop/search.py", "search: a first filter"), ("shop/misc/m1.py", "helper one"),
             ("shop/misc/m2.py", "helper two"), ("shop/invoice.py", "invoice: the vat lines"),
             ("shop/shipping.py", "shipping: the zones"), ("shop/cart.py", "cart: the discount")]
    for n, (path, message) in enumerate(steps):
        (root / path).write_text((root / path).read_text() + f"\n# {message}\n")
        git(root, "commit", "-qam", message)
        if n == 2:  # a side branch merged in: one commit of the branch's, with what it brought
            git(root, "checkout", "-q", "-b", "side", "main")
            (root / "shop/misc/m5.py").write_text(SHOP["shop/misc/m5.py"] + "# side\n")
            git(root, "commit", "-qam", "side work")
            git(root, "checkout", "-q", "feature")
            git(root, "merge", "-q", "--no-ff", "-m", "Merge branch 'side', the roundabout",
                "side")
        if n == 4:  # a tool's commit on the branch: its message is no word of the work's
            (root / "shop/misc/m7.py").write_text(SHOP["shop/misc/m7.py"] + "# lint\n")
            git(root, "commit", "-qa", "--author", "pre-commit-ci[bot] <ci@example.com>", "-m",
                "[pre-commit.ci] auto fixes from pre-commit.com hooks")
    ch = read_changes(root)
    assert ch.files["shop/cart.py"].reason == "changed on this branch"
    assert ch.files["shop/search.py"].reason == "changed on this branch, 7 commits ago"
    assert ch.files["shop/search.py"].kind == "branch"  # still the branch's
    assert ch.files["shop/misc/m5.py"].reason == "changed on this branch, 4 commits ago"
    assert "discount" in ch.messages and "vat" in ch.messages
    assert "roundabout" not in ch.messages and "hooks" not in ch.messages, ch.messages
    res = Engine([root], Settings(cache_dir=str(tmp_path / "c"))).retrieve(
        "continue the work on this branch")
    paths = [f.path for f in res.files]
    named = {f.path for f in res.files if f.role == "implements"}
    assert {"shop/cart.py", "shop/shipping.py", "shop/invoice.py"} <= named, paths
    assert set(paths[:3]) == {"shop/cart.py", "shop/shipping.py", "shop/invoice.py"}, \
        [(f.path, f.relevance, f.reason) for f in res.files]
    assert "shop/search.py" not in named, [(f.path, f.role) for f in res.files]


def test_a_task_about_the_work_borrows_the_branch_messages_words(tmp_path):
    """"Continue the work on this branch" says nothing of what the work is; the branch's commit
    messages do: their words find the file the work goes on to (the shipping cost), after the
    changed cart. A task about something else borrows nothing."""
    root = repo(tmp_path)
    git(root, "checkout", "-q", "-b", "feature")
    (root / "shop/cart.py").write_text(SHOP["shop/cart.py"] + (
        "\n    def parcel_weight(self):\n        return sum(i.grams for i in self.items)\n"))
    git(root, "commit", "-qam", "Cart: the parcel weight, for the shipping cost of heavier parcels")
    ch = read_changes(root)
    assert "shipping" in work_words("continue the work on this branch", ch)
    assert work_words("search_products returns every product whatever the query", ch) == ()
    res = Engine([root], Settings(cache_dir=str(tmp_path / "c"))).retrieve(
        "continue the work on this branch")
    paths = [f.path for f in res.files]
    assert paths[0] == "shop/cart.py", paths
    assert "shop/shipping.py" in paths[:3], [(f.path, f.reason) for f in res.files]
    shipping = next(f for f in res.files if f.path == "shop/shipping.py")
    assert "shipping" in shipping.reason and "parcel" in shipping.reason, shipping.reason
    # the trace says which keywords the branch lent (the text view, the JSON every surface gets)
    out = subprocess.run(
        [sys.executable, "-m", "iterative_retrieval", "retrieve", "continue the work on this branch",
         "--root", str(root), "--cache-dir", str(tmp_path / "c"), "-q"],
        capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    said = next(ln for ln in out.stdout.splitlines() if "from the branch's commit messages:" in ln)
    assert "shipping" in said and "parcel" in said, said
    lent = res.to_dict()["trace"][0]["query"]["from_branch"]
    assert "shipping" in lent and set(lent) <= set(res.to_dict()["trace"][0]["query"]["keywords"])
    other = Engine([root], Settings(cache_dir=str(tmp_path / "c"))).retrieve(
        "search_products returns every product whatever the query")
    assert all(not t.query.from_branch for t in other.trace)
    # "continue" says that the task is about the work, not what it is: not searched
    assert "continue" not in res.to_dict()["trace"][0]["query"]["keywords"]


@pytest.mark.parametrize("task, kept", [
    ("continue the work on this branch", False),
    ("finish the refactor on this branch and carry on with the tests", False),
    ("the parser should continue after a bad line", True),  # a word of what to build
    ("on this branch: finish parsing when the stream ends", True),  # leans, but not by it
])
def test_the_verbs_that_say_a_task_is_about_the_work_are_not_searched(task, kept):
    concepts = parse_task(task).keywords
    left = {c.text for c in without_process_words(task, concepts)}
    assert ("continue" in left or "finish" in left or "carry" in left) is kept, left
    assert left >= {c.text for c in concepts if c.kind != "word"}


def test_a_credential_in_a_branch_message_is_not_borrowed(tmp_path):
    """A commit message that pasted a token gives its words, not the token: nothing is searched
    for it, and no output says it, masked or not."""
    root = repo(tmp_path)
    git(root, "checkout", "-q", "-b", "feature")
    (root / "shop/cart.py").write_text(SHOP["shop/cart.py"] + "# weight\n")
    token = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
    git(root, "commit", "-qam", f"Cart weight for the shipping cost; rotate {token}")
    res = Engine([root], Settings(cache_dir=str(tmp_path / "c"))).retrieve(
        "continue the work on this branch")
    keywords = [c.text for t in res.trace for c in t.query.keywords]
    assert "shipping" in keywords, keywords
    assert not any(token in k or "redacted" in k for k in keywords), keywords
    assert token not in json.dumps(res.to_dict())


def test_the_failing_test_i_just_wrote_and_the_code_it_tests(tmp_path):
    """"Make the failing test I just wrote pass" names the developer's new test: it is handed
    out first, as what the task is about, though tests are no candidates for a task that does
    not say so; and the code it tests comes with it, as the context it uses. A task about
    something else does not hand the new test out."""
    root = repo(tmp_path)
    (root / "tests").mkdir()
    (root / "tests/test_cart.py").write_text(
        "from shop.cart import Cart\n\n\ndef test_discount_applies():\n    cart = Cart()\n"
        "    cart.add_item(Item(price=10))\n    assert cart.total(discount=0.1) == 9\n")
    eng = Engine([root], Settings(cache_dir=str(tmp_path / "c")))
    res = eng.retrieve("make the failing test I just wrote pass")
    paths = [f.path for f in res.files]
    assert paths[0] == "tests/test_cart.py", [(f.path, f.reason) for f in res.files]
    first = res.files[0]
    assert first.relevance >= 0.8 and "the work in progress the task is about" in first.reason
    assert "new, not committed" in first.reason
    cart = next(f for f in res.files if f.path == "shop/cart.py")
    assert cart.relevance >= 0.5 and "defines `Cart`" in cart.reason, cart.reason
    other = eng.retrieve("search_products returns every product whatever the query")
    assert "tests/test_cart.py" not in [f.path for f in other.files]


@pytest.mark.parametrize("task", [
    "Continue: handle the remaining cases",
    "carry on with the port of the parser",
    "finish my patch to the cache",
    "add a test for this change",
    "the failing test I just wrote",
    "rebase the current diff and fix the import",
    "split my staged changes into two commits",
    "tidy the refactor so far",
])
def test_a_task_saying_it_is_about_the_work_leans_on_it(task):
    assert leans_on_changes(task)


@pytest.mark.parametrize("task", [
    # a pasted commit message or pull request speaks of its own change, not the branch's
    "Fix fish completions. This commit fixes the extra character.",
    "Add an interface for values. This patch adds a reduced interface.",
    # a verb in passing
    "Just set help on the namespace and continue parsing",
    "the loop should continue the iteration when the item is None",
    "So far I have tried restarting the server",
    "Staged rollouts ignore the percentage",
])
def test_a_task_that_only_says_the_words_in_passing_does_not_lean(task):
    assert not leans_on_changes(task)


def test_a_task_about_something_else_is_not_pulled_towards_the_changes(tmp_path):
    """Uncommitted edits to the cart do not outrank the file a search task is about."""
    root = repo(tmp_path)
    (root / "shop/cart.py").write_text(SHOP["shop/cart.py"] + "# wip\n")
    task = "search_products returns every product whatever the query"
    assert lean(task, parse_task(task).keywords, read_changes(root)) < 0.5
    res = Engine([root], Settings(cache_dir=str(tmp_path / "c"))).retrieve(task)
    assert res.files[0].path == "shop/search.py", [f.path for f in res.files]


def test_the_file_a_task_names_stays_ahead_of_the_branch(tmp_path):
    """The branch changed the completions the shells share; the next task names the fish
    shell's file by its words: that file leads, the branch's comes after it (still handed out,
    with its reason). Asked about the work itself, the branch's file leads."""
    files = {
        "cli/completions.go": (
            "package cli\n\n// shared by every shell\nfunc completionDescription(desc string) "
            "string {\n\treturn desc\n}\n\nfunc completionSpace(nospace bool) string {\n"
            "\tif nospace {\n\t\treturn \"\"\n\t}\n\treturn \" \"\n}\n"),
        "cli/fish_completions.go": (
            "package cli\n\n// fish shows each description after a tab, then the space\n"
            "func genFishComp(name, description string) string {\n"
            "\treturn \"complete -c \" + name + \"\\t\" + description\n}\n"),
        "cli/zsh_completions.go": (
            "package cli\n\nfunc genZshComp(name string) string {\n"
            "\treturn \"compdef \" + name\n}\n"),
        **{f"cli/misc{i}.go": f"package cli\n\nfunc helper{i}(x int) int {{\n\treturn x\n}}\n"
           for i in range(12)},
    }
    root = make_repo(tmp_path / "ws", files)
    git(root, "checkout", "-q", "-b", "nospace")
    (root / "cli/completions.go").write_text(
        files["cli/completions.go"] + "\n// the description comes before the space\n"
        "func completionWithDescription(desc string, nospace bool) string {\n"
        "\treturn completionDescription(desc) + completionSpace(nospace)\n}\n")
    git(root, "commit", "-qam", "completion: the description before the space")
    eng = Engine([root], Settings(cache_dir=str(tmp_path / "c")))
    res = eng.retrieve("fish completion: the space comes after the description")
    order = [f.path for f in res.files]
    assert order[0] == "cli/fish_completions.go", order
    assert "cli/completions.go" in order[1:3], order
    assert "changed on this branch" in res.files[order.index("cli/completions.go")].reason
    work = eng.retrieve("continue the work on this branch: fish completion's description")
    assert work.files[0].path == "cli/completions.go", [f.path for f in work.files]


def test_the_named_file_stays_ahead_however_sure_both_are(tmp_path):
    """Both the file the task names (parcels.py) and the branch's cart say every word of the
    task, so both scores are near 1, where a margin in evidence rounds to the same score and
    the path decided (cart.py sorts first): the named file still leads."""
    files = {
        "shop/parcels.py": (
            "class Parcel:\n    \"\"\"A box to ship, oversized or not.\"\"\"\n\n"
            "    def __init__(self, weight, size):\n        self.weight = weight\n"
            "        self.size = size\n\n    def weight_band(self):\n"
            "        return 'heavy' if self.weight > 20 else 'light'\n"),
        "shop/cart.py": (
            "from shop.parcels import Parcel\n\n\n# oversized boxes ship as one parcel, by weight\n"
            "class Cart:\n    def __init__(self):\n        self.items = []\n\n"
            "    def parcel(self):\n"
            "        return Parcel(sum(i.weight for i in self.items), len(self.items))\n"),
        **{f"shop/misc{i}.py": f"def helper{i}(x):\n    return x\n" for i in range(12)},
    }
    root = make_repo(tmp_path / "ws", files)
    git(root, "checkout", "-q", "-b", "total")
    (root / "shop/cart.py").write_text(files["shop/cart.py"] + "\n    def total(self):\n"
                                       "        return sum(i.price for i in self.items)\n")
    git(root, "commit", "-qam", "cart: the total of its items")
    res = Engine([root], Settings(cache_dir=str(tmp_path / "c"))).retrieve(
        "Implement Parcel.dimensional_weight() for oversized boxes")
    order = [f.path for f in res.files]
    assert order[:2] == ["shop/parcels.py", "shop/cart.py"], order
    assert res.files[0].relevance >= 0.8 and res.files[1].relevance >= 0.8
    assert "changed on this branch" in res.files[1].reason


def test_files_that_changed_together_with_the_work_before(tmp_path):
    """History: the invoice changed with the cart in three commits, shipping alone; the branch
    changes the cart. The invoice is evidence, with a reason that says how often; shipping and
    the root commit's files are not."""
    root = repo(tmp_path)
    for i in range(3):
        (root / "shop/cart.py").write_text(SHOP["shop/cart.py"] + f"# step {i}\n")
        (root / "shop/invoice.py").write_text(SHOP["shop/invoice.py"] + f"# step {i}\n")
        git(root, "commit", "-qam", f"cart and invoice, step {i}")
    for i in range(3):
        (root / "shop/shipping.py").write_text(SHOP["shop/shipping.py"] + f"# step {i}\n")
        git(root, "commit", "-qam", f"shipping, step {i}")
    git(root, "checkout", "-q", "-b", "feature")
    (root / "shop/cart.py").write_text(SHOP["shop/cart.py"] + "# discount\n")
    git(root, "commit", "-qam", "cart discount")
    ch = read_changes(root, now=time.time() + 30 * 86400)  # a month on: recent work has faded
    invoice = ch.files["shop/invoice.py"]
    assert invoice.kind == "coupled"
    assert invoice.reason == "changed with cart.py before (3 of 4 commits)"
    # never with the cart, and a month on no longer recent: the last RECENT_DAYS before `now`
    assert "shop/shipping.py" not in ch.files
    assert read_changes(root).files["shop/shipping.py"].kind == "recent"  # today it is
    assert "shop/search.py" not in ch.files  # only in the root commit
    # the history is read once per HEAD: a new commit is in the next answer
    (root / "shop/cart.py").write_text(SHOP["shop/cart.py"] + "# discount, again\n")
    git(root, "commit", "-qam", "cart discount, again")
    again = read_changes(root, now=time.time() + 30 * 86400)
    assert again.files["shop/invoice.py"].reason == "changed with cart.py before (3 of 5 commits)"
    from iterative_retrieval.changes import coupled

    history = [frozenset({"a", "b"}), frozenset({"a", "b"}), frozenset({"a", "c"}),
               frozenset({"c"}), frozenset({"a", "b", *[f"x{i}" for i in range(40)]})]
    found = coupled(history, {"a"})
    assert list(found) == ["b"]  # c only once with a; the 42-file commit is left out
    assert found["b"].reason == "changed with a before (2 of 3 commits)"
    assert 0 < found["b"].strength < 0.8


def test_git_signals_can_be_turned_off(tmp_path):
    """git_signals=False: the same engine ignores the branch."""
    root = repo(tmp_path)
    git(root, "checkout", "-q", "-b", "feature")
    (root / "shop/shipping.py").write_text(SHOP["shop/shipping.py"] + "# zones\n")
    git(root, "commit", "-qam", "zones")
    task = "continue the work on this branch"
    on = Engine([root], Settings(cache_dir=str(tmp_path / "c"))).retrieve(task)
    off = Engine([root], Settings(cache_dir=str(tmp_path / "c"), git_signals=False)).retrieve(task)
    assert any("changed on this branch" in f.reason for f in on.files)
    assert not any("changed on this branch" in f.reason for f in off.files)


def test_editor_signals_pins_excludes_and_seen(tmp_path):
    """The active file is evidence with its reason; a pin is always handed out, marked; an
    excluded or seen file never is; editor_signals=False drops the editor's reasons."""
    root = repo(tmp_path)
    eng = Engine([root], Settings(cache_dir=str(tmp_path / "c")))
    task = "the cart total is wrong"
    res = eng.retrieve(task, hints=Hints(active_file=str(root / "shop/invoice.py"),
                                         selection=(4, 5)))
    inv = next(f for f in res.files if f.path == "shop/invoice.py")
    assert "selected lines 4-5 in the editor" in inv.reason
    res = eng.retrieve(task, hints=Hints(pinned=("shop/misc/m3.py",), excluded=("shop/invoice.py",),
                                         seen=("shop/cart.py",)))
    paths = [f.path for f in res.files]
    assert "shop/misc/m3.py" in paths and "shop/invoice.py" not in paths
    assert "shop/cart.py" not in paths
    assert next(f for f in res.files if f.path == "shop/misc/m3.py").pinned
    assert not any(f.pinned for f in res.files if f.path != "shop/misc/m3.py")
    off = Engine([root], Settings(cache_dir=str(tmp_path / "c"), editor_signals=False))
    res = off.retrieve(task, hints=Hints(active_file="shop/invoice.py"))
    assert not any("editor" in f.reason for f in res.files)


def test_a_hint_outside_every_root_names_nothing(tmp_path):
    """A pin, an exclude or an active file outside the roots (or escaping them) is left out."""
    root = repo(tmp_path)
    outside = write_files(tmp_path / "other", {"secret.py": "def total():\n    return 1\n"})
    eng = Engine([root], Settings(cache_dir=str(tmp_path / "c")))
    res = eng.retrieve("cart total", hints=Hints(pinned=(str(outside / "secret.py"),
                                                          "../other/secret.py"),
                                                  active_file=str(outside / "secret.py")))
    assert all(not f.path.endswith("secret.py") for f in res.files)


def test_a_follow_up_searches_the_previous_runs_words(tmp_path):
    """A follow-up task carries the words the first run learned into its first cycle."""
    root = repo(tmp_path)
    eng = Engine([root], Settings(cache_dir=str(tmp_path / "c")))
    res = eng.retrieve("the invoice shows a wrong amount", hints=Hints(follow_up=("shipping",)))
    keywords = [c.text for c in res.trace[0].query.keywords]
    assert "shipping" in keywords
    # …and its trace says the word was kept from the last answer; a word the task says is not
    assert res.to_dict()["trace"][0]["query"]["follow_up"] == ["shipping"]
    again = eng.retrieve("the invoice shows a wrong amount", hints=Hints(follow_up=("invoice",)))
    assert again.trace[0].query.follow_up == ()


def test_the_command_line_takes_pins_excludes_and_focus(tmp_path):
    """--pin, --exclude-file and --focus reach the engine; the JSON says what is pinned."""
    root = repo(tmp_path)
    p = subprocess.run(
        [sys.executable, "-m", "iterative_retrieval", "retrieve", "the cart total is wrong",
         "--root", str(root), "--json", "--cache-dir", str(tmp_path / "c"), "-q",
         "--pin", "shop/misc/m5.py", "--exclude-file", "shop/cart.py",
         "--focus", "shop/invoice.py"],
        capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    files = {f["path"]: f for f in json.loads(p.stdout)["files"]}
    assert files["shop/misc/m5.py"]["pinned"] is True
    assert "shop/cart.py" not in files  # the file the task is about, excluded
    assert "editor" in files["shop/invoice.py"]["reason"]


def test_the_command_line_says_which_pins_it_left_out(tmp_path):
    """A pin outside the root, a missing file and a secret file are left out, each with a line
    on stderr; a path relative to the current folder works as one relative to the root."""
    root = repo(tmp_path)
    (root / ".env").write_text("API_TOKEN=s3cr3t-value-that-must-not-leak\n")
    (tmp_path / "outside.py").write_text("def cart_total():\n    return 0\n")
    p = subprocess.run(
        [sys.executable, "-m", "iterative_retrieval", "retrieve", "the cart total is wrong",
         "--root", "ws", "--json", "--cache-dir", str(tmp_path / "c"), "-q",
         "--pin", "ws/shop/misc/m5.py", "--pin", "outside.py", "--pin", ".env",
         "--pin", "shop/nope.py"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    files = {f["path"]: f for f in json.loads(p.stdout)["files"]}
    assert files["shop/misc/m5.py"]["pinned"] is True
    assert [f for f in files if f.endswith(("outside.py", ".env"))] == []
    assert "s3cr3t" not in p.stdout + p.stderr
    notes = p.stderr.splitlines()
    assert "iterative-retrieval: --pin 'outside.py' is outside the workspace folders searched; " \
        "ignored" in notes
    assert "iterative-retrieval: --pin 'shop/nope.py' names no file in the workspace folders; " \
        "ignored" in notes
    assert any(n.startswith("iterative-retrieval: --pin '.env' ") for n in notes), notes


def test_a_benchmark_replays_the_moment_of_the_last_commit(tmp_path, monkeypatch):
    """Commits made a year ago are not recent work today; with IR_GIT_NOW=head they count from
    the HEAD commit's time, as they did when it was made (bench/quality/wip.py)."""
    root = make_repo(tmp_path / "old", SHOP)
    year_ago = int(time.time()) - 365 * 86400

    def commit_at(stamp: int, path: str, message: str) -> None:
        (root / path).write_text(SHOP[path] + f"# {message}\n")
        env = {"GIT_AUTHOR_DATE": f"@{stamp} +0000", "GIT_COMMITTER_DATE": f"@{stamp} +0000"}
        subprocess.run(["git", "commit", "-qam", message], cwd=root, check=True,
                       env={**os.environ, **env})

    commit_at(year_ago - 20 * 86400, "shop/search.py", "search, three weeks before")
    commit_at(year_ago - 2 * 86400, "shop/shipping.py", "shipping, two days before")
    commit_at(year_ago, "shop/invoice.py", "invoice, the last commit")
    monkeypatch.delenv("IR_GIT_NOW", raising=False)
    today = read_changes(root)
    assert not any(c.kind == "recent" for c in today.files.values()), today.files
    monkeypatch.setenv("IR_GIT_NOW", "head")
    then = read_changes(root)
    assert then.files["shop/invoice.py"].kind == "recent"
    assert then.files["shop/invoice.py"].reason == "committed today"
    assert then.files["shop/shipping.py"].reason == "committed 2 days ago"
    assert then.files["shop/invoice.py"].strength > then.files["shop/shipping.py"].strength
    assert "shop/search.py" not in then.files  # three weeks before: not recent then either
