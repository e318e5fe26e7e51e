"""tools/plot gpu-scaling: chapter 11's scan and sort runs at one n on several GPU counts, each stage's speedup over
the library row of its own report against G; mixed problems, mixed n, a report without a library row and reports of
other chapters refused."""
import glob
import os
import re
import tempfile
import unittest

from support import ROOT, needs_matplotlib, plot, svg_texts, write_json

RESULTS = os.path.join(ROOT, "chapters", "11_multigpu", "results")

# (G, stage 1 ms, stage 2 ms, library ms): the int32 scan at 2^28 of chapter 11's H200 reports, rounded.
SCAN_TIMES = {1: (0.6605, 0.9039, 0.8288), 2: (0.6185, 0.4743, 0.8298), 4: (0.3231, 0.2555, 0.8301)}
# (G, stage 1 ms, stage 2 ms or None where the run has no stage 2, library ms): the sort at 2^28, rounded.
SORT_TIMES = {1: (5.9788, None, 5.4311), 2: (5.0833, 4.2841, 5.4429), 4: (3.3505, None, 5.4294)}
TITLES = {"scan": "inclusive scan across the GPUs of one process", "sort": "sample sort across the GPUs of one process"}


def run_report(problem, gpus, n=2 ** 28, problem_key=None, chapter="11", library=True, fail=None, **fields):
    """A chapter 11 report of @p problem ("scan" or "sort") on @p gpus GPUs, in sweep_report.cpp's schema, with the
    times of SCAN_TIMES / SORT_TIMES; @p problem_key replaces the `problem` key (older reports wrote "allreduce"),
    @p fail names a stage number whose check failed, @p library False leaves the library row out."""
    stage_1, stage_2, library_ms = (SCAN_TIMES if problem == "scan" else SORT_TIMES)[gpus]
    names = ("scan-then-add", "reduce-then-scan") if problem == "scan" else ("sample-sort", "partition-first")
    element_type = "int32" if problem == "scan" else "uint32"
    rows = []
    for number, name, median in ((1, names[0], stage_1), (2, names[1], stage_2)):
        if median is None:
            continue
        row = {"number": number, "name": name, "kind": "kernel", "bytes_per_gpu": n * 4, "n_per_gpu": n}
        if number == fail:
            row.update(check="FAIL", median_ms=None, detail="element 17 differs")
        else:
            row.update(check="PASS", median_ms=median, min_ms=median, max_ms=median,
                       algbw_gbps=n * 4 / (median * 1e-3) / 1e9)
        rows.append(row)
    if library:
        name = "cub::DeviceScan (GPU 0)" if problem == "scan" else "cub::DeviceRadixSort (GPU 0)"
        rows.append({"number": 0, "name": name, "kind": "library", "bytes_per_gpu": n * 4, "n_per_gpu": n,
                     "check": "PASS", "median_ms": library_ms, "min_ms": library_ms, "max_ms": library_ms,
                     "algbw_gbps": n * 4 / (library_ms * 1e-3) / 1e9})
    document = {"chapter": {"id": chapter, "name": "multigpu", "title": TITLES[problem]},
                "device": {"name": "NVIDIA H200"}, "n": n, "problem": problem_key or problem,
                "devices": ["NVIDIA H200"] * gpus, "gpus": gpus, "element_type": element_type,
                "command": f"chapter_11_multigpu --problem {problem} --gpus {gpus}", "date": "2026-11-26",
                "seed": 20261121, "reps": 10, "notes": [], "rows": rows, "fits": []}
    document.update(fields)
    return document


@needs_matplotlib
class GpuScaling(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def draw(self, *documents, expect=0, options=()):
        """tools/plot gpu-scaling of the documents: the SVG's texts, or the error line when @p expect is not 0."""
        paths = [write_json(self.folder.name, f"run{i}.json", document) for i, document in enumerate(documents)]
        output = os.path.join(self.folder.name, "figure.svg")
        code, errors = plot("gpu-scaling", *paths, *options, "-o", output)
        self.assertEqual(code, expect, errors)
        if code != 0:
            self.assertEqual(len(errors.strip().splitlines()), 1, errors)
            self.assertFalse(os.path.exists(output))
            return errors
        return "\n".join(svg_texts(output))

    def read(self, *documents):
        from stepwise_plot import gpu_scaling

        paths = [write_json(self.folder.name, f"read{i}.json", document) for i, document in enumerate(documents)]
        return gpu_scaling.read_runs(paths)

    def test_a_line_per_stage_the_ideal_and_the_library(self):
        texts = self.draw(run_report("scan", 4), run_report("scan", 1), run_report("scan", 2))
        for wanted in ("Chapter 11: inclusive scan on G GPUs against cub::DeviceScan on one", "1 scan-then-add",
                       "2 reduce-then-scan", "ideal: G×", "1×: cub::DeviceScan on GPU 0",
                       "NVIDIA H200  ·  int32  ·  n = $2^{28}$  ·  2026-11-26", "G, the GPUs the stages run on",
                       "speedup over cub::DeviceScan on GPU 0 (log scale)", "1.25×", "1.75×", "3.25×", "2.57×"):
            self.assertIn(wanted, texts)
        ticks = texts.splitlines()
        self.assertLess(ticks.index("1"), ticks.index("2"))
        self.assertLess(ticks.index("2"), ticks.index("4"))

    def test_each_speedup_is_over_the_library_row_of_its_own_report(self):
        from stepwise_plot import gpu_scaling

        runs = self.read(run_report("scan", 2), run_report("scan", 4), run_report("scan", 1))
        self.assertEqual([run.gpus for run in runs], [1, 2, 4])
        lines = gpu_scaling.lines_of(runs)
        self.assertEqual([line.label for line in lines], ["1 scan-then-add", "2 reduce-then-scan"])
        for line, column in zip(lines, (0, 1)):
            self.assertEqual([g for g, _ in line.points], [1, 2, 4])
            for g, speedup in line.points:
                self.assertAlmostEqual(speedup, SCAN_TIMES[g][2] / SCAN_TIMES[g][column], places=12)
        self.assertAlmostEqual(lines[1].points[2][1], 0.8301 / 0.2555, places=12)

    def test_a_stage_missing_at_some_G_has_no_point_there(self):
        from stepwise_plot import gpu_scaling

        runs = self.read(run_report("sort", 1), run_report("sort", 2), run_report("sort", 4))
        sample, partition = gpu_scaling.lines_of(runs)
        self.assertEqual([g for g, _ in sample.points], [1, 2, 4])
        self.assertEqual(partition.points, [(2, 5.4429 / 4.2841)])
        texts = self.draw(run_report("sort", 1), run_report("sort", 2), run_report("sort", 4))
        for wanted in ("Chapter 11: sort on G GPUs against cub::DeviceRadixSort on one", "1 sample-sort",
                       "2 partition-first", "1.27×", "1.62×", "0.91×", "uint32"):
            self.assertIn(wanted, texts)
        self.assertEqual(texts.count("1.27×"), 1)

    def test_a_failed_stage_is_named_under_the_figure(self):
        from stepwise_plot import gpu_scaling

        texts = self.draw(run_report("scan", 1), run_report("scan", 2, fail=2), run_report("scan", 4))
        self.assertIn("FAIL (not drawn): 2 reduce-then-scan at G = 2", texts)
        runs = self.read(run_report("scan", 1), run_report("scan", 2, fail=2))
        self.assertEqual(gpu_scaling.lines_of(runs)[1].failed, [2])
        self.assertEqual([g for g, _ in gpu_scaling.lines_of(runs)[1].points], [1])

    def test_older_reports_that_say_allreduce_are_read_by_their_title(self):
        runs = self.read(run_report("sort", 1, problem_key="allreduce"), run_report("sort", 2))
        self.assertEqual([run.problem for run in runs], ["sort", "sort"])

    def test_the_subtitle_says_which_G_ran_where(self):
        from stepwise_plot import gpu_scaling

        hosts = self.read(run_report("sort", 1, host="a"), run_report("sort", 2, host="b"),
                          run_report("sort", 4, host="a"))
        self.assertEqual(gpu_scaling.devices_text(hosts), "NVIDIA H200 (G = 1, 4: one host; G = 2: another)")
        three = self.read(run_report("sort", 1, host="a"), run_report("sort", 2, host="b"),
                          run_report("sort", 4, host="c"))
        self.assertEqual(gpu_scaling.devices_text(three),
                         "NVIDIA H200 (G = 1: host 1; G = 2: host 2; G = 4: host 3)")
        one_host = self.read(run_report("sort", 1, host="a"), run_report("sort", 2, host="a"))
        self.assertEqual(gpu_scaling.devices_text(one_host), "NVIDIA H200")
        mixed = self.read(run_report("scan", 1), run_report("scan", 2, devices=["NVIDIA H100 80GB HBM3"] * 2,
                                                              date="2026-11-21"), run_report("scan", 4))
        self.assertEqual(gpu_scaling.devices_text(mixed), "NVIDIA H200 (G = 1, 4), NVIDIA H100 80GB HBM3 (G = 2)")
        self.assertIn("2026-11-21 (G = 2), 2026-11-26 (G = 1, 4)", gpu_scaling.subtitle(mixed))
        texts = self.draw(run_report("sort", 1, host="a"), run_report("sort", 2, host="b"))
        self.assertIn("NVIDIA H200 (G = 1: one host; G = 2: another)  ·  uint32", texts)

    def test_the_refusals(self):
        scan = run_report("scan", 1)
        self.assertIn("one problem per figure", self.draw(scan, run_report("sort", 2), expect=2))
        self.assertIn("one n per figure", self.draw(scan, run_report("scan", 2, n=2 ** 26), expect=2))
        self.assertIn("one element type per figure",
                      self.draw(scan, run_report("scan", 2, element_type="float32"), expect=2))
        self.assertIn("no library row", self.draw(scan, run_report("scan", 2, library=False), expect=2))
        self.assertIn("not a chapter 11 report (chapter 10)",
                      self.draw(scan, run_report("scan", 2, chapter="10"), expect=2))
        self.assertIn("not a chapter 11 report (no rows)", self.draw({"rows": None}, expect=2))
        allreduce = run_report("scan", 2, problem_key="allreduce")
        allreduce["chapter"]["title"] = "all-reduce across the GPUs of one process"
        self.assertIn("an all-reduce report", self.draw(scan, allreduce, expect=2))
        self.assertIn("one report per GPU count", self.draw(scan, run_report("scan", 1), expect=2))
        failed_library = run_report("scan", 2)
        failed_library["rows"][-1].update(check="FAIL", median_ms=None)
        self.assertIn("failed its check", self.draw(scan, failed_library, expect=2))

    def test_the_committed_reports_give_the_speedups_their_notes_print(self):
        from stepwise_plot import gpu_scaling
        from stepwise_plot.report import read_json

        for pattern in ("scan-int32-2e28-g*.json", "sort-2e28-g*.json"):
            paths = sorted(glob.glob(os.path.join(RESULTS, pattern)))
            runs = gpu_scaling.read_runs(paths)
            self.assertEqual([run.gpus for run in runs], [1, 2, 4])
            printed = {}
            for path in paths:
                for note in read_json(path)["notes"]:
                    found = re.fullmatch(r"(\S+) on (\d+) GPU\(s\): ([0-9.]+)x .*", note)
                    if found:
                        printed[(found.group(1), int(found.group(2)))] = float(found.group(3))
            drawn = {(line.name, g): speedup for line in gpu_scaling.lines_of(runs) for g, speedup in line.points}
            self.assertEqual(set(drawn), set(printed))
            for key, speedup in drawn.items():
                self.assertAlmostEqual(speedup, printed[key], delta=0.005, msg=str(key))


if __name__ == "__main__":
    unittest.main()
