"""tools/plot analysis on chapter 06's --analyze --format json: the packing and look-back diagrams.

A synthetic document (built here from a kept pattern, with the kernels' index maps in a few lines of Python) checks
both figures anywhere; the real output of build/bin/chapter_06_compaction, when it is built, checks that the drawer
reads what the chapter writes and that the look-back adds up to the sequential count.
"""
import copy
import os
import unittest

from support import (analysis_of, AnalysisTestCase, chapter_binary, drawn_bytes_by_hash_seed, needs_matplotlib, plot,
                    svg_texts, write_json)


def _kept(i: int) -> bool:
    """The synthetic input: element i is kept when i % 3 == 0 or i % 7 == 1."""
    return i % 3 == 0 or i % 7 == 1


def _warp(first: int) -> dict:
    kept = [_kept(first + lane) for lane in range(32)]
    ranks, rank = [], 0
    for lane in range(32):
        ranks.append(rank if kept[lane] else -1)
        rank += kept[lane]
    ballot = sum(1 << lane for lane in range(32) if kept[lane])
    return {"first": first, "ballot": ballot, "voters": rank, "kept": kept, "ranks": ranks}


def _strided(threads: int, items: int) -> dict:
    warps = threads // 32
    counts, offsets, before = [], [], 0
    for step in range(items):
        counts.append([_warp(step * threads + 32 * warp)["voters"] for warp in range(warps)])
        offsets.append([])
        for count in counts[-1]:
            offsets[-1].append(before)
            before += count
    return {"stage": 3, "name": "block-aggregated", "tile": 0, "threads": threads, "items": items, "warps": warps,
            "counts": counts, "offsets": offsets, "total": before}


def _sliced(threads: int, items: int) -> dict:
    warps, slice_ = threads // 32, 32 * items
    counts = [sum(_kept(i) for i in range(w * slice_, (w + 1) * slice_)) for w in range(warps)]
    offsets = [sum(counts[:w]) for w in range(warps)]
    return {"stage": 7, "name": "tuned", "tile": 0, "threads": threads, "items": items, "warps": warps,
            "slice": slice_, "counts": counts, "offsets": offsets, "total": sum(counts)}


def _lookback(tile: int, tile_elements: int, last_inclusive: int) -> dict:
    counts = [sum(_kept(i) for i in range(k * tile_elements, (k + 1) * tile_elements)) for k in range(tile + 1)]
    windows, prefix, end = [], 0, tile
    while True:
        tiles = [end - 1 - lane for lane in range(32)]
        flags = ["P" if t <= last_inclusive else "A" for t in tiles]
        values = [0 if t < 0 else sum(counts[:t + 1]) if t <= last_inclusive else counts[t] for t in tiles]
        nearest = next((lane for lane in range(32) if flags[lane] == "P"), None)
        folded = 32 if nearest is None else nearest + 1
        prefix += sum(values[:folded])
        windows.append({"window_end": end, "tiles": tiles, "flags": flags, "values": values,
                        "nearest_inclusive": nearest, "folded_lanes": folded, "window_sum": sum(values[:folded]),
                        "prefix": prefix})
        if nearest is not None:
            break
        end -= 32
    return {"stage": 7, "name": "tuned", "tile": tile, "tile_elements": tile_elements,
            "last_inclusive": last_inclusive, "own_count": counts[tile], "windows": windows,
            "exclusive_prefix": prefix, "sequential": sum(counts[:tile])}


def synthetic(last_inclusive: int = 34) -> dict:
    """A small document in the schema of analyze_json (chapters/06_compaction/analysis.cpp)."""
    return {"analysis": "compaction", "chapter": "06", "n": 1 << 20, "seed": 9, "input": "synthetic",
            "kept": 0, "stages": [], "warp": _warp(0), "strided_tile": _strided(64, 4),
            "sliced_tile": _sliced(64, 8), "lookback": _lookback(40, 16, last_inclusive)}


AnalysisTest = AnalysisTestCase

class TheModelHere(unittest.TestCase):
    def test_the_synthetic_document_adds_up(self):
        document = synthetic()
        self.assertEqual(document["warp"]["voters"], sum(_kept(i) for i in range(32)))
        self.assertEqual(document["strided_tile"]["total"], sum(_kept(i) for i in range(256)))
        self.assertEqual(document["sliced_tile"]["total"], sum(_kept(i) for i in range(512)))
        lookback = document["lookback"]
        self.assertEqual(lookback["exclusive_prefix"], lookback["sequential"])
        self.assertEqual(lookback["windows"][0]["nearest_inclusive"], 5)
        self.assertEqual(len(synthetic(last_inclusive=1)["lookback"]["windows"]), 2)


@needs_matplotlib
class Synthetic(AnalysisTest):
    def test_packing(self):
        document = synthetic()
        texts = self.draw(document, "packing")
        warp = document["warp"]
        self.assertDrawn(texts, "Chapter 06 compaction: where a warp's and a tile's kept elements go",
                         "One warp votes: elements 0-31", f"ballot = 0x{warp['ballot']:08X}: {warp['voters']} voters",
                         f"atomicAdd(count, {warp['voters']})", "out[base + rank]",
                         "Stage 3's tile (64 × 4)", f"{document['strided_tile']['total']} kept → one atomicAdd per tile",
                         "Stage 7's tile (64 × 8): a slice of 256 elements per warp",
                         f"warp 1: {document['sliced_tile']['counts'][1]} of 256 packed",
                         f"@{document['sliced_tile']['offsets'][1]}", "seed 9", "analyze, no GPU")

    def test_lookback_one_window(self):
        document = synthetic()
        texts = self.draw(document, "lookback")
        lookback = document["lookback"]
        self.assertDrawn(texts, "Chapter 06 compaction: stage 7's look-back from tile 40",
                         "the nearest P is tile 34 (lane 5)", f"= {lookback['exclusive_prefix']:,}",
                         f"tile 40's kept elements start at output {lookback['exclusive_prefix']:,}",
                         f"Exclusive prefix {lookback['exclusive_prefix']:,} = {lookback['sequential']:,}",
                         "tiles up to 34 have published P", "tile 40")

    def test_lookback_two_windows(self):
        texts = self.draw(synthetic(last_inclusive=1), "lookback")
        self.assertDrawn(texts, "no P, so all 32 counts are added", "the nearest P is tile 1 (lane 6)")

    def test_title_and_subtitle_can_be_replaced(self):
        texts = self.draw(synthetic(), "packing", "--title", "Packing", "--subtitle", "")
        self.assertIn("Packing", texts)
        self.assertNotIn("seed 9", "\n".join(texts))

    def test_packing_is_the_first_figure(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        code, errors = plot("analysis", source, "-o", self.path("default.svg"))
        self.assertEqual(code, 0, errors)
        self.assertIn("One warp votes: elements 0-31", "\n".join(svg_texts(self.path("default.svg"))))

    def test_unknown_figure_and_broken_documents_are_refused(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        code, errors = plot("analysis", source, "--figure", "heat", "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("this document draws packing, lookback", errors)
        broken = copy.deepcopy(synthetic())
        del broken["lookback"]
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "--figure", "lookback", "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("this document draws packing", errors)
        broken = copy.deepcopy(synthetic())
        del broken["strided_tile"]["offsets"]
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "--figure", "packing", "-o", self.path("x.svg"))
        self.assertEqual(code, 2)
        self.assertIn("strided_tile has no 'offsets'", errors)
        single = copy.deepcopy(synthetic())
        single["lookback"]["windows"] = []
        source = write_json(self.folder.name, "single.json", single)
        code, errors = plot("analysis", source, "--figure", "lookback", "-o", self.path("x.svg"))
        self.assertEqual(code, 2)
        self.assertIn("no predecessor to look back at", errors)
        self.assertFalse(os.path.exists(self.path("x.svg")))

    def test_same_input_same_bytes(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        outputs = drawn_bytes_by_hash_seed(source, self.folder.name, "--figure", "packing")
        self.assertEqual(outputs[0], outputs[1])


def _built_binary():
    return chapter_binary("chapter_06_compaction")


@needs_matplotlib
@unittest.skipUnless(_built_binary(), "chapter_06_compaction is not built (STEPWISE_BIN_DIR or build/bin)")
class RealOutput(AnalysisTest):
    def test_every_figure_from_the_chapter(self):
        document = analysis_of(_built_binary(), "--n", "2^20")
        lookback = document["lookback"]
        self.assertEqual(lookback["exclusive_prefix"], lookback["sequential"])
        self.assertDrawn(self.draw(document, "packing"), "Stage 3's tile (256 × 8)",
                         "Stage 7's tile (128 × 40): a slice of 1,280 elements per warp")
        self.assertDrawn(self.draw(document, "lookback"), "stage 7's look-back from tile 40",
                         "the nearest P is tile 34 (lane 5)",
                         f"Exclusive prefix {lookback['exclusive_prefix']:,} = {lookback['sequential']:,}")


if __name__ == "__main__":
    unittest.main()
