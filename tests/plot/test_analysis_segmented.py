"""tools/plot analysis on chapter 10's --analyze --format json: which lane adds which item (segment-lanes) and the
set operations' Balanced Path (setop-path).

A synthetic document (built here with a few lines of Python: the per-segment lanes of lane_work's model, a Merge Path
walk, a Balanced Path's pieces) checks every figure anywhere; the real output of build/bin/chapter_10_segmented, when
one is built, checks that the drawer reads what the chapter writes.
"""
import copy
import os
import unittest
from collections import Counter

from support import (analysis_of, AnalysisTestCase, chapter_binary, drawn_bytes_by_hash_seed, needs_matplotlib, plot,
                     write_json)

OFFSETS = [0, 3, 3, 7, 8, 13]  # five segments of 3, 0, 4, 1 and 5 items


def strided(offsets: list, lanes: int, per_unit: int, unit_lanes: int) -> list:
    """Units of unit_lanes lanes, each taking per_unit segments with groups of `lanes` lanes striding over them."""
    units, segments = [], len(offsets) - 1
    for index, first in enumerate(range(0, segments, per_unit)):
        mine = list(range(first, min(segments, first + per_unit)))
        cells, steps = [], 1
        for g, s in enumerate(mine):
            length = offsets[s + 1] - offsets[s]
            steps = max(steps, -(-length // lanes))
            cells += [{"lane": g * lanes + k % lanes, "step": k // lanes, "item": offsets[s] + k, "segment": s}
                      for k in range(length)]
        units.append({"index": index, "lanes": unit_lanes, "steps": steps, "segments": mine, "cells": cells})
    return units


def merge_units(offsets: list, vt: int) -> list:
    """Merge Path threads of vt steps over the segment ends and the items (ties take the end first)."""
    n, ends = offsets[-1], offsets[1:]
    order, a = [], 0
    for b in range(n + 1):
        while a < len(ends) and ends[a] <= b:
            order.append((a, None))
            a += 1
        if b < n:
            order.append((a, b))
    units = []
    for t in range(-(-len(order) // vt)):
        steps = order[t * vt:(t + 1) * vt]
        before = order[:t * vt]
        cells = [{"lane": 0, "step": k, "item": -1 if item is None else item, "segment": segment}
                 for k, (segment, item) in enumerate(steps)]
        units.append({"index": t, "lanes": 1, "steps": vt, "segments": [s for s, item in steps if item is None],
                      "cells": cells, "a": sum(1 for _, item in before if item is None),
                      "b": sum(1 for _, item in before if item is not None)})
    return units


def stage(number: int, name: str, work: str, unit: str, units: list, n: int) -> dict:
    lane_steps = sum(u["lanes"] * u["steps"] for u in units)
    return {"stage": number, "name": name, "work": work, "unit": unit, "lane_steps": float(lane_steps),
            "idle": 1 - n / lane_steps, "units": units}


def balanced_path(a: list, b: list, spacing: int) -> dict:
    """A Balanced Path by hand: pieces of `spacing` elements of the balanced order, then the intersection's loop."""
    merge, i, j = [], 0, 0
    while i < len(a) or j < len(b):
        if i < len(a) and (j >= len(b) or a[i] <= b[j]):
            merge.append({"from": "A", "index": i, "key": a[i]})
            i += 1
        else:
            merge.append({"from": "B", "index": j, "key": b[j]})
            j += 1
    pieces, cut = [], (0, 0)
    for d, to, merge_cut in ((4, (2, 2), [3, 1]), (8, (4, 4), [4, 4]), (len(a) + len(b), (len(a), len(b)),
                                                                         [len(a), len(b)])):
        kept = sorted((Counter(a[cut[0]:to[0]]) & Counter(b[cut[1]:to[1]])).elements())
        pieces.append({"diagonal": d, "merge_cut": merge_cut, "cut": list(to), "moved": merge_cut[0] != to[0],
                       "a_begin": cut[0], "a_end": to[0], "b_begin": cut[1], "b_end": to[1], "kept": kept})
        cut = to
    balanced = [{"from": "A", "index": 0, "key": a[0]}, {"from": "B", "index": 0, "key": b[0]},
                {"from": "A", "index": 1, "key": a[1]}, {"from": "B", "index": 1, "key": b[1]}]
    balanced += [e for e in merge if (e["from"], e["index"]) not in {("A", 0), ("A", 1), ("B", 0), ("B", 1)}]
    return {"op": "intersection", "a": a, "b": b, "spacing": spacing, "merge_order": merge,
            "balanced_order": balanced, "pieces": pieces, "output": [k for p in pieces for k in p["kept"]]}


def synthetic() -> dict:
    """A small document in the schema of work.cpp and setop_analysis.cpp: five segments, 13 items; two sets of six."""
    n = OFFSETS[-1]
    stages = [stage(1, "thread-per-segment", "thread/segment", "thread", strided(OFFSETS, 1, 32, 32), n),
              stage(2, "warp-per-segment", "32 lanes/segment", "group", strided(OFFSETS, 32, 1, 32), n),
              stage(3, "block-per-segment", "block of 256/segment", "block", strided(OFFSETS, 256, 1, 256), n),
              stage(4, "merge-path", "Merge Path, VT = 5", "merge", merge_units(OFFSETS, 5), n)]
    return {"analysis": "segmented", "chapter": "10", "problem": "segreduce", "n": 1000, "segments": "uniform:32",
            "rows": [{"stage": 1, "idle": 0.5}, {"stage": 4, "idle": 0.03}],
            "segment_lanes": {"segments": "uniform:3", "drawn_from": "uniform:32", "seed": 2, "n": n,
                              "offsets": OFFSETS, "stages": stages},
            "setop_path": balanced_path([2, 2, 2, 5, 7, 9], [2, 2, 5, 6, 8, 9], 4)}


class TheModelHere(unittest.TestCase):
    def test_every_unit_adds_every_item_once(self):
        for one in synthetic()["segment_lanes"]["stages"]:
            items = sorted(c["item"] for u in one["units"] for c in u["cells"] if c["item"] >= 0)
            self.assertEqual(items, list(range(OFFSETS[-1])), one["name"])
        merge = synthetic()["segment_lanes"]["stages"][3]
        self.assertEqual(sum(len(u["segments"]) for u in merge["units"]), len(OFFSETS) - 1)


@needs_matplotlib
class Synthetic(AnalysisTestCase):
    def test_segment_lanes(self):
        self.assertDrawn(self.draw(synthetic(), "segment-lanes"), "which lane adds which item, 5 segments of uniform:3",
                         "1  thread-per-segment: thread/segment", "160 lane-steps for 13 items: 92 % idle",
                         "+224 idle", "s1 empty", "stage 4's threads", "(at - -n 1,000: 3.0 %)",
                         "- -segments uniform:32 with its mean cut to 3")

    def test_setop_path(self):
        self.assertDrawn(self.draw(synthetic(), "setop-path"), "set_intersection: Merge Path's cuts and the balanced",
                         "A[0, 2) B[0, 2) → 2 2", "diagonal 4: Merge Path's (3, 1) moved to (2, 2)",
                         "set_intersection: 2 2 5 9")

    def test_first_figure_by_default_and_titles_replaced(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        code, errors = plot("analysis", source, "-o", self.path("default.svg"), "--title", "Lanes", "--subtitle", "")
        self.assertEqual(code, 0, errors)

    def test_broken_documents_are_refused_in_one_line(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        code, errors = plot("analysis", source, "--figure", "lanes", "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("this document draws segment-lanes, setop-path", errors)
        broken = copy.deepcopy(synthetic())
        broken["segment_lanes"]["stages"][1]["units"].pop()
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "--figure", "segment-lanes", "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("its units run 128 lane-steps, not the 160 of lane_work", errors)
        broken = copy.deepcopy(synthetic())
        del broken["setop_path"]["pieces"][0]["kept"]
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "--figure", "setop-path", "-o", self.path("x.svg"))
        self.assertEqual(code, 2)
        self.assertIn("has no 'kept'", errors)
        scan = {"analysis": "segmented", "chapter": "10", "problem": "segscan", "rows": []}
        source = write_json(self.folder.name, "scan.json", scan)
        code, errors = plot("analysis", source, "-o", self.path("x.svg"))
        self.assertEqual(code, 2)
        self.assertIn("(--problem segscan) draws no figure", errors)
        self.assertFalse(os.path.exists(self.path("x.svg")))

    def test_same_input_same_bytes(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        outputs = drawn_bytes_by_hash_seed(source, self.folder.name, "--figure", "segment-lanes")
        self.assertEqual(outputs[0], outputs[1])


def _built_binary():
    return chapter_binary("chapter_10_segmented")


@needs_matplotlib
@unittest.skipUnless(_built_binary(), "chapter_10_segmented is not built (STEPWISE_BIN_DIR or build/bin)")
class RealOutput(AnalysisTestCase):
    def test_segment_lanes_from_the_chapter(self):
        document = analysis_of(_built_binary(), "--n", "1000", "--segments", "empty:50")
        lanes = document["segment_lanes"]
        n = lanes["offsets"][-1]
        for one in lanes["stages"]:
            if one["unit"] == "merge":
                expected = merge_units(lanes["offsets"], one["steps"])
            elif one["unit"] == "block":
                expected = strided(lanes["offsets"], one["lanes"], 1, one["lanes"])
            else:
                expected = strided(lanes["offsets"], one["lanes"], 32 // one["lanes"], 32)
            self.assertEqual(one["units"], expected, one["name"])
        self.assertDrawn(self.draw(document, "segment-lanes"), f"for {n} items", "drawn as - -segments empty:50",
                         "4  merge-path: Merge Path, VT = 7")

    def test_setop_path_from_the_chapter(self):
        document = analysis_of(_built_binary(), "--problem", "setop", "--op", "union", "--n", "1000")
        self.assertEqual(document["setop_path"]["a"], [1, 2, 2, 3, 5, 5, 5, 7, 8, 8, 10, 12])
        self.assertDrawn(self.draw(document, "setop-path"), "set_union: Merge Path's cuts",
                         "diagonal 12: Merge Path's (7, 5) moved to (6, 6)")
        code, errors = plot("analysis", write_json(self.folder.name, "setop.json", document), "--figure",
                            "segment-lanes", "-o", self.path("x.svg"))
        self.assertEqual(code, 2)
        self.assertIn("this document draws setop-path", errors)


if __name__ == "__main__":
    unittest.main()
