"""The speedup surface of a chapter's `--surface` run (chapter 05): one heat map per operation,
the stages down the side, keys per warp across, each cell colored by its speedup over stage 1
(naive) of the same cell on a log scale centered on 1x (blue faster, red slower), with the
value written in it. A point that failed its check is hatched.
"""
import math
from typing import Dict, List, Tuple

from matplotlib.cm import ScalarMappable
from matplotlib.colors import LogNorm
from matplotlib.patches import Rectangle

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


def _norm(points: List[dict]) -> LogNorm:
    speedups = [point["speedup"] for point in points if point.get("speedup")]
    reach = max([abs(math.log10(value)) for value in speedups] + [math.log10(2.0)])
    return LogNorm(10 ** -reach, 10 ** reach)


def _text(value: float) -> str:
    return f"{value:.0f}×" if value >= 10 else f"{value:.2g}×" if value >= 1 else f"{value:.2f}×"


def draw(document: dict, source: str, title: str = None, sub: str = None):
    """One heat map per operation, side by side, sharing one color scale."""
    points = check(document, source)
    ops = _ordered(point["op"] for point in points)
    keys = sorted({point["keys_per_warp"] for point in points})
    norm = _norm(points)
    colors = ScalarMappable(norm, COLORMAP)
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
                ink = "white" if abs(math.log10(point["speedup"])) > 0.6 * math.log10(norm.vmax) else "black"
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
    fig.colorbar(colors, ax=list(axes), label="speedup over naive", shrink=0.9, aspect=25)
    subtitle = _subtitle(document) if sub is None else sub
    fig.suptitle("\n".join(text for text in ((title or default_title(document)), subtitle) if text))
    style.caption(fig, ["keys per warp d: runs of 32/d equal keys; each cell: stage 1's median time over the stage's"])
    return fig


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
