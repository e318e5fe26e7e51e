"""The speedup surface of a chapter's `--surface` run (chapter 05): one heat map per operation,
the stages down the side, keys per warp across, each cell colored by its speedup over stage 1
(naive) of the same cell, with the value written in it. A point that failed its check is hatched.

The colors are a diverging scale on log(speedup), white at 1x, blue faster, red slower, the same
color for 2x faster as for 2x slower; the scale (and its color bar) covers only the range the
surface spans, from its slowest cell (or 0.8x) to its fastest (or 1.25x), so that a surface that is
nowhere slower than stage 1 does not leave half of the bar unused. The color bar's label says the
range.
"""
import math
from typing import Dict, List, Tuple

import matplotlib
from matplotlib.cm import ScalarMappable
from matplotlib.colors import ListedColormap, LogNorm
from matplotlib.patches import Rectangle
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

from . import style
from .report import ReportError

COLORMAP = "RdBu"  # red below 1x, white at 1x, blue above


def check(document: dict, source: str) -> List[dict]:
    """The surface's points, after checking that the document is a --surface report."""
    if not isinstance(document, dict) or document.get("kind") != "surface":
        raise ReportError(f"{source}: not a --surface report (run the chapter with --surface --format json)")
    points = document.get("points")
    if not isinstance(points, list) or not points:
        raise ReportError(f"{source}: the surface has no points")
    for point in points:
        for key in ("op", "keys_per_warp", "number", "stage", "check"):
            if key not in point:
                raise ReportError(f"{source}: a point has no '{key}'")
    return points


def _ordered(values):
    seen = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


def _label(point: dict) -> str:
    number = point["number"]
    return f"{number if number else 'lib'} {point['stage']}"


_LOW, _HIGH = 0.8, 1.25  # the scale covers at least these, so that 1x is inside it


def scale(points: List[dict]) -> Tuple[LogNorm, ListedColormap, float]:
    """The norm and colormap of the surface's cells, and the reach (in decades) of the side of 1x that goes
    further: RdBu at 0.5 + 0.5 log10(speedup) / reach, white at 1x, cut to the speedups there are."""
    speedups = [point["speedup"] for point in points if point.get("speedup")]
    low = min(speedups + [_LOW])
    high = max(speedups + [_HIGH])
    reach = max(abs(math.log10(low)), abs(math.log10(high)))
    base = matplotlib.colormaps[COLORMAP]
    first, last = math.log10(low), math.log10(high)
    samples = [10 ** (first + (last - first) * k / 255) for k in range(256)]
    cut = ListedColormap([base(0.5 + 0.5 * math.log10(value) / reach) for value in samples], name="RdBu_cut")
    return LogNorm(low, high), cut, reach


def _text(value: float) -> str:
    return f"{value:.0f}×" if value >= 10 else f"{value:.2g}×" if value >= 1 else f"{value:.2f}×"


def draw(document: dict, source: str, title: str = None, sub: str = None):
    """One heat map per operation, side by side, sharing one color scale."""
    points = check(document, source)
    ops = _ordered(point["op"] for point in points)
    keys = sorted({point["keys_per_warp"] for point in points})
    norm, colormap, reach = scale(points)
    colors = ScalarMappable(norm, colormap)
    stages_per_op = {op: _ordered((point["number"], point["stage"]) for point in points if point["op"] == op) for op in ops}
    tallest = max(len(stages) for stages in stages_per_op.values())
    fig = style.new_figure(1.2 + 5.2 * len(ops), 2.6 + 0.62 * tallest)
    axes = fig.subplots(1, len(ops), squeeze=False)[0]
    for ax, op in zip(axes, ops):
        stages = stages_per_op[op]
        cells: Dict[Tuple[int, str, int], dict] = {}
        for point in points:
            if point["op"] == op:
                cells[(point["number"], point["stage"], point["keys_per_warp"])] = point
        for y, (number, name) in enumerate(stages):
            for x, per_warp in enumerate(keys):
                point = cells.get((number, name, per_warp))
                if point is None:
                    continue
                if point["check"] != "PASS" or not point.get("speedup"):
                    ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor="white", edgecolor=style.MUTED,
                                           hatch="///", linewidth=0.0))
                    ax.text(x, y, "FAIL", ha="center", va="center", fontsize=11, fontweight="bold")
                    continue
                color = colors.to_rgba(point["speedup"])
                ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor=color, edgecolor="white", linewidth=1.5))
                ink = "white" if abs(math.log10(point["speedup"])) > 0.6 * reach else "black"
                ax.text(x, y, _text(point["speedup"]), ha="center", va="center", fontsize=11, color=ink)
        ax.set_xticks(range(len(keys)))
        ax.set_xticklabels([str(value) for value in keys])
        ax.set_yticks(range(len(stages)))
        ax.set_yticklabels([style.plain(_label({"number": number, "stage": name})) for number, name in stages])
        ax.set_xlim(-0.5, len(keys) - 0.5)
        ax.set_ylim(len(stages) - 0.5, -0.5)
        ax.set_xlabel("distinct keys per warp")
        ax.set_title(style.plain(op), fontsize=15, fontweight="bold", loc="left")
        ax.tick_params(length=0)
        for side in ax.spines.values():
            side.set_visible(False)
    bar = fig.colorbar(colors, ax=list(axes), shrink=0.9, aspect=25, label="speedup over naive (log scale)")
    ticks = [value for value in (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
             if norm.vmin <= value <= norm.vmax]
    bar.ax.yaxis.set_major_locator(FixedLocator(ticks))
    bar.ax.yaxis.set_minor_locator(NullLocator())
    bar.ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}×"))
    subtitle = _subtitle(document) if sub is None else sub
    fig.suptitle("\n".join(text for text in ((title or default_title(document)), subtitle) if text))
    style.caption(fig, [_placement(document),
                        "Each cell: stage 1's median time over the stage's.",
                        f"Color: log scale over the surface's range, {_text(norm.vmin)} to {_text(norm.vmax)};"
                        " white: 1×, blue faster, red slower."])
    return fig


def _placement(document: dict) -> str:
    """The caption's first line: how a warp's d keys lie on the bins, as the surface's own note says."""
    notes = " ".join(str(note) for note in document.get("notes", []))
    if "random bins" in notes:
        return "keys per warp d: each warp's 32 keys are d runs of 32/d equal keys, on d distinct random bins."
    return "keys per warp d: each warp's 32 keys are d runs of 32/d equal keys, on bins K/d apart."


def _subtitle(document: dict) -> str:
    device = document.get("device", {}).get("name", "")
    parts = [style.plain(device), f"n = {style.n_text(int(document.get('n', 0)))} keys",
             f"{document.get('bins', '?')} bins"]
    if document.get("flush") == "none":
        parts.append("L2 warm")
    if document.get("date"):
        parts.append(document["date"])
    return "  ·  ".join(parts)


def default_title(document: dict) -> str:
    """`Chapter 05 atomics: speedup over naive by keys per warp`."""
    return f"Chapter {style.plain(document.get('chapter', ''))}: speedup over naive by keys per warp"
