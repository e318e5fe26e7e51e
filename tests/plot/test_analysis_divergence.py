"""tools/plot analysis on chapter 07's --analyze --format json: the remapping diagram of the paper's
path-vector example.

A synthetic document (the example worked here: path vectors <A % 2, A < 10>, a stable sort by path)
checks the figure anywhere; the real output of build/bin/chapter_07_divergence, when it is built, checks
that the drawer reads what the chapter writes and that the chapter's order is that stable sort.
"""
import copy
import os
import unittest

from support import (analysis_of, AnalysisTestCase, chapter_binary, drawn_bytes_by_hash_seed, needs_matplotlib, plot,
                    write_json)

VALUES = [2, 11, 14, 7, 5, 20, 3, 12, 9, 16, 1, 13, 8, 15, 4, 10]


def example(values: list, width: int = 4) -> dict:
    """The example as pvector_example computes it."""
    pvectors = [[a % 2, 1 if a < 10 else 0] for a in values]
    paths = [2 * b1 + b2 for b1, b2 in pvectors]
    order = sorted(range(len(values)), key=lambda i: paths[i])  # sorted() is stable

    def per_warp(mapping):
        return [len({paths[mapping[t]] for t in range(first, min(first + width, len(values)))})
                for first in range(0, len(values), width)]

    return {"source": "test", "conditions": ["A[tid] % 2", "A[tid] < 10"], "warp_width": width, "values": values,
            "pvectors": pvectors, "paths": paths, "order": order,
            "paths_per_warp_before": per_warp(list(range(len(values)))), "paths_per_warp_after": per_warp(order)}


def synthetic() -> dict:
    """A document in the schema of analyze_json (chapters/07_divergence/analysis.cpp)."""
    return {"analysis": "divergence-remap", "chapter": "07", "pvector_example": example(VALUES),
            "input": {"n": 64, "warps": 2, "stages": []}}


class TheModelHere(unittest.TestCase):
    def test_the_paper_s_table_and_the_boundaries(self):
        worked = example(VALUES)
        self.assertEqual(worked["pvectors"][:3], [[0, 1], [1, 0], [0, 0]])  # tid 0, 1, 2 of the paper's table
        self.assertEqual(worked["paths_per_warp_before"], [4, 2, 3, 3])
        self.assertEqual(worked["paths_per_warp_after"], [1, 2, 2, 1])


class AnalysisTest(AnalysisTestCase):
    def draw(self, document, *extra: str) -> list:
        return super().draw(document, "remap", *extra)

@needs_matplotlib
class Synthetic(AnalysisTest):
    def test_remap(self):
        texts = self.draw(synthetic())
        self.assertDrawn(texts, "thread-data remapping of the paper's path-vector example",
                         "1. Thread t on element t", "2. Reference redirection (stage 3)",
                         "3. Data transformation (stage 4)", "warp 0: 4 paths: divergent", "warp 0: 1 path",
                         "warp 1: 2 paths: divergent", "t0→2", "A[15]", "&lt;0,1&gt;", "Warps are drawn 4 lanes wide")

    def test_other_widths(self):
        document = synthetic()
        document["pvector_example"] = example(VALUES[:12], width=3)
        self.assertDrawn(self.draw(document), "Warps are drawn 3 lanes wide", "warp 3:")

    def test_broken_documents_are_refused(self):
        broken = copy.deepcopy(synthetic())
        broken["pvector_example"]["order"] = [0] * 16
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("do not describe one remap", errors)
        del broken["pvector_example"]
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "-o", self.path("x.svg"))
        self.assertEqual(code, 2)
        self.assertIn("has no 'pvector_example'", errors)
        self.assertFalse(os.path.exists(self.path("x.svg")))

    def test_same_input_same_bytes(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        outputs = drawn_bytes_by_hash_seed(source, self.folder.name)
        self.assertEqual(outputs[0], outputs[1])


def _built_binary():
    return chapter_binary("chapter_07_divergence")


@needs_matplotlib
@unittest.skipUnless(_built_binary(), "chapter_07_divergence is not built (STEPWISE_BIN_DIR or build/bin)")
class RealOutput(AnalysisTest):
    def test_the_figure_from_the_chapter(self):
        document = analysis_of(_built_binary(), "--n", "2^16")
        written = document["pvector_example"]
        self.assertEqual({key: written[key] for key in written if key != "source"},
                         {key: value for key, value in example(VALUES).items() if key != "source"})
        self.assertDrawn(self.draw(document), "warp 0: 4 paths: divergent", "t0→2")


if __name__ == "__main__":
    unittest.main()
