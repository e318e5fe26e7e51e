"""Chapter 03's diagrams, from `chapter_03_merge --analyze --format json` ("analysis": "merge",
written by analysis_json in chapters/03_merge/analysis.cpp with the functions the kernels run).

Two figures:
  - merge-path: the grid of a small merge (A across, B down), the path the sequential merge walks,
    the cross diagonals of the tiles (solid) and of the threads (dashed), and where merge_path
    finds the path crossing each of them: the cross points that give every thread VT outputs and
    every tile NT x VT;
  - load-balance: the talk's load-balancing search (40 objects, 79 items) as the merge of the
    items with the offsets, cut into tiles (load_balance.py, shared with chapter 08).

Schema (what this module reads; other fields are ignored):
  {"analysis": "merge", "chapter": "03",
   "merge_path": {"a": [...], "b": [...], "nt", "vt", "path": [{"from": "A"|"B", "index", "key"}],
                  "tiles": [{"tile", "first", "last", "a_begin", "a_end", "b_begin", "b_end"}],
                  "threads": [{"thread", "tile", "first", "last", "a_begin", "a_end", "b_begin", "b_end"}]},
   "load_balance": {... load_balance.py's schema}}
"""
import sys

from .. import style
from ..report import ReportError
from . import load_balance, register, require

KIND = "merge"
FIGURES = ("merge-path", "load-balance")

_LATTICE = "#BBBBBB"


def merge_grid(na: int, nb: int, extra_height: float, margin: float, side_width: float):
    """A figure for a merge grid of A (na keys, across) and B (nb keys, down): the grid's axes, with the lattice of
    the (i, j) points drawn, and a side axes of relative width side_width for the legend; returns (fig, ax, side)."""
    fig = style.new_figure(19.0, 0.62 * nb + extra_height)
    grid = fig.add_gridspec(1, 2, width_ratios=[na + margin, side_width])
    ax = fig.add_subplot(grid[0, 0])
    side = fig.add_subplot(grid[0, 1])
    for i in range(na + 1):
        for j in range(nb + 1):
            ax.plot(i, j, marker="o", markersize=3.5, color=_LATTICE, zorder=1)
    return fig, ax, side


def frame_merge_grid(ax, side, na: int, nb: int) -> None:
    """Once the grid of merge_grid is drawn: its limits (the key labels to the left and above, B down), equal scales,
    no axes; the side axes without axes, 0..1 across."""
    ax.set_xlim(-2.0, na + 0.8)
    ax.set_ylim(nb + 0.6, -1.6)
    ax.set_aspect("equal")
    ax.axis("off")
    side.axis("off")
    side.set_xlim(0, 1)
_TILE_LINE = "#444444"
_THREAD_LINE = "#888888"


def _field(mapping, key: str, where: str = "the --analyze document"):
    return require(mapping, key, where, "chapter_03_merge")


def figures(document: dict) -> list:
    """Both diagrams (the document always holds their data)."""
    _field(document, "merge_path")
    _field(document, "load_balance")
    return list(FIGURES)


def default_title(document: dict, figure: str) -> str:
    """The title of each diagram."""
    if figure == "merge-path":
        merge = document.get("merge_path", {})
        nt, vt = merge.get("nt"), merge.get("vt")
        return f"Chapter 03 merge: Merge Path, tiles of {nt} threads × {vt} values"
    lbs = document.get("load_balance", {})
    return (f"Chapter 03 merge: the load-balancing search of {len(lbs.get('counts', []))} objects and"
            f" {lbs.get('items')} items, in tiles")


def draw(document: dict, figure: str, title: str = None, sub: str = None):
    """One of FIGURES."""
    if figure == "merge-path":
        return _merge_path(document, title, sub)
    if figure == "load-balance":
        lbs = _field(document, "load_balance")
        return load_balance.draw(
            lbs, default_title(document, figure) if title is None else title,
            "the slide's counts · merge_path's cuts, as the partition kernel makes them · computed by --analyze"
            if sub is None else sub)
    raise ReportError(f"--figure {figure}: this document draws {', '.join(FIGURES)}")


def _merge_path(document: dict, title: str, sub: str):
    merge = _field(document, "merge_path")
    a, b = _field(merge, "a", "merge_path"), _field(merge, "b", "merge_path")
    nt, vt = _field(merge, "nt", "merge_path"), _field(merge, "vt", "merge_path")
    path = _field(merge, "path", "merge_path")
    tiles, threads = _field(merge, "tiles", "merge_path"), _field(merge, "threads", "merge_path")
    if len(path) != len(a) + len(b):
        raise ReportError(f"merge_path: {len(path)} steps for {len(a)} + {len(b)} keys")
    for cut in tiles + threads:
        for key in ("first", "last", "a_begin", "b_begin"):
            _field(cut, key, "a tile or thread of merge_path")
    na, nb = len(a), len(b)
    fig, ax, side = merge_grid(na, nb, 5.0, 2.5, 9.5)
    # Cross diagonals i + j = d, inside the grid: the tiles' solid, the threads' dashed.
    tile_starts = {cut["first"] for cut in tiles}
    for cut in threads:
        d = cut["first"]
        if d in tile_starts:
            continue
        ax.plot(*_diagonal(d, na, nb), color=_THREAD_LINE, linestyle=(0, (4, 3)), linewidth=1.4, zorder=2)
    for cut in tiles[1:]:
        ax.plot(*_diagonal(cut["first"], na, nb), color=_TILE_LINE, linewidth=2.6, zorder=2)
    # The path, step by step, in the color of the thread that makes that output.
    i = j = 0
    for d, step in enumerate(path):
        ni, nj = (i + 1, j) if step["from"] == "A" else (i, j + 1)
        ax.plot([i, ni], [j, nj], color=load_balance.hue(d // vt), linewidth=6, solid_capstyle="round", zorder=3)
        i, j = ni, nj
    # The cross points: where merge_path finds the path on each thread's diagonal.
    for cut in threads:
        x, y = cut["a_begin"], cut["b_begin"]
        ax.plot(x, y, marker="o", markersize=15, color="white", markeredgecolor=style.INK, markeredgewidth=2,
                zorder=4)
        ax.text(x, y, str(cut["thread"]), ha="center", va="center", fontsize=12, fontweight="bold", zorder=5)
    for k, key in enumerate(a):
        ax.text(k + 0.5, -0.55, str(key), ha="center", va="bottom", fontsize=15, fontweight="bold")
        ax.text(k + 0.5, -1.05, f"A{k}", ha="center", va="bottom", fontsize=11, color=style.MUTED)
    for k, key in enumerate(b):
        ax.text(-0.45, k + 0.5, str(key), ha="right", va="center", fontsize=15, fontweight="bold")
        ax.text(-1.25, k + 0.5, f"B{k}", ha="right", va="center", fontsize=11, color=style.MUTED)
    for cut in tiles[1:]:
        x, y = _diagonal(cut["first"], na, nb)
        ax.text(x[0] + 0.25 * (x[1] - x[0]), y[0] + 0.25 * (y[1] - y[0]), f"tile {cut['tile']} starts",
                ha="center", va="center", fontsize=12, color=_TILE_LINE, rotation=45, rotation_mode="anchor",
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.5}, zorder=3.5)
    frame_merge_grid(ax, side, na, nb)
    side.set_ylim(len(threads) + 1.5, -0.5)
    side.text(0.0, -0.2, "thread (tile): cross point → A range, B range → its outputs", fontsize=12.5,
              fontweight="bold", va="center")
    for row, cut in enumerate(threads):
        outputs = " ".join(str(step["key"]) + ("ᴬ" if step["from"] == "A" else "ᴮ")
                           for step in path[cut["first"]:cut["last"]])
        side.text(0.0, row + 0.8,
                  f"{cut['thread']} ({cut['tile']}): ({cut['a_begin']}, {cut['b_begin']}) → "
                  f"A[{cut['a_begin']}, {cut['a_end']}) B[{cut['b_begin']}, {cut['b_end']}) → {outputs}",
                  fontsize=12.5, va="center")
        side.plot(-0.03, row + 0.8, marker="s", markersize=11, color=load_balance.hue(cut["thread"]),
                  clip_on=False)
    style.caption(fig, [
        "The sequential merge walks from the top-left corner: a step right takes A[i], a step down takes B[j]"
        " (on equal keys A goes first). Output d is step d.",
        f"Thread t owns outputs VT·t … VT·t + {vt - 1}: merge_path finds where the path crosses diagonal"
        f" i + j = VT·t (dashed; circled: t) by a binary search along it,",
        f"without walking the path; solid diagonals cut tiles of NT × VT = {nt * vt} outputs. Path colors:"
        " the thread that merges each output; ᴬ/ᴮ: the array it came from.",
    ])
    style.add_titles(fig, ax, default_title(document, "merge-path") if title is None else title,
                     "merge_path's cross points, as the kernels compute them · computed by --analyze"
                     if sub is None else sub)
    return fig


def _diagonal(d: int, na: int, nb: int):
    """The ends of cross diagonal i + j = d inside the (na + 1) × (nb + 1) grid, as x and y lists."""
    start = (max(0, d - nb), min(d, nb))
    end = (min(d, na), max(0, d - na))
    return [start[0], end[0]], [start[1], end[1]]


register(KIND, sys.modules[__name__])
