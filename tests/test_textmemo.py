"""Memos of pure functions of a file's text, kept between retrievals."""

from iterative_retrieval.textmemo import TextMemo


def test_answers_are_remembered_by_text():
    """The same text is worked out once; an edited text is a new key, never a stale answer."""
    calls = []
    memo = TextMemo(lambda text: calls.append(text) or len(text))
    assert memo("abc") == 3 and memo("abc") == 3
    assert memo("abcd") == 4
    assert calls == ["abc", "abcd"]


def test_the_oldest_texts_leave_first_past_the_bound():
    """Past max_chars the oldest keys go, and a text longer than the bound is never kept."""
    calls = []
    memo = TextMemo(lambda text: calls.append(text) or text.upper(), max_chars=6, entry_chars=0)
    memo("aaa"), memo("bbb"), memo("ccc")  # 9 characters: "aaa" leaves
    memo("bbb"), memo("ccc"), memo("aaa")
    memo("x" * 10), memo("x" * 10)
    assert calls == ["aaa", "bbb", "ccc", "aaa", "x" * 10, "x" * 10]


def test_get_keys_on_more_than_the_text():
    """get() remembers under a key that includes the text, e.g. (pattern, text)."""
    memo = TextMemo[int]()
    assert memo.get(("p", "ab"), "ab", len) == 2
    assert memo.get(("p", "ab"), "ab", lambda t: 99) == 2
    assert memo.get(("q", "ab"), "ab", lambda t: 7) == 7


def test_many_small_texts_are_bounded_by_their_entries():
    """Each entry costs entry_chars beyond its text: an edited buffer's many small versions
    (one per keystroke) are kept by the dozen, not by the million characters."""
    calls = []
    memo = TextMemo(lambda text: calls.append(text) or len(text), max_chars=10_000,
                    entry_chars=1_000)
    texts = [f"def edited_{version}(): pass" for version in range(500)]
    for text in texts:
        memo(text)
    for text in texts[-9:] + texts[:1]:  # the newest nine are kept, the oldest is not
        memo(text)
    assert calls == texts + texts[:1]
