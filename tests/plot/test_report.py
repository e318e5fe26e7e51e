"""Reading reports: the schema of common/host/report.cpp, arrays of runs, and the errors a user can fix."""
import os
import tempfile
import unittest

import fixtures
from support import write_json
from stepwise_plot.report import ReportError, format_n, read_one, read_series


class ReadReport(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def path(self, name, document):
        return write_json(self.folder.name, name, document)

    def test_reads_every_row_in_table_order(self):
        report = read_one(self.path("ch01.json", fixtures.reduction(28)))
        self.assertEqual(report.chapter, "01 reduction")
        self.assertEqual(report.n, 2 ** 28)
        self.assertEqual([row.number for row in report.kernels()], list(range(1, 11)))
        self.assertEqual([row.name for row in report.libraries()], ["cub::DeviceReduce::Sum"])
        self.assertAlmostEqual(report.kernels()[3].step_speedup, 1.2333 / 0.6637)

    def test_a_failed_row_has_no_time(self):
        report = read_one(self.path("ch02.json", fixtures.scan(fail_stage=3)))
        failed = [row for row in report.rows if row.failed]
        self.assertEqual([row.label for row in failed], ["3 rts-vt8"])
        self.assertIsNone(failed[0].gbps)

    def test_failed_sweep_shapes_after_a_stage_are_not_stages(self):
        report = read_one(self.path("sweep.json", fixtures.bandwidth_sweep()))
        self.assertEqual([row.number for row in report.kernels()], [1, 2, 3, 4, 5])
        self.assertEqual(report.kernels()[3].name, "int4-unrolled")

    def test_variant_rows_are_not_stages(self):
        plain = read_one(self.path("plain.json", fixtures.scan()))
        report = read_one(self.path("variants.json", fixtures.scan_with_variants()))
        self.assertEqual([row.label for row in report.kernels()], [row.label for row in plain.kernels()])
        self.assertEqual([row.label for row in report.stages()], [row.label for row in plain.stages()])
        self.assertEqual([row.label for row in report.variants()], ["4 - packed flags", "4 - staged stores"])
        self.assertAlmostEqual(report.variants()[0].step_speedup, 1 / 1.25)
        self.assertTrue(report.variants()[1].failed)
        self.assertEqual([row.step_speedup for row in report.kernels()], [row.step_speedup for row in plain.kernels()])

    def test_an_array_needs_run(self):
        path = self.path("runs.json", fixtures.bandwidth_runs())
        with self.assertRaisesRegex(ReportError, r"holds 4 runs \(n = 2\^20, 2\^22, 2\^24, 2\^26\).*--run 1\.\.4"):
            read_one(path)
        self.assertEqual(read_one(path, run=2).n, 2 ** 22)
        with self.assertRaisesRegex(ReportError, "--run 5"):
            read_one(path, run=5)

    def test_not_a_report(self):
        with self.assertRaisesRegex(ReportError, "not a stepwise report \\(no 'chapter'\\)"):
            read_one(self.path("other.json", {"rows": []}))
        broken = os.path.join(self.folder.name, "broken.json")
        with open(broken, "w", encoding="utf-8") as stream:
            stream.write('{"chapter": ')
        with self.assertRaisesRegex(ReportError, "not JSON"):
            read_one(broken)
        with self.assertRaisesRegex(ReportError, "No such file"):
            read_one(os.path.join(self.folder.name, "missing.json"))

    def test_series_sorted_by_n_from_files_and_arrays(self):
        runs = fixtures.bandwidth_runs()
        paths = [self.path("late.json", [runs[3], runs[1]]), self.path("early.json", runs[0])]
        self.assertEqual([report.n for report in read_series(paths)], [2 ** 20, 2 ** 22, 2 ** 26])

    def test_series_refuses_mixed_chapters(self):
        paths = [self.path("ch01.json", fixtures.reduction(22)), self.path("ch02.json", fixtures.scan())]
        with self.assertRaisesRegex(ReportError, "different chapters .*01 reduction.*02 scan.*one chapter at a time"):
            read_series(paths)

    def test_series_refuses_mixed_types_and_repeated_sizes(self):
        floats = fixtures.reduction(28)
        floats["element_type"] = "float32"
        with self.assertRaisesRegex(ReportError, "different element types"):
            read_series([self.path("a.json", fixtures.reduction(22)), self.path("b.json", floats)])
        with self.assertRaisesRegex(ReportError, "two runs at n = 2\\^22"):
            read_series([self.path("c.json", fixtures.reduction(22)), self.path("d.json", fixtures.reduction(22))])
        with self.assertRaisesRegex(ReportError, "two or more sizes"):
            read_series([self.path("e.json", fixtures.reduction(22))])

    def test_format_n(self):
        self.assertEqual(format_n(2 ** 28), "2^28")
        self.assertEqual(format_n(100003), "100,003")
        self.assertEqual(format_n(1000), "1,000")


if __name__ == "__main__":
    unittest.main()
