"""Chapter 02's diagrams, from `chapter_02_scan --analyze --format json` ("analysis": "scan-transpose").

Three figures, each drawn from the numbers the chapter computed with the kernels' own index maps:
  - banks: the bank every lane of a warp touches at every step of the transpose's thread-order
    side, for each VT and each access width (32-bit, as Baxter's talk counts; 128-bit, as the
    compiler emits for VT = 8), the conflicting cells shaded and bold;
  - transpose: a small tile before (strided), in shared memory, and after (thread order);
  - lookback: one tile's decoupled look-back, window by window, with the X/A/P states its warp
    saw and the prefix it folded.
"""
import math
import sys
from typing import List

from matplotlib.patches import Rectangle

from .. import style
from ..report import ReportError
from . import register

KIND = "scan-transpose"
FIGURES = ("banks", "transpose", "lookback")

_LIGHT = "#F4F4F4"         # a cell without conflict
_CONFLICT = "#D55E00"      # vermillion: a conflict, shaded by its degree
_STATE_COLORS = {"X": "#BBBBBB", "A": "#F5C76B", "P": "#7FC8B0"}  # gray, light orange, light green
_STATE_NAMES = {"X": "X: nothing published", "A": "A: aggregate", "P": "P: inclusive prefix"}
_OWNERS = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999")


def figures(document: dict) -> List[str]:
    """The diagrams this document draws: all three (it always holds their data)."""
    for key in ("transposes", "example_tile", "lookback"):
        _require(document, key)
    return list(FIGURES)


def default_title(document: dict, figure: str) -> str:
    """The title of each diagram."""
    if figure == "banks":
        values = [str(item.get("vt")) for item in document.get("transposes", [])]
        vts = values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]
        return f"Chapter 02 scan: shared-memory banks of the transpose, VT = {vts}"
    if figure == "transpose":
        tile = document.get("example_tile", {})
        return (f"Chapter 02 scan: the strided → thread-order transpose "
                f"({tile.get('nt')} threads × {tile.get('vt')} values)")
    return f"Chapter 02 scan: decoupled look-back of tile {document.get('lookback', {}).get('tile')}"


def draw(document: dict, figure: str, title: str = None, sub: str = None):
    """One of FIGURES."""
    if figure == "banks":
        return _banks(document, title, sub)
    if figure == "transpose":
        return _transpose(document, title, sub)
    if figure == "lookback":
        return _lookback(document, title, sub)
    raise ReportError(f"--figure {figure}: this document draws {', '.join(FIGURES)}")


def _require(document: dict, key: str, where: str = "the --analyze document"):
    if not isinstance(document, dict) or key not in document:
        raise ReportError(f"{where} has no '{key}': not the output of chapter_02_scan --analyze --format json")
    return document[key]


def _titles(fig, ax, document: dict, figure: str, title: str, sub: str, default_sub: str) -> None:
    style.add_titles(fig, ax, default_title(document, figure) if title is None else title,
                     default_sub if sub is None else sub)


def _header(fig, grid):
    """An empty axes across the top row of @p grid: the subtitle of a figure of several panels sits on it."""
    ax = fig.add_subplot(grid[0, :])
    ax.axis("off")
    return ax


# ----------------------------------------------------------------------------------------------
# banks

def _panels(document: dict) -> list:
    """(vt, access) for every access width of every VT, in the document's order."""
    panels = []
    for transpose in _require(document, "transposes"):
        for access in _require(transpose, "accesses", "a transpose"):
            for key in ("bits", "banks", "ways", "degree", "wavefronts", "ideal", "lanes_per_phase", "instructions"):
                _require(access, key, f"the {access.get('bits')}-bit access of VT = {transpose.get('vt')}")
            panels.append((_require(transpose, "vt", "a transpose"), access))
    if not panels:
        raise ReportError("the --analyze document lists no transpose")
    return panels


def _cost_text(access: dict) -> str:
    degree = access["degree"]
    head = "conflict-free" if degree == 1 else f"{degree}-way"
    return f"{head}: {access['wavefronts']} wavefronts (ideal {access['ideal']})"


def _banks(document: dict, title: str, sub: str):
    panels = _panels(document)
    widths = [max(access["instructions"], 2.6) + 1.2 for _, access in panels]
    fig = style.new_figure(max(14.0, 0.62 * sum(widths) + 2.0), 13.0)
    grid = fig.add_gridspec(2, len(panels), width_ratios=widths, height_ratios=[0.001, 1])
    header = _header(fig, grid)
    axes = [fig.add_subplot(grid[1, k]) for k in range(len(panels))]
    for ax, (vt, access) in zip(axes, panels):
        _bank_panel(ax, vt, access)
    warp = document.get("warp_size", 32)
    style.caption(fig, [
        "cell: the bank lane l touches with that access (128-bit: the four banks of its four words);",
        "shaded and bold: the bank serves k > 1 different words in the lane's phase, a k-way conflict"
        " (darker: larger k).",
        f"A warp's access is served 128 bytes at a time: 32-bit accesses {warp} lanes together,"
        " 128-bit ones 8 (the phases between the lines).",
    ])
    nt = document.get("nt")
    _titles(fig, header, document, "banks", title, sub,
            f"warp 0 of an NT = {nt} tile (every warp alike) · 32 banks of 4 bytes · computed by --analyze")
    return fig


def _bank_panel(ax, vt: int, access: dict) -> None:
    banks = access["banks"]
    ways = access["ways"]
    bits = access["bits"]
    width = access.get("width_words", bits // 32)
    steps = len(banks)
    lanes = len(banks[0]) if banks else 0
    for step in range(steps):
        for lane in range(lanes):
            way = ways[step][lane]
            shade = _shade(way)
            face = _mix(_CONFLICT, shade) if way > 1 else _LIGHT
            ax.add_patch(Rectangle((step, lane), 1, 1, facecolor=face, edgecolor="white", linewidth=1.2))
            bank = banks[step][lane]
            text = str(bank) if width == 1 else f"{bank}–{bank + width - 1}"
            ax.text(step + 0.5, lane + 0.5, text, ha="center", va="center", fontsize=12,
                    fontweight="bold" if way > 1 else "normal", color="white" if shade > 0.6 else style.INK)
    phase = access["lanes_per_phase"]
    if phase < lanes:
        for boundary in range(phase, lanes, phase):
            ax.axhline(boundary, color=style.INK, linewidth=2.2)
    ax.set_xlim(0, steps)
    ax.set_ylim(lanes, 0)
    ax.set_xticks([step + 0.5 for step in range(steps)])
    if width == 1:
        ax.set_xticklabels([str(step) for step in range(steps)])
        ax.set_xlabel("step i (word t·VT + i)")
    else:
        ax.set_xticklabels([f"{step * width}–{step * width + width - 1}" for step in range(steps)])
        ax.set_xlabel("words of the access")
    ax.xaxis.set_label_position("top")
    ax.xaxis.tick_top()
    ax.set_yticks([lane + 0.5 for lane in range(0, lanes, 4)])
    ax.set_yticklabels([str(lane) for lane in range(0, lanes, 4)])
    ax.set_ylabel("lane")
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    instruction = access.get("instruction", "LDS" if width == 1 else f"LDS.{bits}")
    ax.set_title(f"VT = {vt}, {bits}-bit ({instruction})\n{_cost_text(access)}", fontsize=14, fontweight="bold",
                 pad=10)


def _shade(way: int) -> float:
    """How strongly a k-way conflict is shaded, the same in every figure: 2-way light, 32-way full."""
    if way <= 1:
        return 0.0
    return 0.3 + 0.7 * (math.log2(way) - 1) / 4


def _mix(color: str, amount: float) -> str:
    """@p color blended with white: amount 0 is white, 1 the color itself."""
    rgb = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(255 - (255 - c) * amount) for c in rgb]
    return "#" + "".join(f"{c:02X}" for c in mixed)


# ----------------------------------------------------------------------------------------------
# transpose

def _transpose(document: dict, title: str, sub: str):
    tile = _require(document, "example_tile")
    nt = _require(tile, "nt", "example_tile")
    vt = _require(tile, "vt", "example_tile")
    strided = _require(tile, "strided", "example_tile")
    thread_order = _require(tile, "thread_order", "example_tile")
    if len(strided) != nt or len(thread_order) != nt or any(len(row) != vt for row in strided + thread_order):
        raise ReportError("example_tile: its tables are not nt rows of vt items")
    fig = style.new_figure(18.0, 7.8)
    grid = fig.add_gridspec(2, 3, height_ratios=[0.001, 1])
    header = _header(fig, grid)
    before, shared, after = (fig.add_subplot(grid[1, k]) for k in range(3))
    watched = 1 if nt > 1 else 0  # the thread whose items are outlined
    mine = set(thread_order[watched])
    _item_panel(before, strided, vt, mine, [f"t{t}" for t in range(nt)], "step i (register x[i])",
                f"1. after the strided loads\nx[i] = in[i·{nt} + t]: each step one coalesced line")
    words = [[row * vt + i for i in range(vt)] for row in range(nt)]
    _item_panel(shared, words, vt, mine, [f"words {row * vt}–{row * vt + vt - 1}" for row in range(nt)],
                "offset in the row",
                f"2. shared memory, word w = item w\nstored at word i·{nt} + t, read at word t·{vt} + i")
    _item_panel(after, thread_order, vt, mine, [f"t{t}" for t in range(nt)], "step i (register x[i])",
                f"3. after the thread-order reads\nthread t holds items t·{vt} … t·{vt} + {vt - 1}")
    style.caption(fig, [
        f"Each number is an item of the tile (its offset from the tile's first element). Color: the thread that owns"
        f" it after the transpose (item ÷ {vt});",
        f"outlined: the items of thread {watched}. The stores write each column of 1 into a row of 2, the reads"
        " hand each row of 2 to one thread; the bank diagram shows what those reads cost.",
    ])
    _titles(fig, header, document, "transpose", title, sub,
            "the index maps of common/algorithm/tile_layout.hpp, as the kernels call them · computed by --analyze")
    return fig


def _item_panel(ax, items: list, vt: int, mine: set, row_labels: list, xlabel: str, heading: str) -> None:
    rows = len(items)
    columns = len(items[0])
    for r, row in enumerate(items):
        for i, item in enumerate(row):
            owner = item // vt
            ax.add_patch(Rectangle((i, r), 1, 1, facecolor=_mix(_OWNERS[owner % len(_OWNERS)], 0.45),
                                   edgecolor="white", linewidth=1.5))
            if item in mine:
                ax.add_patch(Rectangle((i + 0.07, r + 0.07), 0.86, 0.86, facecolor="none", edgecolor=style.INK,
                                       linewidth=2.6))
            ax.text(i + 0.5, r + 0.5, str(item), ha="center", va="center", fontsize=14)
    ax.set_xlim(0, columns)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    ax.set_xticks([i + 0.5 for i in range(columns)])
    ax.set_xticklabels([str(i) for i in range(columns)])
    ax.set_yticks([r + 0.5 for r in range(rows)])
    ax.set_yticklabels(row_labels)
    ax.set_xlabel(xlabel)
    ax.xaxis.set_label_position("top")
    ax.xaxis.tick_top()
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_title(heading, fontsize=14, fontweight="bold", pad=10)


# ----------------------------------------------------------------------------------------------
# lookback

def _lookback(document: dict, title: str, sub: str):
    lookback = _require(document, "lookback")
    windows = _require(lookback, "windows", "lookback")
    tile = _require(lookback, "tile", "lookback")
    if not windows:
        raise ReportError("lookback: no window")
    rows = []  # (window, poll index, states)
    for window in windows:
        for key in ("tiles", "polls", "folded_lanes", "window_value", "prefix"):
            _require(window, key, "a look-back window")
        for k, states in enumerate(window["polls"]):
            rows.append((window, k, states))
    lanes = len(windows[0]["tiles"])
    fig = style.new_figure(17.5, 2.4 + _PITCH * len(rows))
    ax = fig.add_subplot()
    ax.text(0, -0.75, f"◀ older tiles (lane {lanes - 1})", ha="left", va="bottom", fontsize=13, color=style.MUTED)
    ax.text(lanes, -0.75, "(lane 0) the nearest predecessor ▶", ha="right", va="bottom", fontsize=13,
            color=style.MUTED)
    for r, (window, k, states) in enumerate(rows):
        _lookback_row(ax, r, window, k, states, lanes, tile, lookback, r == len(rows) - 1)
    ax.set_xlim(-0.2, lanes + 3.0)
    ax.set_ylim(_PITCH * len(rows) + 0.1, -1.3)
    ax.axis("off")
    keys = "   ".join(_STATE_NAMES[state] for state in ("X", "A", "P"))
    aggregate = lookback.get("aggregate")
    style.caption(fig, [
        f"Each row is one poll by the warp: lane l reads the status of tile (window end − 1 − l); older tiles"
        f" on the left. {keys}.",
        f"Every tile's aggregate here is {aggregate}, so a prefix counts tiles: tile {tile}'s exclusive prefix is"
        f" {lookback.get('exclusive_prefix')}, its inclusive prefix {lookback.get('inclusive_prefix')}."
        " Faded: lanes past the nearest P, not folded.",
    ])
    _titles(fig, ax, document, "lookback", title, sub,
            "common/device/lookback.cuh's look_back replayed on the CPU by --analyze (lookback_replay.cpp)")
    return fig


_PITCH = 1.95  # rows of the look-back diagram, in cell heights


def _lookback_row(ax, r: int, window: dict, k: int, states: list, lanes: int, tile: int, lookback: dict,
                  last: bool) -> None:
    y = _PITCH * r
    last_poll = k == len(window["polls"]) - 1
    folded = window["folded_lanes"] if last_poll else 0
    tiles = window["tiles"]
    for lane in range(lanes):
        x = lanes - 1 - lane  # lane 0 (the nearest predecessor) on the right
        state = states[lane]
        faded = last_poll and lane >= folded
        face = _mix(_STATE_COLORS.get(state, "#FFFFFF"), 0.35 if faded else 1.0)
        ax.add_patch(Rectangle((x, y), 1, 1, facecolor=face, edgecolor="white", linewidth=1.5))
        ax.text(x + 0.5, y + 0.5, state, ha="center", va="center", fontsize=16, fontweight="bold",
                color=style.MUTED if faded else style.INK)
        ax.text(x + 0.5, y - 0.08, str(tiles[lane]), ha="center", va="bottom", fontsize=12, color=style.MUTED)
    # This tile, at the right end: it has published its aggregate and waits for its prefix.
    ax.add_patch(Rectangle((lanes + 0.6, y), 1.6, 1, facecolor=_STATE_COLORS["A"], edgecolor=style.INK,
                           linewidth=2.0))
    ax.text(lanes + 1.4, y + 0.5, "A", ha="center", va="center", fontsize=16, fontweight="bold")
    ax.text(lanes + 1.4, y - 0.08, f"tile {tile}", ha="center", va="bottom", fontsize=12, color=style.INK)
    if last:
        ax.text(lanes + 1.4, y + 1.12, f"then P = {lookback.get('inclusive_prefix')}", ha="center", va="top",
                fontsize=13, fontweight="bold")
    if last_poll:
        left = lanes - folded
        ax.add_patch(Rectangle((left + 0.04, y + 0.04), folded - 0.08, 0.92, facecolor="none", edgecolor=style.INK,
                               linewidth=2.6))
    ax.text(0, y + 1.12, _row_text(window, k, states), ha="left", va="top", fontsize=13,
            color=style.INK)


def _row_text(window: dict, k: int, states: list) -> str:
    label = f"window ending at tile {window['window_end'] - 1}, poll {k + 1}: "
    if k < len(window["polls"]) - 1:
        late = [str(window["tiles"][lane]) for lane, state in enumerate(states) if state == "X"]
        return label + f"tiles {', '.join(sorted(late, key=int))} have published nothing (X): the warp polls again"
    nearest = window.get("nearest_inclusive")
    value = window["window_value"]
    if nearest is None:
        return (label + f"no P: fold all {window['folded_lanes']} aggregates ({value}), move the window 32 tiles"
                f" back; prefix so far {window['prefix']}")
    p_tile = window["tiles"][nearest]
    return (label + f"nearest P is tile {p_tile} (lane {nearest}): fold it and the {nearest} aggregates after it"
            f" ({value}); exclusive prefix {window['prefix']}")


register(KIND, sys.modules[__name__])
