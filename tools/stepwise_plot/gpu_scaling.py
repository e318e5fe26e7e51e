"""Speedup against the GPU count: chapter 11's scan or sort of one n on 1, 2, 4, ... GPUs.

Each report is one `chapter_11_multigpu --problem scan|sort --gpus G --format json` run. Its rows are the multi-GPU
stages on G GPUs and the library on GPU 0 alone (`cub::DeviceScan (GPU 0)`, `cub::DeviceRadixSort (GPU 0)`), timed
in the same process. The figure draws each stage's speedup over that library row of the same report (the library's
median time divided by the stage's) against G on a log2 axis, one line per stage, each point labelled with its
speedup, and dashed, the ideal G x: G GPUs that each do 1/G of the work as fast as the library does all of it on one.
A stage missing at some G has no point there; one that failed its check there has none either and is named under the
figure. The subtitle names the GPUs, the element type, n and the dates of the runs; where the runs name their host
(`host`) and come from more than one, it says which G ran where.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator

from . import style
from .busbw import _number
from .report import ReportError, format_n, read_json
from .staircase import log_ticks
from .versus import PALETTE

# The problem a chapter 11 report's chapter title names. Reports written before the `problem` key named scan and sort
# say "allreduce" there for every problem; their title still names the run's problem.
_TITLES = (("inclusive scan", "scan"), ("sample sort", "sort"), ("all-reduce", "allreduce"))
_WORDS = {"scan": "inclusive scan", "sort": "sort"}
_IDEAL = "#777777"


@dataclass
class Stage:
    """One multi-GPU stage of a run: its median time, or None where its check failed."""

    number: int
    name: str
    median_ms: Optional[float]

    @property
    def label(self) -> str:
        return f"{self.number} {self.name}"


@dataclass
class Run:
    """One report: a scan or sort of n values on `gpus` GPUs, with the library's time on GPU 0."""

    source: str
    problem: str
    gpus: int
    n: int
    element_type: str
    devices: List[str]
    host: str
    date: str
    library: str
    library_ms: float
    stages: List[Stage] = field(default_factory=list)


@dataclass
class Line:
    """One stage across the runs: (G, speedup) where it has a time, the G where it failed."""

    number: int
    name: str
    points: List[Tuple[int, float]] = field(default_factory=list)
    failed: List[int] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.number} {self.name}"


def problem_of(document: dict) -> str:
    """The problem of a chapter 11 report: its `problem` key when that says scan or sort, else the problem its chapter
    title names, else the key as it is."""
    named = str(document.get("problem", ""))
    if named in ("scan", "sort"):
        return named
    chapter = document.get("chapter", {})
    title = str(chapter.get("title", "")) if isinstance(chapter, dict) else ""
    for prefix, problem in _TITLES:
        if title.startswith(prefix):
            return problem
    return named


def parse_run(document, source: str) -> Run:
    """One scan or sort report of chapter 11, checked: a library row that passed with a time, kernel rows by number."""
    if not isinstance(document, dict) or not isinstance(document.get("rows"), list):
        raise ReportError(f"{source}: not a chapter 11 report (no rows)")
    chapter = document.get("chapter", {})
    chapter_id = chapter.get("id") if isinstance(chapter, dict) else None
    if chapter_id != "11":
        raise ReportError(f"{source}: not a chapter 11 report (chapter {chapter_id}): gpu-scaling draws "
                          "chapter_11_multigpu --problem scan or sort runs")
    problem = problem_of(document)
    if problem == "allreduce":
        raise ReportError(f"{source}: an all-reduce report: gpu-scaling draws --problem scan or sort runs "
                          "(busbw-vs-size draws the all-reduce)")
    if problem not in _WORDS:
        raise ReportError(f"{source}: problem '{problem}' is neither scan nor sort")
    gpus = _number(document.get("gpus"), "gpus", source)
    n = _number(document.get("n"), "n", source)
    if gpus < 1 or gpus != int(gpus) or n < 1 or n != int(n):
        raise ReportError(f"{source}: gpus {gpus} or n {n} is not a positive whole number")
    libraries, stages = [], []
    for index, row in enumerate(document["rows"]):
        where = f"{source}: row {index + 1}"
        if not isinstance(row, dict) or "name" not in row:
            raise ReportError(f"{where}: no name")
        passed = row.get("check") == "PASS" and row.get("median_ms") is not None
        median = float(_number(row["median_ms"], "median_ms", where)) if passed else None
        if median is not None and median <= 0:
            raise ReportError(f"{where}: median_ms {median} is not positive")
        if row.get("kind") == "library":
            libraries.append((str(row["name"]), median))
        elif row.get("kind") == "kernel":
            stages.append(Stage(int(_number(row.get("number"), "number", where)), str(row["name"]), median))
    if not libraries:
        raise ReportError(f"{source}: no library row (such as cub::DeviceScan (GPU 0)) to divide by")
    on_gpu0 = [library for library in libraries if library[0].endswith("(GPU 0)")]
    library, library_ms = (on_gpu0 or libraries)[0]
    if library_ms is None:
        raise ReportError(f"{source}: the library row {library} failed its check: it has no time to divide")
    device = document.get("device", {})
    devices = document.get("devices")
    if not isinstance(devices, list) or not devices:
        devices = [device.get("name", "")] if isinstance(device, dict) else []
    return Run(source, problem, int(gpus), int(n), str(document.get("element_type", "")),
               [str(name) for name in devices], str(document.get("host", "") or ""), str(document.get("date", "")),
               library, library_ms, sorted(stages, key=lambda stage: stage.number))


def read_runs(paths: List[str]) -> List[Run]:
    """The runs of the figure (a file may hold an array of runs), ordered by GPU count, checked to be one problem, one
    n and one element type with one run per GPU count."""
    runs = []
    for path in paths:
        document = read_json(path)
        documents = document if isinstance(document, list) else [document]
        if not documents:
            raise ReportError(f"{path}: an empty array, no report in it")
        named = [path] if len(documents) == 1 else [f"{path} [run {i + 1}]" for i in range(len(documents))]
        runs.extend(parse_run(item, name) for item, name in zip(documents, named))
    first = runs[0]
    for run in runs[1:]:
        if run.problem != first.problem:
            raise ReportError(f"{run.source} is a {run.problem} run, {first.source} a {first.problem} run: "
                              "one problem per figure")
        if run.n != first.n:
            raise ReportError(f"{run.source} has n = {format_n(run.n)}, {first.source} n = {format_n(first.n)}: "
                              "one n per figure")
        if run.element_type != first.element_type:
            raise ReportError(f"{run.source} sorts or scans {run.element_type}, {first.source} {first.element_type}: "
                              "one element type per figure")
    by_gpus: Dict[int, Run] = {}
    for run in runs:
        if run.gpus in by_gpus:
            raise ReportError(f"{by_gpus[run.gpus].source} and {run.source} both ran on {run.gpus} GPU(s): "
                              "one report per GPU count")
        by_gpus[run.gpus] = run
    return [by_gpus[gpus] for gpus in sorted(by_gpus)]


def lines_of(runs: List[Run]) -> List[Line]:
    """One line per stage (by number), its speedup over the library of each run that has it."""
    lines: Dict[Tuple[int, str], Line] = {}
    for run in runs:
        for stage in run.stages:
            line = lines.setdefault((stage.number, stage.name), Line(stage.number, stage.name))
            if stage.median_ms is None:
                line.failed.append(run.gpus)
            else:
                line.points.append((run.gpus, run.library_ms / stage.median_ms))
    return [lines[key] for key in sorted(lines)]


def library_name(runs: List[Run]) -> str:
    """The library the speedups are over, without its `(GPU 0)`: `cub::DeviceScan`."""
    names = []
    for run in runs:
        name = run.library[: -len("(GPU 0)")].strip() if run.library.endswith("(GPU 0)") else run.library
        if name not in names:
            names.append(name)
    return " / ".join(names)


def default_title(runs: List[Run]) -> str:
    """`Chapter 11: inclusive scan on G GPUs against cub::DeviceScan on one`."""
    return f"Chapter 11: {_WORDS[runs[0].problem]} on G GPUs against {library_name(runs)} on one"


def _gpu_list(gpus: List[int]) -> str:
    return "G = " + ", ".join(str(g) for g in gpus)


def devices_text(runs: List[Run]) -> str:
    """The GPUs of the runs: `NVIDIA H200` when they share one name (and host, or name none);
    `NVIDIA H200 (G = 1, 4: one host; G = 2: another)` when the runs name two hosts; else each name with its G."""
    groups: Dict[str, List[Run]] = {}
    for run in runs:
        distinct = []
        for name in run.devices:
            if name and name not in distinct:
                distinct.append(name)
        groups.setdefault(" + ".join(distinct), []).append(run)
    if len(groups) > 1:
        return ", ".join(f"{style.plain(name)} ({_gpu_list([run.gpus for run in members])})"
                         for name, members in groups.items())
    name = style.plain(next(iter(groups)))
    hosts: Dict[str, List[int]] = {}
    for run in runs:
        hosts.setdefault(run.host, []).append(run.gpus)
    if len(hosts) < 2 or "" in hosts:
        return name
    if len(hosts) == 2:
        (first, second) = hosts.values()
        return f"{name} ({_gpu_list(first)}: one host; {_gpu_list(second)}: another)"
    return f"{name} (" + "; ".join(f"{_gpu_list(gpus)}: host {i + 1}" for i, gpus in enumerate(hosts.values())) + ")"


def subtitle(runs: List[Run]) -> str:
    """`NVIDIA H200  ·  int32  ·  n = 2^28  ·  2026-11-26` (several dates: each with its G)."""
    dates: Dict[str, List[int]] = {}
    for run in runs:
        if run.date:
            dates.setdefault(run.date, []).append(run.gpus)
    when = next(iter(dates)) if len(dates) == 1 else ", ".join(f"{date} ({_gpu_list(gpus)})"
                                                                for date, gpus in sorted(dates.items()))
    parts = [devices_text(runs), style.plain(runs[0].element_type), f"n = {style.n_text(runs[0].n)}", when]
    return "  ·  ".join(part for part in parts if part)


def draw(runs: List[Run], title: Optional[str] = None, sub: Optional[str] = None):
    """The figure of the runs (ordered by GPU count, as read_runs returns them)."""
    lines = lines_of(runs)
    if not any(line.points for line in lines):
        raise ReportError("no stage has a time in any run: there is nothing to draw")
    gpus = [run.gpus for run in runs]
    fig = style.new_figure(12, 7.4)
    ax = fig.add_subplot()
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    low_g, high_g = min(gpus), max(gpus)
    ax.plot([low_g, high_g], [low_g, high_g], color=_IDEAL, linestyle=(0, (6, 3)), linewidth=1.8, zorder=1,
            label="ideal: G×")
    ax.axhline(1.0, color=style.LIBRARY, linewidth=1.2, zorder=1,
               label=f"1×: {style.plain(library_name(runs))} on GPU 0")
    tops: Dict[int, float] = {}  # the highest speedup at each G: its label goes above the point, the others below
    for line in lines:
        for g, speedup in line.points:
            tops[g] = max(tops.get(g, 0.0), speedup)
    for index, line in enumerate(lines):
        if not line.points:
            continue
        color = PALETTE[index % len(PALETTE)]
        points = sorted(line.points)
        ax.plot([g for g, _ in points], [s for _, s in points], color=color,
                marker=style.MARKERS[index % len(style.MARKERS)], markersize=9, linewidth=2.2, zorder=3,
                label=style.plain(line.label))
        for g, speedup in points:
            above = speedup >= tops[g] and speedup >= 1.0  # a point under 1x keeps its label clear of that line
            ax.annotate(f"{speedup:.2f}×", (g, speedup), xytext=(0, 11 if above else -12), textcoords="offset points",
                        ha="center", va="bottom" if above else "top", color=color, fontsize=12, zorder=5,
                        bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.9})
    values = [s for line in lines for _, s in line.points] + [1.0, float(low_g), float(high_g)]
    low, high = min(values) / 1.25, max(values) * 1.25
    ax.set_ylim(low, high)
    ax.yaxis.set_major_locator(FixedLocator(log_ticks(low, high)))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}×"))
    ax.set_ylabel(f"speedup over {style.plain(library_name(runs))} on GPU 0 (log scale)")
    ax.xaxis.set_major_locator(FixedLocator([float(g) for g in gpus]))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    margin = 2.0 ** 0.35
    ax.set_xlim(low_g / margin, high_g * margin)
    ax.set_xlabel("G, the GPUs the stages run on (log2 scale)")
    ax.grid(color="#e3e3e3", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", frameon=False, handlelength=2.6)
    notes = ["speedup: the library's median time on GPU 0 ÷ the stage's on G GPUs, both from the same report"]
    failed = [f"{style.plain(line.label)} at {_gpu_list(line.failed)}" for line in lines if line.failed]
    if failed:
        notes.append("FAIL (not drawn): " + "; ".join(failed))
    style.caption(fig, notes)
    style.add_titles(fig, ax, default_title(runs) if title is None else title, subtitle(runs) if sub is None else sub)
    return fig

