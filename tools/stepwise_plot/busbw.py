"""Bus bandwidth against the size per GPU: chapter 11's all-reduce size sweep (--size-sweep), one panel per team.

Each report is one `chapter_11_multigpu --size-sweep --format json` run on G GPUs: a row per stage and size with
the slowest GPU's time, algbw = bytes / time and busbw = algbw x 2 (G - 1) / G (nccl-tests' definitions). The
panel of a team draws busbw (GB/s, log axis) against the bytes per GPU (log2 axis), a line per stage, the library
in vermillion, and, dashed, each stage's fitted alpha-beta model (the report's `fits`): busbw = factor x x /
(alpha + x / beta), which rises as alpha stops mattering and levels at factor x beta. On one GPU the factor is 0
(nothing travels): that panel draws algbw instead and says so.
"""
import math
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from . import style
from .report import ReportError, read_json


@dataclass
class Line:
    """One stage of one team: its measured points and its fit."""

    number: int
    name: str
    library: bool
    points: List[Tuple[int, float]] = field(default_factory=list)
    failed: List[int] = field(default_factory=list)
    fit: Optional[Tuple[float, float]] = None  # (alpha in seconds, beta in bytes/s)


@dataclass
class Team:
    """One report: a sweep on `gpus` GPUs."""

    source: str
    gpus: int
    factor: float
    device: str
    element_type: str
    date: str
    lines: List[Line]


def _number(value, what: str, source: str):
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise ReportError(f"{source}: {what} is not a number")
    return value


def parse_team(document, source: str) -> Team:
    """One size-sweep report of chapter 11, checked: the rows must have bytes_per_gpu, and the times of the rows that
    passed, algbw_gbps and busbw_gbps."""
    if not isinstance(document, dict) or not isinstance(document.get("rows"), list):
        raise ReportError(f"{source}: not a chapter 11 report (no rows)")
    chapter = document.get("chapter", {})
    if not isinstance(chapter, dict) or chapter.get("id") != "11" or document.get("problem") != "allreduce":
        raise ReportError(f"{source}: not an all-reduce report of chapter 11 (busbw-vs-size draws --size-sweep runs)")
    gpus = int(_number(document.get("gpus"), "gpus", source))
    factor = float(_number(document.get("bus_factor", 0.0), "bus_factor", source))
    lines: Dict[Tuple[int, str], Line] = {}
    for index, row in enumerate(document["rows"]):
        where = f"{source}: row {index + 1}"
        if not isinstance(row, dict) or "bytes_per_gpu" not in row or "name" not in row:
            raise ReportError(f"{where}: no bytes_per_gpu or name")
        library = row.get("kind") == "library"
        key = (1 if library else 0, int(row.get("number", 0)) if not library else 0, str(row["name"]))
        line = lines.setdefault(key, Line(int(row.get("number", 0)), str(row["name"]), library))
        size = int(_number(row["bytes_per_gpu"], "bytes_per_gpu", where))
        if row.get("check") != "PASS" or row.get("median_ms") is None:
            line.failed.append(size)
            continue
        metric = "busbw_gbps" if gpus > 1 else "algbw_gbps"
        line.points.append((size, float(_number(row.get(metric), metric, where))))
    for fit in document.get("fits", []):
        for line in lines.values():
            if line.name == fit.get("stage") and fit.get("beta_gbps", 0) > 0:
                line.fit = (float(fit["alpha_us"]) * 1e-6, float(fit["beta_gbps"]) * 1e9)
    if not lines:
        raise ReportError(f"{source}: no rows to draw")
    device = document.get("device", {}).get("name", "") if isinstance(document.get("device"), dict) else ""
    ordered = [lines[key] for key in sorted(lines)]
    return Team(source, gpus, factor, str(device), str(document.get("element_type", "")), str(document.get("date", "")),
                ordered)


def read_teams(paths: List[str]) -> List[Team]:
    """The reports of the figure, one team each (a file may hold an array of runs), ordered by GPU count."""
    teams = []
    for path in paths:
        document = read_json(path)
        documents = document if isinstance(document, list) else [document]
        teams.extend(parse_team(item, path) for item in documents)
    if len({team.gpus for team in teams}) != len(teams):
        raise ReportError("two reports of the same GPU count: keep one sweep per team")
    return sorted(teams, key=lambda team: team.gpus)


def fitted(line: Line, size: float, factor: float) -> float:
    """The fit's bandwidth at @p size bytes per GPU, GB/s: factor x size / (alpha + size / beta) (factor 1: algbw)."""
    alpha, beta = line.fit
    return factor * size / (alpha + size / beta) / 1e9


def default_title(teams: List[Team]) -> str:
    return "Chapter 11: all-reduce bus bandwidth against the size per GPU"


def draw(teams: List[Team], title: Optional[str] = None, sub: Optional[str] = None,
         line_rate: Optional[Tuple[float, str]] = None):
    """One panel per team, side by side, sharing the y axis; @p line_rate (GB/s, label), a link's rate each way,
    dotted on every panel of two or more GPUs (busbw is comparable with it; one GPU's algbw is not)."""
    fig = style.new_figure(6.0 * len(teams) + 1.0, 6.2)
    axes = fig.subplots(1, len(teams), sharey=True, squeeze=False)[0]
    for ax, team in zip(axes, teams):
        sizes = [size for line in team.lines for size, _ in line.points]
        sizes += [size for line in team.lines for size in line.failed]
        colors = iter(style.SEQUENCE)
        markers = iter(style.MARKERS)
        factor = team.factor if team.gpus > 1 else 1.0
        for line in team.lines:
            color = style.LIBRARY if line.library else next(colors, style.STAGE)
            label = style.plain(line.name if line.library else f"{line.number} {line.name}")
            if line.points:
                xs, ys = zip(*sorted(line.points))
                ax.plot(xs, ys, color=color, marker=next(markers, "o"), label=label, linewidth=2, markersize=6)
            if line.fit and line.points:
                grid = [2.0 ** (e / 4) for e in range(int(4 * math.log2(min(xs))), int(4 * math.log2(max(xs))) + 1)]
                ax.plot(grid, [fitted(line, x, factor) for x in grid], color=color, linestyle="--", linewidth=1)
            for size in line.failed:
                ax.annotate("FAIL", (size, 0.03), xycoords=ax.get_xaxis_transform(), color=color, fontsize=11,
                            ha="center")
        if line_rate is not None and team.gpus > 1:
            rate, name = line_rate
            ax.axhline(rate, color="#444444", linestyle=":", linewidth=1.5,
                       label=style.plain(f"{name}: {rate:g} GB/s"))
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        if sizes:
            style.log2_n_axis(ax, sizes, 8, 0.3)
        ax.set_xlabel("bytes per GPU")
        what = "busbw" if team.gpus > 1 else "algbw (busbw is 0 on one GPU)"
        ax.set_title(f"{team.gpus} GPU{'s' if team.gpus > 1 else ''}: {what}", fontsize=14)
        ax.grid(True, which="major", color="#dddddd", linewidth=0.8)
        ax.legend(loc="lower right", frameon=False, fontsize=11)
    axes[0].set_ylabel("GB/s")
    first = teams[0]
    subtitle = sub if sub is not None else "  ·  ".join(
        part for part in (style.plain(first.device), style.plain(first.element_type), first.date) if part)
    fig.suptitle(title if title is not None else default_title(teams))
    style.caption(fig, [subtitle, "dashed: each stage's alpha-beta fit, factor x bytes / (alpha + bytes / beta); "
                                  "busbw = algbw x 2 (G - 1) / G"] if subtitle else [])
    return fig
