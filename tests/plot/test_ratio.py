"""tools/plot ratio-vs-n and ratio-table: the library's time over the best passing stage's, per problem and size, from
synthetic sweep reports (fixtures.merge_sweep: a failed stage, a size where every stage failed, a missing size)."""
import contextlib
import io
import os
import tempfile
import unittest

import fixtures
from support import needs_matplotlib, plot, svg_texts, write_json

from stepwise_plot import ratio
from stepwise_plot.cli import main
from stepwise_plot.report import ReportError, parse_report


def table(*args):
    """tools/plot ratio-table in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["ratio-table", *args])
        except SystemExit as exit_:
            code = exit_.code
    return code, out.getvalue(), err.getvalue()


def expected_ratio(kernels, libraries):
    """The ratio computed here from a MERGE_SWEEP entry: the faster library over the fastest passing stage."""
    passed = [median for median in kernels if median is not None]
    return min(libraries) / min(passed) if passed else None


class RatioTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def write(self, runs: dict) -> list:
        return [write_json(self.folder.name, name, document) for name, document in runs.items()]

    def path(self, name):
        return os.path.join(self.folder.name, name)


class Collect(RatioTest):
    def test_a_point_is_the_faster_library_over_the_fastest_passing_stage(self):
        reports = [parse_report(document, name) for name, document in fixtures.merge_sweep().items()]
        (chapter,) = ratio.collect(reports)
        self.assertEqual(chapter.name, "03 merge")
        self.assertEqual([problem.label for problem in chapter.problems], ["keys int32", "keys int64"])
        self.assertEqual(chapter.libraries(), ["cub::DeviceMerge", "thrust::merge"])
        keys32, keys64 = chapter.problems
        self.assertEqual(sorted(keys32.points), [2 ** 20, 2 ** 22, 2 ** 24])
        point = keys32.points[2 ** 22]  # stage 4 failed there: stage 3 is the best, Thrust the faster library
        self.assertEqual((point.best.number, point.library.name), (3, "thrust::merge"))
        self.assertAlmostEqual(point.ratio, 2.00 / 1.60)
        self.assertEqual(keys64.failed(), [2 ** 24])
        self.assertEqual(keys64.points[2 ** 24].why, "no kernel stage passed")
        self.assertEqual(keys64.missing([2 ** 20, 2 ** 22, 2 ** 24]), [2 ** 22])
        for (label, _, exponent), (kernels, libraries) in fixtures.MERGE_SWEEP.items():
            problem = keys32 if label == "keys int32" else keys64
            want = expected_ratio(kernels, libraries)
            got = problem.points[2 ** exponent].ratio
            if want is None:
                self.assertIsNone(got)
            else:
                self.assertAlmostEqual(got, want)

    def test_a_row_that_does_less_than_the_library_is_not_the_best(self):
        # Chapter 06: stage 8 keeps no input order, so DeviceSelect is compared with stage 7, not with it.
        document = fixtures.sweep_run("06", "if 50%", "--selected 50", 24,
                                      [(7, "tuned", 0.0538), (8, "tuned-unordered", 0.0361)],
                                      [("cub::DeviceSelect::If", 0.0488)])
        document["rows"][1]["matches_library"] = False
        (chapter,) = ratio.collect([parse_report(document, "x")])
        point = chapter.problems[0].points[2 ** 24]
        self.assertEqual(point.best.number, 7)
        self.assertAlmostEqual(point.ratio, 0.0488 / 0.0538)
        del document["rows"][1]["matches_library"]
        (chapter,) = ratio.collect([parse_report(document, "x")])
        self.assertEqual(chapter.problems[0].points[2 ** 24].best.number, 8)

    def test_a_library_row_that_does_less_than_the_problem_is_not_the_library(self):
        # Chapter 10: cub::Unique writes no run lengths, so run-length encoding is compared with Encode.
        document = fixtures.sweep_run("10", "rle", "--problem rle", 24, [(1, "single-pass", 0.0503)],
                                      [("cub::RunLengthEncode", 0.0564), ("cub::Unique", 0.0452)])
        document["rows"][2]["matches_library"] = False
        (chapter,) = ratio.collect([parse_report(document, "x")])
        point = chapter.problems[0].points[2 ** 24]
        self.assertEqual(point.library.name, "cub::RunLengthEncode")
        self.assertAlmostEqual(point.ratio, 0.0564 / 0.0503)
        del document["rows"][2]["matches_library"]
        (chapter,) = ratio.collect([parse_report(document, "x")])
        self.assertEqual(chapter.problems[0].points[2 ** 24].library.name, "cub::Unique")

    def test_variants_do_not_change_the_problem(self):
        # Variant rows are never the best row, so a run with --variants is the same problem as one without.
        plain = fixtures.sweep_run("10", None, "--problem segscan", 24, [(2, "single-pass", 0.0852)],
                                   [("cub::InclusiveScanByKey", 0.0853)])
        with_variants = fixtures.sweep_run("10", None, "--problem segscan", 26, [(2, "single-pass", 0.3143)],
                                           [("cub::InclusiveScanByKey", 0.3075)])
        with_variants["command"] += " --variants"
        (chapter,) = ratio.collect([parse_report(plain, "a"), parse_report(with_variants, "b")])
        self.assertEqual(len(chapter.problems), 1)
        self.assertEqual(sorted(chapter.problems[0].points), [2 ** 24, 2 ** 26])

    def test_without_the_tours_label_the_command_names_the_problem(self):
        reports = [parse_report(document, name) for name, document in fixtures.merge_sweep(False).items()]
        (chapter,) = ratio.collect(reports)
        # --reps, --n, --format and --output say how it ran: what is left picks the problem.
        self.assertEqual([problem.label for problem in chapter.problems], ["--type int32", "--type int64"])
        document = fixtures.sweep_run("08", None, "", 20, [(1, "naive", 1.0)], [("thrust", 1.0)])
        document["command"] = "build/bin/chapter_08_join --n=2^21 --warmup 1 --compact --json x.json"
        (chapter,) = ratio.collect([parse_report(document, "x")])
        self.assertEqual(chapter.problems[0].label, "default")
        self.assertEqual(list(chapter.problems[0].points), [2 ** 21])

    def test_two_runs_of_a_problem_at_one_size_or_two_gpus_are_refused(self):
        runs = fixtures.merge_sweep()
        first = parse_report(runs["chapter_03_merge-keys-int32-n2^20.json"], "a.json")
        with self.assertRaisesRegex(ReportError, r"two runs of 03 merge keys int32 at n = 2\^20 \(a.json, b.json\)"):
            ratio.collect([first, parse_report(runs["chapter_03_merge-keys-int32-n2^20.json"], "b.json")])
        other = dict(runs["chapter_03_merge-keys-int64-n2^20.json"], device=dict(fixtures.H200, name="NVIDIA H100"))
        with self.assertRaisesRegex(ReportError, "different devices"):
            ratio.collect([first, parse_report(other, "c.json")])

    def test_a_run_at_a_problems_limit_one_below_a_power_of_two_stands_for_that_column(self):
        # Chapter 08's int32 row indices stop it at 2^30 - 1 rows a table: that run is the 2^30 cell, so marked.
        document = fixtures.sweep_run("08", "inner", "--join inner", 20, [(4, "tuned", 1.0)], [("thrust", 4.0)])
        document["command"] = "build/bin/chapter_08_join --join inner --n 2^30-1 --reps 10"
        (chapter,) = ratio.collect([parse_report(document, "x")])
        point = chapter.problems[0].points[2 ** 30]
        self.assertEqual(point.run_size, 2 ** 30 - 1)
        self.assertEqual(chapter.problems[0].missing([2 ** 30]), [])
        self.assertEqual(ratio.ratio_text(point, False), "4.00× (4, n = 1,073,741,823)")
        self.assertEqual(ratio.column_size(2 ** 20 + 3), 2 ** 20 + 3)
        self.assertEqual(ratio.column_size(1000), 1000)

    def test_sizes_as_the_tour_writes_them(self):
        self.assertEqual(ratio.parse_sizes("2^20..2^26"), [2 ** k for k in range(20, 27)])
        self.assertEqual(ratio.parse_sizes("2^22,2^20,1Mi"), [2 ** 20, 2 ** 22])
        self.assertEqual(ratio.parse_count("2^20+3"), 2 ** 20 + 3)
        self.assertEqual(ratio.parse_count("16Mi"), 16 * 2 ** 20)
        self.assertEqual(ratio.parse_count("1M"), 10 ** 6)
        self.assertEqual(ratio.parse_count("111777784"), 111777784)
        for bad in ("3^4", "1Q", "Mi", "1Mj", ""):
            with self.assertRaises(ReportError, msg=bad):
                ratio.parse_count(bad)
        with self.assertRaisesRegex(ReportError, "power of two"):
            ratio.parse_sizes("2^22..2^20")


class Table(RatioTest):
    def test_every_cell_is_the_ratio_with_the_best_stage_and_the_faster_library(self):
        code, out, err = table(*self.write(fixtures.merge_sweep()))
        self.assertEqual(code, 0, err)
        lines = out.splitlines()
        self.assertEqual(lines[0], "| chapter | problem | 2^20 | 2^22 | 2^24 |")
        self.assertEqual(lines[1], "| --- | --- | ---: | ---: | ---: |")
        self.assertEqual(lines[2], "| 03 merge | keys int32 | 1.25× (4, cub::DeviceMerge) | "
                                   "1.25× (3, thrust::merge) | 0.80× (4, cub::DeviceMerge) |")
        self.assertEqual(lines[3], "| 03 merge | keys int64 | 0.75× (4, cub::DeviceMerge) | — | FAIL |")
        self.assertIn("03 merge: the faster of cub::DeviceMerge, thrust::merge", out)
        self.assertIn("NVIDIA H200, 2026-11-21.", out)

    def test_sizes_mark_the_sizes_without_a_report(self):
        code, out, _ = table(*self.write(fixtures.join_sweep()), "--sizes", "2^20,2^22,2^24")
        self.assertEqual(code, 0)
        self.assertIn("| 08 join | inner | 3.00× (2) | 2.00× (2) | — |", out.splitlines())
        self.assertNotIn("the faster of", out)

    def test_bad_input_exits_2_with_one_line(self):
        code, out, err = table(self.path("absent.json"))
        self.assertEqual((code, out), (2, ""))
        self.assertRegex(err, r"^tools/plot: .*absent.json")
        self.assertEqual(err.count("\n"), 1)


@needs_matplotlib
class Figure(RatioTest):
    def draw(self, *args):
        output = self.path("figure.svg")
        code, errors = plot(*args, "-o", output)
        self.assertEqual(code, 0, errors)
        return "\n".join(svg_texts(output))

    def test_one_line_per_problem_the_line_at_one_and_the_failed_and_missing_points(self):
        texts = self.draw("ratio-vs-n", *self.write(fixtures.merge_sweep()))
        for wanted in ("Chapter 03 merge: library time ÷ best stage time against n", "keys int32", "keys int64",
                       "1.0×: as fast as the library", "best: the fastest kernel stage that passed, at each size",
                       "library: the faster of cub::DeviceMerge and thrust::merge", "NVIDIA H200",
                       "✕ FAIL (no ratio): keys int64 at n = $2^{24}$ (no kernel stage passed)",
                       "○ missing (no report): keys int64 at n = $2^{22}$", "$2^{20}$", "$2^{24}$",
                       "n (elements, log scale)", "library median ÷ best stage median (log scale)"):
            self.assertIn(wanted, texts)

    def test_the_figure_draws_the_tables_numbers(self):
        reports = [parse_report(document, name) for name, document in fixtures.merge_sweep().items()]
        chapters = ratio.collect(reports)
        sizes = ratio.sweep_sizes(chapters, None)
        figure = ratio.draw(chapters, sizes)
        lines = {line.get_label(): line for line in figure.axes[0].get_lines()}
        rows = {row.split(" | ")[1]: row for row in ratio.render_table(chapters, sizes).splitlines()
                if row.startswith("| 03 merge")}
        for label in ("keys int32", "keys int64"):
            drawn = list(lines[label].get_ydata())
            cells = rows[label].strip("| ").split(" | ")[2:]
            self.assertEqual(len(drawn), len(cells))
            for y, cell in zip(drawn, cells):
                if cell in ("FAIL", "—"):
                    self.assertNotEqual(y, y)  # NaN: a gap in the line
                else:
                    self.assertEqual(f"{y:.2f}×", cell.split(" ")[0])

    def test_sizes_add_the_missing_ones(self):
        texts = self.draw("ratio-vs-n", *self.write(fixtures.join_sweep()), "--sizes", "2^20,2^22,2^24")
        self.assertIn("○ missing (no report): inner at n = $2^{24}$", texts)
        self.assertNotIn("the faster of", texts)

    def test_every_chapter_in_its_own_panel(self):
        texts = self.draw("ratio-vs-n", "--all", *self.write(fixtures.merge_sweep()),
                          *self.write(fixtures.join_sweep()))
        for wanted in ("03 merge", "08 join", "keys int64", "inner", "Library time ÷ best stage time against n, every "
                       "chapter", "03 merge: ✕ FAIL (no ratio): keys int64 at n = $2^{24}$ (no kernel stage passed)"):
            self.assertIn(wanted, texts)

    def test_two_chapters_without_all_are_refused(self):
        output = self.path("mixed.svg")
        code, errors = plot("ratio-vs-n", *self.write(fixtures.merge_sweep()), *self.write(fixtures.join_sweep()),
                            "-o", output)
        self.assertEqual(code, 2)
        self.assertRegex(errors, r"^tools/plot: the reports are of different chapters \(03 merge, 08 join\)")
        self.assertFalse(os.path.exists(output))


if __name__ == "__main__":
    unittest.main()


class LibraryTable(RatioTest):
    def test_a_row_per_run_the_ratios_and_their_geometric_mean(self):
        # Two runs of chapter 04 on matrix files: ratios 2.0 and 0.5 (best stage), geometric mean 1.00; stage 5's own
        # ratios 1.0 and 0.25, mean 0.50; a run whose every stage failed is FAIL and left out of the means.
        runs = []
        for name, kernels, libraries in (("a.mtx", [(3, "vector", 0.5), (5, "tuned", 1.0)], [("ALG1", 1.0), ("ALG2", 2.0)]),
                                         ("b.mtx", [(3, "vector", 2.0), (5, "tuned", 4.0)], [("ALG1", 1.5), ("ALG2", 1.0)]),
                                         ("c.mtx", [(3, "vector", None), (5, "tuned", None)], [("ALG1", 1.0), ("ALG2", 1.0)])):
            document = fixtures.sweep_run("04", None, "", 20, kernels, libraries)
            document["command"] = f"build/bin/chapter_04_spmv --matrix matrices/{name} --type float32"
            runs.append(parse_report(document, name))
        text = ratio.render_library_table(runs, stage=5)
        lines = text.splitlines()
        self.assertIn("| a (", lines[2])
        self.assertIn("| 0.5000 (3) | 1.0000 | 2.0000 | 2.00× | 1.0000 | 1.00× |", lines[2])
        self.assertIn("| 2.0000 (3) | 1.5000 | 1.0000 | 0.50× | 4.0000 | 0.25× |", lines[3])
        self.assertIn("| FAIL |", lines[4])
        self.assertIn("Geometric mean over 2 runs of the faster library's median ÷ the best stage's: 1.00×; "
                      "÷ stage 5's (2 runs): 0.50×.", text)
