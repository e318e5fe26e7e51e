"""tools/plot versus: a figure with more stages than the shared color sequence (chapter 07's mutation
runs draw eight stages beside the baseline) gives every stage a color of its own."""
import os
import tempfile
import unittest

import fixtures
from support import needs_matplotlib, write_json


@needs_matplotlib
class Palette(unittest.TestCase):
    def test_every_kernel_line_has_a_color_of_its_own(self):
        from stepwise_plot import style, versus
        from stepwise_plot.report import read_file

        with tempfile.TemporaryDirectory() as folder:
            paths = [write_json(folder, f"run{k}.json", run) for k, run in enumerate(fixtures.reduction_variants())]
            reports = [report for path in paths for report in read_file(path)]
        fig = versus.draw(reports, "1", "x", ["4", "8", "16"])
        colors = {line.get_label(): line.get_color() for line in fig.axes[0].get_lines()
                  if line.get_label()[:1].isdigit()}
        self.assertGreater(len(colors), len(style.SEQUENCE))  # 11 kernel lines: more than the shared sequence
        self.assertEqual(len(set(colors.values())), len(colors))
        self.assertNotIn(style.LIBRARY, colors.values())  # vermillion stays the library's


if __name__ == "__main__":
    unittest.main()
