"""Self-check of the pure metric functions: `pytest bench/quality/test_metrics.py`."""

import pytest

from bench.quality import metrics as M

RANKING = ["a.py", "b.py", "c.py", "d.py", "e.py", "f.py"]


def test_recall_at_k():
    assert M.recall_at(RANKING, ["b.py"], 1) == 0.0
    assert M.recall_at(RANKING, ["b.py"], 2) == 1.0
    assert M.recall_at(RANKING, ["a.py", "z.py"], 5) == 0.5
    assert M.recall_at(RANKING, [], 5) == 0.0


def test_reciprocal_rank_and_ranks():
    assert M.reciprocal_rank(RANKING, ["c.py", "f.py"]) == pytest.approx(1 / 3)
    assert M.reciprocal_rank(RANKING, ["z.py"]) == 0.0
    assert M.gold_ranks(RANKING, ["c.py", "z.py"]) == {"c.py": 3, "z.py": None}


def test_all_in_top_and_summary():
    assert M.all_in_top(RANKING, ["a.py", "e.py"], 5) == 1.0
    assert M.all_in_top(RANKING, ["a.py", "f.py"], 5) == 0.0
    m = M.ranking_metrics(RANKING, ["b.py", "f.py"])
    assert m == {"R@1": 0.0, "R@3": 0.5, "R@5": 0.5, "R@10": 1.0, "MRR": 0.5, "Acc@5": 0.0}


def test_line_recall_and_lines_sent():
    gold = {"a.py": [[10, 11], [20, 20]], "b.py": [[5, 5]]}
    regions = [("a.py", 1, 10), ("a.py", 8, 15), ("c.py", 1, 100)]
    assert M.line_recall(gold, regions) == pytest.approx(2 / 4)
    assert M.line_recall({}, regions) is None
    assert M.lines_sent(regions) == 15 + 100  # overlaps counted once


def test_high_precision_counts():
    files = [("a.py", 0.9), ("b.py", 0.7), ("c.py", 0.69)]
    assert M.high_precision_counts(files, ["b.py", "c.py"]) == (1, 2)


def test_ranking_at_cycle_keeps_last():
    rk = [["a"], ["b"]]
    assert M.ranking_at_cycle(rk, 1) == ["a"]
    assert M.ranking_at_cycle(rk, 3) == ["b"]
    assert M.ranking_at_cycle([], 2) == []


def test_pack_whole_files_cuts_the_last_one():
    sizes = {"a.py": (4000, 100), "empty.py": (0, 0), "big.py": (40000, 1000), "b.py": (400, 10)}
    out, used = M.pack_whole_files(["a.py", "empty.py", "big.py", "b.py"], sizes, 1200,
                                   lambda path, n: n // 40)
    assert out == [("a.py", 1, 100), ("big.py", 1, 20)]
    assert used == 4800


def test_mean_and_percentiles():
    assert M.mean([1, None, 3]) == 2
    assert M.mean([None]) is None
    assert M.median([3, 1, 2]) == 2
    assert M.percentile([0, 10], 90) == pytest.approx(9)
    assert M.percentile([], 50) is None
