"""tools/plot busbw-vs-size: chapter 11's size sweeps, a panel per GPU count, fits dashed, bad input refused."""
import os
import tempfile
import unittest

from support import needs_matplotlib, plot, svg_texts, write_json

SIZES = [8, 32, 128, 512, 2048, 8192, 32768, 131072, 524288, 2097152]


def sweep(gpus, fail=None):
    """A chapter 11 --size-sweep report on @p gpus GPUs: stage 3 and the library, alpha 20 us and 10 us, beta 200 and
    300 GB/s per GPU; the size @p fail failed its check on stage 3."""
    factor = 2.0 * (gpus - 1) / gpus if gpus > 1 else 0.0
    rows = []
    for number, name, kind, alpha, beta in ((3, "ring", "kernel", 20e-6, 200e9), (0, "ncclAllReduce", "library", 10e-6,
                                                                                   300e9)):
        for size in SIZES:
            seconds = alpha + size / beta
            row = {"number": number, "name": name, "kind": kind, "bytes_per_gpu": size, "n_per_gpu": size // 4}
            if kind == "kernel" and size == fail:
                row.update(check="FAIL", median_ms=None, detail="element 3 differs")
            else:
                algbw = size / seconds / 1e9
                row.update(check="PASS", median_ms=seconds * 1e3, min_ms=seconds * 1e3, max_ms=seconds * 1e3,
                           algbw_gbps=algbw, busbw_gbps=algbw * factor)
            rows.append(row)
    return {"chapter": {"id": "11", "name": "multigpu", "title": "Chapter 11: all-reduce"},
            "device": {"name": "NVIDIA H100 80GB HBM3"}, "n": SIZES[-1] // 4, "problem": "allreduce",
            "devices": ["NVIDIA H100 80GB HBM3"] * gpus, "gpus": gpus, "element_type": "float32",
            "bus_factor": factor, "command": "chapter_11_multigpu --size-sweep", "date": "2026-11-26", "seed": 1,
            "reps": 5, "notes": [], "rows": rows,
            "fits": [{"number": 3, "stage": "ring", "alpha_us": 20.0, "beta_gbps": 200.0, "sizes": 10},
                     {"number": 0, "stage": "ncclAllReduce", "alpha_us": 10.0, "beta_gbps": 300.0, "sizes": 10}]}


@needs_matplotlib
class BusbwVsSize(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def draw(self, *documents, expect=0, options=()):
        paths = [write_json(self.folder.name, f"sweep{i}.json", document) for i, document in enumerate(documents)]
        output = os.path.join(self.folder.name, "figure.svg")
        code, errors = plot("busbw-vs-size", *paths, "-o", output, *options)
        self.assertEqual(code, expect, errors)
        return ("\n".join(svg_texts(output)) if code == 0 else errors)

    def test_a_panel_per_team_with_every_stage(self):
        texts = self.draw(sweep(2), sweep(1), sweep(8))
        for wanted in ("Chapter 11: all-reduce bus bandwidth", "1 GPU: algbw (busbw is 0 on one GPU)", "2 GPUs: busbw",
                       "8 GPUs: busbw", "3 ring", "ncclAllReduce", "bytes per GPU", "NVIDIA H100 80GB HBM3",
                       "alpha-beta fit"):
            self.assertIn(wanted, texts)
        self.assertLess(texts.index("1 GPU"), texts.index("2 GPUs"))  # ordered by GPU count, whatever the order given

    def test_the_fit_levels_at_factor_times_beta(self):
        from stepwise_plot import busbw

        team = busbw.parse_team(sweep(8), "sweep")
        ring = next(line for line in team.lines if line.name == "ring")
        self.assertAlmostEqual(busbw.fitted(ring, 1e15, team.factor), 1.75 * 200.0, places=3)
        self.assertAlmostEqual(busbw.fitted(ring, 20e-6 * 200e9, team.factor), 1.75 * 100.0, places=6)
        self.assertEqual(len(ring.points), len(SIZES))

    def test_a_failed_size_is_marked(self):
        texts = self.draw(sweep(2, fail=512))
        self.assertIn("FAIL", texts)
        from stepwise_plot import busbw

        ring = next(line for line in busbw.parse_team(sweep(2, fail=512), "s").lines if line.name == "ring")
        self.assertEqual(ring.failed, [512])
        self.assertNotIn(512, [size for size, _ in ring.points])

    def test_the_line_rate_is_marked_where_busbw_is_drawn(self):
        texts = self.draw(sweep(1), sweep(2), options=("--line-rate", "450:NVLink 4, 18 links x 25 GB/s each way"))
        self.assertEqual(texts.count("NVLink 4, 18 links x 25 GB/s each way: 450 GB/s"), 1)  # the 2-GPU panel only
        self.assertIn("line rate: 300.5 GB/s", self.draw(sweep(2), options=("--line-rate", "300.5")))
        self.assertNotIn("line rate", self.draw(sweep(2)))
        from stepwise_plot.cli import parse_line_rate

        self.assertEqual(parse_line_rate("450:NVLink"), (450.0, "NVLink"))
        self.assertEqual(parse_line_rate("2.5"), (2.5, "line rate"))
        for bad in ("0", "-5", "nan", "inf", "1e3", "0x10", "", ":x", "4.5.1", "2000000"):
            with self.subTest(bad=bad):
                self.assertRaises(ValueError, parse_line_rate, bad)
                errors = self.draw(sweep(2), expect=2, options=("--line-rate", bad))
                self.assertIn(f"--line-rate {bad}:", errors.strip().splitlines()[-1])

    def test_bad_input_is_refused(self):
        other = sweep(2)
        other["chapter"]["id"] = "10"
        self.assertIn("not an all-reduce report of chapter 11", self.draw(other, expect=2))
        self.assertIn("same GPU count", self.draw(sweep(2), sweep(2), expect=2))
        self.assertIn("not a chapter 11 report", self.draw({"rows": None}, expect=2))


if __name__ == "__main__":
    unittest.main()
