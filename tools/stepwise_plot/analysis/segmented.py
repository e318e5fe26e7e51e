"""Chapter 10's diagrams, from `chapter_10_segmented --analyze --format json` ("analysis": "segmented", written by
work.cpp, lanes.cpp and setop_analysis.cpp in chapters/10_segmented with the functions the kernels run).

Two figures, each of a small worked example the document carries:
  - segment-lanes (`--problem segreduce`): a dozen or so segments drawn from --segments' distribution over a few
    dozen items, and for each kernel row which lane of which warp, block or Merge Path thread adds which item at which
    step (lanes across, steps down): the idle lane-steps of a thread, a warp or a block per segment, and Merge Path's
    threads of exactly VT steps each, cut by merge_path and walked by merge_reduce_walk;
  - setop-path (`--problem setop`): the Merge Path grid of two sorted multisets of a dozen keys (A across, B down),
    Merge Path's order and the Balanced Path, the cuts every few diagonals (Merge Path's and the balanced one, moved
    where Merge Path's would split a pair of equal keys), and what the chosen --op keeps of each piece.

Schema (what this module reads; other fields are ignored):
  {"analysis": "segmented", "chapter": "10", "problem", "n", "segments", "rows": [{"stage", "idle", ...}],
   "segment_lanes": {"segments", "drawn_from", "n", "offsets",
                     "stages": [{"stage", "name", "work", "unit": "thread"|"group"|"block"|"merge", "lanes",
                                 "steps", "lane_steps", "idle",
                                 "units": [{"index", "lanes", "steps", "segments",
                                            "cells": [{"lane", "step", "item" (-1: a segment's end), "segment"}],
                                            "a", "b" (merge: the cross point)}]}]},
   "setop_path": {"op", "a", "b", "spacing", "merge_order": [{"from", "index", "key"}], "balanced_order": [...],
                  "pieces": [{"diagonal", "merge_cut": [i, j], "cut": [i, j], "moved", "a_begin", "a_end",
                              "b_begin", "b_end", "kept"}], "output"}}
"""
import sys

from matplotlib.patches import Rectangle

from .. import style
from ..report import ReportError
from . import load_balance, merge, register, require

KIND = "segmented"
FIGURES = ("segment-lanes", "setop-path")
_IDLE = "#E6E6E6"
_MERGE_LINE = "#999999"
_WARP_GAP = 0.35   # between two warps or blocks of a panel, in cells
_HEADER = 2.6      # a panel's two header lines, in cells
_PANEL_GAP = 2.2   # between two panels of a column, in cells
_MOST_LANES = 32   # a block's lanes past these (and past its busy ones) are drawn as one bar


def _field(mapping, key: str, where: str = "the --analyze document"):
    return require(mapping, key, where, "chapter_10_segmented")


def figures(document: dict) -> list:
    """The diagrams whose data the document holds: segment-lanes with --problem segreduce, setop-path with setop."""
    _field(document, "analysis")
    names = [name for name in FIGURES if name.replace("-", "_") in document]
    if not names:
        raise ReportError(f"this document (--problem {document.get('problem')}) draws no figure: segment-lanes comes"
                          " from --problem segreduce, setop-path from --problem setop")
    return names


def default_title(document: dict, figure: str) -> str:
    """The title of each diagram."""
    if figure == "segment-lanes":
        lanes = document.get("segment_lanes", {})
        return (f"Chapter 10 segmented reduce: which lane adds which item, {len(lanes.get('offsets', [])) - 1}"
                f" segments of {lanes.get('segments')}")
    path = document.get("setop_path", {})
    return f"Chapter 10 set_{path.get('op')}: Merge Path's cuts and the balanced ones"


def draw(document: dict, figure: str, title: str = None, sub: str = None):
    """One of FIGURES."""
    if figure == "segment-lanes":
        return _segment_lanes(document, title, sub)
    if figure == "setop-path":
        return _setop_path(document, title, sub)
    raise ReportError(f"--figure {figure}: this document draws {', '.join(FIGURES)}")


# segment-lanes ----------------------------------------------------------------------------------------------------


def _cell(ax, x: float, y: float, cell: dict) -> None:
    """One lane-step that adds an item (light, its number) or closes a segment (dark, the segment's number)."""
    color = load_balance.hue(cell["segment"])
    if cell["item"] < 0:
        ax.add_patch(Rectangle((x, y), 1, 1, facecolor=color, edgecolor="white", linewidth=0.8))
        ax.text(x + 0.5, y + 0.5, f"s{cell['segment']}", ha="center", va="center", fontsize=8.5, color="white",
                fontweight="bold")
    else:
        ax.add_patch(Rectangle((x, y), 1, 1, facecolor=load_balance.lighten(color, 0.45), edgecolor="white",
                               linewidth=0.8))
        ax.text(x + 0.5, y + 0.5, str(cell["item"]), ha="center", va="center", fontsize=9)


def _idle(ax, x: float, y: float, width: float, height: float) -> None:
    ax.add_patch(Rectangle((x, y), width, height, facecolor=_IDLE, edgecolor="white", linewidth=0.8))


def _check_stage(stage: dict, where: str) -> None:
    for key in ("stage", "name", "work", "unit", "lane_steps", "idle", "units"):
        _field(stage, key, where)
    drawn = 0
    for unit in stage["units"]:
        for key in ("index", "lanes", "steps", "cells"):
            _field(unit, key, f"a unit of {where}")
        drawn += unit["lanes"] * unit["steps"]
        for cell in unit["cells"]:
            if not (0 <= cell["lane"] < unit["lanes"] and 0 <= cell["step"] < unit["steps"]):
                raise ReportError(f"{where}: a cell at lane {cell['lane']}, step {cell['step']} outside its unit's"
                                  f" {unit['lanes']} lanes x {unit['steps']} steps")
    if drawn != stage["lane_steps"]:
        raise ReportError(f"{where}: its units run {drawn} lane-steps, not the {stage['lane_steps']:g} of lane_work")


def _shown_lanes(unit: dict) -> int:
    """The lanes of a unit drawn one by one: all of a warp's; a block's up to its last busy one (whole warps)."""
    lanes = unit["lanes"]
    if lanes <= _MOST_LANES:
        return lanes
    busy = max((cell["lane"] for cell in unit["cells"]), default=-1) + 1
    return min(lanes, max(_MOST_LANES, -(-busy // 32) * 32))


def _panel_size(stage: dict) -> tuple:
    """(width, height) of a panel in cells, its header included."""
    units = stage["units"]
    if stage["unit"] == "merge":
        steps = units[0]["steps"] if units else 0
        return len(units) + 1.5, _HEADER + steps + 1.6
    shown = max(_shown_lanes(unit) for unit in units) if units else 0
    bar = 4.0 if any(unit["lanes"] > _shown_lanes(unit) for unit in units) else 0.0
    height = sum(unit["steps"] for unit in units) + _WARP_GAP * max(0, len(units) - 1)
    return 3.0 + shown + bar, _HEADER + height


def _real_row(document: dict, stage: int):
    for row in document.get("rows", []):
        if row.get("stage") == stage:
            return row
    return None


def _draw_panel(ax, x0: float, y0: float, stage: dict, document: dict, n: int) -> None:
    """One kernel row's panel: its header, then its units' lane-steps, top-left at (x0, y0)."""
    units = stage["units"]
    busy = sum(len(unit["cells"]) for unit in units)
    ax.text(x0, y0, f"{stage['stage']}  {stage['name']}: {stage['work']}", ha="left", va="top", fontsize=13,
            fontweight="bold")
    line = f"{stage['lane_steps']:,.0f} lane-steps for {n} items: {100 * stage['idle']:.0f} % idle"
    real = _real_row(document, stage["stage"])
    if real is not None and "idle" in real:
        line += f"  (at --n {document.get('n'):,}: {100 * real['idle']:.1f} %)"
    ax.text(x0, y0 + 1.15, line, ha="left", va="top", fontsize=11.5, color=style.MUTED)
    top = y0 + _HEADER
    if stage["unit"] == "merge":
        steps = units[0]["steps"] if units else 0
        for k, unit in enumerate(units):
            x = x0 + 1.5 + k
            _idle(ax, x, top, 1, steps)
            for cell in unit["cells"]:
                _cell(ax, x, top + cell["step"], cell)
            ax.text(x + 0.5, top - 0.1, f"t{unit['index']}", ha="center", va="bottom", fontsize=9,
                    color=style.MUTED)
            ax.text(x + 0.5, top + steps + 0.15, f"({unit.get('a')},{unit.get('b')})", ha="center", va="top",
                    fontsize=8.5, rotation=90, color=style.INK)
        ax.text(x0 + 1.3, top + steps / 2, "step", ha="right", va="center", fontsize=10, rotation=90,
                color=style.MUTED)
        return
    word = "block" if stage["unit"] == "block" else "warp"
    y = top
    for unit in units:
        shown = _shown_lanes(unit)
        _idle(ax, x0 + 3.0, y, shown, unit["steps"])
        for cell in unit["cells"]:
            if cell["lane"] < shown:
                _cell(ax, x0 + 3.0 + cell["lane"], y + cell["step"], cell)
        if unit["lanes"] > shown:
            _idle(ax, x0 + 3.0 + shown + 0.2, y, 3.6, unit["steps"])
            ax.text(x0 + 3.0 + shown + 2.0, y + unit["steps"] / 2, f"+{unit['lanes'] - shown} idle", ha="center",
                    va="center", fontsize=8.5, color=style.MUTED)
        ax.text(x0 + 2.8, y + unit["steps"] / 2, f"{word} {unit['index']}", ha="right", va="center", fontsize=9,
                color=style.MUTED)
        y += unit["steps"] + _WARP_GAP


def _segment_lanes(document: dict, title: str, sub: str):
    lanes = _field(document, "segment_lanes")
    offsets, stages = _field(lanes, "offsets", "segment_lanes"), _field(lanes, "stages", "segment_lanes")
    if len(offsets) < 2 or offsets[0] != 0 or any(b < a for a, b in zip(offsets, offsets[1:])):
        raise ReportError("segment_lanes: the offsets are not a non-decreasing list from 0")
    if not stages:
        raise ReportError("segment_lanes: no stage")
    n = offsets[-1]
    for stage in stages:
        _check_stage(stage, f"stage {stage.get('stage')} of segment_lanes")
    # Two columns of panels, each panel to the shorter column, in the table's order.
    sizes = [_panel_size(stage) for stage in stages]
    column_width = max(width for width, _ in sizes)
    heights, placed = [0.0, 0.0], []
    for stage, (width, height) in zip(stages, sizes):
        column = 0 if heights[0] <= heights[1] else 1
        placed.append((stage, column, heights[column]))
        heights[column] += height + _PANEL_GAP
    strip = 4.4  # the items, their segments and Merge Path's threads, above the panels
    total_width = max(2 * column_width + 2.0, n + 6.0)
    total_height = strip + max(heights)
    fig = style.new_figure(max(14.0, 0.27 * total_width + 1.5), 0.27 * total_height + 3.6)
    ax = fig.add_subplot(1, 1, 1)
    # The items, coloured by segment; an empty segment is a mark between two items.
    ax.text(-0.3, 0.5, "items", ha="right", va="center", fontsize=12)
    for s in range(len(offsets) - 1):
        begin, end = offsets[s], offsets[s + 1]
        color = load_balance.hue(s)
        for i in range(begin, end):
            ax.add_patch(Rectangle((i, 0), 1, 1, facecolor=load_balance.lighten(color, 0.45), edgecolor="white",
                                   linewidth=0.8))
            ax.text(i + 0.5, 0.5, str(i), ha="center", va="center", fontsize=9)
        if end > begin:
            ax.text((begin + end) / 2, -0.15, f"s{s}", ha="center", va="bottom", fontsize=10, color=color,
                    fontweight="bold")
        else:
            ax.plot([begin, begin], [-0.9, 1.1], color=color, linewidth=2.5)
            ax.text(begin, -0.95, f"s{s} empty", ha="center", va="bottom", fontsize=9, color=color)
    merge = next((stage for stage in stages if stage["unit"] == "merge"), None)
    if merge is not None:
        for unit in merge["units"]:
            items = [cell["item"] for cell in unit["cells"] if cell["item"] >= 0]
            if items:
                y = 2.9 + 0.45 * (unit["index"] % 2)
                ax.plot([min(items) + 0.1, max(items) + 0.9], [y, y], color=style.INK, linewidth=2,
                        solid_capstyle="butt")
                ax.text((min(items) + max(items) + 1) / 2, y + 0.1, f"t{unit['index']}", ha="center", va="top",
                        fontsize=9)
        ax.text(-0.3, 3.1, f"stage {merge['stage']}'s threads", ha="right", va="center", fontsize=10.5,
                color=style.MUTED)
    for stage, column, y in placed:
        _draw_panel(ax, column * (column_width + 2.0), strip + y, stage, document, n)
    ax.set_xlim(-6.5, total_width)
    ax.set_ylim(total_height, -1.9)
    ax.set_aspect("equal")
    ax.axis("off")
    drawn, spec = lanes.get("drawn_from"), lanes.get("segments")
    source = (f"drawn as --segments {drawn} draws them" if drawn == spec else
              f"--segments {drawn} with its mean cut to 3, so that a dozen segments fit a few dozen items")
    style.caption(fig, [
        f"Top: the example's {n} items in {len(offsets) - 1} segments (s) of {spec}, {source}.",
        "Each panel is one kernel row: lanes across, steps (trips through its loop) down; a light cell adds that item,"
        " a grey one is an idle lane-step.",
        "A thread or a warp per segment runs each warp as long as its longest segment; a block per segment runs 256"
        " lanes for a few items.",
        "Merge Path (columns: threads t) merges the segment ends with the items: every thread takes VT steps from"
        " where merge_path crosses its diagonal",
        "((ends, items) before it, under each column); a dark cell closes segment s and writes its sum. In brackets:"
        " the same row at the document's --n and --segments.",
    ])
    style.add_titles(fig, ax, default_title(document, "segment-lanes") if title is None else title,
                     "lane_work's model and merge_path + merge_reduce_walk (the kernels' functions), replayed by"
                     " --analyze" if sub is None else sub)
    return fig


# setop-path -------------------------------------------------------------------------------------------------------


def _diagonal(d: int, na: int, nb: int):
    """The ends of cross diagonal i + j = d inside the (na + 1) x (nb + 1) grid, as x and y lists."""
    return [max(0, d - nb), min(d, na)], [min(d, nb), max(0, d - na)]


def _walk(ax, order: list, color_of, width: float, style_kwargs: dict) -> None:
    i = j = 0
    for k, element in enumerate(order):
        ni, nj = (i + 1, j) if element["from"] == "A" else (i, j + 1)
        ax.plot([i, ni], [j, nj], color=color_of(k, i, j), linewidth=width, solid_capstyle="round", **style_kwargs)
        i, j = ni, nj


def _setop_path(document: dict, title: str, sub: str):
    path = _field(document, "setop_path")
    a, b = _field(path, "a", "setop_path"), _field(path, "b", "setop_path")
    merge_order = _field(path, "merge_order", "setop_path")
    balanced = _field(path, "balanced_order", "setop_path")
    pieces, op = _field(path, "pieces", "setop_path"), _field(path, "op", "setop_path")
    na, nb = len(a), len(b)
    for name, order in (("merge_order", merge_order), ("balanced_order", balanced)):
        if len(order) != na + nb:
            raise ReportError(f"setop_path: {name} has {len(order)} steps for {na} + {nb} keys")
    for piece in pieces:
        for key in ("diagonal", "merge_cut", "cut", "a_begin", "a_end", "b_begin", "b_end", "kept"):
            _field(piece, key, "a piece of setop_path")
    if not pieces or pieces[-1]["cut"] != [na, nb]:
        raise ReportError(f"setop_path: the last piece does not end at ({na}, {nb})")
    fig, ax, side = merge.merge_grid(na, nb, 5.6, 3.0, 10.0)
    # Equal keys: the cells where A[i] = B[j], where Merge Path must not cut a pair.
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            if x == y:
                ax.add_patch(Rectangle((i, j), 1, 1, facecolor="#F3E3C3", edgecolor="none", zorder=0))
    for piece in pieces[:-1]:
        ax.plot(*_diagonal(piece["diagonal"], na, nb), color=_MERGE_LINE, linestyle=(0, (4, 3)), linewidth=1.3,
                zorder=2)
    # Merge Path's order (thin, grey), then the Balanced Path in the colour of each piece.
    _walk(ax, merge_order, lambda k, i, j: _MERGE_LINE, 2.0, {"zorder": 2.5})
    ends = [piece["cut"][0] + piece["cut"][1] for piece in pieces]

    def piece_of(k: int) -> int:
        return next(p for p, end in enumerate(ends) if k < end)

    _walk(ax, balanced, lambda k, i, j: load_balance.hue(piece_of(k)), 6.0, {"zorder": 3, "alpha": 0.8})
    for p, piece in enumerate(pieces[:-1]):
        (mi, mj), (ci, cj) = piece["merge_cut"], piece["cut"]
        ax.plot(mi, mj, marker="o", markersize=13, color="white", markeredgecolor=_MERGE_LINE, markeredgewidth=2,
                zorder=4)
        if (mi, mj) != (ci, cj):
            ax.annotate("", xy=(ci, cj), xytext=(mi, mj),
                        arrowprops={"arrowstyle": "->", "color": style.INK, "linewidth": 1.8}, zorder=4.5)
        ax.plot(ci, cj, marker="o", markersize=13, color=load_balance.hue(p), markeredgecolor=style.INK,
                markeredgewidth=2, zorder=5)
    for k, key in enumerate(a):
        ax.text(k + 0.5, -0.55, str(key), ha="center", va="bottom", fontsize=15, fontweight="bold")
        ax.text(k + 0.5, -1.05, f"A{k}", ha="center", va="bottom", fontsize=11, color=style.MUTED)
    for k, key in enumerate(b):
        ax.text(-0.45, k + 0.5, str(key), ha="right", va="center", fontsize=15, fontweight="bold")
        ax.text(-1.25, k + 0.5, f"B{k}", ha="right", va="center", fontsize=11, color=style.MUTED)
    merge.frame_merge_grid(ax, side, na, nb)
    rows = 2 * len(pieces) + 3
    side.set_ylim(rows, -0.5)
    side.text(0.0, -0.2, f"piece: its A and B ranges → what set_{op} keeps", fontsize=12.5, fontweight="bold",
              va="center")
    for p, piece in enumerate(pieces):
        y = 2 * p + 1.0
        (mi, mj), (ci, cj) = piece["merge_cut"], piece["cut"]
        kept = " ".join(str(key) for key in piece["kept"]) or "nothing"
        side.plot(-0.03, y, marker="s", markersize=11, color=load_balance.hue(p), clip_on=False)
        side.text(0.0, y, f"A[{piece['a_begin']}, {piece['a_end']}) B[{piece['b_begin']}, {piece['b_end']}) → {kept}",
                  fontsize=12.5, va="center")
        if p == len(pieces) - 1:
            note = f"ends at ({ci}, {cj}), the inputs' end"
        elif (mi, mj) == (ci, cj):
            note = f"cut on diagonal {piece['diagonal']}: Merge Path's ({mi}, {mj}), kept"
        elif mi == ci:
            note = f"diagonal {piece['diagonal']}: ({mi}, {mj}) would split a pair: takes B's partner, ({ci}, {cj})"
        else:
            note = f"diagonal {piece['diagonal']}: Merge Path's ({mi}, {mj}) moved to ({ci}, {cj})"
        side.text(0.02, y + 0.75, note, fontsize=11, va="center", color=style.MUTED)
    output = " ".join(str(key) for key in path.get("output", []))
    side.text(0.0, rows - 1.2, f"set_{op}: {output}", fontsize=12.5, va="center", fontweight="bold")
    style.caption(fig, [
        "A across, B down; shaded cells: equal keys. Grey: Merge Path's order (ties take A first, so all of A's"
        " copies of a key come before B's); colours: the Balanced Path, which deals the copies",
        "of each key A, B, A, B, … then the extras. Dashed: a diagonal every"
        f" {path.get('spacing')} elements; hollow: Merge Path's cut (merge_path), filled: balanced_cut's, moved"
        " where Merge Path's would leave A's r-th copy",
        "of a key on one side and B's r-th copy on the other. Each piece between two balanced cuts runs std::set_*'s"
        " serial loop alone (serial_set_op) and keeps what the right column lists.",
    ])
    style.add_titles(fig, ax, default_title(document, "setop-path") if title is None else title,
                     "merge_path, balanced_cut and serial_set_op (set_ops.hpp, the kernels' functions), replayed by"
                     " --analyze" if sub is None else sub)
    return fig


register(KIND, sys.modules[__name__])
