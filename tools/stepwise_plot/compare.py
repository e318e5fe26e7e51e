"""Stages across inputs: one group of bars per run (a chapter run on one input: a matrix, a
distribution), one bar per kernel stage and library row, in table order.

The metric is GFLOP/s (the table's column, for chapters that count flops) or GB/s. Every run
must come from the same chapter and have the same stages; a failed row draws no bar and is
named under the figure.
"""
from typing import List, Optional

from . import style
from .report import Report, ReportError, Row

_METRICS = {"gflops": "GFLOP/s", "gbps": "GB/s"}


def draw(reports: List[Report], metric: str, labels: Optional[List[str]], title: str = None, sub: str = None):
    """The comparison figure of @p reports (one group each)."""
    names = [row.label for row in reports[0].stages()]
    for report in reports[1:]:
        if report.chapter != reports[0].chapter or [row.label for row in report.stages()] != names:
            raise ReportError(f"{report.source}: not the same chapter and stages as {reports[0].source}")
        if report.device_name != reports[0].device_name:
            raise ReportError(f"{report.source}: another GPU than {reports[0].source}: plot one GPU at a time")
    if labels is not None and len(labels) != len(reports):
        raise ReportError(f"--labels names {len(labels)} groups for {len(reports)} runs")
    groups = labels or [style.plain(report.element_type) for report in reports]
    values = [[_value(row, metric) for row in report.stages()] for report in reports]
    if all(value is None for run in values for value in run):
        raise ReportError(f"{reports[0].source}: no row has {_METRICS[metric]} to draw")
    top = max(value for run in values for value in run if value is not None)

    fig = style.new_figure(max(12, 1.2 + 0.42 * len(names) * len(reports)), 7.5)
    ax = fig.add_subplot()
    width = 0.8 / len(names)
    colors = _colors(reports[0].stages())
    for g, run in enumerate(values):
        for s, value in enumerate(run):
            x = g + (s - (len(names) - 1) / 2) * width
            if value is None:
                ax.text(x, top * 0.01, "FAIL", rotation=90, ha="center", va="bottom", fontsize=10)
                continue
            ax.bar(x, value, width=width * 0.92, color=colors[s], zorder=2, label=names[s] if g == 0 else None)
            ax.text(x, value + top * 0.01, f"{value:,.0f}", rotation=90, ha="center", va="bottom", fontsize=10)
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylabel(_METRICS[metric])
    ax.set_ylim(0, top * 1.22)
    ax.grid(axis="y", zorder=0)
    ax.legend(ncol=min(4, len(names)), fontsize=11, loc="upper left", frameon=False)
    failed = [row for report in reports for row in report.stages() if row.failed]
    style.caption(fig, [], failed)
    style.add_titles(fig, ax, default_title(reports[0], metric) if title is None else title,
                     _subtitle(reports[0]) if sub is None else sub)
    return fig


def default_title(report: Report, metric: str) -> str:
    """`Chapter 04 spmv: GFLOP/s of each stage on each input`."""
    return f"Chapter {style.plain(report.chapter)}: {_METRICS[metric]} of each stage on each input"


def _subtitle(report: Report) -> str:
    parts = [style.plain(report.device_name)]
    if report.sweep:
        parts.append("best shape per stage (--sweep)")
    if report.date:
        parts.append(report.date)
    return "  ·  ".join(parts)


def _value(row: Row, metric: str) -> Optional[float]:
    if row.failed:
        return None
    return row.gflops if metric == "gflops" else row.gbps


def _colors(rows: List[Row]) -> List[str]:
    """Kernel stages from light to dark in the stage color, library rows from dark to light in the library color."""
    import matplotlib.colors as mcolors

    def shades(base: str, count: int) -> List[str]:
        rgb = mcolors.to_rgb(base)
        return [mcolors.to_hex(tuple(1 - (1 - c) * (0.35 + 0.65 * (i + 1) / count) for c in rgb)) for i in range(count)]

    kernels = iter(shades(style.STAGE, sum(row.kind == "kernel" for row in rows)))
    libraries = iter(reversed(shades(style.LIBRARY, max(1, sum(row.kind == "library" for row in rows)))))
    return [next(libraries) if row.kind == "library" else next(kernels) for row in rows]
