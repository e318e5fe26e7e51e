"""tools/plot analysis on chapter 03's --analyze --format json: the Merge Path grid and the load-balancing search.

A synthetic document (built here with a few lines of Python: the merge, its cuts and the load-balancing steps)
checks every figure anywhere; the real output of build/bin/chapter_03_merge, when one is built, checks that the
drawer reads what the chapter writes. load_balance_document() is shared with test_analysis_join.py.
"""
import copy
import os
import unittest

from support import (analysis_of, AnalysisTestCase, chapter_binary, drawn_bytes_by_hash_seed, needs_matplotlib, plot,
                    svg_texts, write_json)


def merge_path(a: list, b: list, diagonal: int, ties_take_a: bool = True) -> int:
    """How many of the first `diagonal` outputs of the merge come from A (the chapter's merge_path)."""
    begin, end = max(0, diagonal - len(b)), min(diagonal, len(a))
    while begin < end:
        mid = (begin + end) // 2
        takes_a = not b[diagonal - 1 - mid] < a[mid] if ties_take_a else a[mid] < b[diagonal - 1 - mid]
        begin, end = (mid + 1, end) if takes_a else (begin, mid)
    return begin


def cuts(a: list, b: list, spacing: int, ties_take_a: bool = True) -> list:
    """The merge cut every `spacing` outputs: first, last and the A range of each piece."""
    total = len(a) + len(b)
    pieces = []
    for first in range(0, total, spacing):
        last = min(total, first + spacing)
        pieces.append((first, last, merge_path(a, b, first, ties_take_a), merge_path(a, b, last, ties_take_a)))
    return pieces


def load_balance_document(counts: list, nt: int, vt: int, item_name: str = "item",
                          object_name: str = "object") -> dict:
    """The load_balance object of an --analyze document for these counts."""
    offsets, total = [], 0
    for count in counts:
        offsets.append(total)
        total += count
    items = list(range(total))
    objects = [max(k for k, offset in enumerate(offsets) if offset <= item) for item in items]
    steps = []
    for first, _, a_begin, a_end in cuts(items, offsets, 1, ties_take_a=False):
        steps.append({"item": a_begin, "object": first - a_begin - 1} if a_end > a_begin else
                     {"starts": first - a_begin})
    tiles = [{"tile": k, "first": first, "last": last, "items_begin": a_begin, "items_end": a_end,
              "objects_begin": first - a_begin, "objects_end": last - a_end}
             for k, (first, last, a_begin, a_end) in enumerate(cuts(items, offsets, nt * vt, ties_take_a=False))]
    return {"item_name": item_name, "object_name": object_name, "counts": counts, "offsets": offsets,
            "items": total, "objects": objects, "ranks": [item - offsets[o] for item, o in zip(items, objects)],
            "nt": nt, "vt": vt, "steps": steps, "tiles": tiles}


def synthetic() -> dict:
    """A small document in the schema of analysis_json (chapters/03_merge/analysis.cpp)."""
    a, b, nt, vt = [1, 2, 2, 4, 5, 5, 7], [2, 3, 5, 6, 9], 2, 3
    path, i, j = [], 0, 0
    while i < len(a) or j < len(b):
        if j == len(b) or (i < len(a) and not b[j] < a[i]):
            path.append({"from": "A", "index": i, "key": a[i]})
            i += 1
        else:
            path.append({"from": "B", "index": j, "key": b[j]})
            j += 1

    def pieces(spacing, name):
        return [{name: k, "tile": k if name == "tile" else k // nt, "first": first, "last": last, "a_begin": a_begin,
                 "a_end": a_end, "b_begin": first - a_begin, "b_end": last - a_end}
                for k, (first, last, a_begin, a_end) in enumerate(cuts(a, b, spacing))]

    return {"analysis": "merge", "chapter": "03",
            "merge_path": {"a": a, "b": b, "nt": nt, "vt": vt, "ties": "A first", "path": path,
                           "tiles": pieces(nt * vt, "tile"), "threads": pieces(vt, "thread")},
            "sorted_search": {"needles": ["A"], "haystack": ["A"], "lower": [0], "upper": [1]},
            "load_balance": load_balance_document([1, 2, 4, 0, 4, 4, 3, 0, 0, 2], 2, 5),
            "work": {"problem": "merge", "stages": []}}


class TheModelHere(unittest.TestCase):
    def test_the_synthetic_merge_and_load_balance_are_the_talks(self):
        document = synthetic()
        self.assertEqual([cut["a_begin"] for cut in document["merge_path"]["threads"]], [0, 3, 4, 6])
        lbs = load_balance_document([1, 2, 4, 0, 4, 4, 3, 3, 2, 4], 4, 5)
        self.assertEqual(lbs["objects"][:10], [0, 1, 1, 2, 2, 2, 2, 4, 4, 4])  # the slide's first row
        self.assertEqual(lbs["steps"][:3], [{"starts": 0}, {"item": 0, "object": 0}, {"starts": 1}])
        self.assertEqual(sum(tile["last"] - tile["first"] for tile in lbs["tiles"]), 27 + 10)


AnalysisTest = AnalysisTestCase

@needs_matplotlib
class Synthetic(AnalysisTest):
    def test_merge_path(self):
        texts = self.draw(synthetic(), "merge-path")
        self.assertDrawn(texts, "Chapter 03 merge: Merge Path, tiles of 2 threads × 3 values", "tile 1 starts",
                         "1 (0): (3, 0) → A[3, 4) B[0, 2) → 2ᴮ 3ᴮ 4ᴬ", "A6", "B4",
                         "solid diagonals cut tiles of NT × VT = 6 outputs")

    def test_load_balance(self):
        texts = self.draw(synthetic(), "load-balance")
        self.assertDrawn(texts, "the load-balancing search of 10 objects and 20 items, in tiles", "tile 2",
                         "7 items + 3 objects = 10 steps", "starts", "→5", "thread 1",
                         "Every thread takes VT = 5 steps and every tile NT × VT = 10")

    def test_first_figure_by_default_and_titles_replaced(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        code, errors = plot("analysis", source, "-o", self.path("default.svg"), "--title", "Merge", "--subtitle", "")
        self.assertEqual(code, 0, errors)
        texts = "\n".join(svg_texts(self.path("default.svg")))
        self.assertIn("Merge", texts)
        self.assertIn("tile 1 starts", texts)
        self.assertNotIn("computed by --analyze", texts)

    def test_broken_documents_are_refused_in_one_line(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        code, errors = plot("analysis", source, "--figure", "grid", "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("this document draws merge-path, load-balance", errors)
        broken = copy.deepcopy(synthetic())
        del broken["load_balance"]["steps"][3]
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "--figure", "load-balance", "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("29 steps, not items + objects (20 + 10)", errors)
        broken = copy.deepcopy(synthetic())
        del broken["merge_path"]["threads"][1]["a_begin"]
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "--figure", "merge-path", "-o", self.path("x.svg"))
        self.assertEqual(code, 2)
        self.assertIn("has no 'a_begin'", errors)
        self.assertFalse(os.path.exists(self.path("x.svg")))

    def test_same_input_same_bytes(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        outputs = drawn_bytes_by_hash_seed(source, self.folder.name, "--figure", "merge-path")
        self.assertEqual(outputs[0], outputs[1])


def _built_binary():
    return chapter_binary("chapter_03_merge")


@needs_matplotlib
@unittest.skipUnless(_built_binary(), "chapter_03_merge is not built (STEPWISE_BIN_DIR or build/bin)")
class RealOutput(AnalysisTest):
    def test_every_figure_from_the_chapter(self):
        document = analysis_of(_built_binary())
        self.assertEqual(document["load_balance"], load_balance_document(document["load_balance"]["counts"], 4, 5))
        self.assertDrawn(self.draw(document, "merge-path"), "tiles of 2 threads × 3 values", "tile 2 starts",
                         "4 (2): (7, 5) → A[7, 10) B[5, 5) → 8ᴬ 9ᴬ 9ᴬ")
        self.assertDrawn(self.draw(document, "load-balance"), "40 objects and 79 items",
                         "11 items + 9 objects = 20 steps", "14 items + 5 objects = 19 steps")


if __name__ == "__main__":
    unittest.main()
