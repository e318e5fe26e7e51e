"""Chapter 04's diagram, from `chapter_04_spmv --analyze --format json` ("analysis": "spmv-merge").

One figure, `merge`: the merge-based SpMV of stages 4 and 5 on a small matrix, as the chapter computed it with
the kernels' own search (common/algorithm/merge_path.hpp):
  - top, the Merge Path grid: the nonzero indices 0 .. nnz - 1 across, the row ends down the side; the path takes
    one step right per nonzero (its product joins the row's running sum) and one step down per row end (y[r] is
    stored). The cross diagonals every VT items are the threads' starts, every NT x VT items the tiles'; the path
    is colored by the thread that walks it;
  - bottom, the same items thread by thread, and where each thread's last partial sum goes: to a row that ends
    later in its tile (added in shared memory), or to its tile's carry (added to y by the fix-up kernel).
"""
import sys
from typing import List

from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from .. import style
from ..report import ReportError
from . import register

KIND = "spmv-merge"
FIGURES = ("merge",)

_THREADS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00", "#999999", "#F0E442")
_END = "#222222"


def figures(document: dict) -> List[str]:
    """The diagrams this document draws: the merge walk (drawn only where the matrix was small enough)."""
    _require(document, "merge_walk")
    return list(FIGURES)


def default_title(document: dict, figure: str) -> str:
    """`Chapter 04 spmv: the merge walk of stages 4 and 5, huge-row 8x20 (...)`."""
    matrix = document.get("matrix", {}) if isinstance(document, dict) else {}
    return f"Chapter 04 spmv: the merge walk of stages 4 and 5 on {style.plain(str(matrix.get('description', '?')))}"


def draw(document: dict, figure: str, title: str = None, sub: str = None):
    """One of FIGURES."""
    if figure != "merge":
        raise ReportError(f"--figure {figure}: this document draws {', '.join(FIGURES)}")
    walk = _walk(document)
    vt = walk["items_per_thread"]
    threads = walk["threads"]
    width = max(16.0, 0.42 * walk["nonzeros"] + 4.0)
    grid_height = 0.42 * walk["rows"] + 1.6
    strip_height = 0.62 * len(threads) + 1.4
    fig = style.new_figure(width, grid_height + strip_height + 2.6)
    grid = fig.add_gridspec(2, 1, height_ratios=[grid_height, strip_height])
    path_ax = fig.add_subplot(grid[0, 0])
    strip_ax = fig.add_subplot(grid[1, 0])
    _path_panel(path_ax, walk)
    _strip_panel(strip_ax, walk)
    nt = walk["threads_per_tile"]
    kernel_nt = (document.get("stages") or {}).get("merge", {}).get("threads_per_tile")
    kernel = f"; the kernels' tiles hold {kernel_nt} threads (stage 4), the split into threads is the same" \
        if kernel_nt else ""
    style.caption(fig, [
        f"Threads of {vt} merge items (row ends and nonzeros together), tiles of {nt} threads here{kernel}.",
        "A thread's last partial sum goes to a row that ends later in its tile (added in shared memory) or,",
        "when the row is still open at the tile's end, to the tile's carry, which the fix-up kernel adds to y.",
    ])
    default_sub = (f"{walk['rows']} rows, {walk['nonzeros']} nonzeros: {walk['rows'] + walk['nonzeros']} items ·"
                   " common/algorithm/merge_path.hpp's search at every diagonal, replayed by --analyze")
    style.add_titles(fig, path_ax, default_title(document, figure) if title is None else title,
                     default_sub if sub is None else sub)
    return fig


def _require(document, key: str, where: str = "the --analyze document"):
    if not isinstance(document, dict) or key not in document:
        raise ReportError(f"{where} has no '{key}': not the output of chapter_04_spmv --analyze --format json")
    return document[key]


def _walk(document: dict) -> dict:
    walk = _require(document, "merge_walk")
    if walk is None:
        raise ReportError("the --analyze document has no merge walk: its matrix has more than 64 rows + nonzeros"
                          " (try --matrix huge-row:8:3:20)")
    for key in ("threads_per_tile", "items_per_thread", "rows", "nonzeros", "row_ends", "threads", "tiles"):
        _require(walk, key, "merge_walk")
    for thread in walk["threads"]:
        for key in ("tile", "diagonal", "first_nonzero", "first_row", "items", "partial", "partial_row",
                    "partial_nonzeros"):
            _require(thread, key, "a thread of the merge walk")
    for tile in walk["tiles"]:
        for key in ("diagonal", "end_row", "carry_row", "carry_nonzeros"):
            _require(tile, key, "a tile of the merge walk")
    if not walk["threads"]:
        raise ReportError("merge_walk: no thread (a matrix without rows or nonzeros)")
    return walk


def _color(thread: int) -> str:
    return _THREADS[thread % len(_THREADS)]


# ----------------------------------------------------------------------------------------------
# the Merge Path grid

def _path_panel(ax, walk: dict) -> None:
    nnz, rows = walk["nonzeros"], walk["rows"]
    vt, nt = walk["items_per_thread"], walk["threads_per_tile"]
    for x in range(nnz + 1):
        ax.plot([x, x], [0, rows], color="#E6E6E6", linewidth=0.8, zorder=0)
    for y in range(rows + 1):
        ax.plot([0, nnz], [y, y], color="#E6E6E6", linewidth=0.8, zorder=0)
    total = nnz + rows
    for diagonal in range(vt, total, vt):
        tile_edge = diagonal % (vt * nt) == 0
        lo, hi = max(0, diagonal - rows), min(diagonal, nnz)
        ax.plot([lo, hi], [diagonal - lo, diagonal - hi], color=style.INK if tile_edge else style.MUTED,
                linewidth=2.6 if tile_edge else 1.1, linestyle="-" if tile_edge else (0, (4, 3)), zorder=1)
    for t, thread in enumerate(walk["threads"]):
        x, y = thread["first_nonzero"], thread["first_row"]
        for item in thread["items"]:
            if item["kind"] == "end":
                ax.plot([x, x], [y, y + 1], color=_color(t), linewidth=5, solid_capstyle="round", zorder=3)
                y += 1
            else:
                ax.plot([x, x + 1], [y, y], color=_color(t), linewidth=5, solid_capstyle="round", zorder=3)
                x += 1
        ax.plot([thread["first_nonzero"]], [thread["first_row"]], "o", color=style.INK, markersize=7, zorder=4)
        ax.text(thread["first_nonzero"] - 0.15, thread["first_row"] - 0.12, f"t{t}", ha="right", va="bottom",
                fontsize=12, fontweight="bold", color=_color(t), zorder=5)
        if thread["partial"] != "none":
            marker = "*" if thread["partial"] == "carry" else "D"
            ax.plot([x], [y], marker, color=style.LIBRARY if thread["partial"] == "carry" else style.STAGE,
                    markersize=17 if marker == "*" else 10, markeredgecolor="white", zorder=6)
    # Each tile's name under the grid, midway along the stretch of the bottom edge between its diagonals.
    tiles = walk["tiles"]
    for k, tile in enumerate(tiles):
        end = tiles[k + 1]["diagonal"] if k + 1 < len(tiles) else total
        lo, hi = max(0, tile["diagonal"] - rows), min(nnz, end - rows)
        if hi > lo:
            ax.text((lo + hi) / 2, rows + 0.35, f"tile {k}", ha="center", va="top", fontsize=13, fontweight="bold")
    ax.set_xlim(-0.8, nnz + 0.8)
    ax.set_ylim(rows + 1.3, -0.6)
    ax.set_aspect("equal")
    step = 1 if nnz <= 24 else 2 if nnz <= 48 else 4
    ax.set_xticks([j + 0.5 for j in range(0, nnz, step)])
    ax.set_xticklabels([str(j) for j in range(0, nnz, step)])
    ax.xaxis.tick_top()
    ax.set_xlabel("nonzero j: a step right adds values[j] · x[columns[j]] to the running sum")
    ax.xaxis.set_label_position("top")
    ax.set_yticks([r + 0.5 for r in range(rows)])
    ax.set_yticklabels([f"END{r} (offsets[{r + 1}] = {end})" for r, end in enumerate(walk["row_ends"])])
    ax.set_ylabel("a step down stores y[r]")
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    # The key: only the marks the diagram has.
    partials = {thread["partial"] for thread in walk["threads"]}
    handles = [Line2D([], [], color=style.MUTED, linewidth=1.1, linestyle=(0, (4, 3)),
                      label=f"a thread's diagonal (every {vt} items)")]
    if len(tiles) > 1:
        handles.append(Line2D([], [], color=style.INK, linewidth=2.6,
                              label=f"a tile's diagonal (every {vt * nt} items)"))
    if "shared" in partials:
        handles.append(Line2D([], [], marker="D", color=style.STAGE, linestyle="none", markersize=10,
                              label="partial sum added in shared memory"))
    if "carry" in partials:
        handles.append(Line2D([], [], marker="*", color=style.LIBRARY, linestyle="none", markersize=17,
                              label="partial sum carried to the fix-up"))
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=len(handles), frameon=False,
              fontsize=13)


# ----------------------------------------------------------------------------------------------
# the threads, item by item

def _strip_panel(ax, walk: dict) -> None:
    vt = walk["items_per_thread"]
    threads = walk["threads"]
    tiles = walk["tiles"]
    for t, thread in enumerate(threads):
        for i, item in enumerate(thread["items"]):
            end = item["kind"] == "end"
            face = _mix(_color(t), 0.3 if not end else 0.75)
            ax.add_patch(Rectangle((i, t), 1, 1, facecolor=face, edgecolor=_END if end else "white",
                                   linewidth=2.2 if end else 1.5))
            text = f"END{item['index']}" if end else f"nz{item['index']}"
            ax.text(i + 0.5, t + 0.5, text, ha="center", va="center", fontsize=13,
                    fontweight="bold" if end else "normal")
        ax.text(-0.15, t + 0.5, f"t{t}", ha="right", va="center", fontsize=13, fontweight="bold", color=_color(t))
        ax.text(vt + 0.3, t + 0.5, _partial_text(thread, tiles), ha="left", va="center", fontsize=13)
    for k, tile in enumerate(tiles):
        first = tile["diagonal"] // vt
        ax.plot([-1.2, vt], [first, first], color=style.INK, linewidth=2.6, clip_on=False)
        ax.text(-1.2, first + 0.08, f"tile {k}", ha="left", va="top", fontsize=13, fontweight="bold")
    ax.set_xlim(-1.3, vt + 12)
    ax.set_ylim(len(threads), -0.1)
    ax.axis("off")


def _partial_text(thread: dict, tiles: list) -> str:
    partial = thread["partial"]
    if partial == "none":
        return "ends on a row end: nothing left over"
    row, count = thread["partial_row"], thread["partial_nonzeros"]
    nonzeros = f"{count} nonzero{'s' if count != 1 else ''}"
    if partial == "shared":
        return f"→ row {row}'s {nonzeros} added in shared memory (END{row} later in tile {thread['tile']})"
    return f"→ row {row}'s {nonzeros} to tile {thread['tile']}'s carry: the fix-up adds it to y[{row}]"


def _mix(color: str, amount: float) -> str:
    """@p color faded toward white: amount 1 is the color itself, 0 white."""
    red, green, blue = (int(color[k:k + 2], 16) for k in (1, 3, 5))
    return "#" + "".join(f"{round(255 - (255 - c) * amount):02X}" for c in (red, green, blue))


register(KIND, sys.modules[__name__])
