"""tools/plot analysis on chapter 08's --analyze --format json: the join expansion and its load-balancing search.

A synthetic document (the talk's inner join, computed here in a few lines of Python) checks every figure anywhere;
the real output of build/bin/chapter_08_join, when one is built, checks that the drawer reads what the chapter writes.
"""
import bisect
import copy
import os
import unittest

from support import analysis_of, AnalysisTestCase, chapter_binary, needs_matplotlib, plot, write_json
from test_analysis_merge import load_balance_document


def synthetic(a: str = "AABDFFFFG", b: str = "AAABCEEFF") -> dict:
    """The inner_join and load_balance objects of analysis_json (chapters/08_join/analysis.cpp) for A and B."""
    lower = [bisect.bisect_left(b, key) for key in a]
    upper = [bisect.bisect_right(b, key) for key in a]
    counts = [u - lo for lo, u in zip(lower, upper)]
    scan = [sum(counts[:i]) for i in range(len(a) + 1)]
    lbs = [i for i, count in enumerate(counts) for _ in range(count)]
    rank = [row - scan[o] for row, o in enumerate(lbs)]
    walk = {"a": list(a), "b": list(b), "lower": lower, "upper": upper, "counts": counts, "scan": scan,
            "lbs": lbs, "scan_at_lbs": [scan[o] for o in lbs], "rank": rank,
            "b_row": [lower[o] + r for o, r in zip(lbs, rank)]}
    balance = load_balance_document(counts, 2, 3, "output row", "A row")
    balance["slide_items"] = balance["items"] + len(counts) - 1
    return {"analysis": "join", "chapter": "08", "inner_join": walk, "load_balance": balance,
            "outer_join": {"a": [], "b": [], "rows": []}}


class TheModelHere(unittest.TestCase):
    def test_the_synthetic_walkthrough_is_the_slide(self):
        walk = synthetic()["inner_join"]
        self.assertEqual(walk["lower"], [0, 0, 3, 5, 7, 7, 7, 7, 9])
        self.assertEqual(walk["scan"], [0, 3, 6, 7, 7, 9, 11, 13, 15, 15])
        self.assertEqual(walk["b_row"], [0, 1, 2, 0, 1, 2, 3, 7, 8, 7, 8, 7, 8, 7, 8])
        self.assertEqual(synthetic()["load_balance"]["slide_items"], 23)


AnalysisTest = AnalysisTestCase

@needs_matplotlib
class Synthetic(AnalysisTest):
    def test_expansion(self):
        self.assertDrawn(self.draw(synthetic(), "expansion"),
                         "Chapter 08 join: the talk's inner join, 9 A rows expand into 15 output rows",
                         "LB[LBS] + RANK", "SCAN[LBS]", "none", "7,8", "sorted search: first B key ≥ A key",
                         "exclusive scan: the first output row (15 in all)", "A = A A B D F F F F G")

    def test_load_balance(self):
        self.assertDrawn(self.draw(synthetic(), "load-balance"),
                         "the expansion as a load-balancing search, 15 output rows and 9 A rows in tiles",
                         "15 output rows + 9 offsets SCAN[0..8] = 24 steps (the slide counts 23: SCAN[1..8])",
                         "3 output rows + 3 A rows = 6 steps", "an A row starts")

    def test_broken_documents_are_refused_in_one_line(self):
        broken = copy.deepcopy(synthetic())
        broken["inner_join"]["scan"].pop()
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "--figure", "expansion", "-o",
                            os.path.join(self.folder.name, "x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("scan one more", errors)
        del broken["load_balance"]
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "--figure", "expansion", "-o",
                            os.path.join(self.folder.name, "x.svg"))
        self.assertEqual(code, 2)
        self.assertIn("has no 'load_balance'", errors)


def _built_binary():
    return chapter_binary("chapter_08_join")


@needs_matplotlib
@unittest.skipUnless(_built_binary(), "chapter_08_join is not built (STEPWISE_BIN_DIR or build/bin)")
class RealOutput(AnalysisTest):
    def test_every_figure_from_the_chapter(self):
        document = analysis_of(_built_binary())
        want = synthetic()
        self.assertEqual(document["inner_join"], want["inner_join"])
        self.assertEqual(document["load_balance"], want["load_balance"])
        self.assertDrawn(self.draw(document, "expansion"), "9 A rows expand into 15 output rows", "4,7")
        self.assertDrawn(self.draw(document, "load-balance"), "4 output rows + 2 A rows = 6 steps")


if __name__ == "__main__":
    unittest.main()
