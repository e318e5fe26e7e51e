"""Chapter 07's diagram, from `chapter_07_divergence --analyze --format json` ("analysis": "divergence-remap").

One figure, remap: Zhang et al.'s path-vector example remapped by the chapter's own order
(order_by_path, stable by path, what stage 3's sort returns), in three panels:
  - before: thread t on element t; each warp runs every path its lanes hold;
  - reference redirection (stage 3): thread t reads and writes element IND[t] where it lies;
  - data transformation (stage 4): the elements are gathered into path order, thread t works on
    position t, and the results are scattered back.
Each element shows A[tid], its path vector <A % 2, A < 10> and its color (its path); under each
warp, the number of paths it runs.
"""
import sys
from typing import List

from matplotlib.patches import ConnectionPatch, Rectangle

from .. import style
from ..report import ReportError
from . import register, require

KIND = "divergence-remap"
FIGURES = ("remap",)

_PATH_COLORS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#F0E442", "#0072B2", "#D55E00", "#999999")
_GAP = 0.5  # between warps, in cell widths


def figures(document: dict) -> List[str]:
    """The diagram this document draws."""
    _require(document, "pvector_example")
    return list(FIGURES)


def default_title(document: dict, figure: str) -> str:
    """The title of the diagram."""
    return "Chapter 07 divergence: thread-data remapping of the paper's path-vector example"


def draw(document: dict, figure: str, title: str = None, sub: str = None):
    """One of FIGURES."""
    if figure == "remap":
        return _remap(document, title, sub)
    raise ReportError(f"--figure {figure}: this document draws {', '.join(FIGURES)}")


def _require(mapping, key: str, where: str = "the --analyze document"):
    return require(mapping, key, where, "chapter_07_divergence")


def _mix(color: str, amount: float) -> str:
    """@p color blended with white: amount 0 is white, 1 the color itself."""
    rgb = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(255 - (255 - c) * amount) for c in rgb]
    return "#" + "".join(f"{c:02X}" for c in mixed)


def _x(t: int, width: int) -> float:
    """The left edge of thread (or position) t's cell: warps apart by a gap."""
    return t + (t // width) * _GAP


def _element(ax, x: float, y: float, value: int, pvector: list, path: int, label: str = None) -> None:
    ax.add_patch(Rectangle((x, y), 1, 1.3, facecolor=_mix(_PATH_COLORS[path % len(_PATH_COLORS)], 0.6),
                           edgecolor="white", linewidth=1.5))
    ax.text(x + 0.5, y + 0.45, str(value), ha="center", va="center", fontsize=15, fontweight="bold")
    ax.text(x + 0.5, y + 0.98, f"<{pvector[0]},{pvector[1]}>", ha="center", va="center", fontsize=11,
            color=style.INK)
    if label is not None:
        ax.text(x + 0.5, y - 0.12, label, ha="center", va="bottom", fontsize=11, color=style.MUTED)


def _warp_notes(ax, y: float, counts: List[int], width: int) -> None:
    for w, count in enumerate(counts):
        left = _x(w * width, width)
        color = "#B03A00" if count > 1 else "#1B6E20"
        words = "1 path" if count == 1 else f"{count} paths: divergent"
        ax.text(left + width / 2, y, f"warp {w}: {words}", ha="center", va="top", fontsize=12, color=color,
                fontweight="bold" if count > 1 else "normal", zorder=3,
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.5})


def _remap(document: dict, title: str, sub: str):
    example = _require(document, "pvector_example")
    for key in ("warp_width", "values", "pvectors", "paths", "order", "paths_per_warp_before",
                "paths_per_warp_after", "conditions"):
        _require(example, key, "pvector_example")
    width = example["warp_width"]
    values = example["values"]
    pvectors = example["pvectors"]
    paths = example["paths"]
    order = example["order"]
    n = len(values)
    if not (len(pvectors) == len(paths) == len(order) == n) or sorted(order) != list(range(n)) or width < 1:
        raise ReportError("pvector_example: its values, path vectors, paths and order do not describe one remap")
    span = _x(n - 1, width) + 1
    fig = style.new_figure(18.0, 13.5)
    ax = fig.add_subplot()
    # Panel 1: thread t on element t.
    y1 = 0.0
    ax.text(-0.3, y1 - 0.75, "1. Thread t on element t (stages 1 and 2)", ha="left", va="bottom", fontsize=15,
            fontweight="bold")
    for t in range(n):
        _element(ax, _x(t, width), y1, values[t], pvectors[t], paths[t], f"t{t}")
    _warp_notes(ax, y1 + 1.5, example["paths_per_warp_before"], width)
    # Panel 2: reference redirection: threads above, the data where it lies below, a line per pair.
    y2 = 3.6
    ax.text(-0.3, y2 - 0.75, "2. Reference redirection (stage 3): thread t works on element IND[t], where it lies",
            ha="left", va="bottom", fontsize=15, fontweight="bold")
    for t in range(n):
        i = order[t]
        ax.add_patch(Rectangle((_x(t, width), y2), 1, 0.8, facecolor=_mix(_PATH_COLORS[paths[i] % 8], 0.6),
                               edgecolor="white", linewidth=1.5))
        ax.text(_x(t, width) + 0.5, y2 + 0.4, f"t{t}→{i}", ha="center", va="center", fontsize=11)
    _warp_notes(ax, y2 + 0.95, example["paths_per_warp_after"], width)
    y_data = y2 + 2.6
    for i in range(n):
        _element(ax, _x(i, width), y_data, values[i], pvectors[i], paths[i], f"A[{i}]")
    for t in range(n):
        i = order[t]
        line = ConnectionPatch((_x(t, width) + 0.5, y2 + 0.8), (_x(i, width) + 0.5, y_data - 0.35), "data",
                               "data", color=_PATH_COLORS[paths[i] % 8], linewidth=1.6, alpha=0.9, zorder=1)
        ax.add_artist(line)
    # Panel 3: data transformation: the elements moved into path order, thread t on position t.
    y3 = y_data + 3.2
    ax.text(-0.3, y3 - 0.75, "3. Data transformation (stage 4): gather A'[t] = A[IND[t]], work on A'[t],"
            " scatter back", ha="left", va="bottom", fontsize=15, fontweight="bold")
    for t in range(n):
        i = order[t]
        _element(ax, _x(t, width), y3, values[i], pvectors[i], paths[i], f"t{t}")
    _warp_notes(ax, y3 + 1.5, example["paths_per_warp_after"], width)
    ax.set_xlim(-0.4, span + 0.3)
    ax.set_ylim(y3 + 2.3, y1 - 1.1)
    ax.axis("off")
    conditions = example["conditions"]
    names = "   ".join(f"<{p >> 1},{p & 1}>" for p in sorted(set(paths)))
    style.caption(fig, [
        f"Each element: A[tid] and its path vector <{conditions[0]}, {conditions[1]}>; color: the path"
        f" ({names}). IND is the elements stably sorted by path (the chapter's order_by_path).",
        f"Warps are drawn {width} lanes wide, as the paper's slides draw them (the chapter's are 32). After the remap"
        " only warps across a boundary between paths still diverge.",
    ])
    style.add_titles(fig, ax, default_title(document, "remap") if title is None else title,
                     "values of the paper's table first (2, 11, 14), then chosen to hold every path vector · computed"
                     " by --analyze" if sub is None else sub)
    return fig


register(KIND, sys.modules[__name__])
