"""tools/plot analysis on chapter 04's --analyze --format json: the merge walk of stages 4 and 5.

A synthetic document (the merge of a small CSR matrix computed here, in a few lines of Python, as the chapter's
analysis.cpp computes it) checks the figure anywhere; the real output of build/bin/chapter_04_spmv, when it is
built, checks that the drawer reads what the chapter writes.
"""
import copy
import os
import unittest

from support import (analysis_of, AnalysisTestCase, chapter_binary, drawn_bytes_by_hash_seed, needs_matplotlib, plot,
                    svg_texts, write_json)


def _walk(offsets: list, vt: int, nt: int) -> dict:
    """The merge walk of a matrix with these row offsets, in the schema of analysis.cpp's walk_json."""
    rows, nnz = len(offsets) - 1, offsets[-1]
    ends = offsets[1:]
    items = []  # the whole merge, in order: a row end goes before a nonzero equal to it
    nz = row = 0
    while nz < nnz or row < rows:
        if nz < nnz and (row >= rows or nz < ends[row]):
            items.append({"kind": "nonzero", "index": nz, "row": row})
            nz += 1
        else:
            items.append({"kind": "end", "index": row, "row": row})
            row += 1
    total = len(items)

    def split(diagonal):  # nonzeros before the diagonal
        return sum(1 for item in items[:diagonal] if item["kind"] == "nonzero")

    tiles = []
    for diagonal in range(0, total, vt * nt):
        end = min(total, diagonal + vt * nt)
        end_row = end - split(end)
        first = split(diagonal)
        carry = max(0, split(end) - max(first, offsets[end_row])) if end_row < rows else 0
        tiles.append({"diagonal": diagonal, "first_nonzero": first, "first_row": diagonal - first,
                      "end_row": end_row, "carry_row": end_row if carry else -1, "carry_nonzeros": carry})
    threads = []
    for diagonal in range(0, total, vt):
        mine = items[diagonal:diagonal + vt]
        tile = diagonal // (vt * nt)
        tail = 0
        for item in mine:
            tail = 0 if item["kind"] == "end" else tail + 1
        after = split(diagonal + len(mine))
        row_after = diagonal + len(mine) - after
        partial = "none" if tail == 0 else ("shared" if row_after < tiles[tile]["end_row"] else "carry")
        threads.append({"tile": tile, "diagonal": diagonal, "first_nonzero": split(diagonal),
                        "first_row": diagonal - split(diagonal), "items": mine, "partial": partial,
                        "partial_row": row_after if tail else -1, "partial_nonzeros": tail})
    return {"threads_per_tile": nt, "items_per_thread": vt, "rows": rows, "nonzeros": nnz, "row_ends": ends,
            "threads": threads, "tiles": tiles}


def synthetic() -> dict:
    """The lecture's matrix plus a long row: offsets 0 2 2 5 7 17 18, 3 items a thread, tiles of 2 threads."""
    return {
        "analysis": "spmv-merge", "chapter": "04",
        "matrix": {"description": "synthetic 6x6", "rows": 6, "cols": 12, "nonzeros": 18},
        "row_lengths": {"min": 0, "max": 10, "mean": 3.0},
        "stages": {"merge": {"threads_per_tile": 128, "items_per_thread": 3}},
        "merge_walk": _walk([0, 2, 2, 5, 7, 17, 18], 3, 2),
        "notes": [],
    }


class TheWalkHere(unittest.TestCase):
    def test_the_synthetic_walk_is_the_merge(self):
        walk = _walk([0, 2, 2, 5, 7], 7, 2)  # the lecture's: nz0 nz1 END0 END1 nz2 nz3 nz4 | END2 nz5 nz6 END3
        self.assertEqual([item["kind"][0] for item in walk["threads"][0]["items"]], list("nneennn"))
        self.assertEqual(walk["threads"][0]["partial"], "shared")
        self.assertEqual(walk["threads"][0]["partial_row"], 2)
        self.assertEqual(_walk([0, 2, 2, 5, 7], 7, 1)["threads"][0]["partial"], "carry")


class AnalysisTest(AnalysisTestCase):
    def draw(self, document, *extra: str) -> list:
        return super().draw(document, "merge", *extra)

@needs_matplotlib
class Synthetic(AnalysisTest):
    def test_merge(self):
        texts = self.draw(synthetic())
        self.assertDrawn(texts, "Chapter 04 spmv: the merge walk of stages 4 and 5 on synthetic 6x6",
                         "6 rows, 18 nonzeros: 24 items", "END4 (offsets[5] = 17)", "tile 0", "tile 3", "t7",
                         "a thread's diagonal (every 3 items)", "a tile's diagonal (every 6 items)",
                         "partial sum added in shared memory", "partial sum carried to the fix-up",
                         "to tile 1's carry: the fix-up adds it to y[4]", "ends on a row end: nothing left over",
                         "the kernels' tiles hold 128 threads (stage 4)", "nz9", "END5")

    def test_title_and_subtitle_can_be_replaced(self):
        texts = self.draw(synthetic(), "--title", "Merge", "--subtitle", "")
        self.assertIn("Merge", texts)
        self.assertNotIn("6 rows, 18 nonzeros", "\n".join(texts))

    def test_first_figure_by_default(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        code, errors = plot("analysis", source, "-o", self.path("default.svg"))
        self.assertEqual(code, 0, errors)
        self.assertIn("tile 0", svg_texts(self.path("default.svg")))

    def test_unknown_figure_and_broken_documents_are_refused(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        code, errors = plot("analysis", source, "--figure", "grid", "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("this document draws merge", errors)
        large = copy.deepcopy(synthetic())
        large["merge_walk"] = None
        source = write_json(self.folder.name, "large.json", large)
        code, errors = plot("analysis", source, "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("more than 64 rows + nonzeros", errors)
        broken = copy.deepcopy(synthetic())
        del broken["merge_walk"]["threads"][2]["partial"]
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "-o", self.path("x.svg"))
        self.assertEqual(code, 2)
        self.assertIn("a thread of the merge walk has no 'partial'", errors)
        self.assertFalse(os.path.exists(self.path("x.svg")))

    def test_same_input_same_bytes(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        outputs = drawn_bytes_by_hash_seed(source, self.folder.name)
        self.assertEqual(outputs[0], outputs[1])


def _built_binary():
    return chapter_binary("chapter_04_spmv")


@needs_matplotlib
@unittest.skipUnless(_built_binary(), "chapter_04_spmv is not built (STEPWISE_BIN_DIR or build/bin)")
class RealOutput(AnalysisTest):
    def test_the_figure_of_the_chapter(self):
        """The matrix of figures/04_merge_walk.svg: its walk, and the same walk as this file's model computes."""
        document = analysis_of(_built_binary(), "--matrix", "huge-row:8:3:20")
        walk = document["merge_walk"]
        self.assertEqual(walk, _walk([0] + walk["row_ends"], walk["items_per_thread"], walk["threads_per_tile"]))
        self.assertDrawn(self.draw(document), "on huge-row 8x20, 3 per row, row 4 of 20", "tile 3",
                         "→ row 4's 5 nonzeros to tile 1's carry: the fix-up adds it to y[4]",
                         "→ row 4's 7 nonzeros added in shared memory (END4 later in tile 2)")


if __name__ == "__main__":
    unittest.main()
