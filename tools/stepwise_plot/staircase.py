"""The speedup staircase: each kernel stage's speedup over the first, the library as a line.

One lollipop per stage in table order: a dot at its total speedup on a log axis (equal steps
look equal), on a stem from 1×, the first stage's level; a log axis has no zero for a bar to
stand on, so the dot, not a bar's area, carries the value. Above each dot its total speedup; at
the foot, the step from the stage before (▲ faster, ▼ slower). A stage whose check failed leaves a gap marked FAIL, and its check's words go under the figure.
"""
import math
from typing import List

from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

from . import style
from .report import Report, ReportError, Row

_CLEAR = {"facecolor": "white", "edgecolor": "none", "pad": 1.0, "alpha": 0.85}  # keeps a label over a line legible
_OPAQUE = {"facecolor": "white", "edgecolor": "none", "pad": 1.0}  # a stage's label: a library line passes behind it
_COINCIDENT = 0.015  # library lines closer than this share of the axis (in log) are drawn with one label
_MANTISSAS = ((1, 2, 5), (1, 1.5, 2, 3, 5, 7), (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8),
              (1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.8, 2, 2.5, 3, 4, 5, 6, 8))


def draw(report: Report, title: str = None, sub: str = None):
    """The staircase figure of one report."""
    kernels = report.kernels()
    timed = [row for row in kernels if not row.failed]
    if not timed:
        raise ReportError(f"{report.source}: no kernel stage passed its check: there is no staircase to draw")
    libraries = [row for row in report.libraries() if not row.failed]
    speedups = {id(row): _total(row, timed[0]) for row in timed + libraries}
    low, high = _limits(speedups.values())
    fig = style.new_figure(max(12.0, 1.5 + 1.05 * len(kernels)), 6.75)
    ax = fig.add_subplot()
    ax.set_yscale("log")
    for x, row in enumerate(kernels):
        if row.failed:
            _draw_failed(ax, x, low)
        else:
            _draw_lollipop(ax, x, row, speedups[id(row)], low)
    for group, y in _spread(_coincident([(row, speedups[id(row)]) for row in libraries], low, high), low, high):
        _draw_library(ax, group, y)
    _set_axes(ax, kernels, (low, high), timed[0], report.sweep)
    ax.axhline(1.0, color=style.MUTED, linewidth=1.0, zorder=1)
    key = ["at the foot of each stage: ▲ the step from the stage before (▼ a step back)"] if len(timed) > 1 else []
    style.caption(fig, key, report.stages())
    style.add_titles(fig, ax, default_title(report) if title is None else title,
                     style.subtitle(report) if sub is None else sub)
    return fig


def default_title(report: Report) -> str:
    """`Chapter 01 reduction: speedup of each stage`."""
    return f"Chapter {style.plain(report.chapter)}: speedup of each stage"


def _total(row: Row, first: Row) -> float:
    """The row's total speedup as the report states it (the first passing kernel is 1x)."""
    if row.total_speedup is not None:
        return row.total_speedup
    return first.median_ms / row.median_ms


def _limits(values) -> tuple:
    """Log-axis limits: room under the lowest stage for the step labels, and above the highest for its label."""
    values = list(values) + [1.0]
    span = math.log(max(values) / min(values))
    below = max(0.3 * span, math.log(1.6))
    above = max(0.2 * span, math.log(1.35))
    return min(values) / math.exp(below), max(values) * math.exp(above)


def times(value: float) -> str:
    """A speedup with three significant digits: 0.68×, 1.61×, 10.4×, 104×."""
    digits = 2 if value < 10 else (1 if value < 100 else 0)
    return f"{value:.{digits}f}×"


def _draw_lollipop(ax, x: int, row: Row, total: float, low: float) -> None:
    ax.vlines(x, min(1.0, total), max(1.0, total), color=style.STAGE, linewidth=3.0, zorder=2)
    ax.plot([x], [total], marker="o", markersize=13, color=style.STAGE, zorder=3)
    # The label sits a fixed distance above the dot, in points: an offset in data units shrinks on a tall log
    # axis until the label covers the dot.
    ax.annotate(times(total), (x, total), xytext=(0, 12), textcoords="offset points", ha="center", va="bottom",
                fontsize=14, fontweight="bold", zorder=5, bbox=_OPAQUE)
    if row.step_speedup is not None:
        arrow = "▲" if row.step_speedup >= 1 else "▼"
        ax.text(x, low * 1.12, arrow + times(row.step_speedup), ha="center", va="bottom", fontsize=13,
                color=style.INK, zorder=3)


def _draw_failed(ax, x: int, low: float) -> None:
    ax.text(x, low * 1.12, "FAIL", ha="center", va="bottom", fontsize=14, fontweight="bold")


def _coincident(items: List[tuple], low: float, high: float) -> List[List[tuple]]:
    """The (row, speedup) of the libraries in groups whose lines would lie on top of each other at the figure's
    scale (closer than _COINCIDENT of the log axis), in ascending order: each group is drawn with one label."""
    close = (high / low) ** _COINCIDENT
    groups: List[List[tuple]] = []
    for item in sorted(items, key=lambda item: item[1]):
        if groups and item[1] <= groups[-1][0][1] * close:
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups


def _spread(groups: List[List[tuple]], low: float, high: float) -> List[tuple]:
    """Label heights for the groups of library lines (above the highest line of each), pushed apart where two
    would overlap."""
    gap = (high / low) ** 0.08
    placed = []
    for group in groups:
        value = max(speedup for _, speedup in group)
        y = value if not placed else max(value, placed[-1][1] * gap)
        placed.append((group, y))
    return placed


def _library_label(group: List[tuple]) -> str:
    """`cuSPARSE ALG1  12.7×`, or for coincident lines one name and the part each adds:
    `cusparseSpMV CSR_ALG1 12.7× · CSR_ALG2 12.5×` (the fastest first)."""
    ordered = sorted(group, key=lambda item: -item[1])
    names = [style.plain(row.name) for row, _ in ordered]
    if len(names) == 1:
        return f"{names[0]}  {times(ordered[0][1])}"
    words = [name.split(" ") for name in names]
    shared = 0
    while all(len(w) > shared + 1 and w[shared] == words[0][shared] for w in words):
        shared += 1
    parts = [f"{' '.join(w[shared:] if k else w)} {times(value)}" for k, (w, (_, value)) in
             enumerate(zip(words, ordered))]
    return "  ·  ".join(parts)


def _draw_library(ax, group: List[tuple], label_y: float) -> None:
    """The libraries' speedups as dashed lines across the stages, named at their left end (one label for
    lines that coincide)."""
    for _, total in group:
        ax.axhline(total, color=style.LIBRARY, linestyle=(0, (6, 3)), linewidth=2.5, zorder=4)
    ax.text(-0.5, label_y * 1.04, _library_label(group), ha="left", va="bottom",
            color=style.LIBRARY, fontsize=14, fontweight="bold", zorder=6, bbox=_CLEAR)


def _set_axes(ax, kernels: List[Row], limits: tuple, first: Row, sweep: bool) -> None:
    labels = [_stage_label(row, sweep) for row in kernels]
    ax.set_xticks(range(len(kernels)))
    ax.set_xticklabels(labels, **_tick_style(labels))
    ax.tick_params(axis="x", length=0)
    ax.set_xlim(-0.6, len(kernels) - 0.4)
    ax.set_ylim(*limits)
    ax.yaxis.set_major_locator(FixedLocator(log_ticks(*limits)))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}×"))
    ax.set_ylabel(f"speedup over stage {first.number} (log scale)")
    ax.grid(axis="y", color="#dddddd", linewidth=0.8, zorder=0)
    ax.set_axisbelow(True)


def _stage_label(row: Row, sweep: bool) -> str:
    label = f"{row.number} {style.plain(row.name)}"
    return f"{label}\n{style.plain(row.shape.label)}" if sweep and row.shape.label != "-" else label


def _tick_style(labels: List[str]) -> dict:
    """Slanted tick labels when the names would not fit side by side."""
    if sum(len(label.split("\n")[0]) for label in labels) > 70:
        return {"rotation": 30, "ha": "right", "rotation_mode": "anchor"}
    return {}


def log_ticks(low: float, high: float) -> List[float]:
    """Round speedups between the limits: the coarsest of _MANTISSAS that gives at least four."""
    for mantissas in _MANTISSAS:
        ticks = [round(m * 10.0 ** e, 6) for e in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1)
                 for m in mantissas]
        ticks = [tick for tick in ticks if low <= tick <= high]
        if len(ticks) >= 4:
            break
    if len(ticks) > 9:
        ticks = [tick for tick in ticks if abs(math.log10(tick) - round(math.log10(tick))) < 1e-9]
    return ticks
