"""DISPATCH, EVALUATE, REFINE and context packing, each on small real files."""

from __future__ import annotations

from dataclasses import replace

import pytest

from iterative_retrieval.config import Settings
from iterative_retrieval.context import (
    BRIDGE_GAP,
    HEAD_LINES,
    LINES_TARGET,
    TOP_UP_LINES,
    _bridged,
    estimate_tokens,
    merge_spans,
    spans_for,
)
from iterative_retrieval.dispatch import dispatch
from iterative_retrieval.engine import Engine
from iterative_retrieval.evaluate import evaluate, types_only
from iterative_retrieval.models import Concept, Evaluation, Symbol
from iterative_retrieval.query import modules_of_named_tests, parse_task, subject_of_test
from iterative_retrieval.refine import Gaps, find_gaps, refine, variants_and_synonyms
from iterative_retrieval.relevance import assign
from iterative_retrieval.run import Run
from iterative_retrieval.search import concept_hits

from .conftest import write_files

SHOP = {
    "src/payments/invoice.py": (
        "class InvoiceTotal:\n    def compute_total(self, lines):\n"
        "        return sum(l.amount for l in lines)\n"
    ),
    "src/payments/refund.py": (
        "from .invoice import InvoiceTotal\n\ndef refund_invoice(inv):\n"
        "    total = InvoiceTotal().compute_total(inv.lines)\n    return -total\n"
    ),
    "src/catalog/product.py": "class Product:\n    name = ''\n    price = 0\n",
    "src/catalog/search.py": "def search_products(query):\n    return [p for p in query]\n",
    "src/auth/authentication.py": "def authenticate_user(name, password):\n    return name\n",
    "tests/test_invoice.py": "from src.payments.invoice import InvoiceTotal\n\ndef test_total():\n    InvoiceTotal()\n",
    "docs/invoices.md": "# Invoices\nInvoiceTotal computes the total of an invoice.\n",
}


def engine_for(tmp_path, files=SHOP):
    root = write_files(tmp_path / "ws", files)
    eng = Engine([root], Settings(cache_dir=str(tmp_path / "cache")))
    eng.refresh()
    return eng, eng.index(eng.roots[0])


def run_cycle(eng, idx, task):
    """One DISPATCH and EVALUATE, and the roles of what it found: (query, run, candidates, evals)."""
    q = parse_task(task)
    run = Run(idx, task, q.keywords, lambda rel: eng.read_text(eng.roots[0], rel))
    cands = dispatch(run, q, set())
    evals = evaluate(run, q, cands, 1)
    assign(run, evals)
    return q, run, cands, evals


MISC = {f"src/misc/m{i}.py": f"def helper_{i}(user):\n    return user\n" for i in range(15)}


def test_definition_outranks_use_and_tests_are_not_candidates(tmp_path):
    """The file defining a named identifier ranks first; tests and docs are not candidates."""
    eng, idx = engine_for(tmp_path, {**SHOP, **MISC})
    _, _, cands, evals = run_cycle(eng, idx, "`InvoiceTotal` gives a wrong total")
    paths = [c.path for c in cands]
    assert "tests/test_invoice.py" not in paths and "docs/invoices.md" not in paths
    assert evals[0].path == "src/payments/invoice.py"
    assert "InvoiceTotal" in evals[0].defines
    assert "defines `InvoiceTotal`" in evals[0].reason
    assert 0.0 <= evals[-1].relevance <= evals[0].relevance <= 1.0


def test_tests_are_candidates_when_the_task_is_about_them(tmp_path):
    """'add tests' lets test files in."""
    eng, idx = engine_for(tmp_path)
    _, _, cands, _ = run_cycle(eng, idx, "Add unit tests for InvoiceTotal")
    assert "tests/test_invoice.py" in [c.path for c in cands]


def test_stack_frame_names_the_file(tmp_path):
    """A frame's path brings its file in first, even with no other matching word."""
    eng, idx = engine_for(tmp_path)
    task = 'Traceback (most recent call last):\n  File "/home/me/shop/src/catalog/search.py", line 2, in search_products\nTypeError'
    _, _, _, evals = run_cycle(eng, idx, task)
    assert evals[0].path == "src/catalog/search.py"
    assert "named in the task" in evals[0].reason


def test_a_file_a_traceback_names_alone_is_high(tmp_path):
    """In a small project the one file a Windows traceback names is the answer, not a medium guess."""
    files = {"src/shop/invoice.py": "def compute_total(lines):\n    return sum(lines)\n",
             **{f"src/shop/m{i}.py": f"def h{i}():\n    return {i}\n" for i in range(6)}}
    eng, _ = engine_for(tmp_path, files)
    res = eng.retrieve('Traceback (most recent call last):\n  File "C:\\Users\\me\\proj\\src\\shop'
                       '\\invoice.py", line 2, in compute_total\nTypeError: unsupported operand')
    assert [f.path for f in res.files] == ["src/shop/invoice.py"]
    assert res.files[0].relevance >= 0.7


JAVA_BILLING = {
    "src/main/java/com/example/billing/InvoiceService.java": (
        "package com.example.billing;\n\nimport java.util.List;\n\npublic class InvoiceService {\n"
        "    public long computeTotal(List<Line> lines) {\n        long total = 0;\n"
        "        for (Line l : lines) {\n            total += l.getDescription().length();\n"
        "        }\n        return total;\n    }\n}\n"
    ),
    "src/main/java/com/example/billing/Line.java": (
        "package com.example.billing;\n\npublic class Line {\n    private String description;\n"
        "    public String getDescription() { return description; }\n}\n"
    ),
    "src/main/java/com/example/web/BillingController.java": (
        "package com.example.web;\n\nimport com.example.billing.InvoiceService;\n\n"
        "public class BillingController {\n    private final InvoiceService service = new InvoiceService();\n"
        "    public long checkout(Cart cart) { return service.computeTotal(cart.lines()); }\n}\n"
    ),
    "src/test/java/com/example/billing/InvoiceServiceTest.java": (
        "package com.example.billing;\npublic class InvoiceServiceTest {\n"
        "    void testComputeTotal() { new InvoiceService().computeTotal(null); }\n}\n"
    ),
    **{f"src/main/java/com/example/util/Util{i}.java":
       f"package com.example.util;\npublic class Util{i} {{ public int f{i}() {{ return {i}; }} }}\n"
       for i in range(8)},
}


def test_a_java_stack_trace_ranks_the_frame_that_threw_first(tmp_path):
    """Java frames (`at pkg.Class.method(File.java:9)`) name their files; the test stays out."""
    eng, _ = engine_for(tmp_path, JAVA_BILLING)
    res = eng.retrieve(
        'Exception in thread "main" java.lang.NullPointerException: Cannot invoke "String.length()"'
        ' because the return value of "com.example.billing.Line.getDescription()" is null\n'
        "\tat com.example.billing.InvoiceService.computeTotal(InvoiceService.java:9)\n"
        "\tat com.example.web.BillingController.checkout(BillingController.java:7)\n")
    paths = [f.path for f in res.files]
    assert paths[:2] == ["src/main/java/com/example/billing/InvoiceService.java",
                         "src/main/java/com/example/web/BillingController.java"], paths
    assert not any("/test/" in p for p in paths)
    assert "named in the task" in res.files[0].reason


def test_a_java_frame_s_package_tells_apart_files_of_one_name(tmp_path):
    """Two `InvoiceService.java`: the frame's package (`com.example.billing`) says which threw."""
    legacy = {"src/main/java/com/example/legacy/InvoiceService.java": (
        "package com.example.legacy;\n\npublic class InvoiceService {\n"
        "    public long computeTotal(Object lines) { return 0; }\n}\n")}
    eng, _ = engine_for(tmp_path, {**JAVA_BILLING, **legacy})
    res = eng.retrieve(
        "NullPointerException in checkout\n"
        "\tat com.example.billing.InvoiceService.computeTotal(InvoiceService.java:9)\n"
        "\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1541)\n")
    paths = [f.path for f in res.files]
    assert paths[0] == "src/main/java/com/example/billing/InvoiceService.java", paths
    legacy_at = paths.index("src/main/java/com/example/legacy/InvoiceService.java") \
        if "src/main/java/com/example/legacy/InvoiceService.java" in paths else len(paths)
    assert legacy_at > 1 and "named in the task" not in (
        res.files[legacy_at].reason if legacy_at < len(paths) else "")


def test_graph_links_importers(tmp_path):
    """A file importing a strong candidate is linked to it in the reason."""
    eng, idx = engine_for(tmp_path)
    _, _, _, evals = run_cycle(eng, idx, "compute_total of InvoiceTotal for refund")
    refund = next(e for e in evals if e.path == "src/payments/refund.py")
    assert any("invoice" in link for link in refund.graph_links)


def test_refine_learns_variants_and_synonyms(tmp_path):
    """A misspelt word finds its variant as the code spells it; an unused word finds a synonym."""
    eng, idx = engine_for(tmp_path)
    task = "authentification of users should check the passwd"
    _, run, _, _ = run_cycle(eng, idx, task)
    gaps = Gaps([], ["authentification", "passwd"])
    got = variants_and_synonyms(run, gaps, set())
    learned = {c.text: c for c in got}
    variant = next(c for c in got if c.kind == "variant")
    assert variant.text.startswith("authentic") and variant.origin == ("authentification",)
    assert learned["password"].kind == "synonym" and learned["password"].origin == ("passwd",)


def test_a_numbered_copy_of_a_word_is_no_variant_of_it(tmp_path):
    """A weak task word whose close spellings in the index are only the word numbered
    (`option1`, `option2`: a test's `option_1`, `option_2`) gets no variant: they are the word
    itself; a real other spelling still is one (`paramters` → `parameters`)."""
    files = {"cli/opts.py": "def parse_parameters(argv):\n    return [opt for opt in argv]\n",
             "cli/cases.py": "option_1 = 1\noption_2 = 2\noption_3 = 3\n", **MISC}
    eng, idx = engine_for(tmp_path, files)
    task = "the option parser drops the paramters"
    _, run, _, _ = run_cycle(eng, idx, task)
    got = variants_and_synonyms(run, Gaps([], ["option", "paramters"]), set())
    variants = {c.text: c.origin for c in got if c.kind == "variant"}
    assert not {"option_1", "option_2", "option_3", "option1", "option2"} & set(variants), variants
    assert variants.get("parameters") == ("paramters",), variants


def test_a_stand_in_counts_once_for_a_word_the_code_says(tmp_path):
    """A file that says only a synonym of a task word the code says elsewhere covers that word
    at the stand-in's share; the synonym is no learned evidence on top (it counted twice:
    `query` → find, lookup made a template finder outrank the router's path builder). A
    stand-in for a word or phrase the code never writes stays learned evidence: the rate-limit
    example's `throttle` (test_examples)."""
    files = {
        "router/path.py": "def build_path(route, params):\n    return route.path + encode(params)\n",
        "templates/loader.py": (
            "def find_template(name):\n    return lookup_template(name)\n\n"
            "def lookup_template(name):\n    return search_templates(name)\n"
        ),
        "db/sql.py": "def run_query(sql):\n    return execute(sql)  # one query\n",
        **MISC,
    }
    eng, idx = engine_for(tmp_path, files)
    q = parse_task("query strings for paths")
    run = Run(idx, "query strings for paths", q.keywords,
              lambda rel: eng.read_text(eng.roots[0], rel))
    stand_ins = tuple(Concept(w, "synonym", 0.8, (w,), ("query",))
                      for w in ("find", "lookup", "search"))
    refined = replace(q, keywords=q.keywords + stand_ins)
    evals = {e.path: e for e in evaluate(run, refined, dispatch(run, refined, set()), 2)}
    finder = evals["templates/loader.py"]
    assert finder.features["coverage"] > 0  # `query`, through its stand-ins
    assert not finder.features.get("learned"), finder.features
    assert evals["router/path.py"].score > finder.score

    # the same stand-ins for a word nothing in the code says are how the code says it
    del files["db/sql.py"]
    eng, idx = engine_for(tmp_path / "unsaid", files)
    run = Run(idx, "query strings for paths", q.keywords,
              lambda rel: eng.read_text(eng.roots[0], rel))
    evals = {e.path: e for e in evaluate(run, refined, dispatch(run, refined, set()), 2)}
    assert evals["templates/loader.py"].features.get("learned"), evals["templates/loader.py"]


def test_the_file_defining_a_type_and_the_member_the_task_names_comes_first(tmp_path):
    """`AbstractProcessingHandler::handle()` names the method of one class: its file comes
    before the base class that defines the rarer `getBubble` the fix calls, and before the
    handlers that extend it and say its name (monolog's case: it was 5th)."""
    handlers = {
        f"src/Handler/{name}Handler.php": (
            f"<?php\nclass {name}Handler extends AbstractProcessingHandler\n{{\n"
            f"    protected function write(array $record): void\n    {{\n"
            f"        $this->handle($record); // {name.lower()} handle\n    }}\n}}\n")
        for name in ("Stream", "Syslog", "Mail", "Slack", "Redis", "Amqp", "Gelf", "Sqs")
    }
    files = {
        "src/Handler/AbstractHandler.php": (
            "<?php\nabstract class AbstractHandler\n{\n    protected $bubble = true;\n"
            "    public function getBubble(): bool\n    {\n        return $this->bubble;\n    }\n"
            "    public function setBubble(bool $bubble): self\n    {\n"
            "        $this->bubble = $bubble;\n        return $this;\n    }\n}\n"),
        "src/Handler/AbstractProcessingHandler.php": (
            "<?php\nabstract class AbstractProcessingHandler extends AbstractHandler\n{\n"
            "    public function handle(array $record): bool\n    {\n"
            "        $this->write($record);\n        return false === $this->bubble;\n    }\n}\n"),
        **handlers,
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    res = eng.retrieve(
        "Fix AbstractProcessingHandler::handle() to call getBubble() instead of reading $bubble")
    paths = [f.path for f in res.files]
    assert paths[0] == "src/Handler/AbstractProcessingHandler.php", [
        (f.path, f.relevance, f.reason) for f in res.files[:4]]


def test_a_ruby_instance_method_names_its_type_and_member(tmp_path):
    """`Site#process` is Ruby's name for the method `process` of `Site`: the file defining both
    comes first, before the files that process a site and say both words more often."""
    others = {
        f"lib/jekyll/{name.lower()}.rb": (
            f"module Jekyll\n  class {name}\n    def initialize(site)\n      @site = site\n"
            f"    end\n\n    # process the site's {name.lower()}s for the hooks\n"
            f"    def process\n      @site.hooks.each {{ |hook| hook.call(@site) }}\n"
            f"      @site.{name.lower()}s.each(&:process)\n    end\n  end\nend\n")
        for name in ("Reader", "Renderer", "Page", "Post", "Cleaner", "Publisher")
    }
    files = {
        "lib/jekyll/site.rb": (
            "module Jekyll\n  class Site\n    attr_reader :hooks\n\n    def process\n"
            "      reset\n      read\n      generate\n      render\n      write\n    end\n\n"
            "    def reset\n      @pages = []\n    end\n  end\nend\n"),
        **others,
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    res = eng.retrieve("Site#process runs the hooks twice when the site is regenerated")
    paths = [f.path for f in res.files]
    assert paths[0] == "lib/jekyll/site.rb", [
        (f.path, f.relevance, f.reason) for f in res.files[:4]]
    assert "named in the task" in res.files[0].reason


def test_refine_feedback_excludes_and_patterns(tmp_path):
    """Feedback learns the best file's words; files under 0.2 beyond the top are excluded."""
    eng, idx = engine_for(tmp_path, {**SHOP, **MISC})
    task = "authentification of users should check the passwd"
    q, run, _, evals = run_cycle(eng, idx, task)
    ref = refine(run, q, evals, [], Gaps([], []), set())
    assert "password" in {c.text for c in ref.query.keywords}
    low = {e.path for e in evals[10:] if e.relevance < 0.2}
    assert set(ref.excluded) == low
    assert all(p in ref.query.excludes for p in ref.excluded)


def test_feedback_never_learns_a_stop_word_however_the_index_stems_it(tmp_path):
    """The best files' comments say `already` and `always` often (the index keeps `alread`,
    `alwa`): feedback learns the code's words, not those."""
    prose = "    # already done: always check, already checked, always already\n"
    files = {"src/ledger.py": "def post_ledger(entry):\n" + prose * 3 + "    return ledger_balance(entry)\n",
             "src/balance.py": "def ledger_balance(entry):\n" + prose * 3 + "    return entry.ledger_total\n",
             **MISC}
    eng, idx = engine_for(tmp_path, files)
    q, run, _, evals = run_cycle(eng, idx, "the ledger posting is wrong")
    learned = {t for c in refine(run, q, evals, [], Gaps([], []), set()).query.keywords
               if c.kind == "learned" for t in c.terms}
    assert learned, "feedback learned nothing at all"
    assert not learned & {"alread", "alwa", "already", "always"}, learned


def test_feedback_never_learns_the_markup_of_documented_code(tmp_path):
    """Documented code says `:param`, `.. versionchanged::` and `:rtype:` in every docstring,
    and typed code `# type: ignore[…]`: frequent in the best files and rare elsewhere, they are
    still no word of what it does."""
    doc = ('    """Post it.\n\n    :param entry: the entry\n    :rtype: Ledger\n\n'
           '    .. versionchanged:: 2.0\n        :param entry: also a dict\n    """\n'
           '    entry.seen = True  # type: ignore[union-attr]\n'
           '    entry.kept = True  # type: ignore[union-attr]  # noqa: E501\n')
    files = {"src/ledger.py": "def post_ledger(entry):\n" + doc + "    return ledger_balance(entry)\n"
             "\ndef void_ledger(entry):\n" + doc + "    return ledger_balance(entry)\n",
             "src/balance.py": "def ledger_balance(entry):\n" + doc + "    return entry.ledger_total\n",
             **MISC}
    eng, idx = engine_for(tmp_path, files)
    q, run, _, evals = run_cycle(eng, idx, "the ledger posting is wrong")
    learned = {t for c in refine(run, q, evals, [], Gaps([], []), set()).query.keywords
               if c.kind == "learned" for t in c.terms}
    assert learned, "feedback learned nothing at all"
    assert not learned & {"param", "rtyp", "rtype", "versionchang", "versionchanged", "ignor",
                          "ignore", "union", "attr", "noqa"}, learned


RATE_LIMITS = {
    "api/limits.py": (
        "def check_limit(request):\n    # throttling: requests over the budget are throttled\n"
        "    if throttling_enabled():\n        return throttled(request)\n    return request\n"
    ),
    "api/middleware.py": (
        "from .limits import check_limit\n\ndef limit_middleware(request):\n"
        "    # throttling happens before the view\n    return check_limit(request)  # throttling\n"
    ),
    "api/views.py": "def index(request):\n    return 'ok'\n",
    **MISC,
}


def test_learned_terms_are_shown_as_the_code_writes_them(tmp_path):
    """The trace says `throttling` and `check_limit`, not the index's stems throttl and checklimit."""
    eng, _ = engine_for(tmp_path, RATE_LIMITS)
    res = eng.retrieve("Add rate limit to the API request")
    learned = res.trace[0].learned
    assert "throttling" in learned and "check_limit" in learned, learned
    assert not {"throttl", "checklimit"} & set(learned)


def test_a_gap_nothing_in_the_repository_matches_is_not_critical(tmp_path):
    """The reporter's own folder in a log cannot be found by another cycle: it keeps no loop going."""
    eng, idx = engine_for(tmp_path)
    task = "`InvoiceTotal` crashes when run from /Users/me/sandbox/shop-report with my_local_helper"
    q, run, _, evals = run_cycle(eng, idx, task)
    gaps = find_gaps(evals, list(q.keywords), lambda c: bool(concept_hits(idx, c, run.search)))
    assert "/Users/me/sandbox/shop-report" in gaps.weak and "my_local_helper" in gaps.weak
    assert not gaps.critical, gaps
    # without the check, both kept the loop cycling
    assert set(find_gaps(evals, list(q.keywords)).critical) >= {"/Users/me/sandbox/shop-report",
                                                                "my_local_helper"}


def test_a_command_line_s_plain_words_are_no_critical_gap(tmp_path):
    """`tox -e py37` and `pytest -rs` name a command, its flags and an environment, which no
    cycle needs to find; a code-shaped name the task says in backticks keeps the loop going."""
    eng, idx = engine_for(tmp_path)
    task = "`InvoiceTotal` is wrong with `frobnicate_widget` when run as `tox -e py37 -- -rs`"
    q, run, _, evals = run_cycle(eng, idx, task)
    kinds = {c.text: c.kind for c in q.keywords}
    assert kinds.get("py37") == "identifier" and kinds.get("tox") == "identifier", kinds
    gaps = find_gaps(evals, list(q.keywords), lambda c: True)  # as if the repository said all
    assert {"tox", "py37"} <= set(gaps.weak), gaps
    assert "frobnicate_widget" in gaps.critical, gaps


def test_merge_spans_and_token_estimate():
    """Overlapping or adjacent spans merge; the estimate is about four characters a token."""
    assert merge_spans([(5, 9, "a"), (1, 3, "b"), (4, 4, "c"), (20, 22, "d")]) == [
        (1, 9, "b; c; a"), (20, 22, "d")]
    assert estimate_tokens("x" * 400) == 100


def test_a_few_lines_between_two_regions_are_shown_while_the_budget_lasts():
    """Regions at most BRIDGE_GAP lines apart become one, paid from the budget; wider gaps, or a
    gap the budget cannot pay, stay."""
    lines = [f"line {n} of the file" for n in range(1, 41)]
    gap = 1 + BRIDGE_GAP
    spans = [(1, 5, "a"), (5 + gap, 12, "b"), (13 + gap + 1, 30, "c")]
    out, left = _bridged(spans, lines, 100)
    assert out == [(1, 12, "a; b"), (13 + gap + 1, 30, "c")]
    assert left == 100 - estimate_tokens("\n".join(lines[5 : 4 + gap]))
    assert _bridged(spans, lines, 0) == (spans, 0)


def test_files_outside_the_root_are_never_read(tmp_path):
    """read_text refuses paths that escape the root and secret files."""
    eng, _ = engine_for(tmp_path, {**SHOP, ".env": "KEY=1"})
    (tmp_path / "outside.txt").write_text("secret")
    root = eng.roots[0]
    assert eng.read_text(root, "../outside.txt") is None
    assert eng.read_text(root, ".env") is None
    assert eng.read_text(root, "src/catalog/product.py")


def _long_module() -> str:
    """~600 lines: scattered one-word mentions, and one function where the task's words meet."""
    out = []
    for i in range(40):
        out += [f"def helper_{i}(value):", f"    # the cache is warmed here ({i})", "    return value", ""]
    out += [
        "def evict_expired_entries(cache, now):",
        "    \"\"\"Drop cache entries whose expiry has passed.\"\"\"",
        "    stale = [k for k, entry in cache.items() if entry.expiry <= now]",
        "    for k in stale:",
        "        del cache[k]  # evict the expired entry",
        "    return len(stale)",
        "",
    ]
    for i in range(40, 110):
        out += [f"def other_{i}(value):", "    return value * 2", "", ""]
    return "\n".join(out) + "\n"


def test_regions_go_to_the_passage_where_the_task_words_meet(tmp_path):
    """In a long file, a small budget goes to the function that says expiry, evict and cache together."""
    files = {"src/store/memo.py": _long_module(), "src/other.py": "def unrelated():\n    return 1\n"}
    eng, _ = engine_for(tmp_path, files)
    res = eng.retrieve("Expired cache entries are never evicted", Settings(budget=300))
    memo = next(f for f in res.files if f.path == "src/store/memo.py")
    spans = [(r.start_line, r.end_line, r.why) for r in memo.regions]
    evict = [r for r in memo.regions if "def evict_expired_entries" in r.text]
    assert evict and "del cache[k]" in evict[0].text, ("the whole short function is shown", spans)
    sent = sum(r.end_line - r.start_line + 1 for f in res.files for r in f.regions)
    assert sent < 60, ("a small budget goes to the dense passage, not to every mention", spans)


def _ledger_module() -> str:
    """A 700-line module: a short function, a 200-line one, and filler between them."""
    lines = ["def post_entry(ledger, entry):", "    total = ledger.balance + entry.amount",
             "    return total", ""]
    lines += [f"def filler_{i}(x):\n    return x + {i}\n" for i in range(100)]
    lines += ["def reconcile(ledger, statement):"]
    lines += [f"    step_{i} = statement.line({i})" for i in range(200)]
    lines += ["    return step_0", ""]
    lines += [f"def tail_{i}(x):\n    return x * {i}\n" for i in range(60)]
    return "\n".join(lines) + "\n"


def test_a_frame_s_line_is_shown_in_its_file(tmp_path):
    """A traceback names ledger.py's lines: the context shows the short function that raised
    whole, and the line of a long one with the lines around it, wherever the task's words are."""
    text = _ledger_module()
    src = text.splitlines()
    long_at = src.index("    step_150 = statement.line(150)") + 1
    files = {"src/books/ledger.py": text, **MISC}
    eng, _ = engine_for(tmp_path, files)
    task = ("Reconciling crashes\nTraceback (most recent call last):\n"
            f'  File "/srv/app/src/books/ledger.py", line {long_at}, in reconcile\n'
            '  File "/srv/app/src/books/ledger.py", line 2, in post_entry\n'
            "TypeError: unsupported operand type(s) for +: 'int' and 'NoneType'")
    res = eng.retrieve(task)
    ledger = next(f for f in res.files if f.path == "src/books/ledger.py")
    spans = [(r.start_line, r.end_line, r.why) for r in ledger.regions]
    shown = {n for r in ledger.regions for n in range(r.start_line, r.end_line + 1)}
    assert {1, 2, 3} <= shown, spans  # post_entry, whole
    assert set(range(long_at - 20, long_at + 21)) <= shown, spans
    assert any("frame ledger.py:" in r.why for r in ledger.regions), spans


def test_a_long_class_the_task_names_shows_its_head_and_the_passage_inside_it(tmp_path):
    """`Ledger` is a 600-line class: its first lines say what it is, and the budget goes to the
    method where the task's words meet, not to its first 120 lines."""
    body = [f"    def op_{i}(self, x):\n        return x + {i}\n" for i in range(300)]
    body.insert(200, "    def reconcile_statement(self, statement):\n"
                     "        # reconcile the statement against the ledger balance\n"
                     "        return self.balance - statement.balance\n")
    text = "class Ledger:\n    \"\"\"Double-entry books.\"\"\"\n\n" + "".join(body)
    eng, _ = engine_for(tmp_path, {"src/books/ledger.py": text, **MISC})
    res = eng.retrieve("`Ledger` reconcile statement balance is wrong")
    ledger = next(f for f in res.files if f.path == "src/books/ledger.py")
    spans = [(r.start_line, r.end_line, r.why) for r in ledger.regions]
    head = [r for r in ledger.regions if "defines Ledger" in r.why]
    assert head and head[0].start_line == 1 and head[0].end_line <= 12, spans
    assert any("def reconcile_statement" in r.text for r in ledger.regions), spans


def _doc_heavy_module() -> str:
    """A 500-line module: a function whose docstring's examples say the task's words on every
    line, filler, and the short function whose code raises the error the task reports."""
    out = ["def build_cycles(args):", '    """Build a permutation from cycles.', ""]
    out += ["    >>> Permutation([[0, 1], [0, 1]])  # repeated elements in cycles raise" for _ in range(12)]
    out += ['    """', "    return list(args)", "", ""]
    out += [f"def filler_{i}(x):\n    return x + {i}\n\n" for i in range(110)]
    out += ["def check_cycles(args):", "    seen = set()", "    for c in args:",
            "        if c in seen:",
            "            raise ValueError('repeated elements in cycles of a Permutation')",
            "        seen.add(c)", "    return seen", ""]
    out += [f"def tail_{i}(x):\n    return x * {i}\n\n" for i in range(20)]
    return "\n".join(out) + "\n"


def test_a_small_budget_goes_to_the_code_that_says_the_task_words_not_its_doc_examples(tmp_path):
    """The docstring's examples say the task's words more often; the code that raises the
    error says them once, and is what a fix changes."""
    eng, _ = engine_for(tmp_path, {"src/perm/cycles.py": _doc_heavy_module(), **MISC})
    res = eng.retrieve("Permutation with repeated elements in cycles raises ValueError",
                       Settings(budget=200))
    mod = next(f for f in res.files if f.path == "src/perm/cycles.py")
    spans = [(r.start_line, r.end_line, r.why) for r in mod.regions]
    assert any("raise ValueError" in r.text for r in mod.regions), spans
    assert not any(">>> Permutation" in r.text for r in mod.regions), spans


def _settlement_module(hot: int = 6) -> str:
    """`hot` 70-line functions where the task's words meet, 60 lines of filler after each."""
    out: list[str] = []
    for i in range(hot):
        out += [f"def settle_batch_{i}(ledger, batch):",
                "    # reconcile the ledger balance against the settlement batch",
                *[f"    v{k} = w{k} + 1" for k in range(67)], "    return ledger", ""]
        out += [f"def filler_{i}_{k}(x):\n    return x + {k}\n" for k in range(20)]
    return "\n".join(out) + "\n"


def test_lines_the_shares_leave_unused_go_to_the_spans_they_skipped(tmp_path):
    """The first file's six passages need 420 lines, 20 more than its share; the other files
    say little, so the context has room: the sixth is shown too, within TOP_UP_LINES more."""
    text = _settlement_module()
    eng, _ = engine_for(tmp_path, {"src/books/settle.py": text, **MISC})
    res = eng.retrieve("Settlement batch does not reconcile the ledger balance")
    assert res.files[0].path == "src/books/settle.py"
    regions = res.files[0].regions
    spans = [(r.start_line, r.end_line, r.why) for r in regions]
    assert all(any(f"def settle_batch_{i}(" in r.text and "return ledger" in r.text
                   for r in regions) for i in range(6)), spans
    shown = sum(r.end_line - r.start_line + 1 for r in regions)
    assert HEAD_LINES[0] < shown <= HEAD_LINES[0] + TOP_UP_LINES, spans
    sent = sum(r.end_line - r.start_line + 1 for f in res.files for r in f.regions)
    assert sent <= LINES_TARGET + BRIDGE_GAP * len(res.files), sent


def test_the_unused_lines_are_spent_within_the_token_budget(tmp_path):
    """The lines a small budget's shares leave unused are no licence to pass the budget."""
    eng, _ = engine_for(tmp_path, {"src/books/settle.py": _settlement_module(), **MISC})
    res = eng.retrieve("Settlement batch does not reconcile the ledger balance",
                       Settings(budget=1000))
    spent = sum(estimate_tokens(r.text) + 8 for f in res.files for r in f.regions)
    assert spent <= 1000, spent
    assert any("def settle_batch_0(" in r.text for r in res.files[0].regions)


def _printer_module() -> str:
    """A 400-line printer: one `_print_<Type>` method per type, a few of which say the task's
    words (brackets, display) over and over, and the one for the type the task names, which
    says none of them but its name."""
    out = ["class LatexPrinter:", "    def doprint(self, expr):",
           "        return getattr(self, '_print_' + type(expr).__name__)(expr)", ""]
    for i in range(70):
        body = [f"        return 'type{i}:' + str(expr)"]
        if i % 9 == 0:  # dense passages elsewhere: display of brackets around sequences
            body = ["        # display the brackets of a sequence: escaped brackets display",
                    "        left, right = self.brackets(expr)  # display brackets",
                    "        return left + self.display(expr) + right  # brackets display"]
        out += [f"    def _print_Type{i}(self, expr):", *body, ""]
    out += ["    def _print_SeqFormula(self, s):", "        dots = object()",
            "        printset = [s.coeff(k) for k in range(4)] + [dots]",
            "        return self.left + ', '.join(map(str, printset)) + self.right", ""]
    out += [f"    def _print_Tail{i}(self, expr):\n        return str(expr)\n" for i in range(60)]
    return "\n".join(out) + "\n"


def test_a_printer_shows_the_method_named_after_the_type_the_task_names(tmp_path):
    """`_print_SeqFormula` says none of the task's words but is what the fix changes: a
    definition named after an identifier the task names is shown after the best passage, even
    when denser passages would fill the budget."""
    seq = "class SeqFormula:\n    def coeff(self, k):\n        return k\n"
    eng, _ = engine_for(tmp_path, {"src/printing/latex.py": _printer_module(),
                                   "src/series/sequences.py": seq, **MISC})
    res = eng.retrieve("Display of SeqFormula() escapes the brackets", Settings(budget=300))
    mod = next(f for f in res.files if f.path == "src/printing/latex.py")
    spans = [(r.start_line, r.end_line, r.why) for r in mod.regions]
    assert any("def _print_SeqFormula" in r.text and "right" in r.text for r in mod.regions), spans


@pytest.mark.parametrize("name, shown", [
    ("_print_SeqFormula", True), ("visitSeqFormula", True), ("seq_formula", False),
    ("_print_SeqFormulaSet", False), ("isSeqFormula", True), ("xseqformula", False),
    ("SeqFormula", False),  # the name itself is `defines`, not named after it
])
def test_definitions_named_after_a_task_identifier_end_with_it_at_a_word_boundary(name, shown):
    from iterative_retrieval.evaluate import _symbol_facts, named_after
    from iterative_retrieval.models import Symbol

    facts = _symbol_facts([Symbol(name, "function", 1, 2)])
    assert (named_after(facts, ["SeqFormula"]) == [name]) is shown
    assert named_after(facts, ["", "SeqFormula"]) == named_after(facts, ["SeqFormula"])


def test_prose_lines_are_the_lines_of_only_comments_or_strings_in_each_language():
    from iterative_retrieval.languages.outline import prose_lines

    py = ["# a comment", "x = 1  # trailing", "def f():", '    """Doc.', "    >>> f()",
          '    """', "    return 1"]
    assert sorted(prose_lines("\n".join(py), "python")) == [1, 4, 5, 6]
    c = ["#include <stdio.h>", "// a comment", "/* a block", " * more", " */", "*p = 1;",
         'char *s = "a string";']
    assert sorted(prose_lines("\n".join(c), "c")) == [2, 3, 4, 5]
    rs = ["#[derive(Debug)]", "/// A doc comment", "struct S;"]
    assert sorted(prose_lines("\n".join(rs), "rust")) == [2]
    # a template's text is prose too (cobra's license texts): the line that opens it is code
    go = ["var gpl = `", "This program is free software", "`", "func f() {}"]
    assert sorted(prose_lines("\n".join(go), "go")) == [2, 3]
    assert prose_lines("# Title\ntext", "markdown") == frozenset()


CLI_TOOL = {
    "cmd/add.go": "package cmd\n\n// addCmd creates a new command from the template.\nvar addCmd = &Command{Use: \"add [name]\"}\n",
    "cmd/init.go": "package cmd\n\nvar initCmd = &Command{Use: \"init [path]\"}\n",
    "cmd/root.go": "package cmd\n\nvar rootCmd = &Command{Use: \"tool\"}\n\nfunc Execute() error {\n\treturn rootCmd.Execute()\n}\n",
    **{f"cmd/misc{i}.go": f"package cmd\n\nfunc helper{i}(x int) int {{\n\treturn x\n}}\n" for i in range(10)},
}


def test_a_task_whose_only_clues_are_generic_words_still_finds_the_code(tmp_path):
    """Nothing in the code says `vgo`: the task's verb `add` is what is left, and it names add.go.
    Named as an operation ("the add op") it is the task's word from the start."""
    eng, _ = engine_for(tmp_path, CLI_TOOL)
    res = eng.retrieve("vgo - fix up and add the op to work with vgo")
    assert res.files and res.files[0].path == "cmd/add.go", [f.path for f in res.files]
    assert "add" in [c.text for c in res.trace[0].query.keywords]
    assert all(f.relevance <= 0.6 for f in res.files), "a guess from generic words is never high"
    res = eng.retrieve("vgo - fixing up the add op to work with vgo")
    assert res.files and res.files[0].path == "cmd/add.go", [f.path for f in res.files]
    assert "add" in [c.text for c in parse_task("vgo - fixing up the add op").keywords]
    # a task whose own words match searches them alone
    res = eng.retrieve("Fix the Execute bug in the root command")
    assert res.files[0].path == "cmd/root.go"
    assert not {"fix", "bug"} & {c.text.lower() for c in res.trace[0].query.keywords}


HTTP_CLIENT = {
    "lib/adapters/http.js": (
        "import url from 'url';\nexport default function httpAdapter(config) {\n"
        "  const parsed = url.parse(config.url);\n  return request(parsed.hostname, parsed.port);\n}\n"
    ),
    "lib/adapters/xhr.js": (
        "export default function xhrAdapter(config) {\n  const req = new XMLHttpRequest();\n"
        "  req.open(config.method, config.url);\n  return req;\n}\n"
    ),
    "lib/helpers/buildURL.js": (
        "// Builds a url: literal strings, IPv6 hosts in brackets, encoded strings\n"
        "export default function buildURL(url, params) {\n  const literal = String(url);\n"
        "  return literal + '?' + encode(params);\n}\n"
    ),
    "lib/helpers/combineURLs.js": "export default function combineURLs(base, rel) {\n  return base + '/' + rel;\n}\n",
    **{f"lib/misc/m{i}.js": f"export function helper{i}(x) {{\n  return x;\n}}\n" for i in range(12)},
}


def test_commit_scope_ranks_the_file_it_names(tmp_path):
    """`fix(http): …` puts http.js first, though another file says more of the task's words."""
    eng, idx = engine_for(tmp_path, HTTP_CLIENT)
    task = "fix(http): fixed support for IPv6 literal strings in url"
    _, _, _, evals = run_cycle(eng, idx, task)
    assert evals[0].path == "lib/adapters/http.js"
    assert "is the task's scope http" in evals[0].reason
    # without the scope the words decide, and the helper that says them wins
    _, _, _, plain = run_cycle(eng, idx, "fixed support for IPv6 literal strings in url")
    assert plain[0].path == "lib/helpers/buildURL.js"


def test_a_named_path_that_leads_the_ranking_is_no_gap(tmp_path):
    """A path or frame the top file matches is covered: only what no good file has is a gap."""
    from iterative_retrieval.refine import find_gaps

    eng, idx = engine_for(tmp_path)
    q, _, _, evals = run_cycle(eng, idx, "Wrong total in `src/payments/invoice.py` for refunds")
    assert evals[0].path == "src/payments/invoice.py"
    gaps = find_gaps(evals, list(q.keywords))
    assert "src/payments/invoice.py" not in gaps.critical + gaps.weak
    q, _, _, evals = run_cycle(eng, idx, "Wrong total in `src/payments/missing.py` for refunds")
    assert "src/payments/missing.py" in find_gaps(evals, list(q.keywords)).critical


VENDORING = {
    "shop/models.py": "class Response:\n    def text(self):\n        return decode_body(self.content, self.encoding)\n",
    "shop/packages/urllib3/response.py": (
        "class HTTPResponse:\n    def read(self, decode_content=True):\n        # decode the body with its encoding\n"
        "        return decode_body(self.data, self.encoding)\n"
    ),
    **{f"shop/misc/m{i}.py": f"def helper_{i}(x):\n    return x\n" for i in range(12)},
}


def test_a_vendored_copy_ranks_below_the_projects_own_code(tmp_path):
    """Both files say the task's words; the copy under shop/packages/ is another project's."""
    eng, idx = engine_for(tmp_path, VENDORING)
    _, _, _, evals = run_cycle(eng, idx, "Response body decode fails when the encoding is None")
    paths = [e.path for e in evals]
    assert paths.index("shop/models.py") < paths.index("shop/packages/urllib3/response.py"), paths


def test_a_declaration_file_the_task_names_comes_first(tmp_path):
    """`reply.d.ts` names the declaration file (not the words reply and ts), though the
    implementation says the task's words more often."""
    files = {
        "types/reply.d.ts": "export interface FastifyReply {\n  code(statusCode: number): "
                            "FastifyReply;\n  send(payload?: unknown): FastifyReply;\n}\n",
        "types/request.d.ts": "export interface FastifyRequest {\n  id: string;\n}\n",
        "lib/reply.js": "function Reply (res) { this.raw = res }\n"
                        "// hijack the reply: the function stops the reply's own send\n"
                        "Reply.prototype.hijack = function () { this.hijacked = true }\n"
                        "module.exports = Reply\n",
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    res = eng.retrieve("fix: reply.d.ts missing hijack function")
    assert res.files[0].path == "types/reply.d.ts", [(f.path, f.reason) for f in res.files]
    assert "named in the task" in res.files[0].reason


def test_a_module_path_without_its_extension_names_its_file(tmp_path):
    """`jinja2/debug` is the module jinja2/debug.py (a file of that path, whatever its
    extension), not the words jinja2 and debug: the file comes first, named in the task."""
    from iterative_retrieval.search import path_matches

    files = {
        "jinja2/debug.py": "def rewrite_traceback_stack(source):\n    return source\n",
        "jinja2/runtime.py": "# the bug: a debug flag is lost when the second template is\n"
                             "# merged; changes of the debug run\n"
                             "def debug_merge(changes):\n    return changes\n",
        "jinja2/environment.py": "def debug_second(x):\n    return x  # merge the bug away\n",
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    res = eng.retrieve("Fixed a bug in jinja2/debug (second time, forgot to merge changes)")
    assert res.files[0].path == "jinja2/debug.py", [(f.path, f.reason) for f in res.files]
    assert "named in the task" in res.files[0].reason
    paths = {"jinja2/debug.py": 1, "lib/jinja2/debug.pyi": 2, "jinja2/debugger/x.py": 3,
             "src/utils/format.ts": 4, "docs/debug.rst": 5}
    assert path_matches("jinja2/debug", paths) == [1, 2]
    assert path_matches("utils/format", paths) == [4]
    assert path_matches("jinja2/deb", paths) == [] and path_matches("debug", paths) == []


def test_a_module_path_written_as_its_code_names_it_names_its_snake_case_file(tmp_path):
    """RuboCop's `Style/PercentLiteralDelimiters` is cop/style/percent_literal_delimiters.rb, and
    `RuboCop::ConfigLoader` rubocop/config_loader.rb: the file comes first, though a mixin says
    delimiters and the loader's words more."""
    from iterative_retrieval.search import path_matches

    files = {
        "lib/rubocop/cop/style/percent_literal_delimiters.rb": (
            "module RuboCop\n  module Cop\n    module Style\n"
            "      class PercentLiteralDelimiters < Base\n        def on_str(node)\n"
            "          check(node)\n        end\n      end\n    end\n  end\nend\n"),
        "lib/rubocop/cop/mixin/preferred_delimiters.rb": (
            "module RuboCop\n  # invalid characters in the delimiters: the preferred delimiters\n"
            "  class PreferredDelimiters\n    def delimiters(invalid_characters)\n"
            "      invalid_characters\n    end\n  end\nend\n"),
        "lib/rubocop/config_loader.rb": (
            "module RuboCop\n  class ConfigLoader\n    def self.load_file(path)\n"
            "      path\n    end\n  end\nend\n"),
        "lib/rubocop/config_finder.rb": (
            "module RuboCop\n  # the project root, restored; deprecated as the loader's\n"
            "  class ConfigFinder\n    def self.project_root\n      @project_root\n"
            "    end\n  end\nend\n"),
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    res = eng.retrieve("Handle invalid characters in Style/PercentLiteralDelimiters")
    assert res.files[0].path == "lib/rubocop/cop/style/percent_literal_delimiters.rb", \
        [(f.path, f.reason) for f in res.files]
    res = eng.retrieve("Restore `RuboCop::ConfigLoader.project_root` as deprecated")
    assert res.files[0].path == "lib/rubocop/config_loader.rb", \
        [(f.path, f.reason) for f in res.files]
    paths = {"lib/rubocop/cop/style/percent_literal_delimiters.rb": 1, "lib/rubocop/cop.rb": 2,
             "src/Polly/Retry/RetryHelper.cs": 3}
    assert path_matches("style/percentliteraldelimiters", paths) == [1]
    assert path_matches("polly/retry/retry_helper", paths) == [3]
    assert path_matches("rubo_cop/cop", paths) == [2]


def test_an_issue_pasted_in_its_template_finds_what_the_bare_issue_finds(tmp_path):
    """GitHub's default bug template says describe, reproduce, expected behavior, screenshots,
    browser, desktop, context: a workspace whose files say those words does not pull them
    ahead of the file the reporter's own words point at."""
    from bench.quality.wrap import GITHUB_BUG

    files = {
        "app/session_store.py": "class SessionStore:\n    def renew(self, cookie):\n"
                                "        # the cookie is renewed before it expires\n"
                                "        return cookie\n",
        "app/browser.py": "# the desktop browser: screenshots, clicks and scrolling\n"
                          "def screenshot(browser):\n    return browser  # see error\n",
        "app/context.py": "# additional context: describe the expected behavior\n"
                          "def describe(context):\n    return context\n",
        "app/report.py": "# steps to reproduce: a clear and concise description\n"
                         "def reproduce(steps):\n    return steps\n",
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    task = "The session cookie is not renewed when it expires"
    bare = [f.path for f in eng.retrieve(task).files]
    pasted = eng.retrieve(GITHUB_BUG.format(task=task))
    assert bare[0] == "app/session_store.py", bare
    assert [f.path for f in pasted.files] == bare, [(f.path, f.reason) for f in pasted.files]


def test_a_bare_file_name_that_many_files_share_names_none():
    """`__init__.py` or `test_foo.py` without a folder is no path hint; `a/__init__.py` is."""
    from iterative_retrieval.search import path_matches

    files = {f"pkg{i}/__init__.py": i for i in range(5)} | {"pkg0/core.py": 10, "lib/core.py": 11}
    assert path_matches("__init__.py", files) == []
    assert path_matches("pkg3/__init__.py", files) == [3]
    assert sorted(path_matches("core.py", files)) == [10, 11]


def test_a_frame_from_another_machine_matches_by_its_folders():
    """A frame's path that is not here whole matches by its last folders and file name; by the
    file name alone only a file at the top (the frame's root was this project's), not a file of
    the same name in another folder (the user's own `basic/test_basic.py`)."""
    from iterative_retrieval.search import path_matches

    files = {"testing/examples/tests/test_basic.py": 1, "src/app/core.py": 2, "setup.py": 3}
    assert path_matches("basic/test_basic.py", files) == []
    assert path_matches("/home/me/proj/app/core.py", files) == [2]
    assert path_matches("/home/me/proj/setup.py", files) == [3]
    assert path_matches("/home/me/proj/lib/core.py", files) == []


def test_an_installed_copy_s_frame_matches_by_its_path_inside_the_package():
    """pip's, npm's, Go's, Cargo's and gems' copies of this project: what follows the package's
    own folder is the project's path (`src/parser.rs` here, not `benches/parser.rs`)."""
    from iterative_retrieval.search import installed_tail, path_matches

    files = {"src/parser.rs": 1, "benches/parser.rs": 2, "web/checkout.go": 3,
             "lib/sinatra/base.rb": 4, "shop/tokens.py": 5}
    for frame, want in (
            ("/home/me/.cargo/registry/src/github.com-1ecc6299db9ec823/clap-2.33.0/src/parser.rs",
             [1]),
            ("/home/me/go/pkg/mod/github.com/acme/shop@v1.2.0/web/checkout.go", [3]),
            ("/usr/lib/ruby/gems/3.0.0/gems/sinatra-2.1.0/lib/sinatra/base.rb", [4]),
            ("/venv/lib/python3.11/site-packages/shop/tokens.py", [5])):
        assert installed_tail(frame) is not None, frame
        assert path_matches(frame, files) == want, frame
    assert installed_tail("/home/me/proj/src/parser.rs") is None


def test_a_new_name_in_the_task_is_searched_by_its_words(tmp_path):
    """The task introduces `MousetrapDisplayDuration`: the loop searches its words on their own
    (the rare `mousetrap` with its own weight), and the reason names the word a file says."""
    files = {f"src/view_{i}.go": (f"package view\n\n// display the duration of step {i}\n"
                                  f"func Display{i}(d Duration) {{ show(d) }}\n")
             for i in range(12)}
    files["src/hook_windows.go"] = (
        "package app\n\nimport \"github.com/inconshreveable/mousetrap\"\n\n"
        "func preExecHook() {\n    if mousetrap.StartedByExplorer() {\n"
        "        time.Sleep(5 * time.Second)\n    }\n}\n")
    eng, _ = engine_for(tmp_path, files)
    res = eng.retrieve("add variable MousetrapDisplayDuration for how long the mousetrap "
                       "message stays")
    words = [c.text for c in res.trace[0].query.keywords]
    assert "MousetrapDisplayDuration" not in words and "mousetrap" in words
    assert res.files[0].path == "src/hook_windows.go", [f.path for f in res.files]
    assert "matches mousetrap" in res.files[0].reason


def test_words_in_a_row_find_the_name_the_code_joins_them_into(tmp_path):
    """"the worker start timeout": the pool that holds WORKER_START_TIMEOUT comes before a file
    that says worker, start and timeout apart (start.ts, named after one of them), and its
    reason says the phrase. (worker.ts says every word of the task: it stays first.)"""
    write_files(tmp_path / "ws", {
        "src/pool.ts": "const WORKER_START_TIMEOUT = 5_000\n\nexport function createPool(size) {\n"
                       "  return spawnAll(size, WORKER_START_TIMEOUT)\n}\n",
        "src/worker.ts": "export function startWorker(id, timeout) {\n"
                         "  // a worker starts, then waits for its timeout; slow machines fail more\n"
                         "  return run(id, timeout)\n}\n\nexport function stopWorker(id) {\n"
                         "  return id\n}\n",
        "src/start.ts": "export function start(workers, timeout) {\n"
                        "  // start each worker, with a timeout\n"
                        "  return workers.map(worker => worker.start(timeout))\n}\n",
        **{f"src/misc/m{i}.ts": f"export const m{i} = {i}\n" for i in range(10)},
    })
    result = Engine([tmp_path / "ws"], Settings(cache_dir=str(tmp_path / "c"))).retrieve(
        "Increase the worker start timeout: workers fail to start on slow machines")
    paths = [f.path for f in result.files]
    assert paths.index("src/pool.ts") < paths.index("src/start.ts"), paths
    pool = result.files[paths.index("src/pool.ts")]
    assert "worker start timeout" in pool.reason, pool.reason


def test_a_hyphenated_word_finds_the_one_word_the_code_writes(tmp_path):
    """"f-strings" is `fstring` in the code: the file about f-strings comes before one that
    says string and quotes more often, and its reason says the word as the task wrote it."""
    write_files(tmp_path / "ws", {
        "fmt/fstrings.py": "def normalize_fstring_quotes(leaf):\n"
                           "    if is_fstring(leaf):\n        return leaf\n\n\n"
                           "def is_fstring(leaf):\n    return leaf.prefix == 'f'\n",
        "fmt/strings.py": "def normalize_string_quotes(string):\n"
                          "    # prefer double quotes: a string's quotes, escaped quotes\n"
                          "    return string.replace(\"'\", '\"')\n\n\n"
                          "def string_quotes(string):\n    return string[0]\n",
        **{f"fmt/misc/m{i}.py": f"M{i} = {i}\n" for i in range(10)},
    })
    result = Engine([tmp_path / "ws"], Settings(cache_dir=str(tmp_path / "c"))).retrieve(
        "Quotes in f-strings are normalized wrongly")
    paths = [f.path for f in result.files]
    assert paths[0] == "fmt/fstrings.py", paths
    assert "f-strings" in result.files[0].reason, result.files[0].reason


def test_a_path_the_task_names_takes_nothing_from_the_other_files(tmp_path):
    """A squash merge's "* Unpin websockets in setup.py" names setup.py: it comes first, and the
    module that does what the rest of the task says still implements it — the named path
    weighed in every other file's share of the task (it was related, 0.63; on uvicorn's tree,
    with more words in the task, under 0.2 and not handed out)."""
    write_files(tmp_path / "ws", {
        "setup.py": "from setuptools import setup\n\n\ndef get_version():\n    return '0.3'\n\n\n"
                    "setup(name='srv', version=get_version(), install_requires=['websockets==8.0'])\n",
        "srv/protocols/websocket_impl.py":
            "import websockets\n\n\nclass WebSocketProtocol(websockets.WebSocketServerProtocol):\n"
            "    def handshake_response(self, headers):\n"
            "        # the handshake answers the upgrade; websockets 8 moved the response\n"
            "        return self.write_http_response(101, headers)\n\n"
            "    def send_websocket_close(self, code):\n        return code\n",
        "srv/protocols/http.py": "class HttpProtocol:\n    def handle_upgrade(self, request):\n"
                                "        return request.headers.get('upgrade')\n",
        "srv/main.py": "def run(app, host, port):\n    return app, host, port\n",
        **{f"srv/misc/m{i}.py": f"M{i} = {i}\n" for i in range(10)},
    })
    result = Engine([tmp_path / "ws"], Settings(cache_dir=str(tmp_path / "c"))).retrieve(
        "Websocket handshake response breaks with websockets 8\n\n"
        "* Fix the handshake response\n\n* Unpin websockets in setup.py")
    by_path = {f.path: f for f in result.files}
    assert result.files[0].path == "setup.py", list(by_path)
    impl = by_path.get("srv/protocols/websocket_impl.py")
    assert impl is not None and impl.relevance >= 0.8, (impl, list(by_path))


def test_a_used_names_uses_are_whole_words_only():
    """A name inside another (`x_Session`, `$Session`, `éSession`, `SessionManager`) is no use of
    it; the count stops at what the weight needs."""
    from iterative_retrieval.graph import _count, first_line

    text = "x_Session = 1\n$Session\néSession\nSessionManager\nuse(Session)\nSession.open()\n"
    assert first_line(text, "Session") == 5
    assert _count(text, "Session", 10) == 2 and _count(text, "Session", 1) == 1
    assert first_line("Session", "Session") == 1 and first_line("aSession b", "Session") == 0
    assert first_line("a.b(x)\n$b.c", "$b") == 2  # a name with `$` (JavaScript) is one word
    # the line a reason points to is a use: a call, or a type's mention, not a comment's word
    text = "#: the class used for response objects\nresponse = 1\nx = json.response (y)\n"
    assert first_line(text, "response") == 3
    text = "// SessionStore keeps them\n/* SessionStore */\nvar s SessionStore\n"
    assert first_line(text, "SessionStore") == 3
    text = 'from .app import Flask\n\n"""Example: make one\n    app = Flask(__name__)"""\n'
    assert first_line(text, "Flask") == 1
    # nor one in a docstring or a block comment, in the languages that write them
    text = 'def f(app):\n    """Make one:\n\n    s = Session(app)\n    """\n    return Session(app)\n'
    assert first_line(text, "Session", "python") == 6
    text = "/*\n\te.Use(RequestLogger())\n*/\nfunc f() {\n\tRequestLogger()\n}\n"
    assert first_line(text, "RequestLogger", "go") == 5
    text = "x = glob('src/**/*.py')\ny = Session(x)\n"  # no block comment in Python
    assert first_line(text, "Session", "python") == 2
    # the language's own reading: a `/*` in a string opens no comment, a string's words are
    # no use, a comment marker in a string starts none
    text = '// Session keeps the user\nconst glob = "src/*";\nconst s = new Session(glob);\n'
    assert first_line(text, "Session", "javascript") == 3
    text = 'log.error("Session(x) failed")\ns = Session(x)\n'
    assert first_line(text, "Session", "python") == 2
    text = 'url = "http://x/#Session"; Session()\n'
    assert first_line(text, "Session", "python") == 1


def test_an_indirect_file_shows_where_the_task_words_meet_unless_a_definition_carries_them():
    """A file that is context only shows the first lines of the definitions that carry the
    task's words; when none does, the passage where its words meet says why the file is there
    (the file's first definitions said nothing of it); with no such passage, those first
    definitions."""
    syms = [Symbol("setup", "function", 1, 6), Symbol("adapt", "method", 9, 120),
            Symbol("finish", "method", 122, 130)]

    def indirect(**kw) -> Evaluation:
        return Evaluation(path="adapter/index.js", relevance=0.3, reason="", role="indirect",
                          symbols=syms, **kw)

    hits = {"hit_lines": [30, 31, 33], "hit_terms": [("dynam",), ("rout",), ("dynam", "rout")]}
    spans = spans_for(indirect(**hits), 130, place=5)
    assert spans and all(a <= 33 and b >= 30 for a, b, _ in spans[:1]), spans
    assert not any(a == b == 1 for a, b, _ in spans), spans
    # a definition that carries the task's words is shown by its first line
    assert spans_for(indirect(named=["finish"], **hits), 130, place=5) == [
        (122, 122, "signature")]
    # no passage: the file's first definitions
    assert [a for a, _, _ in spans_for(indirect(), 130, place=5)] == [1, 9, 122]


def test_a_definition_link_stays_in_the_language_family_of_its_user(tmp_path):
    """The Python file a task names calls `ParamList`, which only a vendored JavaScript file
    defines, and `build_signature`, which a Python module defines: only the Python module
    is handed out as the context it uses. A configuration file may name any language's code
    (tox.ini's `filterwarnings` names a Python warning class)."""
    eng, _ = engine_for(tmp_path, {
        "pkg/util/inspect.py": (
            "from .signature import build_signature\n\n"
            "def getargspec(func):\n    params = ParamList(func)\n"
            "    return build_signature(params)\n"),
        "pkg/util/signature.py": "def build_signature(params):\n    return tuple(params)\n",
        "pkg/static/widgets.js": (
            "class ParamList {\n  constructor(node) {\n    this.names = node.children\n  }\n}\n"),
        "pkg/warnings.py": "class PkgDeprecationWarning(DeprecationWarning):\n    pass\n",
        "tox.ini": "[pytest]\nfilterwarnings =\n    error::pkg.warnings.PkgDeprecationWarning\n",
        **MISC,
    })
    res = eng.retrieve("getargspec() raises NameError for invalid typehints")
    reasons = {f.path: f.reason for f in res.files}
    assert res.files[0].path == "pkg/util/inspect.py", reasons
    assert reasons["pkg/util/signature.py"].startswith("related:"), reasons
    assert "defines `ParamList`" not in reasons.get("pkg/static/widgets.js", ""), reasons
    res = eng.retrieve("the filterwarnings line of tox.ini fails since the last release")
    reasons = {f.path: f.reason for f in res.files}
    assert res.files[0].path == "tox.ini", reasons
    assert "defines `PkgDeprecationWarning`, used by tox.ini" in reasons.get("pkg/warnings.py", "")


def test_a_method_of_the_language_s_own_types_points_at_no_project_file(tmp_path):
    """`cache.append(item)` appends to a list: the project class that happens to define an
    `append` method is no context for it. A bare `format_entry(...)` call, or a project
    function named like no built-in method, still links to its definition."""
    files = {
        "pkg/napoleon/iterators.py": (
            "from .entries import format_entry\n\n"
            "class peek_iter:\n    def _fillcache(self, n):\n        while len(self._cache) < n:\n"
            "            self._cache.append(next(self._iterable))\n"
            "            format_entry(self._cache)\n"),
        "pkg/autodoc/directive.py": (
            "class DocumenterBridge:\n    def append(self, line):\n        self.result.append(line)\n"),
        "pkg/napoleon/entries.py": "def format_entry(cache):\n    return list(cache)\n",
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    res = eng.retrieve("napoleon: _fillcache of peek_iter raises StopIteration on an empty iterable")
    reasons = {f.path: f.reason for f in res.files}
    assert res.files[0].path == "pkg/napoleon/iterators.py", reasons
    assert "defines `append`" not in reasons.get("pkg/autodoc/directive.py", ""), reasons
    assert "pkg/napoleon/entries.py" in reasons, reasons


DECLARED_CLIENT = {
    "index.d.ts": (
        "export interface AxiosRequestConfig {\n  decompress?: boolean;\n"
        "  maxContentLength?: number;\n  responseType?: ResponseType;\n}\n"
        "export interface AxiosResponseHeaders {\n  'content-length'?: string;\n"
        "  'content-encoding'?: string;\n}\n"
        "export interface AxiosResponse<T = any> {\n  data: T;\n"
        "  headers: AxiosResponseHeaders;\n  config: AxiosRequestConfig;\n}\n"
        "export type RawResponseHeader = 'content-length' | 'content-encoding';\n"),
    "lib/adapters/http.js": (
        "const zlib = require('zlib')\n\n"
        "function decompressResponse (config, response) {\n  let stream = response\n"
        "  const headers = response.headers\n"
        "  if (config.decompress !== false && headers['content-encoding']) {\n"
        "    if (headers['content-length'] === '0') return stream\n"
        "    stream = stream.pipe(zlib.createUnzip())\n  }\n  return stream\n}\n"
        "module.exports = decompressResponse\n"),
    **MISC,
}


@pytest.mark.parametrize("task, first", [
    ("Fix decompression of responses without a `Content-Length` header", "lib/adapters/http.js"),
    ("fix(types): decompress is missing from the request config", "index.d.ts"),
])
def test_a_declaration_file_weighs_as_code_only_when_the_task_speaks_of_types(
        tmp_path, task, first):
    """A declaration file says every name of the API, so it says the task's names as often as
    the code that does what they say: a task about behaviour changes the code."""
    eng, _ = engine_for(tmp_path, DECLARED_CLIENT)
    res = eng.retrieve(task)
    assert res.files[0].path == first, [(f.path, f.relevance, f.reason) for f in res.files]
    assert {f.path for f in res.files[:2]} == {"index.d.ts", "lib/adapters/http.js"}
    said = "declares types only" in next(f.reason for f in res.files if f.path == "index.d.ts")
    assert said == (first != "index.d.ts")


TYPED_CLIENT = {
    "source/types/options.ts": (
        "/** How a failed call is retried. */\n"
        "export interface RetryOptions {\n"
        "  /** The most retries; zero turns retrying off. */\n  limit?: number;\n"
        "  /** The delay before each retry, in milliseconds (zero: at once). */\n"
        "  delay?: (attempt: number) => number;\n"
        "  /** No delay is longer than this. */\n  backoffLimit?: number;\n}\n"
        "export type Milliseconds = number;\n"),
    "source/core/client.ts": (
        "import type {RetryOptions} from '../types/options.js';\n\n"
        "export class Client {\n  constructor(private options: RetryOptions) {}\n\n"
        "  calculateDelay(attempt: number): number {\n"
        "    const delay = this.options.delay?.(attempt) ?? 300;\n"
        "    return Math.min(this.options.backoffLimit ?? Infinity, delay);\n  }\n\n"
        "  async retry(fn: () => Promise<Response>): Promise<Response> {\n"
        "    const ms = this.calculateDelay(1);  // a zero delay retries the request at once\n"
        "    if (ms > 0) await new Promise(resolve => setTimeout(resolve, ms));\n"
        "    return fn();\n  }\n}\n"),
    **MISC,
}


@pytest.mark.parametrize("task, first", [
    ("Retry the request even if the retry delay is zero", "source/core/client.ts"),
    ("fix(types): the retry delay option's type allows no zero", "source/types/options.ts"),
])
def test_a_typescript_module_of_types_only_weighs_as_a_declaration_file(tmp_path, task, first):
    """`source/types/options.ts` declares nothing but types, as `index.d.ts` would, and says every
    word of the options in its doc comments: a task about behaviour changes the code that reads
    them."""
    eng, _ = engine_for(tmp_path, TYPED_CLIENT)
    res = eng.retrieve(task)
    assert res.files[0].path == first, [(f.path, f.relevance, f.reason) for f in res.files]
    said = "declares types only" in next(
        f.reason for f in res.files if f.path == "source/types/options.ts")
    assert said == (first != "source/types/options.ts")


def test_only_a_module_of_erased_types_is_a_declaration_file():
    """Go's structs are the data its code works on; a TypeScript module with a function for
    every two types is code, one of types with a helper or two among them (pinia's `types.ts`:
    32 types and interfaces, an enum, two functions) is the API's declarations."""
    rows = [Symbol("RetryOptions", "interface", 1, 5), Symbol("RetryDelay", "type", 6, 6)]
    assert types_only("typescript", rows)
    assert not types_only("typescript", [*rows, Symbol("retry", "function", 8, 12)])
    many = [Symbol(f"Option{i}", "interface" if i % 2 else "type", i * 3, i * 3 + 2)
            for i in range(1, 10)]
    assert types_only("typescript", [*many, Symbol("isPlainObject", "function", 40, 44)])
    assert not types_only("typescript", [*many, *(Symbol(f"f{i}", "function", 50 + i, 50 + i)
                                                   for i in range(4))])
    assert not types_only("go", [Symbol("Options", "struct", 1, 5)])
    assert not types_only("typescript", [])


PRINTERS = {
    "pkg/printing/pretty/__init__.py": "from .pretty import pretty, pprint\n",
    "pkg/printing/pretty/pretty.py": (
        "class PrettyPrinter:\n    def _print_Pow(self, power):\n"
        "        b, e = power.as_base_exp()\n        return self._print_nth_root(b, e)\n\n"
        "def pretty(expr):\n    return PrettyPrinter().doprint(expr)\n"),
    "pkg/printing/latex.py": (
        "class LatexPrinter:\n    def _print_Pow(self, expr):\n"
        "        # render a power in LaTeX: \\\\pi^{e^{-1}}, not a root\n"
        "        return '%s^{%s}' % (self._print(expr.base), self._print(expr.exp))\n"),
    "pkg/printing/str.py": (
        "class StrPrinter:\n    def _print_Pow(self, expr):\n"
        "        # str is not fooled: pi**exp(-1)\n        return 'pow'\n"),
    **MISC,
}


def test_a_module_the_reporter_names_by_its_dotted_path_is_the_task_s_scope(tmp_path):
    """"this bug in printing.pretty" names the package sympy/printing/pretty: its module named
    after it, and its `__init__`, are where the task is; the other printers say the task's
    words ("LaTeX", "render", "fooled") more."""
    eng, _ = engine_for(tmp_path, PRINTERS)
    task = ("Inaccurate rendering of a power of pi\n\nI did not notice this bug among others in "
            "printing.pretty. LaTeX and str are not fooled: they render pi**exp(-1).")
    res = eng.retrieve(task)
    reasons = {f.path: f.reason for f in res.files}
    assert res.files[0].path == "pkg/printing/pretty/pretty.py", reasons
    assert "the task's scope printing/pretty" in reasons["pkg/printing/pretty/pretty.py"]
    # imported in a reproducer, a module is the API it calls, not a scope
    plain = eng.retrieve("Inaccurate rendering of a power of pi: LaTeX and str are not fooled\n\n"
                         "```python\nfrom pkg.printing.pretty import pprint\npprint(pi**(1/E))\n```")
    assert "scope" not in " ".join(f.reason for f in plain.files)


def test_a_module_named_by_its_namespaces_is_the_task_s_scope(tmp_path):
    """"Add :cache option to Plug.Static" is about lib/plug/static.ex, though a key generator
    says cache and option more; Plug.CSRFProtection is csrf_protection.ex."""
    files = {
        "lib/plug/static.ex": (
            "defmodule Plug.Static do\n  @moduledoc \"Serves static assets.\"\n"
            "  def init(opts), do: opts\n  def call(conn, opts), do: serve(conn, opts)\nend\n"),
        "lib/plug/crypto/key_generator.ex": (
            "defmodule Plug.Crypto.KeyGenerator do\n  # the cache option: cache derived keys\n"
            "  def generate(secret, salt, opts) do\n    cache = Keyword.get(opts, :cache)\n"
            "    with_cache(cache, secret, salt)\n  end\n"
            "  def with_cache(cache, secret, salt), do: {cache, secret, salt}\nend\n"),
        "lib/plug/csrf_protection.ex": (
            "defmodule Plug.CSRFProtection do\n  def call(conn, _opts), do: conn\nend\n"),
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    res = eng.retrieve("Add :cache option to Plug.Static")
    reasons = {f.path: f.reason for f in res.files}
    assert res.files[0].path == "lib/plug/static.ex", reasons
    assert "the task's scope plug/static" in reasons["lib/plug/static.ex"], reasons
    res = eng.retrieve("Plug.CSRFProtection rejects a valid token")
    assert res.files[0].path == "lib/plug/csrf_protection.ex", [f.path for f in res.files]


def test_a_commit_s_dotted_scope_that_names_no_module_is_still_its_scope(tmp_path):
    """`fix(socket.io): …` reads like a module's dotted path, but names the package folder
    socket.io, as any commit scope would."""
    files = {
        "packages/socket.io/lib/socket.js": (
            "class Socket {\n  emit(event) { this.queue.push(event) }\n}\nmodule.exports = Socket\n"),
        "packages/engine.io/lib/transport.js": (
            "// reconnect: the queued events are sent again once the transport reconnects\n"
            "function reconnect(queued) { return queued }\nmodule.exports = reconnect\n"),
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    res = eng.retrieve("fix(socket.io): reconnect drops queued events")
    reasons = {f.path: f.reason for f in res.files}
    assert "the task's scope socket.io" in reasons.get("packages/socket.io/lib/socket.js", ""), \
        reasons


def test_a_capitalized_name_inside_a_sentence_is_the_definition_the_code_gives_it(tmp_path):
    """"…to Component in the constructor": preact's Component is defined in one small file, and
    the recycler says component and constructor far more often.
    Capitalized at a sentence's start, in a Title Case line, or as a folder's (the project's)
    name, a word is only a word."""
    files = {
        "src/component.js": (
            "import { extend } from './util';\n\n"
            "export default function Component(props, context) {\n"
            "\tthis._dirty = true;\n\tthis.context = context;\n\tthis.props = props;\n"
            "\tthis.state = {};\n}\n\nextend(Component.prototype, {\n"
            "\tsetState(state) { extend(this.state, state); },\n});\n"),
        "src/vdom/build.js": (
            "// builds the DOM for a component: properties of each node, no shape mutation\n"
            "export function build(dom, vnode) {\n"
            "\t// the component's properties are copied: mutation of the shape is slow\n"
            "\tlet properties = vnode.properties, component = vnode.component;\n"
            "\tif (component) return renderComponent(component, properties);\n"
            "\treturn setProperties(dom, properties);\n}\n"
            "export function setProperties(dom, properties) {\n"
            "\tfor (let name in properties) dom[name] = properties[name];\n}\n"),
        "src/vdom/recycler.js": (
            "// a recycled component keeps its constructor: components by constructor name\n"
            "const components = {};\n"
            "export function collectComponent(component) {\n"
            "\tlet name = component.constructor.name;\n"
            "\t(components[name] || (components[name] = [])).push(component);\n}\n"
            "export function createComponent(ctor, props) {\n"
            "\tlet list = components[ctor.name];\n"
            "\treturn list && list.length ? list.pop() : new ctor(props);\n}\n"),
        "src/util.js": "export function extend(obj, props) {\n"
                       "\tfor (let i in props) obj[i] = props[i];\n\treturn obj;\n}\n",
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    res = eng.retrieve("Avoid shape mutation by adding ref properties to Component in the "
                       "constructor")
    paths = [f.path for f in res.files]
    # the renderer says four of the task's words and stays first; the file defining Component
    # comes before the one that says component and constructor most
    assert "src/component.js" in paths, [(f.path, f.reason) for f in res.files]
    assert paths.index("src/component.js") < paths.index("src/vdom/recycler.js"), paths
    assert "defines `Component`" in res.files[paths.index("src/component.js")].reason


def test_capitalized_words_that_are_names_not_sentence_starts_or_title_case():
    from iterative_retrieval.query import defined_names

    q = parse_task("Avoid shape mutation by adding refs to Component in the constructor. "
                   "Session handling is untouched")
    assert q.capitalized == ("Component",)
    assert parse_task("Declaring That a Logger Can Throw an Exception").capitalized == ()
    q = parse_task("By default Flask will answer OPTIONS requests, see the Headers class")
    assert q.capitalized == ("Flask", "Headers")

    def kinds(query):
        return {c.text: c.kind for c in query.keywords if c.text.lower() in ("flask", "headers")}

    defined = {"Flask": 1, "Headers": 1, "flask": 0}
    promoted = defined_names(q, lambda n: defined.get(n, 0), lambda: frozenset({"flask"}))
    # Flask names the project's folder: a word still; Headers is the one class that has it
    assert kinds(promoted) == {"flask": "word", "Headers": "identifier"}
    # a name many files define, or none, is no telling name
    many = defined_names(q, lambda n: 9, frozenset)
    none = defined_names(q, lambda n: 0, frozenset)
    assert kinds(many) == kinds(none) == {"flask": "word", "headers": "word"}


def test_a_word_the_task_calls_a_function_is_a_name_when_the_code_defines_it():
    from iterative_retrieval.query import defined_names

    q = parse_task("When RecursionError is raised, return uuid from tokenize function; the "
                   "cleanup fixture and the `apart` method are fine, and so is the function")
    assert q.called == ("tokenize", "cleanup")  # `apart` is a name already; "the function"
    promoted = defined_names(q, lambda n: {"tokenize": 2, "cleanup": 0}.get(n, 0), frozenset)
    kinds = {c.text: c.kind for c in promoted.keywords}
    # defined by two files: a name; by none (a word the task merely calls so): a word
    assert kinds["tokenize"] == "identifier" and kinds["cleanup"] == "word", kinds
    assert parse_task("the select function of every backend", ).called == ("select",)
    many = defined_names(parse_task("the select function"), lambda n: 9, frozenset)
    assert {c.text: c.kind for c in many.keywords}["select"] == "word"


def test_a_word_too_common_to_search_is_a_name_where_the_task_writes_it_as_one():
    from iterative_retrieval.query import defined_names

    q = parse_task('implement ".Unwrap() error" on Error type')
    assert q.capitalized == ("Error",)
    assert "error" not in {c.text.lower() for c in q.keywords}  # too common a word to search
    promoted = defined_names(q, lambda n: {"Error": 2}.get(n, 0), frozenset)
    kinds = {c.text: c.kind for c in promoted.keywords}
    assert kinds.get("Error") == "identifier", kinds
    # defined nowhere, or by many files: no name, and nothing added
    for count in (0, 9):
        same = defined_names(q, lambda n, k=count: k, frozenset)
        assert "Error" not in {c.text for c in same.keywords}


def test_a_generic_word_that_names_a_module_is_a_keyword():
    from iterative_retrieval.query import named_modules

    q = parse_task("fix traceback for missing frame file")
    assert "traceback" in {c.text for c in q.fallback}  # a word of issues, kept aside
    named = named_modules(q, lambda w: {"traceback": 1, "file": 7}.get(w, 0))
    words = {c.text for c in named.keywords}
    assert "traceback" in words and "file" not in words, words  # file.py is everywhere
    assert "traceback" not in {c.text for c in named.fallback}
    # a verb of the change, "test" and the language name no module the task means
    for task in ("Remove the extra newline in the lock file", "Test pickling (Python>=3.5)"):
        q = parse_task(task)
        assert named_modules(q, lambda w: int(w in ("remove", "test", "python"))) == q, task


TRACEBACKS = {
    "rich/traceback.py": (
        "from .console import Console\n\n\nclass Frame:\n    filename: str\n    lineno: int\n\n\n"
        "class Traceback:\n    def _render_stack(self, stack):\n"
        "        for frame in stack.frames:\n"
        "            code = open(frame.filename).read()\n            yield code\n"),
    "rich/console.py": (
        "class Console:\n    def print_exception(self):\n"
        "        from .traceback import Traceback\n        return Traceback()\n\n"
        "    def set_alt_screen(self, missing=False):\n        # a missing screen: no frame\n"
        "        return missing\n"),
    "rich/errors.py": "class MissingStyle(Exception):\n    pass\n\n\nclass NoAltScreen(Exception):\n"
                      "    pass\n",
    **MISC,
}


ERRORS = {
    "errors.go": (
        "package gin\n\n// Error represents an error's specification.\ntype Error struct {\n"
        "\tErr  error\n\tType ErrorType\n}\n\ntype ErrorType uint64\n\n"
        "func (msg *Error) Error() string {\n\treturn msg.Err.Error()\n}\n"),
    "render/json.go": (
        "package render\n\n// JSON contains the given interface object.\ntype JSON struct {\n"
        "\tData any\n}\n\nvar jsonContentType = []string{\"application/json; charset=utf-8\"}\n\n"
        "// WriteContentType writes the JSON content type.\n"
        "func (r JSON) WriteContentType(w http.ResponseWriter) {\n"
        "\twriteContentType(w, jsonContentType)\n}\n"),
    "render/xml.go": (
        "package render\n\n// XML contains the given interface object.\ntype XML struct {\n"
        "\tData any\n}\n\nvar xmlContentType = []string{\"application/xml; charset=utf-8\"}\n\n"
        "// WriteContentType writes the XML content type.\n"
        "func (r XML) WriteContentType(w http.ResponseWriter) {\n"
        "\twriteContentType(w, xmlContentType)\n}\n"),
    **MISC,
}


CALLED = {
    "pkg/base.py": (
        "import uuid\n\n\ndef normalize(obj):\n    return str(obj)\n\n\n"
        "def tokenize(*args, **kwargs):\n    \"\"\"A deterministic token of the arguments.\"\"\"\n"
        "    return normalize((args, kwargs))\n"),
    "pkg/array/core.py": (
        "import uuid\n\nfrom ..base import tokenize\n\n\nclass Array:\n"
        "    def __init__(self, name=None):\n"
        "        self.name = name or 'array-' + tokenize(self)\n\n"
        "    def rename(self):\n        try:\n            return tokenize(self.name)\n"
        "        except ValueError:\n            return str(uuid.uuid4())\n"),
    **MISC,
}


TESTED = {
    "netx/classes/reportviews.py": (
        "class EdgeView:\n    def __init__(self, graph):\n        self._adjdict = graph._adj\n\n"
        "    def __getitem__(self, e):\n        u, v = e\n        return self._adjdict[u][v]\n"),
    "netx/classes/graph.py": (
        "from netx.exception import NetworkXError\n\n\nclass Graph:\n"
        "    def get_edge_data(self, u, v, default=None):\n"
        "        # an edge that is not present gives the default\n        try:\n"
        "            return self._adj[u][v]\n        except KeyError:\n"
        "            return default\n\n    def remove_edge(self, u, v):\n        try:\n"
        "            del self._adj[u][v]\n        except KeyError as err:\n"
        "            raise NetworkXError(f'The edge {u}-{v} is not present') from err\n"),
    "netx/exception.py": (
        "class NetworkXException(Exception):\n    pass\n\n\n"
        "class NetworkXError(NetworkXException):\n    \"\"\"A serious error: a missing edge.\"\"\"\n"),
    "netx/classes/tests/test_reportviews.py": (
        "from netx.classes.reportviews import EdgeView\n\n\ndef test_missing_edge():\n"
        "    assert EdgeView\n"),
    **MISC,
}


@pytest.mark.parametrize("files, task, first, said", [
    # `traceback` is a word of issues, kept aside, but rich's traceback.py is named for it: it
    # comes before the console that says `missing` and `frame`
    (TRACEBACKS, "fix traceback for missing frame file", "rich/traceback.py",
     "path matches traceback"),
    # `error` alone is too common to search, but written as a name it names the type `Error`:
    # its file comes before the renderers that say `type` most
    (ERRORS, 'implement ".Unwrap() error" on Error type', "errors.go", "defines `Error`"),
    # "tokenize function" names `tokenize`: the file defining it implements what the task
    # names, before the module that calls it with every other word of the task
    (CALLED, "When RecursionError is raised, return uuid from tokenize function", "pkg/base.py",
     "defines `tokenize`"),
    # a squash names the test it updated: the module that test tests is where the change is,
    # before the files that say the task's words most
    (TESTED, "Add better error message when trying to get edge that is not present\n\n"
     "* reraise KeyError instead for NetworkXError\n\n"
     "* Update netx/classes/tests/test_reportviews.py", "netx/classes/reportviews.py",
     "tested by `test_reportviews.py`, which the task names"),
], ids=["generic-word-module", "common-word-as-name", "called-a-function", "a-named-test-s-module"])
def test_the_file_the_task_names_in_its_words_comes_first(tmp_path, files, task, first, said):
    eng, _ = engine_for(tmp_path, files)
    res = eng.retrieve(task)
    assert res.files[0].path == first, [(f.path, f.relevance, f.reason) for f in res.files]
    assert said in res.files[0].reason


DEMOS = {
    "webkit/gen.py": (
        "import asyncio\n\nfrom webkit.concurrent import Future\n\n\ndef coroutine(func):\n"
        "    \"\"\"Wrap a generator function: calling it returns a Future, not a native "
        "coroutine.\"\"\"\n    def wrapper(*args):\n        return run(func(*args))\n"
        "    return wrapper\n\n\ndef run(gen):\n    if not hasattr(gen, 'send'):\n"
        "        raise ValueError('a generator is required')\n    return Future()\n\n\n"
        "def convert_yielded(yielded):\n    if asyncio.iscoroutine(yielded):\n"
        "        return asyncio.ensure_future(yielded)\n"
        "    raise ValueError('yielded unknown object')\n"),
    "webkit/concurrent.py": (
        "import asyncio\n\nFuture = asyncio.Future\n\n\ndef future_set_result(future, value):\n"
        "    if not future.done():\n        future.set_result(value)\n\n\n"
        "def chain_future(a, b):\n    \"\"\"Copy a Future's result, for decorated functions and "
        "native coroutines alike.\"\"\"\n    if not isinstance(b, Future):\n"
        "        raise ValueError('not a Future')\n    a.add_done_callback(lambda f: b.set_result(f))\n"),
    "webkit/ioloop.py": (
        "import asyncio\n\nfrom webkit import gen\nfrom webkit.concurrent import Future\n\n\n"
        "class IOLoop:\n    def run_sync(self, func):\n        result = gen.convert_yielded(func())\n"
        "        if not isinstance(result, Future):\n            raise ValueError('expected a Future')\n"
        "        return asyncio.run(result)\n\n    def add_future(self, future, callback):\n"
        "        future.add_done_callback(callback)\n"),
    "webkit/web.py": (
        "from webkit import gen\n\n\nclass RequestHandler:\n    @gen.coroutine\n"
        "    def post(self):\n        yield self.flush()\n\n    def flush(self):\n"
        "        return None\n"),
    "demos/file_upload/file_uploader.py": (
        "from webkit import gen\n\n\n@gen.coroutine\ndef post(names):\n"
        "    for name in names:\n        yield send(name)\n"),
    **MISC,
}


def test_an_example_the_task_names_by_its_path_implements_it(tmp_path):
    """Examples are seldom what a task changes, but the one a task names is what it is about:
    the demo comes first, before the library module its words describe (on tornado's tree the
    demo had stayed 24th, in the indirect band, behind the library it calls)."""
    eng, _ = engine_for(tmp_path, DEMOS)
    res = eng.retrieve(
        "Fix ValueError in file_uploader.py by converting @gen.coroutine to async/await\n\n"
        "The upload demo failed with ValueError when it sent files, because functions decorated\n"
        "with @gen.coroutine return webkit Future objects, while asyncio.run() expects native\n"
        "coroutines. Convert the decorated functions to native async/await syntax.\n\n"
        "- Remove the gen import\n- Convert @gen.coroutine decorators to async def\n"
        "- Convert yield statements to await\n")
    first = res.files[0]
    assert first.path == "demos/file_upload/file_uploader.py", \
        [(f.path, f.relevance, f.reason) for f in res.files]
    assert first.relevance >= 0.8 and first.reason.startswith("implements: named in the task")
    # a task that does not name it leaves the demo an example: indirect at most
    other = eng.retrieve("gen.run raises ValueError when a coroutine is converted to async/await")
    named = [f for f in other.files if f.path == "demos/file_upload/file_uploader.py"]
    assert all(f.relevance < 0.5 for f in named), [(f.path, f.relevance) for f in named]


ROUTERS = {
    "src/router/reg-exp-router/node.ts": (
        "const LABEL_REG_EXP_STR = '[^/]+'\nconst ONLY_WILDCARD_REG_EXP_STR = '.*'\n"
        "const TAIL_WILDCARD_REG_EXP_STR = '(?:|/.*)'\n"
        "export class Node {\n"
        "  insert(tokens: string[], pattern: string): void {\n"
        "    const label = tokens[0] === '*' ? TAIL_WILDCARD_REG_EXP_STR : LABEL_REG_EXP_STR\n"
        "    this.children[label] = pattern\n  }\n  children: Record<string, string> = {}\n}\n"),
    "src/router/trie-router/node.ts": (
        "export class Node {\n  children: Record<string, Node> = {}\n"
        "  insert(method: string, path: string): Node {\n"
        "    const parts = path.split('/')\n    let curNode: Node = this\n"
        "    for (const p of parts) {\n      // a wildcard matches the rest of the pattern\n"
        "      if (p === '*') break\n      curNode = curNode.children[p] ??= new Node()\n    }\n"
        "    return curNode\n  }\n}\n"),
    "src/router/trie-router/router.ts": (
        "import { Node } from './node'\nexport class TrieRouter {\n  node = new Node()\n"
        "  add(method: string, path: string) {\n    this.node.insert(method, path)\n  }\n}\n"),
    "src/middleware.ts": (
        "export * from './middleware/cors'\nexport * from './middleware/etag'\n"),
    "src/middleware/secure-headers/index.ts": (
        "export const secureHeaders = () => {\n  // sets the secure headers on every response\n"
        "  return async (c, next) => { await next(); c.header('X-Frame-Options', 'DENY') }\n}\n"),
    **MISC,
}


def test_a_commit_scope_written_as_a_path_names_the_files_there(tmp_path):
    """`fix(router/trie-router)` is the folder src/router/trie-router/, not any file of a
    `router` folder that says the task's words more (reg-exp-router's node.ts); a scope that
    is a file's name names that file."""
    eng, _ = engine_for(tmp_path, ROUTERS)
    res = eng.retrieve("fix(router/trie-router): fix label with trailing wildcard pattern")
    paths = [f.path for f in res.files]
    assert paths[0].startswith("src/router/trie-router/"), [(f.path, f.reason) for f in res.files]
    assert paths.index("src/router/trie-router/node.ts") < paths.index(
        "src/router/reg-exp-router/node.ts"), paths
    assert "router/trie-router/" in res.files[0].reason
    res = eng.retrieve("fix(`middleware.ts`): export secure-headers for Deno")
    assert res.files[0].path == "src/middleware.ts", [(f.path, f.reason) for f in res.files]


def test_a_task_word_meets_the_code_word_it_inflects(tmp_path):
    """"charset on renderers" is about render/render.go: `renderers` and `render` stem alike
    (the -er of `renderer` is a suffix, and so is the -er of `render`)."""
    files = {
        "render/render.go": (
            "package render\n\n// Render writes the response body.\ntype Render interface {\n"
            "\tRender(w http.ResponseWriter) error\n\tWriteContentType(w http.ResponseWriter)\n}\n\n"
            "func writeContentType(w http.ResponseWriter, value []string) {\n"
            "\theader := w.Header()\n\theader[\"Content-Type\"] = value\n}\n"),
        "render/json.go": (
            "package render\n\nvar jsonContentType = []string{\"application/json\"}\n\n"
            "func (r JSON) WriteContentType(w http.ResponseWriter) {\n"
            "\twriteContentType(w, jsonContentType)\n}\n"),
        "context.go": (
            "package gin\n\n// ContentType returns the Content-Type header of the request.\n"
            "func (c *Context) ContentType() string {\n"
            "\treturn filterFlags(c.requestHeader(\"Content-Type\"))\n}\n\n"
            "// Specify the status code; the content type is the caller's.\n"
            "func (c *Context) Status(code int) { c.Writer.WriteHeader(code) }\n"),
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    res = eng.retrieve("Specify utf-8 as content type charset on renderers")
    paths = [f.path for f in res.files]
    assert "render/render.go" in paths[:2], [(f.path, f.reason) for f in res.files]
    reason = next(f.reason for f in res.files if f.path == "render/render.go")
    assert "path matches renderers" in reason, reason


def test_a_reason_names_only_the_parts_of_a_name_a_file_says(tmp_path):
    """A file that holds SESSION_REFRESH_EACH_REQUEST whole "matches" it; one that says only
    `session` and `request` and is named after `session` says those parts, never the whole name
    it lacks."""
    files = {
        "app/config.py": "SESSION_REFRESH_EACH_REQUEST = True\nSESSION_COOKIE_NAME = 'session'\n",
        "app/session.py": ("def save_session(request, response):\n"
                           "    response.set_cookie('session', request.cookie_value)\n"),
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    res = eng.retrieve("SESSION_REFRESH_EACH_REQUEST is ignored when the cookie is saved")
    reasons = {f.path: f.reason for f in res.files}
    assert "matches SESSION_REFRESH_EACH_REQUEST" in reasons["app/config.py"], reasons
    part = reasons["app/session.py"]
    assert "SESSION_REFRESH_EACH_REQUEST" not in part, part
    said = part.split("matches ", 1)[1].split(";", 1)[0].split(", ")
    assert {"session", "request"} <= set(said) and "path matches session" in part, part


def test_a_source_file_does_not_miss_what_only_a_test_defines(tmp_path):
    """sessions.py's docstring shows `MySessionInterface()`, a class only a test defines: not
    missing context (the test is no part of it); the store it does use, defined in a source
    file not handed out, still is."""
    files = {
        "src/web/sessions.py": (
            'class SessionInterface:\n    """Replace it: app.session_interface = '
            'MySessionInterface()"""\n\n    def save_session(self, app, session):\n'
            "        return CookieJarStore().write(session)\n"),
        "src/web/stores.py": "class CookieJarStore:\n    def write(self, data):\n        return data\n",
        "tests/test_sessions.py": ("from web.sessions import SessionInterface\n\n\n"
                                   "class MySessionInterface(SessionInterface):\n    pass\n"),
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    res = eng.retrieve("save_session of the session interface loses the session",
                       Settings(cache_dir=str(tmp_path / "cache"), max_files=1))
    top = res.files[0]
    assert top.path == "src/web/sessions.py", [f.path for f in res.files]
    assert "MySessionInterface" not in top.missing, top.missing
    assert "CookieJarStore" in top.missing, top.missing


def first_and_reasons(eng, task: str) -> tuple[str | None, dict[str, str]]:
    """A retrieval's first file handed out, and every handed-out file's reason by path."""
    res = eng.retrieve(task)
    return (res.files[0].path if res.files else None), {f.path: f.reason for f in res.files}


def test_a_name_is_resolved_in_its_own_case(tmp_path):
    """route.go's `string(…)` conversion is no use of binder.go's `String` method, and the
    `Session(…)` a handler makes no use of a `session()` helper: code names a definition in
    its own case, so only the definition written so is related. (PHP, whose names are
    caseless, is the exception.)"""
    files = {
        "web/route.go": ("package web\n\n// Route is a route's method and path\ntype Route struct {\n"
                         "\tMethod []byte\n\tPath string\n}\n\n"
                         "func (r Route) Match(method string) bool {\n"
                         "\treturn string(r.Method) == method && Valid(r.Path)\n}\n"),
        "web/binder.go": ("package web\n\n// String binds a parameter to a string\n"
                          "func (b *Binder) String(name string) *Binder {\n\treturn b\n}\n\n"
                          "type Binder struct{}\n"),
        "web/valid.go": "package web\n\nfunc Valid(path string) bool {\n\treturn path != \"\"\n}\n",
        "app/handler.py": ("from app.store import Session\n\n\ndef handle_session(request):\n"
                           "    session = Session(request.cookies)\n    return session\n"),
        "app/store.py": "class Session:\n    def __init__(self, cookies):\n        self.cookies = cookies\n",
        "app/helpers.py": "def session():\n    return None\n",
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    first, reasons = first_and_reasons(eng, "Route.Match compares the method but ignores the path")
    assert first == "web/route.go", reasons
    assert "defines `Valid`, used by route.go" in reasons.get("web/valid.go", ""), reasons
    assert "used by route.go" not in reasons.get("web/binder.go", ""), reasons
    first, reasons = first_and_reasons(eng, "handle_session loses the session cookies")
    assert first == "app/handler.py", reasons
    assert "defines `Session`, used by handler.py" in reasons.get("app/store.py", ""), reasons
    assert "used by handler.py" not in reasons.get("app/helpers.py", ""), reasons


def test_a_go_import_names_a_package_folder_never_a_file_or_the_standard_library(tmp_path):
    """echo's echo.go imports `context` and `encoding/json`, the standard library's: its own
    context.go and json.go (and a helper package's echotest/context.go) are not imported by
    it. Its import of the project's store package is."""
    files = {
        "server.go": ('package web\n\nimport (\n\tstdContext "context"\n\t"encoding/json"\n'
                      '\t"example.com/web/pkg/store"\n)\n\n'
                      "// ServeRequest serves one request\n"
                      "func ServeRequest(ctx stdContext.Context) error {\n"
                      "\tstore.Save(ctx)\n\treturn json.NewEncoder(nil).Encode(nil)\n}\n"),
        "context.go": "package web\n\n// Context of a request served\ntype Context struct{}\n",
        "json.go": "package web\n\n// a request's JSON serializer\ntype Serializer struct{}\n",
        "echotest/context.go": ("package echotest\n\n// ServeContext makes a request context\n"
                                "func ServeContext() {}\n"),
        "pkg/store/store.go": ("package store\n\n// Save keeps the request served\n"
                               "func Save(ctx interface{}) {}\n"),
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    first, reasons = first_and_reasons(eng, "ServeRequest serves a request without its context")
    assert first == "server.go", reasons
    for path in ("context.go", "json.go", "echotest/context.go"):
        assert "imported by server.go" not in reasons.get(path, ""), (path, reasons)
    assert "imported by server.go" in reasons.get("pkg/store/store.go", ""), reasons


def test_a_python_import_written_whole_names_a_top_level_module(tmp_path):
    """pytest's terminal.py writes `import logging`, the standard library's: _pytest/logging.py
    is `_pytest.logging`, not imported by it. `from _pytest.reports import TestReport` and
    `import pluggy` (a top-level module of the tree) are imports of the project's files."""
    files = {
        "src/_pytest/__init__.py": "",
        "src/_pytest/terminal.py": (
            "import logging\nimport pluggy\nfrom _pytest.reports import TestReport\n\n\n"
            "class TerminalReporter:\n    def report_summary(self, report: TestReport):\n"
            "        logging.info(report)\n        pluggy.hook(report)\n"),
        "src/_pytest/logging.py": ("class LogCaptureHandler:\n    def emit(self, report):\n"
                                   "        self.reports.append(report)\n"),
        "src/_pytest/reports.py": "class TestReport:\n    outcome = 'passed'\n",
        "src/pluggy.py": "def hook(report):\n    return report\n",
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    first, reasons = first_and_reasons(eng, "TerminalReporter report_summary misses a report's outcome")
    assert first == "src/_pytest/terminal.py", reasons
    # it says the task's words: a candidate, whose one link was that import
    assert "imported by terminal.py" not in reasons.get("src/_pytest/logging.py", ""), reasons
    assert "imported by terminal.py" in reasons.get("src/_pytest/reports.py", ""), reasons
    assert "imported by terminal.py" in reasons.get("src/pluggy.py", ""), reasons


def test_a_node_module_import_names_no_file_of_the_project(tmp_path):
    """axios's dispatcher writes `import http from 'http'` (and `node:url`): Node's own modules,
    not lib/adapters/http.js or lib/url.js. Its relative import of the utils is the project's."""
    files = {
        "lib/core/dispatchRequest.js": (
            "import http from 'http';\nimport { URL } from 'node:url';\n"
            "import utils from '../utils.js';\n\n"
            "export default function dispatchRequest(config) {\n"
            "  return utils.merge(http.request(config.url), new URL(config.url));\n}\n"),
        "lib/adapters/http.js": ("export default function httpAdapter(config) {\n"
                                 "  return config.url + ' request dispatched';\n}\n"),
        "lib/url.js": "export function buildURL(config) {\n  return config.url + ' request';\n}\n",
        "lib/utils.js": "export default { merge(request, url) { return [request, url]; } };\n",
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    first, reasons = first_and_reasons(eng, "dispatchRequest dispatches the request to the wrong url")
    assert first == "lib/core/dispatchRequest.js", reasons
    for path in ("lib/adapters/http.js", "lib/url.js"):
        assert "imported by dispatchRequest.js" not in reasons.get(path, ""), (path, reasons)
    assert "imported by dispatchRequest.js" in reasons.get("lib/utils.js", ""), reasons


def test_rust_and_java_imports_of_their_own_library_name_no_file_of_the_project(tmp_path):
    """tokio's tcp.rs writes `use std::io;`: Rust's own io, not src/io/mod.rs; its
    `use crate::runtime::Handle;` is the project's. Java's `import java.util.List;` is no
    List.java of the project."""
    files = {
        "src/net/tcp.rs": ("use std::io;\nuse crate::runtime::Handle;\n\n"
                           "pub fn connect_stream(handle: Handle) -> io::Result<()> {\n"
                           "    handle.register_stream()\n}\n"),
        "src/io/mod.rs": "pub fn register_stream() -> Result<(), ()> {\n    Ok(())\n}\n",
        "src/runtime/handle.rs": ("pub struct Handle;\n\nimpl Handle {\n"
                                  "    pub fn register_stream(&self) {}\n}\n"),
        "app/Streams.java": ("package app;\n\nimport java.util.List;\nimport app.model.Stream;\n\n"
                             "public class Streams {\n    public List<Stream> connectStream() {\n"
                             "        return null;\n    }\n}\n"),
        "app/util/List.java": ("package app.util;\n\npublic class List {\n"
                               "    public void registerStream() {}\n}\n"),
        "app/model/Stream.java": ("package app.model;\n\npublic class Stream {\n"
                                  "    public void connect() {}\n}\n"),
        **MISC,
    }
    eng, _ = engine_for(tmp_path, files)
    first, reasons = first_and_reasons(eng, "connect_stream fails to register the stream")
    assert first == "src/net/tcp.rs", reasons
    assert "imported by tcp.rs" not in reasons.get("src/io/mod.rs", ""), reasons
    assert "imported by tcp.rs" in reasons.get("src/runtime/handle.rs", ""), reasons
    first, reasons = first_and_reasons(eng, "Streams.connectStream loses a registered stream")
    assert first == "app/Streams.java", reasons
    assert "imported by Streams.java" not in reasons.get("app/util/List.java", ""), reasons
    assert "imported by Streams.java" in reasons.get("app/model/Stream.java", ""), reasons



def test_the_file_declaring_the_option_the_task_names_comes_first(tmp_path, monkeypatch):
    """"`--collect-only` needs a short form" is about the code that declares the option, not the
    helper that passes it on: two files saying the same words, one calling `addoption(…)` with
    it and one `inline_run(…)`, are told apart by the declaration alone."""
    body = ("def collect_command(group):\n    # the collect command\n    return group.{}(\n"
            "        '--collect-only',\n        help='collect command',\n    )\n")
    files = {"plugin/alpha.py": body.format("inline_run"), "plugin/beta.py": body.format("addoption"),
             **{f"plugin/misc{i}.py": f"VALUE_{i} = {i}\n" for i in range(8)}}
    task = ("pytest --collect-only needs a one char shortcut command\n\n"
            "I find myself running `--collect-only` very often and the command is long to type.")
    margins = []
    for ablate in ("option", ""):
        monkeypatch.setenv("IR_ABLATE", ablate)
        eng, idx = engine_for(tmp_path / (ablate or "on"), files)
        q, _, _, evals = run_cycle(eng, idx, task)
        assert q.options == ("collect-only",)
        by_path = {e.path: e for e in evals}
        beta, alpha = by_path["plugin/beta.py"], by_path["plugin/alpha.py"]
        assert beta.options == [("collect-only", 4)] and not alpha.options
        margins.append(beta.score - alpha.score)
    assert evals[0].path == "plugin/beta.py", [e.path for e in evals]
    assert "declares `--collect-only` (line 4)" in evals[0].reason, evals[0].reason
    assert "declares" not in by_path["plugin/alpha.py"].reason
    assert margins[1] > margins[0] + 0.03, margins


def test_a_module_named_for_a_task_word_is_handed_out_when_a_rarer_word_outweighs_it(tmp_path):
    """"Silence linters about l= in palettes": "linters" is said by the Makefile alone, and its
    rarity took most of the task's weight, so `palettes.py`, named for the task's other word
    that many modules say, scored under the indirect band and was not handed out (seaborn's
    commit handed out the Makefile and `.travis.yml` only). Its name makes it indirect at least."""
    files = {
        "Makefile": "lint:\n\tflake8 pkg  # the linters\n\nlinters:\n\tpylint pkg\n",
        "pkg/palettes.py": "def color_palette(name):\n    l = len(name)\n    return [name] * l\n",
        **{f"pkg/plot{i}.py": f"from .palettes import color_palette\n\n\ndef plot{i}(palettes):\n"
                              f"    return [color_palette(p) for p in palettes]\n" for i in range(12)},
    }
    result = Engine([write_files(tmp_path / "ws", files)],
                    Settings(cache_dir=str(tmp_path / "c"))).retrieve(
        "Silence linters about l= in palettes")
    by_path = {f.path: f for f in result.files}
    named = by_path.get("pkg/palettes.py")
    assert named is not None, list(by_path)
    assert named.relevance >= 0.2 and "path matches palettes" in named.reason, named
    # the modules that only say the word (a parameter named `palettes`) are not lifted with it
    assert not [p for p in by_path if p.startswith("pkg/plot")], list(by_path)


@pytest.mark.parametrize("test, subject", [
    ("netx/classes/tests/test_reportviews.py", ("netx/classes/reportviews.py", "reportviews.py")),
    ("tests/test_app.py", ("app.py", "app.py")),
    ("pkg/views_test.py", ("pkg/views.py", "views.py")),
    ("binding/form_test.go", ("binding/form.go", "form.go")),
    ("src/__tests__/router.spec.ts", ("src/router.ts", "router.ts")),
    ("packages/core/test/render.test.jsx", ("packages/core/render.jsx", "render.jsx")),
    ("src/test/java/com/acme/InvoiceTest.java", ("src/java/com/acme/Invoice.java", "Invoice.java")),
    ("spec/models/user_spec.rb", ("models/user.rb", "user.rb")),
    # any folder the index takes for tests' (index/classify.py) is left out of the path
    ("e2e/checkout.test.ts", ("checkout.ts", "checkout.ts")),
    ("netx/classes/reportviews.py", None), ("tests/conftest.py", None),
])
def test_the_module_a_test_tests(test, subject):
    assert subject_of_test(test) == subject


def test_a_test_that_is_not_the_project_s_names_no_module():
    """A reporter's own `test_foo.py` (pytest's issues paste theirs) is no file of the project:
    nothing is added; nor when the module is ambiguous or missing."""
    q = parse_task("Failure in tests/test_foo.py when run with -p no:cacheprovider")
    assert modules_of_named_tests(q, lambda p: [], lambda p: ["foo.py"]) == q
    assert modules_of_named_tests(q, lambda p: ["tests/test_foo.py"], lambda p: []) == q
    assert modules_of_named_tests(q, lambda p: ["tests/test_foo.py"],
                          lambda p: ["a/foo.py", "b/foo.py"]) == q
    named = modules_of_named_tests(q, lambda p: ["tests/test_foo.py"],
                           lambda p: ["src/foo.py"] if p == "foo.py" else [])
    assert named.tested == (("src/foo.py", "tests/test_foo.py"),)
    assert [c.text for c in named.keywords if c.kind == "path"][-1] == "src/foo.py"
