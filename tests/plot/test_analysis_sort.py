"""tools/plot analysis on chapter 09's --analyze --format json: the digit scatter, the look-back chain and the merge
sort's passes.

A synthetic document (built here with a few lines of Python: a radix pass's places, the look-back's walks, the
merge passes' splits) checks every figure anywhere; the real output of build/bin/chapter_09_sort, when one is built,
checks that the drawer reads what the chapter writes.
"""
import copy
import os
import unittest

from support import (analysis_of, AnalysisTestCase, chapter_binary, drawn_bytes_by_hash_seed, needs_matplotlib, plot,
                     write_json)
from test_analysis_merge import merge_path


def radix_pass(keys: list, shift: int, bits: int, tile: int) -> dict:
    """One LSD pass: the histogram, its scan, and each tile's places (tile_digit_places' three terms)."""
    digits = 1 << bits
    digit = [(key >> shift) & (digits - 1) for key in keys]
    counts = [digit.count(d) for d in range(digits)]
    starts = [sum(counts[:d]) for d in range(digits)]
    earlier, tiles, output = [0] * digits, [], [None] * len(keys)
    for first in range(0, len(keys), tile):
        mine = digit[first:first + tile]
        ranks = [mine[:i].count(d) for i, d in enumerate(mine)]
        places = [starts[d] + earlier[d] + r for d, r in zip(mine, ranks)]
        tiles.append({"first": first, "digits": mine, "ranks": ranks, "earlier": list(earlier), "places": places})
        for i, place in enumerate(places):
            output[place] = keys[first + i]
        for d in mine:
            earlier[d] += 1
    return {"shift": shift, "input": keys, "counts": counts, "starts": starts, "tiles": tiles, "output": output}


def lookback(one_pass: dict) -> dict:
    """The chapter's moment: tile 0 P, the last tile looking back, the one before it A, the others P in even digits."""
    tiles = one_pass["tiles"]
    digits = len(one_pass["counts"])
    counts = [[t["digits"].count(d) for d in range(digits)] for t in tiles]
    inclusive = [[t["earlier"][d] + counts[k][d] for d in range(digits)] for k, t in enumerate(tiles)]
    flags = [["P" if k == 0 or (k < len(tiles) - 2 and d % 2 == 0) else "A" for d in range(digits)]
             for k in range(len(tiles))]
    walks, prefix = [], []
    for d in range(digits):
        walk = []
        for k in range(len(tiles) - 2, -1, -1):
            walk.append({"tile": k, "flag": flags[k][d], "value": inclusive[k][d] if flags[k][d] == "P" else
                         counts[k][d]})
            if flags[k][d] == "P":
                break
        walks.append(walk)
        prefix.append(sum(step["value"] for step in walk))
    return {"pass": 0, "tile": len(tiles) - 1, "counts": counts, "exclusive": [t["earlier"] for t in tiles],
            "inclusive": inclusive, "flags": flags, "walks": walks, "prefix": prefix}


def merge_sort(keys: list, tile: int) -> dict:
    """The block sort, then each pass's splits (a Merge Path search per tile boundary, inside its pair)."""
    n = len(keys)
    current = [v for first in range(0, n, tile) for v in sorted(keys[first:first + tile])]
    document = {"tile": tile, "keys": keys, "block_sorted": list(current), "passes": []}
    width = tile
    while width < n:
        partitions = []
        for boundary in range((n + tile - 1) // tile + 1):
            output = min(boundary * tile, n)
            first = output // (2 * width) * 2 * width
            middle, last = min(first + width, n), min(first + 2 * width, n)
            partitions.append(first + merge_path(current[first:middle], current[middle:last], output - first))
        tiles, result = [], []
        for k in range((n + tile - 1) // tile):
            first, last = k * tile, min(n, (k + 1) * tile)
            pair = first // (2 * width) * 2 * width
            middle, end = min(pair + width, n), min(pair + 2 * width, n)
            ends = last == end
            a_begin, a_end = partitions[k], middle if ends else partitions[k + 1]
            b_begin, b_end = middle + first - a_begin, end if ends else middle + last - partitions[k + 1]
            tiles.append({"first": first, "last": last, "a_begin": a_begin, "a_end": a_end, "b_begin": b_begin,
                          "b_end": b_end})
            result += sorted(current[a_begin:a_end] + current[b_begin:b_end])
        document["passes"].append({"width": width, "input": current, "partitions": partitions, "tiles": tiles,
                                   "output": result})
        current, width = result, 2 * width
    return document


def synthetic() -> dict:
    """A small document in the schema of analysis.cpp: 14 keys of 4 bits, tiles of 5, merge tiles of 3."""
    keys = [9, 3, 14, 3, 7, 0, 12, 5, 10, 1, 15, 6, 3, 8]
    passes, current = [], keys
    for shift in (0, 2):
        passes.append(radix_pass(current, shift, 2, 5))
        current = passes[-1]["output"]
    return {"analysis": "sort", "chapter": "09", "problem": "radix", "key": "uint32", "n": 14,
            "rows": [], "skew": {"passes": []},
            "example": {"keys": keys, "key_bits": 4, "digit_bits": 2, "tile": 5},
            "radix": passes, "lookback": lookback(passes[0]), "merge": merge_sort(keys, 3)}


class TheModelHere(unittest.TestCase):
    def test_the_synthetic_passes_sort(self):
        document = synthetic()
        self.assertEqual(document["radix"][-1]["output"], sorted(document["example"]["keys"]))
        self.assertEqual(document["merge"]["passes"][-1]["output"], sorted(document["example"]["keys"]))
        chain = document["lookback"]
        self.assertEqual(chain["prefix"], chain["exclusive"][chain["tile"]])


@needs_matplotlib
class Synthetic(AnalysisTestCase):
    def test_digit_scatter(self):
        self.assertDrawn(self.draw(synthetic(), "digit-scatter"), "one radix pass, 2-bit digits, tiles of 5 keys",
                         "tile 2", "digit 3 starts at", "Pass 1 reads bits 0..1")

    def test_lookback_chain(self):
        document = synthetic()
        walk = " + ".join(f"{s['value']}{s['flag']}" for s in document["lookback"]["walks"][1])
        self.assertDrawn(self.draw(document, "lookback-chain"), "one chain per digit", "pass 2 starts",
                         f"{walk} = {document['lookback']['prefix'][1]}", "Tile 2 adds the framed statuses")

    def test_merge_passes(self):
        self.assertDrawn(self.draw(synthetic(), "merge-passes"), "the merge sort's passes, tiles of 3 keys",
                         "block sort (runs of 3)", "pass 3 (runs of 14)", "A[0,3) B[12,12)")

    def test_first_figure_by_default_and_titles_replaced(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        code, errors = plot("analysis", source, "-o", self.path("default.svg"), "--title", "Sort", "--subtitle", "")
        self.assertEqual(code, 0, errors)

    def test_broken_documents_are_refused_in_one_line(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        code, errors = plot("analysis", source, "--figure", "scatter", "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("this document draws digit-scatter, lookback-chain, merge-passes", errors)
        broken = copy.deepcopy(synthetic())
        del broken["radix"][0]["tiles"][1]
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "--figure", "digit-scatter", "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("its tiles place 9 keys, not 14", errors)
        broken = copy.deepcopy(synthetic())
        del broken["lookback"]["walks"]
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "--figure", "lookback-chain", "-o", self.path("x.svg"))
        self.assertEqual(code, 2)
        self.assertIn("has no 'walks'", errors)
        self.assertFalse(os.path.exists(self.path("x.svg")))

    def test_same_input_same_bytes(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        outputs = drawn_bytes_by_hash_seed(source, self.folder.name, "--figure", "lookback-chain")
        self.assertEqual(outputs[0], outputs[1])


def _built_binary():
    return chapter_binary("chapter_09_sort")


@needs_matplotlib
@unittest.skipUnless(_built_binary(), "chapter_09_sort is not built (STEPWISE_BIN_DIR or build/bin)")
class RealOutput(AnalysisTestCase):
    def test_every_figure_from_the_chapter(self):
        document = analysis_of(_built_binary(), "--n", "1000")
        example = document["example"]
        radix, current = [], example["keys"]
        for shift in range(0, example["key_bits"], example["digit_bits"]):
            radix.append(radix_pass(current, shift, example["digit_bits"], example["tile"]))
            current = radix[-1]["output"]
        self.assertEqual(document["radix"], radix)
        self.assertEqual(document["lookback"], lookback(radix[0]))
        self.assertEqual(document["merge"], merge_sort(example["keys"], document["merge"]["tile"]))
        self.assertDrawn(self.draw(document, "digit-scatter"), "tiles of 6 keys", "digit 3 starts at 17")
        self.assertDrawn(self.draw(document, "lookback-chain"), "1A + 2A + 2P = 5")
        self.assertDrawn(self.draw(document, "merge-passes"), "A[9,11) B[19,21)", "pass 3 (runs of 24)")


if __name__ == "__main__":
    unittest.main()
