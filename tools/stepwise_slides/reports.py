"""The reports a chapter's deck takes its rows from: the H100 reports it ships in results/, or a fresh run's.

The tables a deck shows are the runs of one table each (no sweep, no array of runs), in the order the lecture
cites them: the JSON files its Results section names, then those results/README.md lists, then the rest. A stage's
row is the first of those runs with a row of the stage's lesson (each stage file sets its row's lesson; a JSON
report carries it), so a chapter of several problems (03's merge, search and load-balancing search) finds each
stage in its own problem's table.
"""
import glob
import os
import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from stepwise_plot.report import Report, ReportError, Row, format_n, read_file

JSON_NAME = re.compile(r"[A-Za-z0-9_^.+-]+\.json")
PLACEHOLDER = re.compile(r"(?<![A-Za-z])([A-Z]+)(?![A-Za-z])")


@dataclass
class Run:
    """One report a deck shows: where it came from (file name) and the report."""

    name: str
    report: Report

    @property
    def command(self) -> str:
        """The chapter's command line without its folders and output options: `chapter_01_reduction --n 2^28`."""
        words = self.report.command.split()
        if not words:
            return f"chapter_{self.report.chapter_id}_{self.report.chapter_name}"
        kept = [os.path.basename(words[0])]
        skip = False
        for word in words[1:]:
            if skip:
                skip = False
                continue
            if word in ("--format", "--output", "--json", "--reps", "--warmup"):
                skip = True
                continue
            if word.split("=")[0] in ("--format", "--output", "--json", "--reps", "--warmup"):
                continue
            kept.append(word)
        return " ".join(kept)

    def device_line(self) -> str:
        """`NVIDIA H100 80GB HBM3 · 2026-11-26 · n = 2^28 int32 · file table_2e28.json`."""
        report = self.report
        parts = [report.device_name, report.date or "no date"]
        size = f"n = {format_n(report.n)}"
        if report.element_type:
            size += f" {report.element_type}"
        parts.append(size)
        parts.append(self.name)
        return " · ".join(parts)


def _names_in(text: str) -> List[str]:
    return [name for name in JSON_NAME.findall(text)]


def _expand(name: str, folder: str) -> List[str]:
    """A results/README.md name as files: `divergence-P.json` (a placeholder in capitals) is every match."""
    if os.path.exists(os.path.join(folder, name)):
        return [name]
    stem = name[: -len(".json")]
    pattern = PLACEHOLDER.sub("*", name)
    if pattern == name or not re.search(r"[a-z0-9]", stem):  # T.json, NAME.json: a name for any file
        return []
    matches = [os.path.basename(path) for path in glob.glob(os.path.join(folder, pattern))]
    return sorted(matches, key=lambda n: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", n)])


def cited_order(results_section_text: str, results_readme: str, shipped: str) -> List[str]:
    """The shipped reports' file names, in the order the lecture and results/README.md cite them, then the rest."""
    order: List[str] = []
    readme_text = ""
    if os.path.exists(results_readme):
        with open(results_readme, encoding="utf-8") as stream:
            readme_text = stream.read()
    for name in _names_in(results_section_text) + _names_in(readme_text):
        for expanded in _expand(name, shipped):
            if expanded not in order:
                order.append(expanded)
    for path in sorted(glob.glob(os.path.join(shipped, "*.json"))):
        name = os.path.basename(path)
        if name not in order:
            order.append(name)
    return order


def _single_table(path: str) -> Optional[Report]:
    """The report in a file when it is one run of a table (rows, no sweep), else None."""
    try:
        reports = read_file(path)
    except ReportError:
        return None
    if len(reports) != 1 or reports[0].sweep or not reports[0].rows:
        return None
    return reports[0]


@dataclass
class ChapterRuns:
    """The runs a chapter's deck may show, in cited order, and the folder each came from."""

    runs: List[Run]
    fresh: int  # how many came from --reports (the rest are the shipped H100 reports)

    def row_for(self, lesson: str) -> Optional[Tuple[Run, Row]]:
        """The first run with a row of this lesson, and the row."""
        for run in self.runs:
            for row in run.report.rows:
                if row.lesson == lesson and not row.is_variant:
                    return run, row
        return None


def collect(chapter_dir: str, results_section_text: str, fresh_dir: Optional[str]) -> ChapterRuns:
    """The chapter's runs: each cited report from fresh_dir when it holds that file, else the shipped one."""
    shipped = os.path.join(chapter_dir, "results")
    runs: List[Run] = []
    fresh = 0
    for name in cited_order(results_section_text, os.path.join(shipped, "README.md"), shipped):
        path = os.path.join(shipped, name)
        if fresh_dir is not None and os.path.exists(os.path.join(fresh_dir, name)):
            report = _single_table(os.path.join(fresh_dir, name))
            if report is not None:
                runs.append(Run(name, report))
                fresh += 1
                continue
        report = _single_table(path)
        if report is not None:
            runs.append(Run(name, report))
    return ChapterRuns(runs, fresh)


def fresh_folder(reports_dir: str, chapter: str) -> str:
    """Where a chapter's fresh reports are under --reports DIR: DIR/NN or DIR/NN_name when either exists (what
    `figures/regenerate.sh gpu` writes under build/reports), else DIR itself."""
    for candidate in (chapter.split("_")[0], chapter):
        path = os.path.join(reports_dir, candidate)
        if os.path.isdir(path):
            return path
    return reports_dir


def dates(runs: List[Run]) -> str:
    """`2026-11-26`, or `2026-11-25 to 2026-11-26` when the runs span days."""
    days = sorted({run.report.date for run in runs if run.report.date})
    if not days:
        return "no date"
    return days[0] if len(days) == 1 else f"{days[0]} to {days[-1]}"


def devices(runs: List[Run]) -> str:
    """The GPUs of the runs, in order of first appearance, joined."""
    seen: Dict[str, None] = {}
    for run in runs:
        seen.setdefault(run.report.device_name, None)
    return ", ".join(seen) if seen else "no GPU report"
