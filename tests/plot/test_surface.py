"""tools/plot surface on chapter 05's --surface --format json: the heat maps of speedup over stage 1.

The color scale covers only the speedups the surface holds (white at 1x, the same color per decade on
both sides), so a surface that is nowhere much slower than stage 1 spends its color bar on the
speedups; the bar says its range.
"""
import os
import tempfile
import unittest

from support import needs_matplotlib, plot, svg_texts, write_json

KEYS = (1, 2, 4, 8, 16, 32)


def surface_document(speedups: dict) -> dict:
    """A --surface report: speedups[op][stage number] is one speedup per keys-per-warp value."""
    points = []
    for op, stages in speedups.items():
        for keys_index, keys in enumerate(KEYS):
            naive_ms = 6.0
            for number, values in stages.items():
                speedup = 1.0 if number == 1 else values[keys_index]
                points.append({"op": op, "keys_per_warp": keys, "number": number, "stage": f"stage{number}",
                               "check": "PASS", "median_ms": naive_ms / speedup, "speedup": speedup})
    return {"kind": "surface", "chapter": "05 atomics", "device": {"name": "NVIDIA H100 80GB HBM3", "sm": "sm_90"},
            "date": "2026-11-25", "n": 1 << 24, "bins": 256, "seed": 1, "flush": "read", "command": "x",
            "notes": [], "points": points}


@needs_matplotlib
class Surface(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def draw(self, document) -> list:
        source = write_json(self.folder.name, "surface.json", document)
        output = os.path.join(self.folder.name, "surface.svg")
        code, errors = plot("surface", source, "-o", output)
        self.assertEqual(code, 0, errors)
        return svg_texts(output)

    def test_the_scale_covers_the_speedups_there_are(self):
        from stepwise_plot.surface import scale

        document = surface_document({"int-add": {1: None, 2: (29, 15, 7.9, 4, 2, 1), 7: (207, 205, 206, 202, 194, 180)},
                                     "double-cas": {1: None, 2: (249, 80, 27, 8, 2.7, 0.97)}})
        norm, colormap, reach = scale(document["points"])
        self.assertAlmostEqual(norm.vmin, 0.8)  # nothing much slower than stage 1: the bar starts at 0.8x
        self.assertAlmostEqual(norm.vmax, 249)
        self.assertAlmostEqual(reach, 2.396, places=3)
        white = colormap(norm(1.0))
        self.assertTrue(all(channel > 0.95 for channel in white[:3]), white)  # 1x is white
        blue = colormap(norm(249))
        self.assertGreater(blue[2], blue[0])
        self.assertEqual(colormap(norm(0.8))[:3], colormap(0.0)[:3])  # the bar's low end is its slowest cell
        texts = self.draw(document)
        joined = "\n".join(texts)
        self.assertIn("speedup over naive (log scale)", joined)
        self.assertIn("Color: log scale over the surface's range, 0.80× to 249×; white: 1×", joined)
        self.assertIn("207×", joined)
        self.assertIn("0.97×", joined)

    def test_a_slower_cell_extends_the_red_side(self):
        from stepwise_plot.surface import scale

        document = surface_document({"float-add": {1: None, 2: (0.25, 0.5, 1, 2, 4, 8)}})
        norm, colormap, reach = scale(document["points"])
        self.assertAlmostEqual(norm.vmin, 0.25)
        self.assertAlmostEqual(norm.vmax, 8)
        slow, fast = colormap(norm(0.25)), colormap(norm(4.0))  # 4x slower and 4x faster: mirror shades
        self.assertGreater(slow[0], slow[2])
        self.assertAlmostEqual(slow[0], fast[2], delta=0.08)
        self.assertIn("range, 0.25× to 8×", "\n".join(self.draw(document)))


if __name__ == "__main__":
    unittest.main()


class Placement(unittest.TestCase):
    def test_the_caption_says_how_the_keys_lie_as_the_surface_note_says(self):
        from stepwise_plot.surface import _placement

        document = surface_document({"int-add": {1: None, 2: (2, 1, 1, 1, 1, 1)}})
        self.assertIn("bins K/d apart", _placement(document))
        document["notes"] = ["keys per warp d: runs of 32 / d equal keys, the d runs of each aligned group of 32 keys "
                             "on distinct random bins (runs:R); every point checked before and after timing"]
        self.assertIn("on d distinct random bins", _placement(document))
