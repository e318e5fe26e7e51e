"""Time against n: one line per stage and library over runs of the same chapter at several sizes.

This is the "performance comparison" chart of Harris's reduction slides: n on a log2 axis,
the median time on a log axis, so that a stage bound by bandwidth is a straight line of slope
one and a stage bound by launches is flat. With `--metric gbps` the lines show GB/s instead,
under the measured cudaMemcpy bandwidth and the datasheet peak.
"""
import statistics
from dataclasses import dataclass, field
from typing import Dict, List, Tuple

from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from . import style
from .report import Report, ReportError, Row


@dataclass
class Series:
    """The points of one stage (or library) across the runs, and the sizes where it failed."""

    label: str
    library: bool
    points: List[Tuple[int, float]] = field(default_factory=list)
    failed: List[int] = field(default_factory=list)


def collect(reports: List[Report], metric: str) -> List[Series]:
    """One Series per kernel stage (by number) and library (by name): kernels by number, then libraries."""
    series: Dict[tuple, Series] = {}
    for report in reports:
        for row in report.stages():
            key = (0, row.number, "") if row.kind == "kernel" else (1, 0, row.name)
            line = series.setdefault(key, Series(style.plain(row.label), row.kind == "library"))
            value = _value(row, metric)
            if value is None:
                line.failed.append(report.n)
            else:
                line.points.append((report.n, value))
    libraries_in_order = {key: index for index, key in enumerate(series)}
    return [series[key] for key in sorted(series, key=lambda key: (key[0], key[1], libraries_in_order[key]))]


def _value(row: Row, metric: str):
    if row.failed:
        return None
    return row.gbps if metric == "gbps" else row.median_ms


def draw(reports: List[Report], metric: str = "time", title: str = None, sub: str = None):
    """The figure of the runs (sorted by n, of one chapter: report.read_series checks that)."""
    lines = collect(reports, metric)
    if not any(line.points for line in lines):
        raise ReportError("no stage passed its check in any run: there is nothing to draw")
    fig = style.new_figure(13, 7)
    ax = fig.add_subplot()
    kernels = 0
    for line in lines:
        if line.library:
            _plot(ax, line, style.LIBRARY, "*", 3.2, 15)
        else:
            _plot(ax, line, style.SEQUENCE[kernels % len(style.SEQUENCE)], style.MARKERS[kernels % len(style.MARKERS)],
                  2.2, 9)
            kernels += 1
    _set_axes(ax, [report.n for report in reports], metric)
    if metric == "gbps":
        _ceilings(ax, reports)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, handlelength=2.6)
    _failure_notes(fig, lines)
    style.add_titles(fig, ax, _title(reports[0], metric) if title is None else title,
                     _subtitle(reports) if sub is None else sub)
    return fig


def default_title(report: Report, metric: str = "time") -> str:
    """`Chapter 01 reduction: time against n`."""
    return _title(report, metric)


def _title(report: Report, metric: str) -> str:
    what = "GB/s against n" if metric == "gbps" else "time against n"
    return f"Chapter {style.plain(report.chapter)}: {what}"


def _subtitle(reports: List[Report]) -> str:
    first, last = reports[0], reports[-1]
    dates = sorted({report.date for report in reports if report.date})
    parts = [style.plain(first.device_name), style.plain(first.element_type),
             f"n = {style.n_text(first.n)} to {style.n_text(last.n)}"]
    if dates:
        parts.append(dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}")
    return "  ·  ".join(part for part in parts if part)


def _plot(ax, line: Series, color: str, marker: str, width: float, size: float) -> None:
    xs = [n for n, _ in line.points]
    ys = [value for _, value in line.points]
    ax.plot(xs, ys, color=color, marker=marker, markersize=size, linewidth=width, label=line.label,
            linestyle=(0, (5, 2)) if line.library else "-", zorder=3 if line.library else 2)


def _ceilings(ax, reports: List[Report]) -> None:
    memcpy = statistics.median(report.memcpy_gbps for report in reports)
    peak = reports[0].peak_gbps
    ceilings = ((memcpy, "memcpy", style.MEMCPY, (0, (6, 3))), (peak, "peak", style.PEAK, (0, (1.5, 2))))
    for value, name, color, dashes in ceilings:
        if value > 0:
            ax.set_ylim(top=max(ax.get_ylim()[1], value * 1.08))
            ax.axhline(value, color=color, linestyle=dashes, linewidth=1.8, zorder=1)
            ax.annotate(f"{name} {value:,.0f} GB/s", (0.005, value), xycoords=("axes fraction", "data"),
                        xytext=(0, 4), textcoords="offset points", va="bottom", fontsize=13, color=color)


def _set_axes(ax, sizes: List[int], metric: str) -> None:
    style.log2_n_axis(ax, sizes, 12, 0.3)
    ax.set_xlabel("n (elements, log scale)")
    ax.grid(color="#e3e3e3", linewidth=0.8)
    if metric == "gbps":
        ax.set_ylim(bottom=0)
        ax.set_ylabel("GB/s  (bytes moved ÷ median time)")
        return
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    ax.set_ylabel("median time (ms, log scale)")


def _failure_notes(fig, lines: List[Series]) -> None:
    notes = [f"{line.label} at n = {', '.join(style.n_text(n) for n in line.failed)}" for line in lines if line.failed]
    if notes:
        style.caption(fig, ["FAIL (not drawn): " + "; ".join(notes)])
