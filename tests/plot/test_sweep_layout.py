"""The sweep figure's axes follow the shape fields that vary."""
import tempfile
import unittest

import fixtures
from support import HAVE_MATPLOTLIB, write_json
from stepwise_plot.report import read_one

if HAVE_MATPLOTLIB:
    from stepwise_plot.sweep import Layout, choose_layout


@unittest.skipUnless(HAVE_MATPLOTLIB, "matplotlib is not installed")
class ChooseLayout(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        folder = tempfile.TemporaryDirectory()
        cls.addClassCleanup(folder.cleanup)
        cls.report = read_one(write_json(folder.name, "sweep.json", fixtures.bandwidth_sweep()))

    def points(self, number):
        return next(row for row in self.report.kernels() if row.number == number).sweep

    def test_grid_stride_is_threads_by_blocks_per_sm(self):
        self.assertEqual(choose_layout(self.points(2)), Layout("heatmap", "threads", ("blocks_per_sm",)))

    def test_tiles_are_threads_by_items(self):
        self.assertEqual(choose_layout(self.points(3)), Layout("heatmap", "threads", ("items",)))

    def test_one_field_is_a_bar_chart(self):
        self.assertEqual(choose_layout(self.points(1)), Layout("bars", None, ("threads",)))

    def test_three_fields_put_the_last_two_across(self):
        self.assertEqual(choose_layout(self.points(4)), Layout("heatmap", "threads", ("items", "blocks_per_sm")))

    def test_a_field_held_fixed_is_not_an_axis(self):
        fixed_items = [point for point in self.points(4) if point.shape.items == 4]
        self.assertEqual(choose_layout(fixed_items), Layout("heatmap", "threads", ("blocks_per_sm",)))

    def test_one_shape_is_a_single_bar(self):
        self.assertEqual(choose_layout(self.points(1)[:1]), Layout("bars", None, ()))


if __name__ == "__main__":
    unittest.main()
