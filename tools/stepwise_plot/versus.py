"""Speedup against a parameter: every stage's speedup over one baseline stage, across runs of one
chapter that differ in one thing (n, a distribution, a matrix, a GPU, ...).

Each run gets an x value from `--labels`: a numeric axis when every label is a number, else one
evenly spaced position per run, in the order given. One line per kernel stage (by number) and
library row (by name), y = the baseline's median time over the stage's, on a log axis so that 2x
and 0.5x are as far from the dashed 1.0x line (the baseline) as each other. The baseline's own
line would lie on that one and is not drawn. A stage absent from a run has no point there; a
stage that failed its check in a run has none either, and is named under the figure.
"""
import math
from dataclasses import dataclass, field
from typing import Dict, List, Tuple

from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

from . import style
from .report import Report, ReportError, Row
from .staircase import log_ticks

_BASELINE_DASHES = (0, (6, 3))
# The kernels' colors: the shared sequence, then six more (Paul Tol's muted scheme, none of them the
# library's vermillion), so that up to twelve stages never share a color; past twelve the markers still differ.
PALETTE = style.SEQUENCE + ("#882255", "#999933", "#44AA99", "#332288", "#AA4499", "#661100")


@dataclass
class Series:
    """The speedups of one stage (or library) over the baseline, and the runs where it failed."""

    label: str
    library: bool
    points: List[Tuple[float, float]] = field(default_factory=list)
    failed: List[str] = field(default_factory=list)


def find_baseline(report: Report, stage: str) -> Row:
    """The stage named by number (a kernel) or by name (a kernel or a library), as `sweep --stage` names it."""
    wanted = stage.strip()
    if wanted.isdigit():
        matches = [row for row in report.kernels() if row.number == int(wanted)]
    else:
        matches = [row for row in report.stages() if wanted in (row.name, row.label)]
    if not matches:
        known = ", ".join(row.label for row in report.stages())
        raise ReportError(f"{report.source}: no stage '{stage}' to use as --baseline (stages: {known})")
    return matches[0]


def positions(labels: List[str]) -> Tuple[List[float], bool]:
    """The x of each run: the labels as numbers when all of them are, else 0, 1, 2, ...; and whether numeric."""
    values = []
    for text in labels:
        try:
            value = float(text)
        except ValueError:
            return [float(i) for i in range(len(labels))], False
        if not math.isfinite(value):
            return [float(i) for i in range(len(labels))], False
        values.append(value)
    return values, True


def collect(reports: List[Report], baseline: str, xs: List[float], labels: List[str]) -> Tuple[List[Series], Row]:
    """One Series per stage but the baseline, kernels by number then libraries; and the first run's baseline row."""
    series: Dict[tuple, Series] = {}
    first = None
    for report, x, text in zip(reports, xs, labels):
        base = find_baseline(report, baseline)
        if base.failed:
            raise ReportError(f"{report.source}: the baseline {base.label} failed its check: it has no time to divide")
        first = first or base
        for row in report.stages():
            if _key(row) == _key(base):
                continue
            line = series.setdefault(_key(row), Series(style.plain(row.label), row.kind == "library"))
            if row.failed:
                line.failed.append(text)
            else:
                line.points.append((x, base.median_ms / row.median_ms))
    libraries_in_order = {key: index for index, key in enumerate(series)}
    ordered = sorted(series, key=lambda key: (key[0], key[1], libraries_in_order[key]))
    return [series[key] for key in ordered], first


def _key(row: Row) -> tuple:
    return (0, row.number, "") if row.kind == "kernel" else (1, 0, row.name)


def draw(reports: List[Report], baseline: str, xlabel: str, labels: List[str], title: str = None,
         sub: str = None):
    """The figure of the runs, in the order given, run k at `labels[k]`; `baseline` by number or name."""
    if len(labels) != len(reports):
        raise ReportError(f"--labels names {len(labels)} values for {len(reports)} runs")
    for report in reports[1:]:
        if report.chapter != reports[0].chapter:
            raise ReportError(f"{report.source}: not the same chapter as {reports[0].source} "
                              f"({report.chapter}, {reports[0].chapter}): plot one chapter at a time")
    xs, numeric = positions(labels)
    lines, base = collect(reports, baseline, xs, labels)
    if not any(line.points for line in lines):
        raise ReportError(f"no stage but the baseline {base.label} has a time in any run: there is nothing to draw")
    fig = style.new_figure(13, 7)
    ax = fig.add_subplot()
    ax.set_yscale("log")
    kernels = 0
    for line in lines:
        if line.library:
            _plot(ax, line, style.LIBRARY, "*", 3.2, 15)
        else:
            _plot(ax, line, PALETTE[kernels % len(PALETTE)], style.MARKERS[kernels % len(style.MARKERS)], 2.2, 9)
            kernels += 1
    ax.axhline(1.0, color=style.MEMCPY, linestyle=_BASELINE_DASHES, linewidth=1.8, zorder=1,
               label=f"baseline: {style.plain(base.label)}")
    _set_axes(ax, lines, base, xs, numeric, labels, xlabel)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, handlelength=2.6)
    _failure_notes(fig, lines, xlabel)
    style.add_titles(fig, ax, default_title(reports[0], baseline, xlabel) if title is None else title,
                     _subtitle(reports) if sub is None else sub)
    return fig


def default_title(report: Report, baseline: str, xlabel: str) -> str:
    """`Chapter 01 reduction: speedup over 1 interleaved-divergent against n`."""
    row = find_baseline(report, baseline)
    return f"Chapter {style.plain(report.chapter)}: speedup over {style.plain(row.label)} against {style.plain(xlabel)}"


def _subtitle(reports: List[Report]) -> str:
    """The GPU(s), the element type and n when all runs share them, the dates."""
    parts = [", ".join(style.plain(name) for name in _distinct(report.device_name for report in reports))]
    types = _distinct(report.element_type for report in reports)
    sizes = sorted({report.n for report in reports})
    if len(types) == 1:
        parts.append(style.plain(types[0]))
    if len(sizes) == 1:
        parts.append(f"n = {style.n_text(sizes[0])}")
    else:
        parts.append(f"n = {style.n_text(sizes[0])} to {style.n_text(sizes[-1])}")
    if any(report.flush == "none" for report in reports):
        parts.append("L2 warm")
    if any(report.sweep for report in reports):
        parts.append("best shape per stage (--sweep)")
    dates = sorted({report.date for report in reports if report.date})
    if dates:
        parts.append(dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}")
    return "  ·  ".join(part for part in parts if part)


def _distinct(values) -> List[str]:
    seen = []
    for value in values:
        if value and value not in seen:
            seen.append(value)
    return seen


def _plot(ax, line: Series, color: str, marker: str, width: float, size: float) -> None:
    points = sorted(line.points)
    ax.plot([x for x, _ in points], [y for _, y in points], color=color, marker=marker, markersize=size,
            linewidth=width, label=line.label, linestyle=(0, (5, 2)) if line.library else "-",
            zorder=3 if line.library else 2)


def _set_axes(ax, lines: List[Series], base: Row, xs: List[float], numeric: bool, labels: List[str],
              xlabel: str) -> None:
    values = [y for line in lines for _, y in line.points] + [1.0]
    low, high = min(values) / 1.25, max(values) * 1.25
    ax.set_ylim(low, high)
    ax.yaxis.set_major_locator(FixedLocator(log_ticks(low, high)))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}×"))
    ax.set_ylabel(f"speedup over {style.plain(base.label)} (log scale)")
    texts = [style.plain(text) for text in labels]
    if not numeric:
        ax.set_xticks(xs, texts)
        ax.set_xlim(-0.4, len(xs) - 0.6)
    else:
        ticks = {}
        for x, text in zip(xs, texts):
            ticks.setdefault(x, text)
        if len(ticks) <= 12:
            ax.set_xticks(sorted(ticks), [ticks[x] for x in sorted(ticks)])
        span = (max(xs) - min(xs)) or max(1.0, abs(xs[0]))
        ax.set_xlim(min(xs) - 0.05 * span, max(xs) + 0.05 * span)
    ax.set_xlabel(style.plain(xlabel))
    ax.grid(color="#e3e3e3", linewidth=0.8)
    ax.set_axisbelow(True)


def _failure_notes(fig, lines: List[Series], xlabel: str) -> None:
    notes = [f"{line.label} at {style.plain(xlabel)} = {', '.join(style.plain(text) for text in line.failed)}"
             for line in lines if line.failed]
    if notes:
        style.caption(fig, ["FAIL (not drawn): " + "; ".join(notes)])
