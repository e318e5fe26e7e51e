"""tools/plot analysis for chapter 01's `--analyze --format json`: the trees and the lanes-to-banks figures.

Drawn from a synthetic document (built here with the index maps of addressing.hpp, rewritten in
Python) and, when a build tree holds chapter_01_reduction, from the document the chapter prints.
"""
import json
import os
import subprocess
import tempfile
import unittest

from support import chapter_binary as built, needs_matplotlib, plot, svg_texts, write_json

SLIDES = [10, 1, 8, -1, 0, -2, 3, 5, -2, -3, 2, 7, 0, 11, 0, 2]
SCHEMES = [  # kernel, stage, name, formula
    (1, 1, "interleaved-divergent", "if (tid % (2*s) == 0) sdata[tid] += sdata[tid + s]"),
    (2, 3, "interleaved-strided", "index = 2*s*tid; if (index < blockDim.x) sdata[index] += sdata[index + s]"),
    (3, 4, "sequential", "if (tid < s) sdata[tid] += sdata[tid + s]"),
]


def thread_work(kernel, tid, stride, block):
    """addressing.hpp's thread_work: (active, left, right)."""
    if kernel == 1:
        return tid % (2 * stride) == 0, tid, tid + stride
    if kernel == 2:
        index = 2 * stride * tid
        return index < block, index, index + stride
    return tid < stride, tid, tid + stride


def strides(kernel, block):
    steps = []
    s = 1
    while s < block:
        steps.append(s)
        s *= 2
    return steps[::-1] if kernel == 3 else steps


def ways(words, bank):
    return len({word for word in words if word % 32 == bank})


def document(block=64, elements=8):
    """A reduction-addressing document in the schema of reduce_analysis.cpp's analysis_json."""
    schemes = []
    for kernel, stage, name, formula in SCHEMES:
        steps = []
        for number, s in enumerate(strides(kernel, block), start=1):
            work = [thread_work(kernel, lane, s, block) for lane in range(32)]
            left = [w[1] for w in work if w[0]]
            right = [w[2] for w in work if w[0]]
            lanes = []
            for lane, (active, l, r) in enumerate(work):
                if not active:
                    lanes.append({"lane": lane, "thread": lane, "active": False})
                    continue
                lanes.append({"lane": lane, "thread": lane, "active": True, "left": l, "right": r,
                              "left_bank": l % 32, "right_bank": r % 32,
                              "left_ways": ways(left, l % 32), "right_ways": ways(right, r % 32)})
            degree = max([ways(left, b) for b in range(32)] + [ways(right, b) for b in range(32)])
            steps.append({"step": number, "stride": s, "conflict_degree": degree,
                          "warp0": {"active_lanes": len(left), "conflict_degree": degree, "lanes": lanes}})
        values = [SLIDES[i % 16] for i in range(elements)]
        tree = []
        for number, s in enumerate(strides(kernel, elements), start=1):
            adds = []
            for tid in range(elements):
                active, l, r = thread_work(kernel, tid, s, elements)
                if active:
                    adds.append({"thread": tid, "left": l, "right": r})
            for add in adds:
                values[add["left"]] += values[add["right"]]
            tree.append({"step": number, "stride": s, "adds": adds, "values": list(values)})
        schemes.append({"kernel": kernel, "stage": stage, "name": name, "formula": formula, "steps": steps,
                        "tree": tree})
    return {"analysis": "reduction-addressing",
            "chapter": {"id": "01", "name": "reduction", "title": "parallel reduction"},
            "block": block, "warp_size": 32, "banks": 32, "word_bytes": 4, "tree_elements": elements,
            "tree_input": [SLIDES[i % 16] for i in range(elements)], "schemes": schemes}


def chapter_binary():
    return built("chapter_01_reduction")


class AnalysisFigure(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def path(self, name):
        return os.path.join(self.folder.name, name)

    def draw(self, doc, figure, *extra, name="figure.svg"):
        source = write_json(self.folder.name, "analysis.json", doc)
        output = self.path(name)
        code, errors = plot("analysis", source, "--figure", figure, *extra, "-o", output)
        self.assertEqual(code, 0, errors)
        return svg_texts(output)

    def refused(self, doc, *args):
        source = write_json(self.folder.name, "bad.json", doc)
        code, errors = plot("analysis", source, *args, "-o", self.path("bad.svg"))
        self.assertEqual(code, 2)
        self.assertEqual(len(errors.strip().splitlines()), 1, errors)
        return errors


@needs_matplotlib
class Trees(AnalysisFigure):
    def test_three_kernels_their_threads_and_the_sum(self):
        texts = "\n".join(self.draw(document(), "trees"))
        for text in ("Chapter 01 reduction: who adds what, kernels 1, 2 and 3",
                     "Kernel 1 (stage 1): interleaved-divergent", "Kernel 2 (stage 3): interleaved-strided",
                     "Kernel 3 (stage 4): sequential", "if (tid % (2*s) == 0)\nsdata[tid] += sdata[tid + s]",
                     "index = 2*s*tid;\nif (index &lt; blockDim.x)\nsdata[index] += sdata[index + s]", "s = 1", "s = 4", "input", "t6", "every tree leaves the sum, 24, in word 0"):
            self.assertIn(text, texts)

    def test_the_first_figure_is_the_default(self):
        source = write_json(self.folder.name, "analysis.json", document())
        code, errors = plot("analysis", source, "-o", self.path("default.svg"))
        self.assertEqual(code, 0, errors)
        self.assertIn("Chapter 01 reduction: who adds what, kernels 1, 2 and 3", svg_texts(self.path("default.svg")))

    def test_a_larger_tree_is_stacked_and_still_drawn(self):
        texts = "\n".join(self.draw(document(elements=32), "trees"))
        self.assertIn("t15", texts)
        self.assertIn("every tree leaves the sum, 82, in word 0", texts)

    def test_a_wrong_sum_is_said(self):
        doc = document()
        doc["schemes"][0]["tree"][-1]["values"][0] = 7
        self.assertIn("word 0 ends as 7, 24", "\n".join(self.draw(doc, "trees")))

    def test_same_document_same_bytes(self):
        self.draw(document(), "trees", name="one.svg")
        self.draw(document(), "trees", name="two.svg")
        with open(self.path("one.svg"), "rb") as one, open(self.path("two.svg"), "rb") as two:
            self.assertEqual(one.read(), two.read())


@needs_matplotlib
class Banks(AnalysisFigure):
    def test_kernel_2_conflicts_lane_by_lane(self):
        texts = "\n".join(self.draw(document(block=256), "banks", "--png"))
        for text in ("Chapter 01 reduction: kernel 2's lanes and their shared-memory banks",
                     "warp 0 of a 256-thread block", "lane of warp 0 (= thread)", "s = 1", "s = 128", "2-way",
                     "4-way", "8-way", "conflict free", "falls s banks further on"):
            self.assertIn(text, texts)
        with open(self.path("figure.png"), "rb") as stream:
            self.assertEqual(stream.read(8), b"\x89PNG\r\n\x1a\n")

    def test_a_64_thread_block_conflicts_2_ways_at_most(self):
        texts = self.draw(document(block=64), "banks")
        self.assertIn("2-way", texts)
        self.assertNotIn("4-way", texts)

    def test_reads_that_conflict_differently_get_their_own_rows(self):
        doc = document()
        lane = doc["schemes"][1]["steps"][0]["warp0"]["lanes"][0]
        lane["right_ways"] = 5
        texts = "\n".join(self.draw(doc, "banks"))
        self.assertIn("s = 1, sdata[index + s]", texts)
        self.assertIn("5-way", texts)
        self.assertNotIn("falls s banks further on", texts)

    def test_title_and_subtitle_can_be_replaced(self):
        texts = self.draw(document(), "banks", "--title", "Bank conflicts", "--subtitle", "")
        self.assertIn("Bank conflicts", texts)
        self.assertNotIn("warp 0 of a 64-thread block", "\n".join(texts))


@needs_matplotlib
class BadDocuments(AnalysisFigure):
    def test_unknown_figure(self):
        self.assertIn("this document draws trees, banks", self.refused(document(), "--figure", "heat"))

    def test_missing_schemes_and_missing_kernel(self):
        doc = document()
        del doc["schemes"]
        self.assertIn("has no 'schemes'", self.refused(doc))
        doc = document()
        doc["schemes"] = doc["schemes"][:1]
        self.assertIn("no kernel 2", self.refused(doc, "--figure", "banks"))

    def test_tree_input_of_the_wrong_size(self):
        doc = document()
        doc["tree_input"] = doc["tree_input"][:3]
        self.assertIn("tree_input has 3 values for 8 words", self.refused(doc, "--figure", "trees"))


@needs_matplotlib
@unittest.skipUnless(chapter_binary(), "no build tree holds chapter_01_reduction")
class FromTheChapter(AnalysisFigure):
    def analyze(self, *args):
        result = subprocess.run([chapter_binary(), "--analyze", "--format", "json", *args], capture_output=True,
                                text=True, timeout=120)
        self.assertEqual(result.returncode, 0, result.stderr)
        return json.loads(result.stdout)

    def test_the_document_matches_the_index_maps(self):
        real = self.analyze("--block", "64", "--tree-block", "8")
        synthetic = document(block=64, elements=8)
        self.assertEqual(real["analysis"], "reduction-addressing")
        self.assertEqual(real["tree_input"], synthetic["tree_input"])
        for got, want in zip(real["schemes"], synthetic["schemes"]):
            self.assertEqual((got["kernel"], got["name"], got["formula"]),
                             (want["kernel"], want["name"], want["formula"]))
            self.assertEqual(got["tree"], want["tree"])
            for got_step, want_step in zip(got["steps"], want["steps"]):
                self.assertEqual(got_step["stride"], want_step["stride"])
                self.assertEqual(got_step["warp0"]["lanes"], want_step["warp0"]["lanes"])
                self.assertEqual(got_step["warp0"]["conflict_degree"], want_step["warp0"]["conflict_degree"])

    def test_both_figures_from_the_default_document(self):
        real = self.analyze()
        self.assertEqual((real["block"], real["tree_elements"]), (256, 16))
        self.assertIn("every tree leaves the sum, 41, in word 0", "\n".join(self.draw(real, "trees")))
        self.assertIn("8-way", "\n".join(self.draw(real, "banks")))


if __name__ == "__main__":
    unittest.main()
