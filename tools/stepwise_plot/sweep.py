"""The launch-shape sweep of a stage: every shape `--sweep` tried, colored by its GB/s (or time).

The axes come from the shape fields that vary: threads per block down the side and blocks per
SM (grid-stride stages) or items per thread (NT x VT tiles) across, a bar chart when only one
field varies. Each cell shows its value; a shape that failed its check is hatched, the fastest
shape of the sweep (the one a --sweep run reports as the stage's row; the chapter's own tables
run each stage at its default shape) is outlined.
"""
import math
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize
from matplotlib.patches import Rectangle

from . import style
from .report import SHAPE_FIELDS, Report, ReportError, Row, SweepPoint

FIELD_NAMES = {"threads": "threads per block", "items": "items per thread", "blocks_per_sm": "blocks per SM"}
# A stage whose shape field means something else than FIELD_NAMES says: (chapter id, stage name) -> names.
STAGE_FIELD_NAMES = {("04", "vector"): {"items": "lanes per row"}}


def field_name(report: Report, row: Row, field: str) -> str:
    """What @p field of @p row's shapes means: FIELD_NAMES, or the stage's own name for it."""
    return STAGE_FIELD_NAMES.get((report.chapter_id, row.name), {}).get(field, FIELD_NAMES[field])


@dataclass(frozen=True)
class Layout:
    """How a sweep is drawn: a heat map (`rows` down, `columns` across) or bars along `columns`."""

    kind: str
    rows: Optional[str]
    columns: Tuple[str, ...]


def choose_layout(points: List[SweepPoint]) -> Layout:
    """The first varying shape field down the side, the others across; bars when one or none varies."""
    varying = [name for name in SHAPE_FIELDS if len({point.shape.value(name) for point in points}) > 1]
    if len(varying) >= 2:
        return Layout("heatmap", varying[0], tuple(varying[1:]))
    return Layout("bars", None, tuple(varying))


class Metric:
    """What colors the cells: GB/s (higher is better) or median time (lower is better)."""

    def __init__(self, name: str):
        self.name = name
        self.label = "GB/s" if name == "gbps" else "median time (ms)"
        self.colormap = style.HEATMAP if name == "gbps" else style.HEATMAP + "_r"

    def value(self, point: SweepPoint) -> Optional[float]:
        """The point's value, None when it failed."""
        if point.failed:
            return None
        return point.gbps if self.name == "gbps" else point.median_ms

    def text(self, value: float) -> str:
        """A cell's annotation: whole GB/s, or three significant digits of milliseconds."""
        return f"{value:.0f}" if self.name == "gbps" else f"{value:.3g}"


def find_stage(report: Report, stage: str) -> Row:
    """The kernel row named by number or name that holds sweep points."""
    if stage.strip().isdigit():
        matches = [row for row in report.rows if row.kind == "kernel" and not row.is_variant and row.number == int(stage)]
    else:
        matches = [row for row in report.rows if row.name == stage and not row.is_variant]
    if not matches:
        known = ", ".join(row.label for row in report.kernels())
        raise ReportError(f"{report.source}: no stage '{stage}' (stages: {known})")
    for row in matches:
        if row.sweep:
            return row
    raise ReportError(f"{report.source}: stage {matches[0].label} has no sweep points: {_sweep_advice(report)}")


def swept_stages(report: Report) -> List[Row]:
    """The kernel stages, one per number, that hold sweep points."""
    rows = [row for row in report.kernels() if row.sweep]
    if not rows:
        advice = "no stage lists launch shapes to try" if report.sweep else _sweep_advice(report)
        raise ReportError(f"{report.source}: no stage has sweep points: {advice}")
    return rows


def _sweep_advice(report: Report) -> str:
    if report.sweep:
        return "this stage lists no launch shapes to try"
    return "run the chapter with --sweep --format json"


def draw(report: Report, stage: Optional[str], every: bool, metric: str = "gbps", title: str = None,
         sub: str = None):
    """One stage's sweep (`stage`), or small multiples of every swept stage (`every`)."""
    rows = swept_stages(report) if every else [find_stage(report, stage)]
    measure = Metric(metric)
    norm = _norm([point for row in rows for point in row.sweep], measure)
    layouts = [choose_layout(row.sweep) for row in rows]
    fig, axes = _panels(rows, layouts, every)
    for ax, row, layout in zip(axes, rows, layouts):
        draw_panel(ax, row, layout, measure, norm, every, lambda field, row=row: field_name(report, row, field))
    if any(layout.kind == "heatmap" for layout in layouts):
        heat = [ax for ax, layout in zip(axes, layouts) if layout.kind == "heatmap"]
        fig.colorbar(ScalarMappable(norm, measure.colormap), ax=heat, label=measure.label,
                     shrink=0.9 if len(heat) == 1 else 0.5, aspect=25)
    _key(fig, rows, layouts)
    subtitle = style.subtitle(report, sweep_note=False) if sub is None else sub
    _titles(fig, axes[0], default_title(report, stage, rows[0]) if title is None else title, subtitle, every)
    return fig


def default_title(report: Report, stage: Optional[str], row: Row = None) -> str:
    """`Chapter 00 bandwidth: sweep of stage 2 grid-stride` (or `... launch-shape sweep` for --all)."""
    if stage is None:
        return f"Chapter {style.plain(report.chapter)}: launch-shape sweep of every stage"
    row = row or find_stage(report, stage)
    return f"Chapter {style.plain(report.chapter)}: sweep of stage {style.plain(row.label)}"


def _titles(fig, ax, title: str, subtitle: str, every: bool) -> None:
    if every:
        fig.suptitle("\n".join(text for text in (title, subtitle) if text))
    else:
        style.add_titles(fig, ax, title, subtitle)


def _norm(points: List[SweepPoint], measure: Metric) -> Normalize:
    values = [value for value in map(measure.value, points) if value is not None]
    if not values:
        return Normalize(0.0, 1.0)
    low, high = min(values), max(values)
    pad = 0.0 if high > low else max(abs(high) * 0.05, 1e-9)
    return Normalize(low - pad, high + pad)


def _panels(rows: List[Row], layouts: List[Layout], every: bool):
    """The figure and one axes per stage: 2 columns of small multiples for --all."""
    columns = 2 if every and len(rows) > 1 else 1
    lines = math.ceil(len(rows) / columns)
    height = max(_panel_height(row, layout) for row, layout in zip(rows, layouts))
    width = max(_panel_width(row, layout) for row, layout in zip(rows, layouts))
    figure_width = columns * max(8.5, width) if columns == 2 else max(12.0, width + 2.0)
    fig = style.new_figure(figure_width, height * lines + (1.6 if every else 1.2))
    grid = fig.subplots(lines, columns, squeeze=False)
    axes = [ax for line in grid for ax in line]
    for unused in axes[len(rows):]:
        unused.remove()
    return fig, axes[: len(rows)]


def _panel_height(row: Row, layout: Layout) -> float:
    """Inches for one panel: 3/4 inch per heat-map row, so that the values fit in the cells."""
    if layout.kind == "bars":
        return 4.6
    return 2.2 + 0.75 * len({point.shape.value(layout.rows) for point in row.sweep})


def _panel_width(row: Row, layout: Layout) -> float:
    """Inches for one panel: 0.9 inch per cell or bar across."""
    return 1.6 + 0.9 * len({_column_key(point, layout) for point in row.sweep})


def draw_panel(ax, row: Row, layout: Layout, measure: Metric, norm: Normalize, small: bool, names=None) -> None:
    """One stage's sweep into one axes, as its layout says; @p names(field) names a shape field's axis
    (FIELD_NAMES by default)."""
    names = names or FIELD_NAMES.get
    best = _best(row.sweep)
    if layout.kind == "heatmap":
        _heatmap(ax, row.sweep, layout, measure, norm, best, 12 if small else 14, names)
    else:
        _bars(ax, row.sweep, layout, measure, best, 12 if small else 14, names)
    if small:
        ax.set_title(style.plain(row.label), fontsize=15, fontweight="bold", loc="left")


def _best(points: List[SweepPoint]) -> Optional[SweepPoint]:
    passed = [point for point in points if not point.failed]
    return min(passed, key=lambda point: point.median_ms) if passed else None


def _column_key(point: SweepPoint, layout: Layout) -> tuple:
    return tuple(point.shape.value(name) for name in layout.columns)


def _column_label(key: tuple, layout: Layout, points: List[SweepPoint]) -> str:
    if not layout.columns:
        return style.plain(points[0].shape.label)
    return " / ".join(str(value) for value in key)


def _axis_name(fields: Tuple[str, ...], names) -> str:
    return " / ".join(names(name) for name in fields)


def _heatmap(ax, points, layout: Layout, measure: Metric, norm: Normalize, best, fontsize: int, names) -> None:
    down = sorted({point.shape.value(layout.rows) for point in points})
    across = sorted({_column_key(point, layout) for point in points})
    cells: Dict[tuple, SweepPoint] = {}
    for point in points:
        cells.setdefault((point.shape.value(layout.rows), _column_key(point, layout)), point)
    colormap = ScalarMappable(norm, measure.colormap)
    for y, row_value in enumerate(down):
        for x, column in enumerate(across):
            point = cells.get((row_value, column))
            if point is not None:
                _cell(ax, x, y, point, measure, colormap, fontsize, point is best)
    ax.set_xticks(range(len(across)))
    ax.set_xticklabels([_column_label(key, layout, points) for key in across])
    ax.set_yticks(range(len(down)))
    ax.set_yticklabels([str(value) for value in down])
    ax.set_xlim(-0.5, len(across) - 0.5)
    ax.set_ylim(-0.5, len(down) - 0.5)
    ax.set_xlabel(_axis_name(layout.columns, names))
    ax.set_ylabel(names(layout.rows))
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)


def _cell(ax, x: int, y: int, point: SweepPoint, measure: Metric, colormap, fontsize: int, best: bool) -> None:
    value = measure.value(point)
    if value is None:
        ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor="white", edgecolor=style.MUTED, hatch="///",
                               linewidth=0.0))
        ax.text(x, y, "FAIL", ha="center", va="center", fontsize=fontsize, fontweight="bold",
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.5})
        return
    color = colormap.to_rgba(value)
    ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor=color, edgecolor="white", linewidth=1.5))
    ax.text(x, y, measure.text(value), ha="center", va="center", fontsize=fontsize,
            color=_ink_on(color), fontweight="bold" if best else "normal")
    if best:
        ax.add_patch(Rectangle((x - 0.46, y - 0.46), 0.92, 0.92, fill=False, edgecolor="black", linewidth=3.5,
                               zorder=5))


def _ink_on(rgba) -> str:
    """Black or white, whichever contrasts more with the cell (WCAG relative luminance)."""
    linear = [channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4 for channel in rgba[:3]]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return "black" if (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) else "white"


def _bars(ax, points, layout: Layout, measure: Metric, best, fontsize: int, names) -> None:
    ordered = sorted(points, key=lambda point: _column_key(point, layout))
    values = [measure.value(point) for point in ordered]
    top = max((value for value in values if value is not None), default=1.0)
    for x, (point, value) in enumerate(zip(ordered, values)):
        if value is None:
            ax.bar(x, top * 0.18, width=0.7, fill=False, hatch="///", edgecolor=style.MUTED, linewidth=1.2)
            ax.text(x, top * 0.2, "FAIL", ha="center", va="bottom", fontsize=fontsize, fontweight="bold")
            continue
        ax.bar(x, value, width=0.7, color=style.STAGE, edgecolor="black" if point is best else style.STAGE,
               linewidth=3.5 if point is best else 0.0)
        ax.text(x, value + top * 0.02, measure.text(value), ha="center", va="bottom", fontsize=fontsize,
                fontweight="bold" if point is best else "normal")
    ax.set_xticks(range(len(ordered)))
    ax.set_xticklabels([_column_label(_column_key(point, layout), layout, [point]) for point in ordered])
    ax.set_xlim(-0.6, len(ordered) - 0.4)
    ax.set_ylim(0, top * 1.15)
    ax.set_xlabel(_axis_name(layout.columns, names) if layout.columns else "launch shape")
    ax.set_ylabel(measure.label)
    ax.tick_params(axis="x", length=0)
    ax.grid(axis="y", color="#e3e3e3", linewidth=0.8)
    ax.set_axisbelow(True)


def _key(fig, rows: List[Row], layouts: List[Layout]) -> None:
    """Under the figure: what the outline, the hatching and an empty cell mean (only those present)."""
    parts = ["black outline: the fastest shape of this sweep (the tables run each stage at its default shape)"]
    if any(point.failed for row in rows for point in row.sweep):
        parts.append("hatched: failed its check")
    if any(_has_holes(row, layout) for row, layout in zip(rows, layouts)):
        parts.append("empty: not tried")
    style.caption(fig, ["    ·    ".join(parts)])


def _has_holes(row: Row, layout: Layout) -> bool:
    if layout.kind != "heatmap":
        return False
    down = {point.shape.value(layout.rows) for point in row.sweep}
    across = {_column_key(point, layout) for point in row.sweep}
    cells = {(point.shape.value(layout.rows), _column_key(point, layout)) for point in row.sweep}
    return len(cells) < len(down) * len(across)
