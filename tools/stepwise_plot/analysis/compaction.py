"""Chapter 06's diagrams, from `chapter_06_compaction --analyze --format json` ("analysis": "compaction").

The document (written by analyze_json in chapters/06_compaction/analysis.cpp) holds, for the input the command
line describes, where the kept elements go, computed on the CPU with the kernels' own index maps. Two figures:

- "packing": one warp's vote (the ballot, its popcount, each kept lane's rank: stage 2's warp_ticket and every
  ballot of stages 3-8), stage 3's strided tile (the (step, warp) counts and the offsets TileRanks scans them
  into: one atomicAdd per tile) and stage 7's warp-sliced tile (each warp's count, packed at the front of its
  slice, and where each slice's elements start in the tile's output);
- "lookback": stage 7's look-back window over one snapshot of the statuses: what each lane read (A: a count,
  P: an inclusive prefix), the lanes added up, and the exclusive prefix, checked against a sequential count.

Schema (what this module reads; other fields are ignored):
  {"analysis": "compaction", "n", "seed", "input",
   "warp": {"first", "ballot", "voters", "kept": [32 bools], "ranks": [32 ints, -1 where not kept]},
   "strided_tile": {"stage", "tile", "threads", "items", "warps", "counts": [[...]], "offsets": [[...]], "total"},
   "sliced_tile": {"stage", "tile", "threads", "items", "warps", "slice", "counts", "offsets", "total"},
   "lookback": {"stage", "tile", "tile_elements", "last_inclusive", "own_count", "exclusive_prefix", "sequential",
                "windows": [{"window_end", "tiles", "flags": ["A"|"P"], "values", "nearest_inclusive",
                             "folded_lanes", "window_sum", "prefix"}]}}
"""
import sys
from typing import List

from matplotlib.patches import Rectangle

from .. import style
from ..report import ReportError
from . import register, require

KIND = "compaction"
FIGURES = ("packing", "lookback")

_KEPT = "#56B4E9"       # sky blue (Okabe-Ito): a kept element
_DROPPED = "#EEEEEE"    # an element the test drops
_FLAGS = {"A": "#F5C76B", "P": "#7FC8B0"}  # light orange: a count only; light green: an inclusive prefix
_WARPS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999")


def figures(document: dict) -> List[str]:
    """The diagrams this document draws: packing needs the warp and both tiles, lookback its example."""
    names = []
    if all(key in document for key in ("warp", "strided_tile", "sliced_tile")):
        names.append("packing")
    if "lookback" in document:
        names.append("lookback")
    if not names:
        raise ReportError("the --analyze document has no 'warp', 'strided_tile', 'sliced_tile' or 'lookback': not "
                          "the output of chapter_06_compaction --analyze --format json")
    return names


def default_title(document: dict, figure: str) -> str:
    """The title of each diagram."""
    if figure == "packing":
        return "Chapter 06 compaction: where a warp's and a tile's kept elements go"
    lookback = document.get("lookback", {})
    return f"Chapter 06 compaction: stage {lookback.get('stage')}'s look-back from tile {lookback.get('tile')}"


def draw(document: dict, figure: str, title: str = None, sub: str = None):
    """One of FIGURES."""
    if figure not in figures(document):
        raise ReportError(f"--figure {figure}: this document draws {', '.join(figures(document))}")
    if figure == "packing":
        return _packing(document, title, sub)
    return _lookback(document, title, sub)


def _require(mapping, key: str, where: str):
    return require(mapping, key, where, "chapter_06_compaction")


def _fields(mapping: dict, keys, where: str) -> dict:
    return {key: _require(mapping, key, where) for key in keys}


def _input_text(document: dict) -> str:
    n = document.get("n")
    n_part = f"n = {style.n_text(n)}" if isinstance(n, int) else ""
    parts = [n_part, style.plain(str(document.get("input", ""))), f"seed {document.get('seed')}",
             "computed by --analyze, no GPU"]
    return "  ·  ".join(part for part in parts if part)


def _titles(fig, ax, document: dict, figure: str, title: str, sub: str) -> None:
    style.add_titles(fig, ax, default_title(document, figure) if title is None else title,
                     _input_text(document) if sub is None else sub)


def _bare(ax) -> None:
    ax.axis("off")


def _group(value: int) -> str:
    return f"{value:,}"


# ----------------------------------------------------------------------------------------------
# packing

def _packing(document: dict, title: str, sub: str):
    warp = _fields(_require(document, "warp", "the document"), ("first", "ballot", "voters", "kept", "ranks"),
                   "warp")
    strided = _fields(_require(document, "strided_tile", "the document"),
                      ("stage", "tile", "threads", "items", "warps", "counts", "offsets", "total"), "strided_tile")
    sliced = _fields(_require(document, "sliced_tile", "the document"),
                     ("stage", "tile", "threads", "items", "warps", "slice", "counts", "offsets", "total"),
                     "sliced_tile")
    if len(warp["kept"]) != 32 or len(warp["ranks"]) != 32:
        raise ReportError("warp: 'kept' and 'ranks' must hold 32 lanes")
    if len(strided["counts"]) != strided["items"] or any(len(row) != strided["warps"] for row in strided["counts"]):
        raise ReportError("strided_tile: 'counts' is not items rows of warps counts")
    if len(sliced["counts"]) != sliced["warps"] or len(sliced["offsets"]) != sliced["warps"]:
        raise ReportError("sliced_tile: 'counts' and 'offsets' must hold one value per warp")
    fig = style.new_figure(18.0, 15.5)
    grid = fig.add_gridspec(3, 2, height_ratios=[0.001, 0.8, 1.5], width_ratios=[1.0, 1.05])
    header = fig.add_subplot(grid[0, :])
    _bare(header)
    _warp_panel(fig.add_subplot(grid[1, :]), warp)
    _strided_panel(fig.add_subplot(grid[2, 0]), strided)
    _sliced_panel(fig.add_subplot(grid[2, 1]), sliced)
    style.caption(fig, [
        "Top: the 32 elements of warp 0 (lane 0 on the left), as stage 2 votes on them and as every ballot of"
        " stages 3-8 does; filled: kept (the number is the lane's rank).",
        f"Bottom left: stage {strided['stage']}'s tile {strided['tile']}, one ballot per (step, warp); bottom right:"
        f" stage {sliced['stage']}'s tile {sliced['tile']}, one contiguous slice per warp. Both from the same input.",
    ])
    _titles(fig, header, document, "packing", title, sub)
    return fig


def _warp_panel(ax, warp: dict) -> None:
    kept, ranks, voters = warp["kept"], warp["ranks"], warp["voters"]
    top, bottom = 0.0, 3.2
    for lane in range(32):
        face = _KEPT if kept[lane] else _DROPPED
        ax.add_patch(Rectangle((lane, top), 1, 1, facecolor=face, edgecolor="white", linewidth=1.5))
        ax.text(lane + 0.5, top - 0.12, str(lane), ha="center", va="bottom", fontsize=10, color=style.MUTED)
        if kept[lane]:
            ax.text(lane + 0.5, top + 0.5, str(ranks[lane]), ha="center", va="center", fontsize=13,
                    fontweight="bold")
    # The output: the voters' elements side by side from the base the warp's one atomicAdd returned.
    start = (32 - voters) / 2
    for rank in range(voters):
        ax.add_patch(Rectangle((start + rank, bottom), 1, 1, facecolor=_KEPT, edgecolor="white", linewidth=1.5))
        ax.text(start + rank + 0.5, bottom + 0.5, str(rank), ha="center", va="center", fontsize=13,
                fontweight="bold")
    for lane in range(32):
        if kept[lane]:
            ax.plot([lane + 0.5, start + ranks[lane] + 0.5], [top + 1.0, bottom], color=style.MUTED, linewidth=1.0)
    ax.text(-0.3, top + 0.5, "lanes", ha="right", va="center", fontsize=14)
    ax.text(-0.3, bottom + 0.5, "out[base + rank]", ha="right", va="center", fontsize=14)
    ballot = warp["ballot"]
    ax.text(16, bottom + 1.35,
            f"ballot = 0x{ballot:08X}: {voters} voters, so one atomicAdd(count, {voters}) returns base; each kept lane"
            f" writes at base + popc(ballot & lanes below it)",
            ha="center", va="top", fontsize=14)
    ax.set_xlim(-5.0, 32.2)
    ax.set_ylim(bottom + 2.2, top - 1.0)
    ax.set_title(f"One warp votes: elements {_group(warp['first'])}-{_group(warp['first'] + 31)}", fontsize=15,
                 fontweight="bold", pad=6)
    _bare(ax)


def _strided_panel(ax, tile: dict) -> None:
    counts, offsets = tile["counts"], tile["offsets"]
    steps, warps, threads = tile["items"], tile["warps"], tile["threads"]
    for step in range(steps):
        for warp in range(warps):
            count = counts[step][warp]
            ax.add_patch(Rectangle((warp, step), 1, 1, facecolor=_mix(_KEPT, 0.6), edgecolor="white", linewidth=1.5))
            ax.text(warp + 0.5, step + 0.42, str(count), ha="center", va="center", fontsize=14, fontweight="bold")
            ax.text(warp + 0.5, step + 0.8, f"@{offsets[step][warp]}", ha="center", va="center", fontsize=10,
                    color=style.INK)
    ax.set_xlim(0, warps)
    ax.set_ylim(steps, 0)
    ax.set_aspect("equal")
    ax.set_xticks([w + 0.5 for w in range(warps)])
    ax.set_xticklabels([str(w) for w in range(warps)])
    ax.set_yticks([s + 0.5 for s in range(steps)])
    ax.set_yticklabels([str(s) for s in range(steps)])
    ax.set_xlabel("warp w")
    ax.xaxis.set_label_position("top")
    ax.xaxis.tick_top()
    ax.set_ylabel(f"step s (elements s·{threads} + 32w + lane)")
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_title(f"Stage {tile['stage']}'s tile ({threads} × {steps}): kept per (step, warp), @ where they start\n"
                 f"scanned step by step (TileRanks): {_group(tile['total'])} kept → one atomicAdd per tile",
                 fontsize=14, fontweight="bold", pad=34)


def _sliced_panel(ax, tile: dict) -> None:
    counts, offsets, slice_ = tile["counts"], tile["offsets"], tile["slice"]
    warps, total = tile["warps"], tile["total"]
    height, gap = 1.0, 0.6
    for warp in range(warps):
        y = warp * (height + gap)
        color = _WARPS[warp % len(_WARPS)]
        ax.add_patch(Rectangle((0, y), slice_, height, facecolor=_DROPPED, edgecolor="none"))
        ax.add_patch(Rectangle((0, y), counts[warp], height, facecolor=_mix(color, 0.55), edgecolor="none"))
        ax.text(slice_ * 0.02, y + height / 2, f"warp {warp}: {_group(counts[warp])} of {_group(slice_)} packed",
                ha="left", va="center", fontsize=13)
    y = warps * (height + gap) + 0.5
    for warp in range(warps):
        width = counts[warp] * slice_ / max(1, total)
        x = offsets[warp] * slice_ / max(1, total)
        ax.add_patch(Rectangle((x, y), width, height, facecolor=_mix(_WARPS[warp % len(_WARPS)], 0.55),
                               edgecolor="white", linewidth=1.5))
        ax.text(x + width / 2, y + height / 2, f"@{_group(offsets[warp])}", ha="center", va="center", fontsize=12)
    ax.text(0, y + height + 0.15, f"the tile's output: {_group(total)} elements; warp 0 scans the {warps} counts,"
            " then all threads copy out", ha="left", va="top", fontsize=13)
    ax.set_xlim(0, slice_)
    ax.set_ylim(y + height + 1.0, -0.4)
    ax.set_title(f"Stage {tile['stage']}'s tile ({tile['threads']} × {tile['items']}): a slice of {_group(slice_)}"
                 f" elements per warp,\neach warp packs its kept ones at the front of its slice of shared memory",
                 fontsize=14, fontweight="bold", pad=10)
    _bare(ax)


def _mix(color: str, amount: float) -> str:
    """@p color blended with white: amount 0 is white, 1 the color itself."""
    rgb = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(255 - (255 - c) * amount) for c in rgb]
    return "#" + "".join(f"{c:02X}" for c in mixed)


# ----------------------------------------------------------------------------------------------
# lookback

_PITCH = 3.6  # rows of the look-back diagram, in cell heights


def _lookback(document: dict, title: str, sub: str):
    lookback = _fields(_require(document, "lookback", "the document"),
                       ("stage", "tile", "tile_elements", "last_inclusive", "own_count", "windows",
                        "exclusive_prefix", "sequential"), "lookback")
    windows = lookback["windows"]
    if not windows:
        raise ReportError(f"lookback: tile {lookback['tile']} has no predecessor to look back at (n is one tile)")
    for window in windows:
        _fields(window, ("window_end", "tiles", "flags", "values", "folded_lanes", "window_sum", "prefix"),
                "a look-back window")
        if len(window["tiles"]) != 32 or len(window["flags"]) != 32 or len(window["values"]) != 32:
            raise ReportError("a look-back window must hold 32 lanes")
    fig = style.new_figure(19.0, 3.4 + 2.6 * len(windows))
    ax = fig.add_subplot()
    ax.text(0, -0.9, "◀ older tiles (lane 31)", ha="left", va="bottom", fontsize=13, color=style.MUTED)
    ax.text(32, -0.9, "(lane 0) the nearest predecessor ▶", ha="right", va="bottom", fontsize=13, color=style.MUTED)
    for r, window in enumerate(windows):
        _window_row(ax, _PITCH * r, window, lookback, r == len(windows) - 1)
    ax.set_xlim(-0.2, 35.6)
    ax.set_ylim(_PITCH * len(windows) + 0.2, -1.5)
    _bare(ax)
    agree = "=" if lookback["exclusive_prefix"] == lookback["sequential"] else "≠"
    style.caption(fig, [
        "Each cell is a lane of the look-back warp: lane l reads the status word of tile (window end − 1 − l), above"
        " it, with one 64-bit load (the count above a 2-bit flag);",
        "A: that tile's own count, P: its inclusive prefix (the kept elements of it and of every tile before it).",
        f"The snapshot: tiles up to {lookback['last_inclusive']} have published P, the later ones only A (they are"
        " still looking back). Outlined: the lanes added; faded: lanes past the nearest P.",
        f"Exclusive prefix {_group(lookback['exclusive_prefix'])} {agree} {_group(lookback['sequential'])}, the kept"
        f" elements before tile {lookback['tile']} counted one by one on the CPU; tiles of"
        f" {_group(lookback['tile_elements'])} elements.",
    ])
    _titles(fig, ax, document, "lookback", title, sub)
    return fig


def _window_row(ax, y: float, window: dict, lookback: dict, last: bool) -> None:
    folded = window["folded_lanes"]
    for lane in range(32):
        x = 31 - lane  # lane 0, the nearest predecessor, on the right
        flag = window["flags"][lane]
        faded = lane >= folded
        tile = window["tiles"][lane]
        face = _mix(_FLAGS.get(flag, "#FFFFFF"), 0.35 if faded else 1.0)
        ax.add_patch(Rectangle((x, y), 1, 2.2, facecolor=face, edgecolor="white", linewidth=1.5))
        color = style.MUTED if faded else style.INK
        ax.text(x + 0.5, y + 0.35, flag, ha="center", va="center", fontsize=15, fontweight="bold", color=color)
        value = _group(window["values"][lane]) if tile >= 0 else "0"
        ax.text(x + 0.5, y + 1.45, value, ha="center", va="center", fontsize=10, rotation=90, color=color)
        ax.text(x + 0.5, y - 0.08, str(tile) if tile >= 0 else "–", ha="center", va="bottom", fontsize=10,
                color=style.MUTED)
    left = 32 - folded
    ax.add_patch(Rectangle((left + 0.05, y + 0.05), folded - 0.1, 2.1, facecolor="none", edgecolor=style.INK,
                           linewidth=2.6))
    # The tile that looks back: it has published its own count (A) and waits for its prefix.
    ax.add_patch(Rectangle((32.7, y), 2.6, 2.2, facecolor=_FLAGS["A"], edgecolor=style.INK, linewidth=2.0))
    ax.text(34.0, y + 0.55, "A", ha="center", va="center", fontsize=15, fontweight="bold")
    ax.text(34.0, y + 1.45, _group(lookback["own_count"]), ha="center", va="center", fontsize=12)
    ax.text(34.0, y - 0.08, f"tile {lookback['tile']}", ha="center", va="bottom", fontsize=12)
    nearest = window.get("nearest_inclusive")
    head = f"window ending at tile {window['window_end'] - 1}: "
    if nearest is None:
        text = (head + f"no P, so all 32 counts are added ({_group(window['window_sum'])}) and the window moves 32"
                f" tiles back; prefix so far {_group(window['prefix'])}")
    else:
        added = " + ".join(_group(window["values"][lane]) for lane in range(folded - 1, -1, -1))
        text = (head + f"the nearest P is tile {window['tiles'][nearest]} (lane {nearest}): {added} ="
                f" {_group(window['window_sum'])}")
    ax.text(0, y + 2.35, text, ha="left", va="top", fontsize=13)
    if last:
        ax.text(34.0, y + 2.35, f"then P = {_group(lookback['exclusive_prefix'] + lookback['own_count'])}",
                ha="center", va="top", fontsize=13, fontweight="bold")
        ax.text(0, y + 2.95, f"tile {lookback['tile']}'s kept elements start at output"
                f" {_group(lookback['exclusive_prefix'])}", ha="left", va="top", fontsize=13, fontweight="bold")


register(KIND, sys.modules[__name__])
