"""tools/debian-matrices on a made-up package tree: METIS graphs and ColPack's Jacobian converted, Matrix Market files
copied, what is missing named, nothing installed skipped (77), and chapter 04's reader (--analyze, no GPU) reading
each file it writes with the nonzeros the source holds.

Arguments (from CTest, as environment variables): STEPWISE_DEBIAN_MATRICES (the tool), STEPWISE_CHAPTER_04 (the
chapter executable)."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

TOOL = os.environ["STEPWISE_DEBIAN_MATRICES"]
CHAPTER = os.environ["STEPWISE_CHAPTER_04"]

METIS_GRAPH = "usr/share/doc/libmetis-dev/examples/graphs/4elt.graph"
COLPACK = ("usr/share/doc/libcolpack-dev/examples/Examples/SampleDrivers/Matrix_Compression_and_Recovery/SMB/"
           "jac_full.mtx")
LUND = "usr/lib/R/library/Matrix/external/lund_a.mtx"

# A 5-vertex graph of 6 edges (1-2, 1-5, 2-3, 3-4, 3-5, 4-5) in METIS's format: each vertex's 1-based neighbours.
GRAPH = """% a comment line
5 6
2 5
1 3
2 4 5
3 5
1 3 4
"""
# ColPack's format: rows cols, then 0-based row col value.
JACOBIAN = """3 4
0 0 1.5
0 3 -2
2 1 0.25
"""
LUND_TEXT = """%%MatrixMarket matrix coordinate real symmetric
2 2 2
1 1 4.0
2 1 1.0
"""


def run(*arguments):
    return subprocess.run([sys.executable, TOOL, *arguments], capture_output=True, text=True)


def place(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="ascii") as handle:
        handle.write(text)


def analyzed_nonzeros(path):
    """The nonzeros chapter 04's reader finds in @p path (its --analyze, which needs no GPU)."""
    result = subprocess.run([CHAPTER, "--analyze", "--matrix", path], capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError(f"chapter_04_spmv --analyze --matrix {path}: exit {result.returncode}: {result.stderr}")
    found = re.search(r"([0-9,]+) nonzeros \(density", result.stdout)
    if found:
        return int(found.group(1).replace(",", ""))
    raise AssertionError("no nonzeros line in --analyze's output:\n" + result.stdout)


class DebianMatrices(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        self.root = os.path.join(self.folder.name, "root")
        self.out = os.path.join(self.folder.name, "matrices")
        os.makedirs(self.root)

    def test_nothing_installed_is_skipped(self):
        result = run("--root", self.root, "--dir", self.out)
        self.assertEqual(result.returncode, 77, result.stderr)
        self.assertIn("skipped: none of the packages is installed", result.stderr)
        self.assertIn("libmetis-doc", result.stderr)
        self.assertFalse(os.path.exists(self.out))

    def test_converts_copies_and_the_chapter_reads_them(self):
        place(self.root, METIS_GRAPH, GRAPH)
        place(self.root, COLPACK, JACOBIAN)
        place(self.root, LUND, LUND_TEXT)
        result = run("--root", self.root, "--dir", self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        written = sorted(os.path.basename(line) for line in result.stdout.split())
        self.assertEqual(written, ["colpack-jac_full.mtx", "metis-4elt.mtx", "r-matrix-lund_a.mtx"])
        self.assertIn("not installed: libpetsc3.18-dev-examples", result.stderr)
        with open(os.path.join(self.out, "metis-4elt.mtx"), encoding="ascii") as handle:
            lines = [line for line in handle.read().splitlines() if not line.startswith("%")]
        self.assertEqual(lines[0], "5 5 6")  # each edge once, in the lower triangle
        self.assertEqual(sorted(lines[1:]), ["2 1", "3 2", "4 3", "5 1", "5 3", "5 4"])
        with open(os.path.join(self.out, "colpack-jac_full.mtx"), encoding="ascii") as handle:
            jacobian = [line for line in handle.read().splitlines() if not line.startswith("%")]
        self.assertEqual(jacobian, ["3 4 3", "1 1 1.5", "1 4 -2", "3 2 0.25"])
        # The reader expands the symmetric pattern to both triangles: 2 x 6 edges (no diagonal).
        self.assertEqual(analyzed_nonzeros(os.path.join(self.out, "metis-4elt.mtx")), 12)
        self.assertEqual(analyzed_nonzeros(os.path.join(self.out, "colpack-jac_full.mtx")), 3)
        self.assertEqual(analyzed_nonzeros(os.path.join(self.out, "r-matrix-lund_a.mtx")), 3)

    def test_a_graph_whose_header_disagrees_is_refused(self):
        place(self.root, METIS_GRAPH, GRAPH.replace("5 6", "5 7"))
        result = run("--root", self.root, "--dir", self.out)
        self.assertEqual(result.returncode, 1)
        self.assertIn("5 vertices and 6 edges, the header says 5 and 7", result.stderr)

    def test_a_missing_root_is_bad_input(self):
        result = run("--root", os.path.join(self.folder.name, "nowhere"))
        self.assertEqual(result.returncode, 2)
        self.assertIn("--root", result.stderr)


if __name__ == "__main__":
    unittest.main()
