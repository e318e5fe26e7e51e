"""Bandwidth per stage: one horizontal bar of GB/s per kernel stage and library row.

GB/s is the chapter's bytes moved divided by the median time, the same number as the
table's GB/s column. Two vertical lines give the scale: the cudaMemcpy bandwidth measured
at the start of the run (the practical ceiling) and the datasheet peak of the GPU.
"""
from typing import List

from . import style
from .report import Report, ReportError, Row

_BAR_HEIGHT = 0.68


def draw(report: Report, title: str = None, sub: str = None):
    """The bandwidth figure of one report."""
    rows = report.stages()
    if not any(not row.failed and row.gbps is not None for row in rows):
        raise ReportError(f"{report.source}: no stage passed its check: there is no bandwidth to draw")
    right = _right_limit(report, rows)
    fig = style.new_figure(12, 2.6 + 0.62 * len(rows))
    ax = fig.add_subplot()
    for y, row in enumerate(rows):
        _draw_row(ax, y, row, right)
    _draw_ceilings(ax, report)
    _set_axes(ax, rows, right, report.sweep)
    style.caption(fig, [], rows)
    style.add_titles(fig, ax, default_title(report) if title is None else title,
                     style.subtitle(report) if sub is None else sub)
    return fig


def default_title(report: Report) -> str:
    """`Chapter 00 bandwidth: GB/s of each stage`."""
    return f"Chapter {style.plain(report.chapter)}: GB/s of each stage"


def _right_limit(report: Report, rows: List[Row]) -> float:
    """Room for the longest bar and, right of the peak line, its label."""
    values = [row.gbps for row in rows if row.gbps is not None] + [report.memcpy_gbps, report.peak_gbps]
    return max(values) * 1.2


def _color(row: Row, text: bool = False) -> str:
    if row.kind == "library":
        return style.LIBRARY
    return style.INK if text else style.STAGE


def _draw_row(ax, y: int, row: Row, right: float) -> None:
    if row.failed or row.gbps is None:
        ax.text(right * 0.005, y, "FAIL", va="center", fontsize=14, fontweight="bold")
        return
    ax.barh(y, row.gbps, height=_BAR_HEIGHT, color=_color(row), zorder=2)
    text = f"{row.gbps:,.0f} GB/s"
    if row.pct_memcpy is not None and row.kind != "cpu":
        text += f"  ·  {row.pct_memcpy:.0f}% of memcpy"
    inside = row.gbps > 0.36 * right  # the label starts the bar, clear of the lines near its end
    ax.text(right * 0.012 if inside else row.gbps + right * 0.01, y, text, ha="left", va="center", fontsize=13,
            color="white" if inside else style.INK, zorder=3)


def _draw_ceilings(ax, report: Report) -> None:
    """The memcpy and peak lines, labeled above the first bar (left one leftward, right one rightward)."""
    ceilings = [(report.memcpy_gbps, "memcpy", style.MEMCPY, (0, (6, 3))),
                (report.peak_gbps, "peak", style.PEAK, (0, (1.5, 2)))]
    ceilings = sorted((item for item in ceilings if item[0] > 0), key=lambda item: item[0])
    for index, (value, name, color, dashes) in enumerate(ceilings):
        ax.axvline(value, color=color, linestyle=dashes, linewidth=2.2, zorder=4)
        leftward = index == 0 and len(ceilings) == 2
        offset = -0.008 if leftward else 0.008
        ax.text(value * (1 + offset), -0.75, f"{name}\n{value:,.0f} GB/s", ha="right" if leftward else "left",
                va="center", fontsize=13, color=color, fontweight="bold", linespacing=1.15)


def _set_axes(ax, rows: List[Row], right: float, sweep: bool) -> None:
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([_row_label(row, sweep) for row in rows])
    for tick, row in zip(ax.get_yticklabels(), rows):
        tick.set_color(_color(row, text=True))
    ax.tick_params(axis="y", length=0)
    ax.set_ylim(len(rows) - 0.5, -1.45)
    ax.set_xlim(0, right)
    ax.set_xlabel("GB/s  (bytes moved ÷ median time)")
    ax.grid(axis="x", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.spines["left"].set_visible(False)


def _row_label(row: Row, sweep: bool) -> str:
    label = style.plain(row.label)
    if sweep and row.kind == "kernel" and row.shape.label != "-":
        label += f"\n{style.plain(row.shape.label)}"
    return label
