"""Calibration: relevance from a file's place in its run, so that the bands mean what they say."""

from iterative_retrieval.calibrate import calibrate
from iterative_retrieval.models import Evaluation


def relevances(scores):
    evals = [Evaluation(path=f"f{i}.py", relevance=0.0, reason="") for i in range(len(scores))]
    for e, s in zip(evals, scores):
        e.score = s
    calibrate(evals)
    return [e.relevance for e in evals]


def test_a_lone_strong_file_is_high_and_a_lone_weak_one_is_not():
    """A short run ends where a file that is no candidate would score, not at its own last file."""
    assert relevances([0.95])[0] >= 0.7
    assert relevances([0.3])[0] < 0.7
    assert relevances([0.95, 0.2, 0.1])[0] >= 0.7


def test_near_equals_share_the_doubt_and_the_order_is_kept():
    rel = relevances([0.6, 0.55, 0.5, 0.45, 0.4, 0.35, 0.3, 0.25])
    assert rel == sorted(rel, reverse=True)
    assert rel[0] < 0.7


def test_the_ceiling_scales_a_guess():
    evals = [Evaluation(path="a.py", relevance=0.0, reason="")]
    evals[0].score = 0.95
    calibrate(evals, ceiling=0.6)
    assert evals[0].relevance <= 0.6
