"""tools/plot's measured figures on chapter 04's reports: what a sweep's axes and outline say, and library lines
that coincide on a staircase.

The reports are synthetic (fixtures.py's schema) with the times of chapter 04's README (R-MAT, float32, H100).
"""
import os
import tempfile
import unittest

import fixtures
from support import needs_matplotlib, plot, svg_texts, write_json

fixtures.CHAPTERS.setdefault("04", ("spmv", "CSR sparse matrix-vector multiply"))

# (kind, number, name, median ms), chapter 04's R-MAT table (rmat:22:16, float32).
RMAT = [("kernel", 1, "scalar", 7.1131), ("kernel", 2, "shared-cache", 11.2598), ("kernel", 3, "vector", 1.0886),
        ("kernel", 4, "merge-based", 0.6400), ("kernel", 5, "tuned", 0.5334),
        ("library", 0, "cusparseSpMV CSR_ALG1", 0.5609), ("library", 0, "cusparseSpMV CSR_ALG2", 0.5675),
        ("cpu", 0, "cpu reference", 93.0524)]
NONZEROS = 65240572


def rmat(sweep: bool = False) -> dict:
    """The R-MAT table; with @p sweep, stages 3 and 4 carry sweep points (stage 3's items are lanes per row)."""
    bytes_moved = 9.0 * NONZEROS
    rows = []
    for kind, number, name, median in RMAT:
        points = None
        if sweep and number == 3:
            points = [fixtures.sweep_point(threads, lanes, 0, median * (1 + abs(lanes - 8) / 40), bytes_moved)
                      for threads in (128, 256) for lanes in (2, 4, 8, 16, 32)]
        if sweep and number == 4:
            points = [fixtures.sweep_point(threads, items, 0, median * (1 + items / 100), bytes_moved)
                      for threads in (128, 256) for items in (5, 7, 9, 11)]
        rows.append(fixtures.row(kind, number, name, median, bytes_moved, sweep=points))
    return fixtures.report("04", NONZEROS, rows, 9.0, element_type="float32", sweep=sweep)


@needs_matplotlib
class SpmvFigures(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def draw(self, *args: str) -> list:
        output = os.path.join(self.folder.name, "figure.svg")
        code, errors = plot(*args, "-o", output)
        self.assertEqual(code, 0, errors)
        return svg_texts(output)

    def test_the_vector_stage_sweeps_lanes_per_row(self):
        report = write_json(self.folder.name, "sweep.json", rmat(sweep=True))
        texts = self.draw("sweep", report, "--stage", "vector")
        self.assertIn("lanes per row", texts)
        self.assertNotIn("items per thread", texts)
        self.assertIn("items per thread", self.draw("sweep", report, "--stage", "merge-based"))
        every = "\n".join(self.draw("sweep", report, "--all"))
        self.assertIn("lanes per row", every)
        self.assertIn("items per thread", every)

    def test_the_outline_is_the_fastest_shape_of_the_sweep_not_the_tables_row(self):
        report = write_json(self.folder.name, "sweep.json", rmat(sweep=True))
        joined = "\n".join(self.draw("sweep", report, "--stage", "vector"))
        self.assertIn("the fastest shape of this sweep (the tables run each stage at its default shape)", joined)
        self.assertNotIn("the stage's row in the table", joined)

    def test_coincident_library_lines_share_one_label(self):
        report = write_json(self.folder.name, "rmat.json", rmat())
        texts = self.draw("staircase", report)
        self.assertIn("cusparseSpMV CSR_ALG1 12.7×  ·  CSR_ALG2 12.5×", texts)
        self.assertNotIn("cusparseSpMV CSR_ALG2  12.5×", texts)
        self.assertIn("11.1×", texts)  # stage 4's label, drawn over the lines on an opaque ground

    def test_library_lines_apart_keep_a_label_each(self):
        document = rmat()
        for entry in document["rows"]:
            if entry["name"] == "cusparseSpMV CSR_ALG2":
                entry.update(fixtures.timing(1.0886, 9.0 * NONZEROS))  # stage 3's time: 6.53x
        report = write_json(self.folder.name, "apart.json", fixtures.derive(document))
        texts = self.draw("staircase", report)
        self.assertIn("cusparseSpMV CSR_ALG1  12.7×", texts)
        self.assertIn("cusparseSpMV CSR_ALG2  6.53×", texts)


if __name__ == "__main__":
    unittest.main()
