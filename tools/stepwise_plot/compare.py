"""Stages across runs: one group of bars per run (a chapter run on one input: a matrix, a
distribution; or on one GPU: a student's run beside the shipped H100 one), one bar per kernel
stage and library row, in table order.

The metric is GFLOP/s (the table's column, for chapters that count flops) or GB/s; by default
GFLOP/s when the runs have it. Every run must come from the same chapter. Runs of different
GPUs are drawn side by side, each GPU and date under the title; a stage that one run did not
have (another --stage list) is marked "not run" in its group, a failed row "FAIL".
"""
from typing import List, Optional

from . import style
from .report import Report, ReportError, Row

_METRICS = {"gflops": "GFLOP/s", "gbps": "GB/s"}


def draw(reports: List[Report], metric: Optional[str], labels: Optional[List[str]], title: str = None,
         sub: str = None):
    """The comparison figure of @p reports (one group each); metric None: GFLOP/s when a row has it, else GB/s."""
    for report in reports[1:]:
        if report.chapter != reports[0].chapter:
            raise ReportError(f"{report.source}: not the same chapter as {reports[0].source}")
    if labels is not None and len(labels) != len(reports):
        raise ReportError(f"--labels names {len(labels)} groups for {len(reports)} runs")
    metric = metric or default_metric(reports)
    union = _union(reports)
    names = [row.label for row in union]
    groups = labels or [style.plain(report.element_type) for report in reports]
    runs = [{row.label: row for row in report.stages()} for report in reports]
    values = [[_value(run[name], metric) if name in run else None for name in names] for run in runs]
    if all(value is None for run in values for value in run):
        raise ReportError(f"{reports[0].source}: no row has {_METRICS[metric]} to draw")
    top = max(value for run in values for value in run if value is not None)

    fig = style.new_figure(max(12, 1.2 + 0.42 * len(names) * len(reports)), 7.5)
    ax = fig.add_subplot()
    width = 0.8 / len(names)
    colors = _colors(union)
    for g, run in enumerate(values):
        for s, value in enumerate(run):
            x = g + (s - (len(names) - 1) / 2) * width
            if value is None:
                mark = "FAIL" if names[s] in runs[g] else "not run"
                ax.text(x, top * 0.01, mark, rotation=90, ha="center", va="bottom", fontsize=10)
                continue
            ax.bar(x, value, width=width * 0.92, color=colors[s], zorder=2, label=names[s] if g == 0 else None)
            ax.text(x, value + top * 0.01, f"{value:,.0f}", rotation=90, ha="center", va="bottom", fontsize=10)
    for s, name in enumerate(names):  # a stage the first run lacks still gets its legend entry
        if name not in runs[0]:
            ax.bar(0, 0, width=0, color=colors[s], label=name)
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylabel(_METRICS[metric])
    ax.set_ylim(0, top * 1.22)
    ax.grid(axis="y", zorder=0)
    ax.legend(ncol=min(4, len(names)), fontsize=11, loc="upper left", frameon=False)
    failed = [row for report in reports for row in report.stages() if row.failed]
    style.caption(fig, [], failed)
    style.add_titles(fig, ax, default_title(reports[0], metric, reports) if title is None else title,
                     _subtitle(reports, groups) if sub is None else sub)
    return fig


def default_metric(reports: List[Report]) -> str:
    """GFLOP/s when a row of the runs has it (a chapter that counts flops), else GB/s."""
    return "gflops" if any(row.gflops for report in reports for row in report.stages()) else "gbps"


def _union(reports: List[Report]) -> List[Row]:
    """Every stage and library row of the runs, once each by label: the first run's order, then the others' new ones."""
    seen = {}
    for report in reports:
        for row in report.stages():
            seen.setdefault(row.label, row)
    return list(seen.values())


def default_title(report: Report, metric: str, reports: Optional[List[Report]] = None) -> str:
    """`Chapter 04 spmv: GFLOP/s of each stage on each input` (`... on each GPU` when the runs' GPUs differ)."""
    what = "GPU" if reports and len({run.device_name for run in reports}) > 1 else "input"
    return f"Chapter {style.plain(report.chapter)}: {_METRICS[metric]} of each stage on each {what}"


def _subtitle(reports: List[Report], groups: List[str]) -> str:
    first = reports[0]
    if len({report.device_name for report in reports}) > 1:  # each group's GPU and date
        return "  ·  ".join(f"{group}: {style.plain(report.device_name)}" + (f", {report.date}" if report.date else "")
                            for group, report in zip(groups, reports))
    parts = [style.plain(first.device_name)]
    if first.sweep:
        parts.append("best shape per stage (--sweep)")
    if first.date:
        parts.append(first.date)
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
