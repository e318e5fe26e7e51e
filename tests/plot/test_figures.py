"""Every subcommand of tools/plot: a valid SVG naming the stages, failures drawn, bad input refused."""
import os
import tempfile
import unittest

import fixtures
from support import needs_matplotlib, plot, run_plot, svg_texts, write_json


class FigureTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def path(self, name, document=None):
        if document is None:
            return os.path.join(self.folder.name, name)
        return write_json(self.folder.name, name, document)

    def draw(self, *args):
        """Run tools/plot (in this process) and return the texts of the SVG it wrote."""
        output = self.path("figure.svg")
        code, errors = plot(*args, "-o", output)
        self.assertEqual(code, 0, errors)
        return svg_texts(output)

    def assertDrawn(self, texts, *wanted):
        joined = "\n".join(texts)
        for text in wanted:
            self.assertIn(text, joined)


@needs_matplotlib
class Staircase(FigureTest):
    def test_names_every_stage_and_the_library(self):
        texts = self.draw("staircase", self.path("ch01.json", fixtures.reduction(28)))
        self.assertDrawn(texts, "1 interleaved-divergent", "10 single-pass", "cub::DeviceReduce::Sum",
                         "Chapter 01 reduction: speedup of each stage", "NVIDIA H200", "2026-11-21",
                         "▲1.86×", "8.61×", "10.4×")

    def test_a_step_back(self):
        self.assertDrawn(self.draw("staircase", self.path("ch02.json", fixtures.scan())), "▼0.68×", "cub  3.19×")

    def test_variant_rows_are_left_out(self):
        texts = self.draw("staircase", self.path("variants.json", fixtures.scan_with_variants()))
        plain = self.draw("staircase", self.path("ch02.json", fixtures.scan()))
        self.assertEqual(texts, plain)

    def test_a_failed_stage_is_a_gap(self):
        texts = self.draw("staircase", self.path("ch01.json", fixtures.reduction(28, fail_stage=5)))
        self.assertDrawn(texts, "5 unroll-last-warp", "FAIL", "FAIL 5 unroll-last-warp: before timing")
        self.assertNotIn("5.04×", texts)

    def test_title_and_subtitle_can_be_replaced(self):
        texts = self.draw("staircase", self.path("ch02.json", fixtures.scan()), "--title", "Scan on an H200",
                          "--subtitle", "")
        self.assertIn("Scan on an H200", texts)
        self.assertNotIn("Chapter 02 scan: speedup of each stage", texts)

    def test_png_beside_the_svg(self):
        self.draw("staircase", self.path("ch02.json", fixtures.scan()), "--png")
        with open(self.path("figure.png"), "rb") as stream:
            self.assertEqual(stream.read(8), b"\x89PNG\r\n\x1a\n")


@needs_matplotlib
class Bandwidth(FigureTest):
    def test_bars_and_ceilings(self):
        texts = self.draw("bandwidth", self.path("ch02.json", fixtures.scan()))
        self.assertDrawn(texts, "1 hillis-steele", "6 single-pass", "lib cub", "memcpy", "4,215 GB/s", "peak",
                         "4,814 GB/s", "Chapter 02 scan: GB/s of each stage")

    def test_variant_rows_are_left_out(self):
        texts = self.draw("bandwidth", self.path("variants.json", fixtures.scan_with_variants()))
        plain = self.draw("bandwidth", self.path("ch02.json", fixtures.scan()))
        self.assertEqual(texts, plain)

    def test_a_failed_stage(self):
        texts = self.draw("bandwidth", self.path("ch02.json", fixtures.scan(fail_stage=3)))
        self.assertDrawn(texts, "3 rts-vt8", "FAIL", "FAIL 3 rts-vt8: after timing")


@needs_matplotlib
class TimeVsN(FigureTest):
    def test_one_line_per_stage(self):
        texts = self.draw("time-vs-n", self.path("ch01_22.json", fixtures.reduction(22)),
                          self.path("ch01_28.json", fixtures.reduction(28)))
        self.assertDrawn(texts, "1 interleaved-divergent", "10 single-pass", "lib cub::DeviceReduce::Sum",
                         "median time (ms, log scale)", "$2^{22}$", "$2^{28}$")
        self.assertNotIn("cpu reference", texts)

    def test_gbps_from_an_array_of_runs(self):
        texts = self.draw("time-vs-n", self.path("runs.json", fixtures.bandwidth_runs()), "--metric", "gbps")
        self.assertDrawn(texts, "3 warp-sequences", "lib cudaMemcpy", "peak 4,814 GB/s", "GB/s against n")

    def test_a_failed_point_is_named(self):
        texts = self.draw("time-vs-n", self.path("a.json", fixtures.reduction(22)),
                          self.path("b.json", fixtures.reduction(28, fail_stage=4)))
        self.assertDrawn(texts, "FAIL (not drawn): 4 first-add at n = $2^{28}$")

    def test_mixed_chapters_are_refused(self):
        code, errors = plot("time-vs-n", self.path("ch01.json", fixtures.reduction(22)),
                            self.path("ch02.json", fixtures.scan()), "-o", self.path("mixed.svg"))
        self.assertEqual(code, 2)
        self.assertRegex(errors, r"^tools/plot: the reports are of different chapters .*01 reduction.*02 scan")
        self.assertEqual(errors.count("\n"), 1)
        self.assertFalse(os.path.exists(self.path("mixed.svg")))


@needs_matplotlib
class Sweep(FigureTest):
    def setUp(self):
        super().setUp()
        self.report = self.path("sweep.json", fixtures.bandwidth_sweep())

    def test_heat_map_by_number(self):
        texts = self.draw("sweep", self.report, "--stage", "2")
        self.assertDrawn(texts, "sweep of stage 2 grid-stride", "threads per block", "blocks per SM", "2600", "GB/s")

    def test_heat_map_by_name_with_a_failed_cell(self):
        texts = self.draw("sweep", self.report, "--stage", "rts-tiles", "--metric", "time")
        self.assertDrawn(texts, "items per thread", "FAIL", "hatched: failed its check", "empty: not tried",
                         "median time (ms)")

    def test_bars_when_one_field_varies(self):
        texts = self.draw("sweep", self.report, "--stage", "1")
        self.assertDrawn(texts, "one-per-thread", "threads per block", "2405")
        self.assertNotIn("blocks per SM", texts)

    def test_all_stages(self):
        texts = self.draw("sweep", self.report, "--all")
        self.assertDrawn(texts, "1 one-per-thread", "2 grid-stride", "3 rts-tiles", "4 int4-unrolled",
                         "items per thread / blocks per SM", "launch-shape sweep of every stage")
        self.assertNotIn("5 vector-int4", texts)

    def test_unknown_stage_and_stage_without_sweep(self):
        code, errors = plot("sweep", self.report, "--stage", "9", "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("no stage '9' (stages: 1 one-per-thread, 2 grid-stride", errors)
        code, errors = plot("sweep", self.path("ch01.json", fixtures.reduction(28)), "--stage", "3",
                            "-o", self.path("x.svg"))
        self.assertEqual(code, 2)
        self.assertIn("3 sequential has no sweep points: run the chapter with --sweep", errors)


class CommandLine(FigureTest):
    @needs_matplotlib
    def test_same_input_same_bytes(self):
        """Committed figures must not change when redrawn: two processes, two hash seeds, one SVG."""
        report = self.path("sweep.json", fixtures.bandwidth_sweep())
        outputs = []
        for seed in ("1", "2"):
            output = self.path(f"all{seed}.svg")
            environment = dict(os.environ, PYTHONHASHSEED=seed)
            result = run_plot("sweep", report, "--all", "-o", output, env=environment)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(output, "rb") as stream:
                outputs.append(stream.read())
        self.assertEqual(outputs[0], outputs[1])
        self.assertNotIn(b"<dc:date>", outputs[0])

    def test_without_matplotlib_one_line_and_exit_2(self):
        fake = self.path("fake")
        os.makedirs(os.path.join(fake, "matplotlib"))
        with open(os.path.join(fake, "matplotlib", "__init__.py"), "w", encoding="utf-8") as stream:
            stream.write("raise ImportError('No module named matplotlib')\n")
        environment = dict(os.environ, PYTHONPATH=fake)
        result = run_plot("staircase", self.path("ch02.json", fixtures.scan()), "-o", self.path("x.svg"),
                          env=environment)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr.count("\n"), 1)
        self.assertIn("sudo apt-get install python3-matplotlib", result.stderr)
        self.assertIn("python3 -m pip install matplotlib", result.stderr)

    def test_output_must_be_svg_or_png(self):
        code, _ = plot("staircase", self.path("ch02.json", fixtures.scan()), "-o", self.path("x.pdf"))
        self.assertEqual(code, 2)

    def test_the_entry_point_is_executable(self):
        self.assertTrue(os.access(os.path.join(os.path.dirname(__file__), "..", "..", "tools", "plot"), os.X_OK))


if __name__ == "__main__":
    unittest.main()


@needs_matplotlib
class Compare(FigureTest):
    def with_gflops(self, document, flops):
        for row in document["rows"]:
            row["gflops"] = flops / (row["median_ms"] * 1e-3) / 1e9 if row.get("median_ms") else None
        return document

    def test_one_group_per_input_one_bar_per_stage(self):
        first = self.path("a.json", self.with_gflops(fixtures.scan(), 2e9))
        second = self.path("b.json", self.with_gflops(fixtures.scan(), 4e9))
        texts = self.draw("compare", first, second, "--labels", "banded,random")
        self.assertDrawn(texts, "banded", "random", "1 hillis-steele", "lib cub", "GFLOP/s",
                         "Chapter 02 scan: GFLOP/s of each stage on each input")

    def test_gbps_and_a_failed_stage(self):
        texts = self.draw("compare", self.path("a.json", fixtures.scan(fail_stage=3)), "--metric", "gbps")
        self.assertDrawn(texts, "GB/s", "FAIL 3 rts-vt8")

    def test_a_student_s_gpu_beside_the_shipped_one(self):
        # docs/teaching.md: a run of the student's own GPU (another device, another date) beside the H100's, GB/s by
        # default where no row counts flops, each group's GPU and date under the title.
        shipped = self.path("h100.json", fixtures.reduction(28))
        mine = fixtures.reduction(28)
        mine["device"]["name"] = "NVIDIA GeForce RTX 4090"
        mine["date"] = "2027-01-15"
        texts = self.draw("compare", shipped, self.path("mine.json", mine), "--labels", "H100,mine")
        self.assertDrawn(texts, "H100", "mine", "GB/s", "Chapter 01 reduction: GB/s of each stage on each GPU",
                         "H100: NVIDIA H200, 2026-11-21", "mine: NVIDIA GeForce RTX 4090, 2027-01-15",
                         "1 interleaved-divergent", "cub::DeviceReduce::Sum")

    def test_a_stage_one_run_did_not_have(self):
        shipped = self.path("all.json", fixtures.reduction(28))
        fewer = fixtures.reduction(28)
        fewer["rows"] = [row for row in fewer["rows"] if row["number"] != 5 or row["kind"] != "kernel"]
        texts = self.draw("compare", shipped, self.path("fewer.json", fewer), "--labels", "all,fewer")
        self.assertDrawn(texts, "not run", "5 unroll-last-warp")
        self.assertEqual(sum(text == "not run" for text in texts), 1)

    def test_runs_of_another_chapter_are_refused(self):
        code, errors = plot("compare", self.path("a.json", fixtures.reduction(28)),
                            self.path("b.json", fixtures.scan()), "-o", self.path("figure.svg"))
        self.assertEqual(code, 2)
        self.assertIn("not the same chapter", errors)

    def test_labels_must_match_the_runs(self):
        code, errors = plot("compare", self.path("a.json", fixtures.scan()), "--labels", "x,y", "-o",
                            self.path("figure.svg"))
        self.assertEqual(code, 2)
        self.assertIn("--labels names 2 groups for 1 runs", errors)


@needs_matplotlib
class Versus(FigureTest):
    def runs(self, **changes):
        """The three runs of fixtures.reduction_variants, one file each."""
        return [self.path(f"run{k}.json", run) for k, run in enumerate(fixtures.reduction_variants(**changes))]

    def lines(self, paths, baseline, labels):
        """The (legend label, x values) of each line versus.draw draws from the files."""
        from stepwise_plot import versus
        from stepwise_plot.report import read_file

        reports = [report for path in paths for report in read_file(path)]
        fig = versus.draw(reports, baseline, "x", labels)
        return {line.get_label(): list(line.get_xdata()) for line in fig.axes[0].get_lines()}

    def test_three_runs_on_a_numeric_axis(self):
        texts = self.draw("versus", *self.runs(), "--baseline", "1", "--xlabel", "items per thread",
                          "--labels", "4,8,16")
        self.assertDrawn(texts, "Chapter 01 reduction: speedup over 1 interleaved-divergent against items per thread",
                         "2 interleaved-strided", "10 single-pass", "lib cub::DeviceReduce::Sum",
                         "baseline: 1 interleaved-divergent", "speedup over 1 interleaved-divergent (log scale)",
                         "items per thread", "1×", "NVIDIA H200", "2026-11-21 to 2026-11-23")
        self.assertNotIn("cpu reference", texts)
        lines = self.lines(self.runs(), "1", ["16", "4", "8"])
        self.assertEqual(lines["10 single-pass"], [4.0, 8.0, 16.0])
        self.assertNotIn("1 interleaved-divergent", lines)  # the baseline is the dashed line at 1.0

    def test_categorical_labels(self):
        texts = self.draw("versus", *self.runs(), "--baseline", "cub::DeviceReduce::Sum", "--xlabel", "input",
                          "--labels", "uniform,zipf,sorted")
        self.assertDrawn(texts, "uniform", "zipf", "sorted", "1 interleaved-divergent",
                         "speedup over lib cub::DeviceReduce::Sum against input",
                         "baseline: lib cub::DeviceReduce::Sum")
        lines = self.lines(self.runs(), "cub::DeviceReduce::Sum", ["uniform", "8", "sorted"])
        self.assertEqual(lines["4 first-add"], [0.0, 1.0, 2.0])

    def test_absent_and_failed_stages(self):
        paths = self.runs(drop={(0, 7)}, fail={(2, 2), (2, 4)})
        texts = self.draw("versus", *paths, "--baseline", "sequential", "--xlabel", "block", "--labels", "1,2,3")
        self.assertDrawn(texts, "7 multiple-per-thread", "FAIL (not drawn): 2 interleaved-strided at block = 3; "
                         "4 first-add at block = 3")
        lines = self.lines(paths, "3", ["1", "2", "3"])
        self.assertEqual(lines["7 multiple-per-thread"], [2.0, 3.0])
        self.assertEqual(lines["4 first-add"], [1.0, 2.0])

    def test_a_failed_baseline_is_refused(self):
        code, errors = plot("versus", *self.runs(fail={(1, 3)}), "--baseline", "3", "--xlabel", "x",
                            "--labels", "1,2,3", "-o", self.path("figure.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("run1.json: the baseline 3 sequential failed its check", errors)

    def test_wrong_label_count(self):
        code, errors = plot("versus", *self.runs(), "--baseline", "1", "--xlabel", "x", "--labels", "1,2",
                            "-o", self.path("figure.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("--labels names 2 values for 3 runs", errors)
        self.assertFalse(os.path.exists(self.path("figure.svg")))

    def test_unknown_baseline(self):
        paths = self.runs(drop={(1, 9)})
        code, errors = plot("versus", *paths, "--baseline", "vectorized", "--xlabel", "x", "--labels", "1,2,3",
                            "-o", self.path("figure.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertRegex(errors, r"^tools/plot: .*run1\.json: no stage 'vectorized' to use as --baseline \(stages: 1 ")
        code, errors = plot("versus", *self.runs(), "--baseline", "42", "--xlabel", "x", "--labels", "1,2,3",
                            "-o", self.path("figure.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("run0.json: no stage '42'", errors)
        self.assertFalse(os.path.exists(self.path("figure.svg")))
