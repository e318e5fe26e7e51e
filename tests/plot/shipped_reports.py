#!/usr/bin/env python3
"""Each chapter's figures from its shipped reports: `figures/regenerate.sh plot chapters/NN_name/results` (and the
chapter's no-GPU diagram mode, where the chapter is built) into a temporary folder (STEPWISE_FIGURE_DIR), then every
figure the chapter's README names must be there. Exit 77 (skipped) when matplotlib cannot be imported. The diagrams
(`--analyze`) need the built chapter (STEPWISE_BIN_DIR, else build/bin): without it they are reported as not checked.
Its argument, when given, is the interpreter as CMake named it (Python3_EXECUTABLE), for the skip's message."""
import glob
import importlib
import os
import re
import subprocess
import sys
import tempfile
import unittest

SKIPPED = 77
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("STEPWISE_BIN_DIR") or os.path.join(ROOT, "build", "bin")
# The --analyze diagrams of each chapter and the mode that draws them (chapters 02, 04, 09, 10 and 11 draw theirs in
# plot).
DIAGRAMS = {
    "01": ("analyze", ["01_trees.svg", "01_banks.svg"]),
    "02": ("plot", ["02_banks.svg", "02_transpose.svg", "02_lookback.svg"]),
    "03": ("concepts", ["03_merge_path.svg", "03_load_balance.svg"]),
    "04": ("plot", ["04_merge_walk.svg"]),
    "05": ("concepts", ["05_peers.svg", "05_subtree.svg"]),
    "06": ("concepts", ["06_packing.svg", "06_lookback.svg"]),
    "07": ("concepts", ["07_remap.svg"]),
    "08": ("concepts", ["08_expansion.svg", "08_load_balance.svg"]),
    "09": ("plot", ["09_digit_scatter.svg", "09_lookback_chain.svg", "09_merge_passes.svg"]),
    "10": ("plot", ["10_segment_lanes.svg", "10_setop_path.svg"]),
    "11": ("plot", ["11_ring_steps.svg", "11_sort_exchange.svg"]),
}


def chapters() -> list:
    """The chapter folders (chapters/NN_name) that ship their reports in results/."""
    return sorted(path for path in glob.glob(os.path.join(ROOT, "chapters", "[0-9][0-9]_*"))
                  if os.path.isdir(os.path.join(path, "results")))


def named_figures(chapter: str) -> set:
    """The SVGs of figures/ that the chapter's README shows or names."""
    with open(os.path.join(chapter, "README.md"), encoding="utf-8") as stream:
        return set(re.findall(r"figures/([0-9][0-9]_[A-Za-z0-9_.-]+\.svg)", stream.read()))


def run(command: list, figures: str) -> subprocess.CompletedProcess:
    """One mode of a chapter's regenerate.sh, from the repository root, drawing into figures; tools/plot runs with this
    interpreter (its folder first on PATH)."""
    environment = dict(os.environ, STEPWISE_FIGURE_DIR=figures)
    environment["PATH"] = os.path.dirname(sys.executable) + os.pathsep + environment.get("PATH", "")
    return subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600)


class ShippedReports(unittest.TestCase):
    def test_every_named_figure_is_drawn_from_the_shipped_reports(self):
        found = chapters()
        self.assertTrue(found, "no chapters/NN_name/results folder")
        for chapter in found:
            name = os.path.basename(chapter)
            number = name[:2]
            with self.subTest(chapter=name), tempfile.TemporaryDirectory() as scratch:
                figures = os.path.join(scratch, "figures")
                script = os.path.join("chapters", name, "figures", "regenerate.sh")
                results = os.path.join("chapters", name, "results")
                built = os.access(os.path.join(BIN, "chapter_" + name), os.X_OK)
                plot_bin = ("04", "09", "10", "11")
                arguments = [BIN, results] if number == "02" else [results, BIN] if number in plot_bin else [results]
                done = run(["bash", script, "plot", *arguments], figures)
                self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
                self.assertIn("drawing from " + results, done.stderr)
                mode, diagrams = DIAGRAMS.get(number, ("plot", []))
                unchecked = set() if built else set(diagrams)
                if built and mode != "plot":
                    concept = run(["bash", script, mode, BIN, os.path.join(scratch, "reports")], figures)
                    self.assertEqual(concept.returncode, 0, concept.stdout + concept.stderr)
                if unchecked:
                    print(f"{name}: not checked, chapter_{name} is not built in {BIN}: {' '.join(sorted(unchecked))}")
                named = named_figures(chapter)
                self.assertTrue(named, f"{name}/README.md names no figure")
                drawn = set(os.listdir(figures))
                missing = sorted(named - drawn - unchecked)
                self.assertEqual(missing, [], f"{name}: not drawn from {results}:\n{done.stderr}")
                print(f"{name}: {len(named & drawn)} of the README's {len(named)} figures drawn from {results}")


def main() -> int:
    """Skip without matplotlib; otherwise run the test."""
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        named = sys.argv[1] if len(sys.argv) > 1 else sys.executable
        print("stepwise-skip: matplotlib cannot be imported by " + named +
              ": install it (python3 -m pip install matplotlib, or apt-get install python3-matplotlib),"
              " or configure with another interpreter (-DPython3_EXECUTABLE=/usr/bin/python3)")
        return SKIPPED
    result = unittest.main(argv=[sys.argv[0], "-v"], exit=False).result
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
