"""Reading a task: frames, paths, identifiers, quoted messages and plain words."""

import time

import pytest
from bench.quality.wrap import GITHUB_BUG

from iterative_retrieval.query import conventional_header, parse_task
from iterative_retrieval.tokenize import stem


def kinds(q):
    """The task's concepts but its phrases (`phrases`: a channel of their own)."""
    return {c.text: c.kind for c in q.keywords if c.kind != "phrase"}


def phrases(q):
    return [c.text for c in q.keywords if c.kind == "phrase"]


def test_words_in_a_row_are_searched_as_the_name_code_would_write():
    """Two or three words in a row (no stop word among them) become one joined term each, as
    the index keeps a compound's whole: WORKER_START_TIMEOUT, tokenExpiry."""
    q = parse_task("fix(forks): increase worker start timeout")
    assert phrases(q)[:2] == ["increase worker start", "worker start timeout"]
    assert "start timeout" in phrases(q)
    joined = {c.text: c.terms for c in q.keywords if c.kind == "phrase"}
    assert joined["worker start timeout"] == ("workerstarttimeout",)
    q = parse_task("Fix the authentication token expiry bug")
    assert {"authentication token", "token expiry"} <= set(phrases(q))
    # a stop word or a mark breaks the run
    assert phrases(parse_task("Prevent a KeyError when there's no link headers")) == [
        "link headers"]
    assert phrases(parse_task("cache, retry: backoff")) == []
    assert not any(c.strong for c in q.keywords if c.kind == "phrase")  # never a critical gap


def test_a_hyphenated_word_is_searched_as_the_one_word_code_writes():
    """Prose writes `f-strings`, `time-out`, `--dry-run`; code writes `fstring`, `timeout`,
    `dry_run`: each hyphenated word is a joined term of its own, single letters included, as
    written in the trace. Not one of stop words only, nor a chain of four parts or more."""
    q = parse_task("Crash on f-strings with a time-out; `--dry-run` prints nothing; on-the-fly "
                   "re-try of a well-known long-winded-run-on thing")
    joined = {c.text: c.terms for c in q.keywords if c.kind == "phrase"}
    assert joined["f-strings"] == (stem("fstring"),)
    assert joined["time-out"] == ("timeout",) and joined["dry-run"] == ("dryrun",)
    assert joined["re-try"] == (stem("retry"),) and joined["well-known"] == ("wellknown",)
    assert "on-the-fly" in joined  # a word among stop words
    assert not any(t.count("-") >= 3 or t.startswith("long-") for t in joined)
    assert phrases(parse_task("wrap the multi-line strings")) == ["multi-line", "line strings"]
    assert phrases(parse_task("wrap it in-between")) == []  # stop words only
    assert phrases(parse_task("a a-b")) == []  # too short to be a name
    # it stands in for the task's words among its parts
    q = parse_task("the sub-command's e-mail")
    origin = {c.text: c.origin for c in q.keywords if c.kind == "phrase"}
    assert origin["sub-command"] == ("sub", "command") and origin["e-mail"] == ("mail",)


def test_plain_task_drops_stop_words_and_task_verbs():
    """'Fix the authentication token expiry bug' keeps only the domain words."""
    q = parse_task("Fix the authentication token expiry bug")
    assert set(kinds(q)) == {"authentication", "token", "expiry"}
    assert all(c.kind == "word" for c in q.keywords if c.kind != "phrase")


def test_generic_words_are_kept_aside_as_a_fallback():
    """Verbs and issue words are not keywords, but the task's last clue when nothing else matches
    (a verb that names an operation, "the add op", is a keyword: see below)."""
    q = parse_task("vgo - adding support to work with vgo")
    assert set(kinds(q)) == {"vgo"}
    assert {c.text for c in q.fallback} == {"adding", "support", "work"}
    assert all(c.weight < 1.0 for c in q.fallback)
    q = parse_task("vgo - fixing up the add op to work with vgo")
    assert set(kinds(q)) == {"vgo", "add"}
    assert {c.text for c in q.fallback} == {"fixing", "work"}
    # a word that is a keyword is not a fallback too; function words are neither
    q = parse_task("Fix the token bug: the token expiry check fails")
    assert {c.text for c in q.fallback} == {"fix", "bug"}


def test_contractions_and_possessives_give_their_word_or_nothing():
    """`there's` is a stop word, `user's` says user, `shouldn't` says nothing."""
    assert set(kinds(parse_task("Prevent a KeyError when there's no link headers"))) == {
        "KeyError", "link", "headers"}
    assert set(kinds(parse_task("the user's token shouldn't expire"))) == {"user", "token", "expire"}


def test_tex_quotes_are_a_message_and_flags_are_no_paths():
    """``TeX quotes'' do not pair their backticks across the prose; -g/--glob is a flag."""
    q = parse_task("Fixes ``Response not working with lxml''. The lxml attempt calls .geturl() on "
                   "the response object, so ``response.geturl'' returned None")
    assert kinds(q)["Response not working with lxml"] == "quoted"
    assert kinds(q)["attempt"] == "word" and kinds(q)["object"] == "word"
    q = parse_task("leading slash in -g/--glob paths and -U/--multiline; see src/ignore/walk.rs")
    assert "path" not in {kinds(q).get(t) for t in ("-g/--glob", "-U/--multiline")}
    assert kinds(q)["src/ignore/walk.rs"] == "path"


def test_error_reports_of_other_languages():
    """An exception heading is no component scope; PHP's `file.php(17)` frames keep their name and
    line."""
    for head in ("System.NullReferenceException: Object reference not set to an instance",
                 "NoMethodError: undefined method `total' for nil", "panic: runtime error: index"):
        assert "scope" not in set(kinds(parse_task(head)).values()), head
    assert "scope" in set(kinds(parse_task("ignore: fix handling of **")).values())
    php = ("PHP Fatal error: Uncaught Error in /var/www/app/src/Billing/Invoice.php:42\n"
           "#0 /var/www/app/src/Controller/Checkout.php(17): App\\Billing\\Invoice->total()")
    q = parse_task(php)
    assert kinds(q)["/var/www/app/src/Controller/Checkout.php"] == "frame"
    assert ("/var/www/app/src/Controller/Checkout.php", 17) in [(f.path, f.line) for f in q.frames]


def test_dotnet_frames():
    """`at Ns.Class.Method() in C:\\src\\File.cs:line 42` is a frame, innermost first."""
    q = parse_task(
        "System.NullReferenceException: Object reference not set to an instance of an object.\n"
        "   at Shop.Billing.InvoiceService.ComputeTotal() in C:\\src\\Shop\\Billing\\InvoiceService.cs:line 42\n"
        "   at Shop.Web.CheckoutController.Post(Int32 id) in /src/Shop/Web/CheckoutController.cs:line 17\n")
    assert [(f.path, f.line, f.function) for f in q.frames] == [
        ("/src/Shop/Billing/InvoiceService.cs", 42, "ComputeTotal"),  # the drive is dropped
        ("/src/Shop/Web/CheckoutController.cs", 17, "Post")]
    weights = {c.text: c.weight for c in q.keywords if c.kind == "frame"}
    assert weights["/src/Shop/Billing/InvoiceService.cs"] > weights["/src/Shop/Web/CheckoutController.cs"]
    assert "InvoiceService.cs" not in kinds(q)  # the frame's file name is not a second path


@pytest.mark.parametrize("trace, frames", [
    ("#0  0x00007ffff7a in jv_parse_sized (string=0x0, length=3) at src/jv_parse.c:873\n"
     "#1  jv_load_file (filename=0x5555) at src/jv_file.c:40\n",
     [("src/jv_parse.c", 873, "jv_parse_sized"), ("src/jv_file.c", 40, "jv_load_file")]),
    ("==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020\n"
     "    #0 0x4a1b2c in fmt::v10::detail::write_padded include/fmt/format.h:1723:5\n"
     "    #1 0x4a1b2d in main test/format-test.cc:42:3\n",
     [("include/fmt/format.h", 1723, "write_padded"), ("test/format-test.cc", 42, "main")]),
    ("==1== Invalid read of size 8\n==1==    at 0x4C2A: jv_free (jv.c:1410)\n"
     "==1==    by 0x4C3B: jq_teardown (execute.c:1235)\n",
     [("jv.c", 1410, "jv_free"), ("execute.c", 1235, "jq_teardown")]),
    ("panic: runtime error: invalid memory address or nil pointer dereference\n"
     "goroutine 1 [running]:\n"
     "github.com/labstack/echo/v4.(*Echo).ServeHTTP(0xc000, {0x1, 0x2})\n"
     "\t/home/me/echo/echo.go:662 +0x3a\nmain.main()\n\t/home/me/app/main.go:12 +0x25\n",
     [("/home/me/echo/echo.go", 662, "ServeHTTP"), ("/home/me/app/main.go", 12, "main")]),
    ("there is a bug in src/app/cache.py:42 when the key is missing",
     [("src/app/cache.py", 42, None)]),
    ("def renew(token):\n    src/app/cache.py:42\n", [("src/app/cache.py", 42, None)]),
], ids=["gdb", "sanitizer", "valgrind", "go", "prose", "code-above"])
def test_native_frames_name_their_function(trace, frames):
    """gdb, the sanitizers and valgrind write a frame's function before its file, a Go panic
    on the line above it: the frame is named by it (its region is the function's, where the
    reporter's line numbers drift)."""
    assert [(f.path, f.line, f.function) for f in parse_task(trace).frames] == frames


def test_dart_package_frames_are_the_packages_lib_files():
    """`package:shelf_router/src/router.dart:152:7` is lib/src/router.dart of the package, in the
    trace's order; an SDK frame (`dart:core`) names no project file."""
    q = parse_task(
        "#0      Router.handle (package:shelf_router/src/router.dart:152:7)\n"
        "#1      List.forEach (dart:core-patch/growable_array.dart:416:8)\n"
        "#2      main (file:///app/bin/server.dart:12:3)\n")
    assert [(f.path, f.line) for f in q.frames] == [
        ("lib/src/router.dart", 152), ("app/bin/server.dart", 12)]


def test_dotnet_frames_of_generic_methods_and_types():
    """A generic method (`Implementation[TResult]`) or type (`Policy`1`) is still a frame, named
    by its method: it was read as a bare path, its line lost."""
    q = parse_task(
        "System.InvalidOperationException: Sequence contains no elements\n"
        "   at Polly.Retry.RetryEngine.Implementation[TResult](Func`3 action, Context context, "
        "CancellationToken token) in /src/Polly/Retry/RetryEngine.cs:line 42\n"
        "   at Polly.Policy`1.Execute[TResult, TOther](Context ctx) in /src/Polly/Policy.TResult.cs:line 7\n")
    assert [(f.path, f.line, f.function) for f in q.frames] == [
        ("/src/Polly/Retry/RetryEngine.cs", 42, "Implementation"),
        ("/src/Polly/Policy.TResult.cs", 7, "Execute")]


def test_absolute_path_line_frames_go_panics():
    """A Go panic's `/abs/path/file.go:42 +0x1d` lines are frames with their lines, innermost first."""
    q = parse_task("panic: runtime error: index out of range [3] with length 3\n\n"
                   "goroutine 1 [running]:\nmain.computeTotal(...)\n"
                   "\t/home/me/shop/billing/invoice.go:42 +0x1d\nmain.main()\n"
                   "\t/home/me/shop/main.go:17 +0x25\n")
    assert [(f.path, f.line) for f in q.frames] == [
        ("/home/me/shop/billing/invoice.go", 42), ("/home/me/shop/main.go", 17)]
    weights = {c.text: c.weight for c in q.keywords if c.kind == "frame"}
    assert weights["/home/me/shop/billing/invoice.go"] > weights["/home/me/shop/main.go"]


def test_frames_in_files_of_other_languages():
    """Vue, ES modules and Elixir files with a line are frames too."""
    for text, path in (("TypeError at src/components/Cart.vue:42:7", "src/components/Cart.vue"),
                       ("error in lib/cart.mjs:12", "lib/cart.mjs"),
                       ("(shop 0.1.0) lib/shop/invoice.ex:42: Shop.Invoice.total/1", "lib/shop/invoice.ex")):
        assert [f.path for f in parse_task(text).frames] == [path], text
    q = parse_task("the Cart.vue component flickers when styles.scss changes")
    assert kinds(q)["Cart.vue"] == "path" and kinds(q)["styles.scss"] == "path"


def test_two_words_joined_by_a_slash_are_words_too():
    """`slice/array` may be a folder; if it is not, its words are what the task says."""
    k = kinds(parse_task("fix(binding): improve empty slice/array handling in form binding"))
    assert k["slice/array"] == "path" and k["slice"] == "word" and k["array"] == "word"
    k = kinds(parse_task("the walker in src/ignore/walk.rs skips hidden files"))
    assert k["src/ignore/walk.rs"] == "path" and "walk" not in k


def test_commit_types_in_a_squashed_body_are_no_words():
    """`* feat: add GetRawData func` lines of a squash merge: feat says what kind, not where."""
    assert set(kinds(parse_task("feat: add GetRawData func.  * feat: add GetRawData func.  "
                                "* chore: update return style"))) == {"GetRawData", "func", "style"}


def test_commit_trailers_and_converted_histories_say_no_task_words():
    """Signed-off-by and co-author lines name people (their e-mail addresses read as dotted
    names); a history converted from Mercurial or Subversion carries `--HG--` blocks,
    `git-svn-id:` lines and `[svn]` marks; `[skip ci]` tells CI what to do. None is the task."""
    q = parse_task(
        "[svn] fix the cache eviction in LRUCache [skip ci]\n\n"
        "Signed-off-by: Steve Francia <steve.francia@gmail.com>\n"
        "Co-authored-by: Albert Smith <al@example.org>\n"
        "git-svn-id: http://svn.example.org/repo/trunk@1234 6015fed2-1504-0410-9fe1-9d1591cc4771\n"
        "\n--HG--\nbranch : trunk\nextra : rebase_source : 0a1b2c3d\n")
    assert set(kinds(q)) == {"LRUCache", "eviction"}
    # a line that only starts like a trailer is the task's
    assert "reviewer" in kinds(parse_task("Cc list: notify the reviewer when a build fails"))


def test_what_bots_and_the_review_page_wrote_in_a_squash_is_no_task_word():
    """A pull request's squashed message lists pre-commit.ci's fix-ups and their link, GitHub's
    "Apply suggestions from code review" and merges of the base branch: none says what the
    change is. A task about pre-commit itself keeps its words."""
    q = parse_task(
        "Added attrs.validators.min_len()\n\n* Added attrs.validators.min_len()\n\n"
        "* [pre-commit.ci] auto fixes from pre-commit.com hooks\n\n"
        "for more information, see https://pre-commit.ci\n\n"
        "* Apply suggestions from code review\n\n"
        "* Merge branch 'main' into min-len\n"
        "Merge remote-tracking branch 'origin/main' into feature/x\n")
    assert not {"pre", "commit", "hooks", "fixes", "information", "suggestions", "review",
                "merge", "branch", "main"} & set(kinds(q)), kinds(q)
    assert "min_len" in kinds(q)
    kept = set(kinds(parse_task("[pre-commit.ci] pre-commit autoupdate: bump the ruff hooks")))
    assert {"autoupdate", "ruff", "hooks"} <= kept, kept
    # as the whole task, on a branch, the line asks for the work at hand: its words stay
    assert {"suggestions", "review"} <= set(kinds(parse_task(
        "\n Apply suggestions from code review\n")))


def test_a_pasted_git_log_and_commit_ids_say_no_task_words():
    """A squash merge's message holds `git log` of the commits it squashed: the commit, author
    and date lines, whose hashes' letter runs (`edbfe`, `dfab`) were read as words. A commit id
    or an address elsewhere (`since 9017ca5`, `at 0x7f3a9b2c10`) is no word either; a word made
    only of hex letters (`deadbeef`, `faced`) and a path whose folder is a hash stay."""
    log = ("commit 8edbfe3bfc3fd2ac86fac069bc112d8d7a5d2ffd\n"
           "Merge: 9017ca5 5b4c455\n"
           "Author: longbai <slongbai@gmail.com>\n"
           "Date:   Wed Feb 25 16:54:21 2015 +0800\n\n"
           "    request create from byte range\n\n"
           "commit dfab0792453cbf5807718c84f54f6e63de3678ce (HEAD -> main, origin/main)\n"
           "Author: longbai <slongbai@gmail.com>\n"
           "Date:   Wed Feb 25 11:32:02 2015 +0800\n\n"
           "    remove duplicated code\n")
    q = parse_task("Squashed commit of the following:\n\n" + log)
    said = {"request", "create", "byte", "range", "remove", "duplicated", "code"}
    assert {"request", "byte", "range", "duplicated"} <= set(kinds(q)) <= said, kinds(q)
    assert not {"commit", "author", "date", "longbai", "edbfe", "dfab", "squashed"} & set(kinds(q))
    k = kinds(parse_task("Regression since 9017ca5: <Parser object at 0x7f3a9b2c10> loses "
                         "deadbeef frames; see 5b4c4553/faced.py"))
    assert {"regression", "parser", "deadbeef", "frames", "5b4c4553/faced.py"} <= set(k), k
    assert not {"ca", "fa", "b", "c"} & set(k)
    # a sentence that starts like a log's line is the reporter's
    k = kinds(parse_task("commit 9017ca5 broke the tokenizer\nAuthor: the plugin's author field "
                         "is ignored\nDate: parsing drops the timezone"))
    assert {"broke", "tokenizer", "plugin", "field", "parsing", "timezone"} <= set(k), k


def test_an_acronym_s_plural_is_a_word_and_an_acronym_ending_in_s_is_whole():
    """`APIs` and `URLs` are plural words (api, url), not identifiers split as `AP`+`Is`; and
    `HTTPS`, `DNS`, `TLS`, `CORS` are no plurals: they had lost their S, and the three-letter
    ones the word itself (`dn`, `tl` are too short to search)."""
    q = parse_task("CORS preflight fails over HTTPS; the DNS lookup and the TLS handshake of "
                   "the APIs and URLs")
    words = {c.text: c for c in q.keywords}
    assert {"cors", "https", "dns", "tls", "api", "url"} <= set(words), words
    assert words["api"].kind == words["url"].kind == "word"
    assert words["dns"].terms == ("dns",) and words["tls"].terms == ("tls",)


def test_a_pasted_environment_report_says_no_task_words():
    """`pip list` rows (with a local version's `+g95b8e1a.dirty` and an editable install's
    location) and the plugin lines of pytest's header name the reporter's machine, not the
    code: left in, the location's folders were paths and the version's parts identifiers."""
    task = "Dynamically adding an `xfail` marker with `add_marker` no longer ignores the failure"
    env = ("\n\n```\n$ pip list\nPackage    Version    Location\n"
           "---------- ---------- ----------------------------\n"
           "attrs      19.1.0\n"
           "geopandas  0.6.0+1.g95b8e1a.dirty   /Users/me/sandbox/geopandas\n"
           "sunpy      1.1.dev518+gcad2d473f.d20191103 /Users/me/sandbox/sunpy\n"
           "pandas     1.1.0.dev0+1758.g035e1fe831\n```\n\n"
           "```\nplatform darwin -- Python 3.7.6, pytest-6.0.0rc1\n"
           "hypothesis profile 'default' -> "
           "database=DirectoryBasedExampleDatabase('/Users/me/sandbox/.hypothesis/examples')\n"
           "```\n")
    assert kinds(parse_task(task + env)) == kinds(parse_task(task))
    assert kinds(parse_task(task + env.replace("\n", "\r\n"))) == kinds(parse_task(task))
    conda = "\n\n```\n# Name  Version  Build  Channel\nnumpy  1.21.2  py39h20f2e39_0  conda-forge\n```"
    assert kinds(parse_task(task + conda)) == kinds(parse_task(task))
    # a sentence that starts like a row is the task's
    k = kinds(parse_task("Python 3.x complains about the `collections.Mapping` vs "
                         "`collections.abc.Mapping`; Python 3.8 warns about the shim too"))
    assert {"Mapping", "shim", "warns"} <= set(k), k


def test_an_interpreter_s_banner_and_a_version_check_say_no_task_words():
    """A pasted session opens with the interpreter's banner (Python's, IPython's) and often
    looks at the package's version: `IPython`, `copyright`, `sympy` and `__version__` were read
    as the task's identifiers and words."""
    task = ("Substituting b by a gives 1, though the expression is undefined there\n\n"
            "```\n{banner}\nIn [1]: from sympy import symbols\n\n"
            "In [2]: r = (1/(a+b) + 1/(a-b))/(1/(a+b) - 1/(a-b))\n\n"
            "In [3]: r.subs(b,a)\nOut[3]: 1\n\n{version}```\n")
    plain = kinds(parse_task(task.format(banner="", version="")))
    banners = [
        "Python 3.6.4 |Anaconda custom (64-bit)| (default, Dec 21 2017, 15:39:08) \n"
        "Type 'copyright', 'credits' or 'license' for more information\n"
        "IPython 6.2.1 -- An enhanced Interactive Python. Type '?' for help.\n",
        "Python 3.6.0 |Continuum Analytics, Inc.| (default, Dec 23 2016, 12:22:00)\n"
        'Type "copyright", "credits" or "license" for more information.\n\n'
        "IPython 5.1.0 -- An enhanced Interactive Python.\n"
        "?         -> Introduction and overview of IPython's features.\n"
        "%quickref -> Quick reference.\nhelp      -> Python's own help system.\n"
        "object?   -> Details about 'object', use 'object??' for extra details.\n",
        "Python 3.6.9 (default, Jan 26 2021, 15:33:00)\n[GCC 8.4.0] on linux\n"
        'Type "help", "copyright", "credits" or "license" for more information.\n',
    ]
    versions = ["In [7]: import sympy; sympy.__version__\nOut[7]: '1.1.1'\n",
                ">>> sympy.__version__\n'1.8'\n"]
    for banner in banners:
        for version in versions:
            assert kinds(parse_task(task.format(banner=banner, version=version))) == plain
    # a task about the version attribute itself still says it
    assert "__version__" in kinds(parse_task("`flask.__version__` is deprecated: use importlib"))


ISSUE_FORM = """### Bug summary

{task}

### Expected outcome

_No response_

### Operating system

macOS 14.1

### Python version

3.11.5

### Installation

pip

**Environment info**
- OS: Windows 11
- Sphinx version: 7.1.2
- Extensions: autodoc, napoleon
"""


def test_an_issue_template_s_boilerplate_is_no_part_of_the_task():
    """A task pasted into GitHub's default bug template or an issue form reads as the bare
    task: the template's headings, placeholders and environment fields say nothing, and its
    first heading is no title."""
    task = "The session cookie is not refreshed after `login()` when the token expires"
    bare = kinds(parse_task(task))
    for template in (GITHUB_BUG, ISSUE_FORM):
        q = parse_task(template.format(task=task))
        assert kinds(q) == bare, template
        assert phrases(q) == phrases(parse_task(task))
    # the reporter's own headings and answers stay
    k = kinds(parse_task("### Session cookie not refreshed\n\nThe cookie expires.\n\n"
                         "### Steps to reproduce\n\nCall `refresh_session` twice.\n\n"
                         "### Operating system\n\nSee the traceback: the scheduler of "
                         "`SessionStore` in the renewal thread crashes before it writes"))
    assert {"cookie", "refresh_session", "SessionStore", "scheduler"} <= set(k)
    assert not {"steps", "reproduce", "operating"} & set(k)
    # a line that only looks like an environment line is the task's
    assert "node" in kinds(parse_task("Node: the node id is lost when a tree is copied"))


PR_CHECKLIST = """{task}

## Checklist

- [x] I think the code is well written
- [ ] If you provide code modification, please add yourself to
`CONTRIBUTORS.txt`
  * The format is &lt;Name&gt; &lt;Surname&gt;.
- [ ] Add a new news fragment into the `CHANGES` folder
  * name it `<issue_id>.<type>` for example (588.bugfix)
* if you don't have an `issue_id` change it to the pr id after creating
the pr
  * ensure type is one of the following:
    * `.feature`: Signifying a new feature.
    * `.misc`: A ticket has been closed, but it is not of interest to users.

## Summary

- Strips the trailing dot in `ssl_context`.
"""


def test_a_pull_request_s_checklist_section_is_no_part_of_the_task():
    """A squash merge's pull request template: the check-list section's boxes and what their
    items go on to say (`CONTRIBUTORS.txt`, `issue_id`, `.feature`) are the template's; the
    heading after it, and the task, stay."""
    task = "Strip the trailing dot from FQDNs in the Host header and the TLS context"
    k = kinds(parse_task(PR_CHECKLIST.format(task=task)))
    assert not {"CONTRIBUTORS.txt", "issue_id", "feature", "misc", "surname"} & set(k), k
    assert {"trailing", "fqdn", "ssl_context"} <= {w.lower() for w in k}, k
    # the word itself in a sentence is the reporter's
    assert "checklist" in kinds(parse_task("The release checklist script skips the tag"))
    # the section is its list: the reporter's paragraph after it stays, under any heading
    for heading in ("**Description**", "### Description", ""):
        k = kinds(parse_task(f"Cookie not refreshed\n\n**Checklist**\n- [x] I searched the "
                             f"issues\n\n{heading}\nThe session cookie is not refreshed after "
                             "`login()`"))
        assert {"session", "cookie", "login"} <= set(k) and "searched" not in k, (heading, k)


def test_a_copy_of_an_issue_page_or_a_tracker_s_fields_reads_as_the_issue():
    """Copied from the issue's web page (who commented when, the side panel) or from a
    tracker (Jira's Priority, Affects Version/s, Summary:), the task reads as its own words;
    a component's value stays, and a commit's `fix:` header is no field."""
    task = "The session cookie is not renewed when the token expires"
    page = ("Session cookie not renewed #4821\nOpen\n"
            "janedoe opened this issue on Mar 3, 2024 · 5 comments\n"
            "janedoe commented on Mar 3, 2024\n" + task + "\n\n"
            "bob commented on Mar 4, 2024 • edited\nSame here.\n 👍 3\n"
            "Assignees\nNo one assigned\nLabels\nbug\nProjects\nNone yet\n"
            "Milestone\nNo milestone\nDevelopment\nNo branches or pull requests\n"
            "3 participants\n")
    assert set(kinds(parse_task(page))) == set(kinds(parse_task("Session cookie not renewed\n"
                                                                + task)))
    jira = ("Summary: Session cookie not renewed\nPriority: Major\nComponent/s: auth\n"
            "Affects Version/s: 2.3.1\nFix Version/s: None\nLabels: backend, regression\n\n"
            "Description:\n" + task + "\n")
    assert set(kinds(parse_task(jira))) == set(kinds(parse_task(
        "Session cookie not renewed\nauth\n" + task)))
    assert "fix" not in kinds(parse_task("fix: status: keep the reporter's label"))
    assert {"status", "reporter", "label"} <= set(kinds(parse_task(
        "fix: status: keep the reporter's label")))


def test_a_terminal_s_colours_are_no_part_of_a_pasted_log():
    """pytest's coloured output, with its escape codes or with the escape character lost in
    the copy, reads as the plain output: its frames (and their functions) are found."""
    plain = ("tests/test_session.py:10: in test_renew\n    store.renew(None)\n"
             "src/app/session_store.py:42: in renew\n    return self._cookie.refresh()\n"
             "E   AttributeError: 'NoneType' object has no attribute 'refresh'\n")
    coloured = ("\x1b[1m\x1b[31mtests/test_session.py\x1b[0m:10: in test_renew\n"
                "    store.renew(None)\n"
                "\x1b[1m\x1b[31msrc/app/session_store.py\x1b[0m:42: in renew\n"
                "    return self._cookie.refresh()\n"
                "\x1b[1m\x1b[31mE   AttributeError: 'NoneType' object has no attribute "
                "'refresh'\x1b[0m\n")
    want = [("tests/test_session.py", 10, "test_renew"), ("src/app/session_store.py", 42, "renew")]
    for text in (plain, coloured, coloured.replace("\x1b", "")):
        q = parse_task(text)
        assert sorted((f.path, f.line, f.function) for f in q.frames) == sorted(want), text
        assert kinds(q) == kinds(parse_task(plain))
    # a lost escape's reset `[m` is no part of a tag or a list's `[main]`
    k = kinds(parse_task("[man] the [main] page of the manual [m loses its macros"))
    assert {"(man)", "main", "macros"} <= set(k), k
    ruby = parse_task("/app/lib/shop/cart.rb:12:in `total': undefined method `+' for nil\n"
                      "\tfrom /app/lib/shop/order.rb:30:in `block in checkout'\n")
    assert [(f.path, f.function) for f in ruby.frames] == [
        ("/app/lib/shop/cart.rb", "total"), ("/app/lib/shop/order.rb", "checkout")]


def test_emoji_shortcodes_and_pasted_images_say_nothing():
    """gitmoji's `:bug:` and a comment's `:white_check_mark:` (read as identifiers), and a
    pasted screenshot, are decoration; a slice's `[:step_size:]` is code."""
    q = parse_task(":bug: Fix session cookie renewal :white_check_mark: :sweat_smile:\n"
                   "![image](https://user-images.githubusercontent.com/1/2.png)\n"
                   '<img width="500" alt="Screenshot 2024" src="https://x.example/y.png">')
    assert set(kinds(q)) == {"session", "cookie", "renewal"}
    assert kinds(parse_task("values[:step_size:] skips one"))["step_size"] == "identifier"
    # an e-mail address is no dotted name, and a reply's header no task
    q = parse_task("On Mon, Mar 3, 2024 at 10:00 AM Jane Doe <jane.doe@example.com> wrote:\n"
                   "> the session cookie is not renewed; ask ops@corp.example.org")
    assert set(kinds(q)) == {"session", "cookie", "renewed", "ask"}
    assert "lodash" in kinds(parse_task("pin lodash@4.17.21 in the lockfile"))


def test_a_browser_s_frames_go_test_failures_and_rust_panics():
    """A bundler's or dev server's frame names its file by URL (webpack-internal:///./src/…,
    http://localhost:5173/src/…?t=…): the path is the frame. Go's `--- FAIL: TestRenew` names
    the test; Rust's panic line and its standard note are no task words; `<anonymous>` is no
    function name."""
    q = parse_task("TypeError: Cannot read properties of undefined (reading 'map')\n"
                   "    at renderList (webpack-internal:///./src/components/List.tsx:42:18)\n"
                   "    at HTMLButtonElement.<anonymous> (http://localhost:3000/static/js/main.js:120:5)\n"
                   "    at http://localhost:5173/src/lib/session.ts?t=1700000000:12:3\n")
    got = {(f.path, f.line, f.function) for f in q.frames}
    assert {("src/components/List.tsx", 42, "renderList"), ("src/lib/session.ts", 12, None),
            ("static/js/main.js", 120, "<anonymous>")} == got, got
    assert "<anonymous>" not in kinds(q) and "webpack" not in kinds(q)
    assert not any(p.startswith("3000") for p in kinds(q))
    go = parse_task("--- FAIL: TestRenew (0.00s)\n    session_test.go:42: expected a renewed "
                    "cookie, got nil\n")
    assert kinds(go)["TestRenew"] == "identifier" and kinds(go)["session_test.go"] == "frame"
    rust = parse_task("thread 'main' panicked at src/session.rs:42:5:\ncalled `Option::unwrap()`"
                      " on a `None` value\nnote: run with `RUST_BACKTRACE=1` environment variable"
                      " to display a backtrace\n")
    assert set(kinds(rust)) == {"src/session.rs", "unwrap", "Option"}


def test_single_letters_around_a_slash_are_no_path():
    """N/A, I/O and w/o are words of prose, never files."""
    assert "path" not in kinds(parse_task("Extra tools: N/A. The I/O loop stalls w/o a timer")
                               ).values()


def test_windows_paths_are_paths():
    """`C:\\Users\\me\\proj\\src\\a.py` in prose is a path; its folders are no words."""
    k = kinds(parse_task("The file C:\\Users\\me\\proj\\src\\billing\\invoice_service.py "
                         "fails to load, also src\\billing\\tax.py"))
    assert k["/Users/me/proj/src/billing/invoice_service.py"] == "path"
    assert k["src/billing/tax.py"] == "path"
    assert not {"users", "proj"} & set(k)


def test_a_bare_file_name_may_have_dots_inside():
    """`reply.d.ts`, `index.test.js`, `vite.config.ts` are file names, not words and a `ts`; a
    Python module has no dots in its name, so `sympy.core.mul.py` is its dotted path; a call on
    a name (`response.json()`) or a dotted name without an extension is no path."""
    k = kinds(parse_task("fix: reply.d.ts missing hijack, see index.test.js and vite.config.ts"))
    assert {p for p, kind in k.items() if kind == "path"} == {
        "reply.d.ts", "index.test.js", "vite.config.ts"}
    assert "ts" not in k and "reply" not in k
    assert kinds(parse_task("sympy.core.mul.py breaks"))["sympy/core/mul.py"] == "path"
    assert "path" not in kinds(parse_task("call response.json() and os.path.join")).values()


def test_a_permalink_names_its_file_and_line():
    """A blob URL is the file (and line) it points at; other URLs say nothing."""
    q = parse_task("See https://github.com/pallets/flask/blob/main/src/flask/helpers.py#L42-L50 "
                   "where send_file breaks (since https://github.com/pallets/flask/pull/4045)")
    assert [(f.path, f.line) for f in q.frames] == [("src/flask/helpers.py", 42)]
    assert set(kinds(q)) == {"src/flask/helpers.py", "send_file"}
    q = parse_task("in https://gitlab.com/grp/proj/-/blob/0a1b2c3/lib/shop/cart.rb the total is off")
    assert kinds(q)["lib/shop/cart.rb"] == "path"


def test_a_call_is_no_file_name():
    """`response.json()` calls a method; `config.json` names a file."""
    q = parse_task("Fix inconsistent exception type in response.json() method")
    assert kinds(q)["json"] == "identifier" and kinds(q)["response"] == "identifier"
    assert "response.json" not in kinds(q)
    q = parse_task("settings are read from config.json (see docs) and from app.py")
    assert kinds(q)["config.json"] == "path" and kinds(q)["app.py"] == "path"


def test_python_traceback_frames_count_most():
    """Python frames become frame concepts with line and function; installed copies weigh half."""
    task = '''Crash on save
Traceback (most recent call last):
  File "/usr/lib/python3.11/site-packages/click/core.py", line 10, in invoke
  File "src/app/storage.py", line 42, in save_record
ValueError: bad record'''
    q = parse_task(task)
    paths = [f.path for f in q.frames]
    assert paths == ["src/app/storage.py", "/usr/lib/python3.11/site-packages/click/core.py"]
    assert q.frames[0].line == 42 and q.frames[0].function == "save_record"
    k = kinds(q)
    assert k["src/app/storage.py"] == "frame"
    w = {c.text: c.weight for c in q.keywords}
    assert w["/usr/lib/python3.11/site-packages/click/core.py"] < w["src/app/storage.py"]
    assert k["save_record"] == "identifier"


def test_frames_nearest_the_error_weigh_most_in_each_language_s_order():
    """pytest prints `path.py:12: in f` frames, no `File "…"` line, and still ends at the error,
    as every Python traceback does; a Node stack starts there."""
    pytest_style = """collecting fails
/usr/lib/python3.8/site-packages/_pytest/runner.py:341: in from_call
    result = func()
src/pkg/collect.py:531: in collect
    self._inject()
src/pkg/rewrite.py:760: in is_rewrite_disabled
    return "X" in docstring
E   TypeError: argument of type 'int' is not iterable"""
    w = {c.text: c.weight for c in parse_task(pytest_style).keywords if c.kind == "frame"}
    assert w["src/pkg/rewrite.py"] > w["src/pkg/collect.py"]
    node = "boom\n    at f (src/a/raise.js:3:1)\n    at g (src/a/caller.js:9:2)"
    w = {c.text: c.weight for c in parse_task(node).keywords if c.kind == "frame"}
    assert w["src/a/raise.js"] > w["src/a/caller.js"]


def test_ipython_and_jupyter_tracebacks_name_their_frames():
    """A notebook's traceback writes `path.py in func(args)` with the line on the `-->` arrow
    below (IPython 8: `File path.py:12, in f`); an installed copy is this project's too."""
    old = """---------------------------------------------------------------------------
TypeError                                 Traceback (most recent call last)
<ipython-input-5-6dcbddac1ee2> in <module>
----> 1 p + 2.0 * q

~/env/lib/python3.6/site-packages/geom/point.py in __add__(self, other)
    219         try:
--> 220             s, o = Point._normalize(self, Point(other))
    221         except TypeError:

~/env/lib/python3.6/site-packages/geom/util.py in _normalize(*points)
--> 41     raise GeometryError("bad")

GeometryError: bad"""
    q = parse_task(old)
    got = {(f.path.rsplit("site-packages/", 1)[-1], f.line, f.function) for f in q.frames}
    assert got == {("geom/point.py", 220, "__add__"), ("geom/util.py", 41, "_normalize")}
    w = {c.text.rsplit("site-packages/", 1)[-1]: c.weight for c in q.keywords
         if c.kind == "frame"}
    assert w["geom/util.py"] > w["geom/point.py"]  # nearest the error, last
    new = "boom\nFile ~/env/lib/python3.10/site-packages/geom/point.py:220, in Point.__add__(self)"
    assert [(f.path.rsplit("site-packages/", 1)[-1], f.line) for f in parse_task(new).frames] \
        == [("geom/point.py", 220)]


def test_jvm_frames_name_the_package_s_file_and_drop_the_platform_s():
    """`at com.acme.billing.Invoice.total(Invoice.java:42)`: the file lies in the package's
    folders, the frame names its method (a constructor, its class); `java.lang` frames are the
    JDK's, not the project's."""
    task = """NullPointerException when saving
Exception in thread "main" java.lang.NullPointerException: name
\tat com.acme.billing.Invoice.total(Invoice.java:42)
\tat com.acme.billing.Invoice$Line.<init>(Invoice.java:88)
\tat com.acme.App.main(App.kt:12)
\tat java.base/java.lang.Thread.run(Thread.java:829)"""
    q = parse_task(task)
    assert [(f.path, f.line, f.function) for f in q.frames] == [
        ("com/acme/billing/Invoice.java", 42, "total"),
        ("com/acme/billing/Invoice.java", 88, "Line"),
        ("com/acme/App.kt", 12, "main"),
    ]
    w = {c.text: c.weight for c in q.keywords if c.kind in ("frame", "path")}
    assert set(w) == {"com/acme/billing/Invoice.java", "com/acme/App.kt"}
    assert w["com/acme/billing/Invoice.java"] > w["com/acme/App.kt"]  # a JVM stack starts there


def test_a_language_s_own_frames_are_left_out_and_installed_copies_weigh_half():
    """Go's GOROOT and Rust's std are never the project; a copy in Go's module cache, Cargo's
    registry or a gem folder may be (at half weight); GOPATH/src/github.com/… is the project."""
    task = """panic: runtime error: invalid memory address or nil pointer dereference
goroutine 1 [running]:
\t/home/me/shop/billing/invoice.go:42 +0x1d
\t/home/me/go/pkg/mod/github.com/acme/shop@v1.2.0/web/checkout.go:12
\t/usr/local/go/src/net/http/server.go:2109 +0x2f
\t/opt/homebrew/Cellar/go/1.21.0/libexec/src/runtime/panic.go:260 +0x2f
\t/home/me/go/src/github.com/acme/shop/main.go:9 +0x2f
   at /rustc/90c541806f23a127002de5b4038be731ba1458ca/library/std/src/panicking.rs:584:5
   at /home/me/.cargo/registry/src/github.com-1ecc6299db9ec823/clap-2.33.0/src/parser.rs:123:4
/usr/lib/ruby/gems/3.0.0/gems/sinatra-2.1.0/lib/sinatra/base.rb:1234:in 'call'"""
    w = {c.text.rsplit("/", 2)[-2] + "/" + c.text.rsplit("/", 1)[-1]: c.weight
         for c in parse_task(task).keywords if c.kind == "frame"}
    assert set(w) == {"billing/invoice.go", "web/checkout.go", "shop/main.go", "src/parser.rs",
                      "sinatra/base.rb"}
    for installed in ("web/checkout.go", "src/parser.rs", "sinatra/base.rb"):
        assert w[installed] < w["shop/main.go"] < w["billing/invoice.go"], installed


def test_compiler_and_runtime_locations_of_other_tools_are_frames():
    """tsc and MSBuild write `file(line,col)`, PHP's stack `#0 file(17)` and `in file on line
    12`, Swift `file X.swift, line 42`: each names its file and line (tsc's `src/cart.ts(12,5)`
    was read as a path `src/cart` that no file has)."""
    cases = {
        "src/app/cart.ts(12,5): error TS2322: Type 'string' is not assignable": ("src/app/cart.ts", 12),
        "Program.cs(7,13): error CS1002: ; expected": ("Program.cs", 7),
        "#0 /var/www/src/Http/Controller.php(17): App\\Invoice->total()": (
            "/var/www/src/Http/Controller.php", 17),
        "Warning: Undefined variable $x in /var/www/src/Cart.php on line 12": (
            "/var/www/src/Cart.php", 12),
        "Fatal error: Unexpectedly found nil: file Shop/Cart.swift, line 42": ("Shop/Cart.swift", 42),
    }
    for text, want in cases.items():
        q = parse_task(text)
        assert [(f.path, f.line) for f in q.frames] == [want], text
        assert kinds(q)[want[0]] == "frame", text
    # a call on a one-letter attribute is no file
    assert not parse_task("then obj.m(2) fails").frames


def test_js_frames_and_backticks():
    """Node frames and identifiers in backticks are strong evidence; node_modules frames come last."""
    task = "`refreshToken` throws\n    at x (node_modules/a/b.js:1:1)\n    at refresh (src/auth/tokens.ts:10:5)\n    at f (node:internal/x.js:1:1)"
    q = parse_task(task)
    assert [f.path for f in q.frames] == ["src/auth/tokens.ts", "node_modules/a/b.js"]
    k = kinds(q)
    assert k["refreshToken"] == "identifier"
    weights = {c.text: c.weight for c in q.keywords}
    assert weights["refreshToken"] > weights.get("throws", 0)


def test_code_blocks_and_quoted_messages():
    """Identifiers inside code blocks and quoted error messages become concepts."""
    task = 'ccode(sinc(x)) fails\n```\n>>> ccode(sinc(x))\n```\nIt prints "Not supported in C sinc".'
    q = parse_task(task)
    k = kinds(q)
    assert k.get("ccode") == "identifier"
    assert any(kind == "quoted" for kind in k.values())



def test_a_quoted_message_s_words_are_task_words_too():
    """'make gettext' is searched as the two words together, and `gettext` alone names the
    builder the fix goes to: the words of a quoted string count as the task's words as well."""
    k = kinds(parse_task("Fix: 'make gettext' cause UnicodeDecodeError when templates contain "
                         "utf-8 encoded string."))
    assert k["make gettext"] == "quoted" and k["gettext"] == "word" and k["templates"] == "word"


def test_a_task_verb_used_as_the_name_of_an_operation_is_a_task_word():
    """"when rename creates a coord", "in debug mode", "a rename option": the verb names what
    the code does (Dataset.rename) and is searched as a word; as the task's own verb ("Add",
    "Remove", "to remove") or as the work itself ("a change is needed") it says nothing."""
    def words(text: str) -> set[str]:
        return {c.text for c in parse_task(text).keywords if c.kind == "word"}

    assert "rename" in words("Raise UserWarning when rename creates a new dimension coord")
    assert "debug" in words("Flask gives an error in debug mode if a post request redirects")
    assert "rename" in words("Add a rename option. Remove the old one")
    assert not {"add", "remove"} & words("Add a rename option. Remove the old one")
    assert "remove" not in words("it needs to remove the flag")
    assert "change" not in words("Pretty major change, but with modules a change is needed")
    assert "update" not in words("when, update the cache")


def test_tests_are_candidates_only_when_the_task_is_about_them():
    """The test rule: off for a plain bug, on for 'add tests'."""
    assert not parse_task("Fix the token expiry bug").include_tests
    assert parse_task("Add unit tests for the token refresh").include_tests
    # a frame in a test file lets tests in; a frame that merely says "test" does not (pytest's
    # own `_pytest/runner.py`, a virtualenv named `test`)
    frame = 'Traceback (most recent call last):\n  File "{}", line 3, in f\nValueError'
    assert parse_task(frame.format("tests/unit/test_tokens.py")).include_tests
    for path in ("src/_pytest/runner.py", "/home/me/.virtualenvs/test/lib/python3.11/"
                 "site-packages/shop/tokens.py"):
        assert not parse_task(frame.format(path)).include_tests, path


def test_long_issue_is_capped():
    """A long pasted issue yields a bounded number of concepts."""
    task = " ".join(f"word{i} alpha{i}x" for i in range(3000))
    q = parse_task(task)
    assert len(q.keywords) <= 80


def test_a_huge_one_line_paste_is_read_in_linear_time():
    """A 200 kB paste on one line (an escaped log, prose with many `at`s) is read in seconds:
    the JavaScript frame pattern once scanned the rest of the line from every `at ` (53 s
    for this prose, 380 s for `at at at …`), and the Windows path pattern a long dotted token
    from every `.` (110 s for 120 kB of `a.a.a.…`). Its frames are still found."""
    prose = " ".join(["the token expiry at the auth session refresh fails"] * 1800)
    frames = " at Session.refresh (src/auth/session.js:41:7) " * 10
    dotted = "a." * 60_000
    # a token of `x@x@…` or `@@@…` was scanned again from after each `@` by the path patterns
    # (270 s), a `[e.g.` with no closing bracket to the line's end by the template's rule, and
    # a version of `1.1.1…` split between the pip row rule's groups in every way (20 s for 40 kB)
    for task in (prose + frames + prose, "at " * 32_000 + frames + "at " * 32_000,
                 "at " + dotted + "b(" + frames, dotted + " on line 3" + frames,
                 "file " + dotted + frames, "x@" * 60_000 + frames, "@" * 100_000 + frames,
                 "[e.g. " * 30_000 + frames,
                 "pkg 1" + ".1" * 30_000 + "+g" * 30_000 + " x y z w\n" + frames,
                 # a heading, an environment line and a template's line padded with spaces:
                 # the text, its trailing marks and the line's end shared the run (cubic: 210 s
                 # for 6,000 spaces after `# a`), and a long word's every letter began a phrase
                 "# a" + " " * 60_000 + "x\n" + frames, "**a**" + " " * 60_000 + "x\n" + frames,
                 "OS" + " " * 60_000 + ": " + "x" * 100 + "\n" + frames,
                 "  " + " " * 60_000 + "x\n" + frames, "a" * 3_900 + "\n" + frames,
                 # a capitalized word inside a sentence, 100,000 letters and a digit long: each
                 # shorter prefix was tried against the rest (quadratic); `::` names in a row
                 "a B" + "b" * 100_000 + "1 " + frames, "x " + "a Bcd::" * 20_000 + frames,
                 # a line of `x.js:1`s: each one's native function was looked for from the
                 # line's start (270 s for 200 kB)
                 "a.js:1 " * 28_000 + "\n" + frames, "in f (x) at a.c:1 " * 11_000 + "\n" + frames):
        start = time.perf_counter()
        q = parse_task(task)
        assert time.perf_counter() - start < 15.0
        assert "src/auth/session.js" in [f.path for f in q.frames]


def test_conventional_commit_header_gives_scopes_not_a_call():
    """`fix(http): …` names where the change is; `fix(` is not a call to an identifier `fix`."""
    q = parse_task("fix(http): fixed support for IPv6 literal strings in url")
    k = kinds(q)
    assert k["(http)"] == "scope" and k["http"] == "word"
    assert "fix" not in k and "fixed" not in k
    q = parse_task("fix(compiler-core/v-on): only apply case preservation on native elements")
    # the path itself (a folder or a file there: closing slash) and each of its parts
    assert [c.text for c in q.keywords if c.kind == "scope"] == [
        "(compiler-core/v-on/)", "(compiler-core)", "(v-on)"]
    # a file the scope names is a path the task names (and still a scope: `next.js` may be
    # a package's name)
    q = parse_task("fix(`middleware.ts`): export secure-headers for Deno")
    assert [(c.text, c.kind) for c in q.keywords][:2] == [
        ("(middleware.ts)", "scope"), ("middleware.ts", "path")]
    q = parse_task("feat(defineModel): support local mutation")
    assert kinds(q)["defineModel"] == "identifier"


def test_header_type_and_prose_that_only_looks_like_one():
    """`test:` and `docs:` let tests and docs in; "Test: …" opening an issue is prose."""
    assert parse_task("test(router): cover nested routes").include_tests
    assert parse_task("docs: explain the cache folder").include_tests
    q = parse_task("Test: the cache folder is ignored")
    assert not any(c.kind == "scope" for c in q.keywords)
    assert parse_task("fix: resolve vuePath in all cases").keywords[0].text == "vuePath"


def test_component_prefix_is_a_scope_and_stays_in_the_text():
    """`ignore: …`, `net/http: …` name a component; tags and template labels do not."""
    q = parse_task("ignore: fix handling of ** in patterns")
    k = kinds(q)
    assert k["(ignore)"] == "scope" and k["ignore"] == "word"
    assert [c.text for c in parse_task("net/http: fix keep-alive").keywords if c.kind == "scope"] == [
        "(net/http/)", "(net)", "(http)"]
    for text in ("BUG: Solve 2to3 conversion error", "Bug: maximum recursion depth",
                 "Description: the cache grows", "ENH: accept one-off modes", "http://example.com/a: b"):
        assert not any(c.kind == "scope" for c in parse_task(text).keywords), text


def test_a_title_s_bracket_tags_say_where_or_what_kind_of_change():
    """`[i18n][man] …`, `[ext/napoleon] …`, `[Http] …` name where the change is, as a header's
    scope does; `[fix]`, `[feat]` say what kind of change; issue labels (`[BUG]`, `[Feature
    Request]`) say neither. A tag's words stay in the text."""
    def scopes(text: str) -> list[str]:
        return [c.text for c in parse_task(text).keywords if c.kind == "scope"]

    assert scopes("[i18n][man] add missing deunicode().") == ["(i18n)", "(man)"]
    assert scopes("[ext/napoleon] Fix the parsing of Returns sections") == ["(ext)", "(napoleon)"]
    assert scopes("[Http] Adding a cookie jar to the client") == ["(Http)"]
    assert "man" in kinds(parse_task("[i18n][man] add missing deunicode()."))
    for text in ("[fix] adapter-node: set the host", "[BUG] crash on start",
                 "[Feature Request] add a flag"):
        assert scopes(text) == [], text
    assert conventional_header("[fix] adapter-node: set the host")[0] == "fix"
    assert conventional_header("[feat] prerendering")[0] == "feat"


def test_a_name_the_code_never_says_whole_becomes_its_words():
    """`MousetrapDisplayDuration` is new: its words, each with its own rarity, stand for it; a
    name the code has stays one concept, as do single-word names."""
    from iterative_retrieval.query import unknown_identifiers_as_words

    q = parse_task("add MousetrapDisplayDuration next to MousetrapHelpText, and a `retries` "
                   "option; the display must wait")
    known = {"mousetraphelptext", "retri"}
    out = unknown_identifiers_as_words(q, lambda term: term in known)
    kinds = {c.text: c.kind for c in out.keywords}
    assert "MousetrapDisplayDuration" not in kinds
    assert kinds["MousetrapHelpText"] == "identifier" and kinds["retries"] == "identifier"
    assert kinds["mousetrap"] == kinds["duration"] == "word"
    # `display`, a word of the task too, comes once
    assert [c.text for c in out.keywords].count("display") == 1
    assert unknown_identifiers_as_words(q, lambda term: True) is q


def test_a_word_of_an_unknown_name_that_the_task_names_on_its_own_stays_that_name():
    """`test_reshape_not_implemented_error` (a test the fix adds) becomes its words, but
    `reshape` is `da.reshape`, a name of the task: one concept, a name, whose definition counts
    (a second `reshape` as a word took its place in EVALUATE, and `reshape.py` no longer defined
    what the task names)."""
    from iterative_retrieval.query import unknown_identifiers_as_words

    q = parse_task("Improve `NotImplementedError` message for da.reshape\n\n"
                   "* Check error message in test_reshape_not_implemented_error")
    out = unknown_identifiers_as_words(q, lambda term: term != "testreshapenotimplementederror")
    said = [(c.text, c.kind) for c in out.keywords if c.kind != "phrase"]
    assert [k for t, k in said if t == "reshape"] == ["identifier"], said
    assert ("implemented", "word") in said and "test_reshape_not_implemented_error" not in dict(said)


def test_only_the_phrases_a_file_says_stay_in_the_query():
    """A run of words no file says as one name is no concept of this root's query."""
    from iterative_retrieval.query import said_phrases

    q = parse_task("Fix the authentication token expiry bug")
    kept = said_phrases(q, lambda term: term == "tokenexpir")
    assert [c.text for c in kept.keywords if c.kind == "phrase"] == ["token expiry"]
    assert set(kinds(kept)) == set(kinds(q))


def test_a_receiver_is_no_identifier_of_the_code():
    """`self.assertEqual`, `this.emit` and `cls._registry` name a method and the object it is
    called on; `flask.helpers.send_file` names a module too."""
    k = kinds(parse_task("`self.assertEqual(this.emit(x), cls._registry)` fails in "
                         "`flask.helpers.send_file`"))
    assert {"assertEqual", "emit", "_registry", "send_file", "helpers"} <= set(k), k
    assert all(k.get(r) != "identifier" for r in ("self", "this", "cls")), k


def test_a_module_s_dotted_path_in_the_reporter_s_words_is_a_scope():
    """`sympy.core.mul.Mul` and "in printing.pretty" name modules; a receiver's attribute, a
    file name, an abbreviation and a code block's import do not."""
    q = parse_task("The `sympy.core.mul.Mul` flattening is wrong, e.g. in printing.pretty; "
                   "self.args and setup.py are fine.\n\n```python\nfrom sympy.abc import x\n```")
    scopes = [c.text for c in q.keywords if c.kind == "scope"]
    assert scopes == ["(sympy/core/mul)", "(printing/pretty)"], scopes


def test_a_module_named_by_its_capitalized_namespaces_is_a_scope():
    """Elixir's `Plug.Static` and Ruby's `Net::HTTP` live in plug/static.ex and net/http.rb; a
    namespace part is a file name in snake case (`CSRFProtection`: csrf_protection), and a
    function after them (`Plug.Conn.send_resp/3`) is no part of the module."""
    q = parse_task("Add :cache to Plug.Static, call Net::HTTP.start from Plug.CSRFProtection "
                   "and Plug.Conn.send_resp/3; Conn.put and E.g. are no modules")
    scopes = [c.text for c in q.keywords if c.kind == "scope"]
    assert scopes == ["(plug/static)", "(net/http)", "(plug/csrf_protection)", "(plug/conn)"], \
        scopes
    assert "send_resp" in kinds(q)


def test_dotted_names_a_slash_joins_are_names_not_a_path():
    """`Conn.async_assign/Conn.await_assign` (two functions), `Plug.Conn.send_resp/3` (Elixir's
    name/arity): names, read as identifiers; a path whose last part has an extension is still a
    path."""
    k = kinds(parse_task("Fix documentation in Conn.async_assign/Conn.await_assign and "
                         "Plug.Conn.send_resp/3, not in lib/plug/conn.ex"))
    assert k.get("async_assign") == k.get("await_assign") == k.get("send_resp") == "identifier", k
    assert not any(t.startswith("Conn.") and v == "path" for t, v in k.items()), k
    assert k.get("lib/plug/conn.ex") == "path", k


def test_a_name_qualified_with_double_colons_is_code():
    """C++, Rust, Ruby and PHP qualify names with `::` (`tokio::spawn`, `Logger::reset`): the
    name is an identifier, and so is its owner when it is a type; a namespace or crate is a
    word (the project's own, that every file says)."""
    kinds = {c.text: c.kind for c in parse_task("Use tokio::spawn in the runtime").keywords}
    assert kinds["spawn"] == "identifier" and kinds["tokio"] == "word", kinds
    kinds = {c.text: c.kind for c in parse_task("Make Logger::reset keep the handlers").keywords}
    assert kinds["reset"] == "identifier" and kinds["Logger"] == "identifier", kinds
    # a module's capitalized namespaces are still its scope
    texts = {c.text for c in parse_task("Fix Net::HTTP timeouts").keywords}
    assert "(net/http)" in texts


def test_a_member_qualified_with_its_type_is_kept_as_a_pair():
    """`Type::member` and `Type.member` name one definition: the pair is kept for EVALUATE (the
    file defining both); a module's path and a receiver are no type."""
    assert parse_task("Fix AbstractProcessingHandler::handle() to call getBubble()").members == (
        ("AbstractProcessingHandler", "handle"),)
    assert parse_task("`Request.get_json` fails on an empty body").members == (
        ("Request", "get_json"),)
    assert parse_task("flask.helpers.send_file breaks on a BytesIO").members == ()
    assert parse_task("self.handler is None after close").members == ()


def test_a_bare_name_with_its_arity_is_a_name():
    """Elixir and Erlang write a function with its arity: `response_content_type/1` is the
    identifier, not a path (it had been dropped as one, and with it the task's only name)."""
    kinds = {c.text: c.kind for c in parse_task(
        "Handle charset being present in response_content_type/1").keywords}
    assert kinds.get("response_content_type") == "identifier", kinds
    assert not any(k == "path" for k in kinds.values())
    kinds = {c.text: c.kind for c in parse_task("Make put_status/2 accept atoms").keywords}
    assert kinds.get("put_status") == "identifier", kinds


def test_a_word_with_its_arity_is_a_name_and_a_protocol_version_is_not():
    """jq and Elixir write `strftime/1`: the name was read as a path of no file and dropped,
    and with it the task's only name; `http/2` and a quotient (`x/4`, `mins/60`) stay no names."""
    idents = {c.text for c in parse_task(
        "Fix segmentation fault on `strftime/1` and strflocaltime/1").keywords
        if c.kind == "identifier"}
    assert {"strftime", "strflocaltime"} <= idents, idents
    q = parse_task("Make valid?/1 and Plug.Conn.halted?/1 agree")
    assert {"valid", "halted"} <= {c.text for c in q.keywords if c.kind == "identifier"}
    assert q.members == (("Conn", "halted"),)
    for task, name in (("Support http/2 in the client", "http"),
                       ("the quotient J*mins/60 is not simplified", "mins"),
                       ("solve(x/4 - 1) is wrong", "x")):
        kinds = {c.text: c.kind for c in parse_task(task).keywords}
        assert kinds.get(name) != "identifier", kinds


def test_ruby_and_javascript_methods_are_members_of_their_type():
    """`Jekyll::Site#process` (Ruby's instance method) and `Foo.prototype.bar` (JavaScript's)
    name a type's member, as `Site.process` does; an anchor, an issue number or C# do not."""
    assert parse_task("`Jekyll::Site#process` fails without a source").members == (
        ("Site", "process"),)
    assert parse_task("Document#url is wrong for collections").members == (("Document", "url"),)
    q = parse_task("Calling `Router.prototype.handle` twice throws")
    assert q.members == (("Router", "handle"),)
    assert "prototype" not in {c.text for c in q.keywords}
    assert parse_task("See README.md#Usage, issue #123 and the C# client").members == ()


def test_a_name_of_the_code_the_title_says_weighs_as_a_name_in_backticks():
    """'Wrong Derivative kind attribute' over `d = Derivative(A, x)`: the title says which of
    the reproducer's names the task is about; it weighs as much as its other names, not as a
    call the code block merely makes."""
    body = "\n\n```\nfrom sympy import Integral, MatrixSymbol\ni = Integral(A, x)\n" \
           "d = Derivative(A, x)\nB = MatrixSymbol('B', 2, 2)\n```\n"
    about = {c.text: c.weight for c in parse_task("Wrong Derivative kind attribute" + body).keywords}
    aside = {c.text: c.weight for c in parse_task("Wrong kind attribute" + body).keywords}
    assert about["Derivative"] > aside["Derivative"] == aside["Integral"]
    assert about["Derivative"] >= about["MatrixSymbol"]


@pytest.mark.parametrize("task, named, aside", [
    # poetry's `add` command: the verb inside the sentence, before "command", is its name
    ("Fix add command picking up prereleases by default", "add", "fix"),
    ("fix: debug resolve command crashes", "resolve", "debug"),
    ("The remove command fails on a missing package", "remove", None),
    # the sentence's own verb, before a noun, is the work to do
    ("Add command for exporting the lock file", None, "add"),
    ("Remove command alias\n\nUpdate subcommand docs", None, "remove"),
])
def test_a_task_verb_before_command_is_the_command_s_name(task, named, aside):
    q = parse_task(task)
    words = {c.text for c in q.keywords if c.kind == "word"}
    fallback = {c.text for c in q.fallback}
    if named:
        assert named in words and named not in fallback, (words, fallback)
    if aside:
        assert aside in fallback and aside not in words, (words, fallback)
