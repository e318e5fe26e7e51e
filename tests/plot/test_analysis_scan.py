"""tools/plot analysis on chapter 02's --analyze --format json: banks, transpose and look-back diagrams.

A synthetic document (built here with the same bank model, in a few lines of Python) checks every figure
anywhere; the real output of build-ch02/bin/chapter_02_scan (or build/bin/...), when one is built, checks that
the drawer reads what the chapter writes.
"""
import copy
import math
import os
import unittest

from support import (analysis_of, AnalysisTestCase, chapter_binary, drawn_bytes_by_hash_seed, needs_matplotlib, plot,
                    svg_texts, write_json)



def _access(vt: int, width: int) -> dict:
    """One access width of the transpose of warp 0, as bank_conflicts.cpp writes it."""
    instructions = vt // width
    phase = 32 // width
    banks, ways = [], []
    for instruction in range(instructions):
        first = [lane * vt + instruction * width for lane in range(32)]
        bank_row, way_row = [], []
        for lane in range(32):
            begin = lane // phase * phase
            words = {first[other] + k for other in range(begin, begin + phase) for k in range(width)}
            way = max(sum(1 for word in words if word % 32 == (first[lane] + k) % 32) for k in range(width))
            bank_row.append(first[lane] % 32)
            way_row.append(way)
        banks.append(bank_row)
        ways.append(way_row)
    degree = max(1, math.gcd(vt, 32) // width)
    return {"bits": 32 * width, "instruction": "LDS" if width == 1 else f"LDS.{32 * width}",
            "width_words": width, "lanes_per_phase": phase, "instructions": instructions, "degree": degree,
            "wavefronts": vt * degree, "ideal": vt, "conflicts_per_tile": 4 * vt * (degree - 1),
            "banks": banks, "ways": ways}


def _window(end: int, polls: list, nearest) -> dict:
    tiles = [end - 1 - lane for lane in range(32)]
    folded = 32 if nearest is None else nearest + 1
    return {"window_end": end, "tiles": tiles, "polls": polls, "values": [1] * 32,
            "nearest_inclusive": nearest, "folded_lanes": folded, "window_value": folded, "prefix": folded}


def synthetic() -> dict:
    """A small document in the schema of analysis_json (chapters/02_scan/bank_conflicts.cpp)."""
    first_poll = ["A"] * 32
    first_poll[3] = "X"
    second = ["A"] * 5 + ["P"] * 27
    return {
        "analysis": "scan-transpose", "chapter": "02", "banks": 32, "warp_size": 32, "word_bytes": 4, "nt": 128,
        "vts": [8, 7],
        "transposes": [{"vt": 8, "aligned_bits": 128, "accesses": [_access(8, 1), _access(8, 4)]},
                       {"vt": 7, "aligned_bits": 32, "accesses": [_access(7, 1)]}],
        "example_tile": {"nt": 4, "vt": 3, "strided": [[i * 4 + t for i in range(3)] for t in range(4)],
                         "thread_order": [[t * 3 + i for i in range(3)] for t in range(4)]},
        "tree": {"threads": 256, "items": 512, "levels": []},
        "lookback": {"tile": 60, "aggregate": 1, "operator": "int32 +", "exclusive_prefix": 60,
                     "inclusive_prefix": 61,
                     "windows": [_window(60, [first_poll, ["A"] * 32], None), _window(28, [second], 5)]},
    }


AnalysisTest = AnalysisTestCase

class TheModelHere(unittest.TestCase):
    def test_the_synthetic_access_is_the_talk_and_the_correction(self):
        self.assertEqual(_access(8, 1)["ways"][0][0], 8)  # 32-bit: lanes 0, 4, ..., 28 all in bank 0
        self.assertEqual(_access(8, 4)["ways"][0][0], 2)  # 128-bit: lanes 0 and 4 of the quarter-warp
        self.assertEqual(_access(7, 1)["ways"], [[1] * 32 for _ in range(7)])
        self.assertEqual(_access(8, 4)["banks"][1][1], 12)


@needs_matplotlib
class Synthetic(AnalysisTest):
    def test_banks(self):
        texts = self.draw(synthetic(), "banks")
        self.assertDrawn(texts, "Chapter 02 scan: shared-memory banks of the transpose, VT = 8 and 7",
                         "VT = 8, 32-bit (LDS)", "8-way: 64 wavefronts (ideal 8)", "VT = 8, 128-bit (LDS.128)",
                         "2-way: 16 wavefronts (ideal 8)", "VT = 7, 32-bit (LDS)",
                         "conflict-free: 7 wavefronts (ideal 7)", "24–27", "a k-way conflict", "lane")

    def test_transpose(self):
        texts = self.draw(synthetic(), "transpose")
        self.assertDrawn(texts, "the strided → thread-order transpose (4 threads × 3 values)",
                         "1. after the strided loads", "2. shared memory, word w = item w",
                         "3. after the thread-order reads", "words 9–11", "t3", "outlined: the items of thread 1")

    def test_lookback(self):
        texts = self.draw(synthetic(), "lookback")
        self.assertDrawn(texts, "Chapter 02 scan: decoupled look-back of tile 60", "tiles 56 have published nothing",
                         "no P: fold all 32 aggregates", "nearest P is tile 22 (lane 5)", "then P = 61",
                         "X: nothing published", "A: aggregate", "P: inclusive prefix", "tile 60")

    def test_title_and_subtitle_can_be_replaced(self):
        texts = self.draw(synthetic(), "banks", "--title", "Banks", "--subtitle", "")
        self.assertIn("Banks", texts)
        self.assertNotIn("warp 0 of an NT = 128 tile", "\n".join(texts))

    def test_first_figure_by_default(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        code, errors = plot("analysis", source, "-o", self.path("default.svg"))
        self.assertEqual(code, 0, errors)
        self.assertIn("VT = 8, 32-bit (LDS)", "\n".join(svg_texts(self.path("default.svg"))))

    def test_unknown_figure_and_broken_documents_are_refused(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        code, errors = plot("analysis", source, "--figure", "heat", "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("this document draws banks, transpose, lookback", errors)
        broken = copy.deepcopy(synthetic())
        del broken["lookback"]
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "--figure", "banks", "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("has no 'lookback'", errors)
        broken = copy.deepcopy(synthetic())
        del broken["transposes"][0]["accesses"][1]["ways"]
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "--figure", "banks", "-o", self.path("x.svg"))
        self.assertEqual(code, 2)
        self.assertIn("the 128-bit access of VT = 8 has no 'ways'", errors)
        self.assertFalse(os.path.exists(self.path("x.svg")))

    def test_same_input_same_bytes(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        outputs = drawn_bytes_by_hash_seed(source, self.folder.name, "--figure", "lookback")
        self.assertEqual(outputs[0], outputs[1])


def _built_binary():
    return chapter_binary("chapter_02_scan")


@needs_matplotlib
@unittest.skipUnless(_built_binary(), "chapter_02_scan is not built (STEPWISE_BIN_DIR or build/bin)")
class RealOutput(AnalysisTest):
    def test_every_figure_from_the_chapter(self):
        document = analysis_of(_built_binary())
        self.assertDrawn(self.draw(document, "banks"), "2-way: 16 wavefronts (ideal 8)", "8-way: 64 wavefronts")
        self.assertDrawn(self.draw(document, "transpose"), "(8 threads × 8 values)", "words 56–63")
        self.assertDrawn(self.draw(document, "lookback"), "decoupled look-back of tile 80",
                         "tiles 71, 75, 78 have published nothing", "nearest P is tile 40 (lane 7)", "then P = 81")


if __name__ == "__main__":
    unittest.main()
