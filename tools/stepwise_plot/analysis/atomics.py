"""Chapter 05's diagrams, from `chapter_05_atomics --analyze --format json` ("analysis": "atomics-peers").

Two figures, each drawn from the lanes the chapter replayed with the kernels' own lane arithmetic
(common/algorithm/warp_aggregate.hpp):
  - peers: Westphal's ballot loop on his 8-lane example, iteration by iteration: the unassigned
    lanes, the leader whose key is broadcast, the ballot of the lanes holding it, and the peer
    mask every lane ends with;
  - subtree: the sub-tree reduction of his 16-lane example, round by round: each lane's value,
    an arrow for every add whose sum is read on, the lanes whose values were taken greyed, and
    the leaders' sums.
"""
import sys
from typing import Dict, List

from matplotlib.patches import FancyArrowPatch, Rectangle

from .. import style
from ..report import ReportError
from . import register, require

KIND = "atomics-peers"
FIGURES = ("peers", "subtree")

_KEY_COLORS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#F0E442", "#0072B2")  # Okabe-Ito, by key rank
_GONE = "#E6E6E6"   # a lane that has left the loop, or whose value was taken
_OUTSIDE = "#FFFFFF"


def figures(document: dict) -> List[str]:
    """The diagrams this document draws: both (it always holds their data)."""
    for key in ("ballot_example", "subtree_example"):
        _require(document, key)
    return list(FIGURES)


def default_title(document: dict, figure: str) -> str:
    """The title of each diagram."""
    if figure == "peers":
        lanes = document.get("ballot_example", {}).get("lanes")
        return f"Chapter 05 atomics: finding peers with the ballot loop ({lanes} lanes, Westphal's example)"
    lanes = document.get("subtree_example", {}).get("lanes")
    return f"Chapter 05 atomics: the sub-tree reduction of Westphal's {lanes}-lane example"


def draw(document: dict, figure: str, title: str = None, sub: str = None):
    """One of FIGURES."""
    if figure == "peers":
        return _peers(document, title, sub)
    if figure == "subtree":
        return _subtree(document, title, sub)
    raise ReportError(f"--figure {figure}: this document draws {', '.join(FIGURES)}")


def _require(mapping, key: str, where: str = "the --analyze document"):
    return require(mapping, key, where, "chapter_05_atomics")


def _key_colors(keys: List[int]) -> Dict[int, str]:
    """One color per distinct key, in increasing key order (the same key, the same color, in both figures)."""
    return {key: _KEY_COLORS[i % len(_KEY_COLORS)] for i, key in enumerate(sorted(set(keys)))}


def _mix(color: str, amount: float) -> str:
    """@p color blended with white: amount 0 is white, 1 the color itself."""
    rgb = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(255 - (255 - c) * amount) for c in rgb]
    return "#" + "".join(f"{c:02X}" for c in mixed)


def _lanes_of(mask: int, lanes: int) -> List[int]:
    return [lane for lane in range(lanes) if mask >> lane & 1]


def _cell(ax, x: float, y: float, face: str, text: str, bold: bool = False, color: str = style.INK,
          edge: str = "white", width: float = 1.5, size: int = 15) -> None:
    ax.add_patch(Rectangle((x, y), 1, 1, facecolor=face, edgecolor=edge, linewidth=width))
    ax.text(x + 0.5, y + 0.5, text, ha="center", va="center", fontsize=size, color=color,
            fontweight="bold" if bold else "normal")


def _lane_axis(ax, lanes: int, rows: int, left_labels: List[str]) -> None:
    ax.set_xlim(-0.1, lanes + 0.1)
    ax.set_ylim(rows + 0.1, -1.2)
    for lane in range(lanes):
        ax.text(lane + 0.5, -0.35, f"lane {lane}" if lanes <= 8 else str(lane), ha="center", va="bottom",
                fontsize=13, color=style.MUTED)
    for row, label in enumerate(left_labels):
        ax.text(-0.25, row + 0.5, label, ha="right", va="center", fontsize=14)
    ax.axis("off")


# ----------------------------------------------------------------------------------------------
# peers

def _peers(document: dict, title: str, sub: str):
    example = _require(document, "ballot_example")
    for key in ("lanes", "keys", "iterations", "peers"):
        _require(example, key, "ballot_example")
    lanes = example["lanes"]
    keys = example["keys"]
    iterations = example["iterations"]
    peers = example["peers"]
    if len(keys) != lanes or len(peers) != lanes or not iterations:
        raise ReportError("ballot_example: its keys, peers and iterations do not describe its lanes")
    colors = _key_colors(keys)
    rows = 2 + len(iterations)
    fig = style.new_figure(17.0, 2.6 + 1.25 * rows)
    ax = fig.add_subplot()
    labels = ["key"]
    for row, key in enumerate(keys):
        _cell(ax, row, 0, colors[key], str(key), bold=True)
    for i, iteration in enumerate(iterations, start=1):
        for item in ("leader", "key", "unassigned", "ballot", "ballot_bits"):
            _require(iteration, item, f"iteration {i} of the ballot loop")
        labels.append(f"iteration {i}")
        for lane in range(lanes):
            unassigned = iteration["unassigned"] >> lane & 1
            voted = iteration["ballot"] >> lane & 1
            if not unassigned:
                _cell(ax, lane, i, _GONE, "", color=style.MUTED)
            elif voted:
                _cell(ax, lane, i, colors[keys[lane]], "1", bold=True)
            else:
                _cell(ax, lane, i, _mix(colors[keys[lane]], 0.18), "0", color=style.MUTED)
        leader = iteration["leader"]
        ax.add_patch(Rectangle((leader + 0.06, i + 0.06), 0.88, 0.88, facecolor="none", edgecolor=style.INK,
                               linewidth=3.0))
        ax.text(lanes + 0.3, i + 0.5,
                f"lane {leader} leads, key {iteration['key']}: __ballot_sync = {iteration['ballot_bits']}"
                f" = 0x{iteration['ballot']:02x}", ha="left", va="center", fontsize=14)
    last = len(iterations) + 1
    labels.append("peers")
    for lane in range(lanes):
        _cell(ax, lane, last, _mix(colors[keys[lane]], 0.55), f"0x{peers[lane]:02x}", size=14)
    ax.text(lanes + 0.3, last + 0.5, "each lane's peer mask: what __match_any_sync returns in one instruction",
            ha="left", va="center", fontsize=14)
    _lane_axis(ax, lanes, rows, labels)
    ax.set_xlim(-2.2, lanes + 9.5)
    style.caption(fig, [
        "Each iteration the lowest unassigned lane (outlined) broadcasts its key (__shfl_sync); the unassigned lanes"
        " vote whether they hold it (__ballot_sync);",
        "the voters take the ballot as their peer mask and leave (grey). The loop runs once per distinct key."
        f" Masks are written as the slides write them: a binary number, lane 0 on the right.",
    ])
    style.add_titles(fig, ax, default_title(document, "peers") if title is None else title,
                     "common/algorithm/warp_aggregate.hpp's ballot_loop, replayed by --analyze (Westphal, GTC 2015 S5151,"
                     " slides 9-15)" if sub is None else sub)
    return fig


# ----------------------------------------------------------------------------------------------
# subtree

def _subtree(document: dict, title: str, sub: str):
    example = _require(document, "subtree_example")
    for key in ("lanes", "keys", "peers", "ranks", "values", "rounds", "leaders"):
        _require(example, key, "subtree_example")
    lanes = example["lanes"]
    keys = example["keys"]
    rounds = example["rounds"]
    if len(keys) != lanes or len(example["values"]) != lanes:
        raise ReportError("subtree_example: its keys and values do not describe its lanes")
    for number, round_ in enumerate(rounds, start=1):
        for key in ("adds", "taken", "values"):
            _require(round_, key, f"round {number} of the sub-tree")
    colors = _key_colors(keys)
    leaders = {leader["lane"]: leader for leader in example["leaders"]}
    fig = style.new_figure(19.0, 3.4 + 1.55 * (len(rounds) + 1))
    ax = fig.add_subplot()
    pitch = 1.55  # rows, in cell heights: room for the arrows between them
    labels_y = []
    taken = 0
    for row in range(len(rounds) + 1):
        y = pitch * row
        values = example["values"] if row == 0 else rounds[row - 1]["values"]
        for lane in range(lanes):
            gone = taken >> lane & 1
            last = row == len(rounds)
            is_leader = lane in leaders
            face = _GONE if gone else _mix(colors[keys[lane]], 1.0 if (last and is_leader) else 0.45)
            _cell(ax, lane, y, face, str(values[lane]), bold=last and is_leader,
                  color=style.MUTED if gone else style.INK)
        labels_y.append((y, "values" if row == 0 else f"round {row}"))
        if row < len(rounds):
            for add in rounds[row]["adds"]:
                if not add.get("used"):
                    continue
                arrow = FancyArrowPatch((add["source"] + 0.5, y + 1.0), (add["lane"] + 0.5, y + pitch),
                                        arrowstyle="-|>", mutation_scale=16, linewidth=1.8,
                                        color=_mix(colors[keys[add["lane"]]], 1.0), shrinkA=2, shrinkB=2)
                ax.add_patch(arrow)
            taken |= rounds[row]["taken"]
    # The key row and the rank row above the values.
    for lane in range(lanes):
        ax.text(lane + 0.5, -1.05, str(keys[lane]), ha="center", va="center", fontsize=14, fontweight="bold",
                color=colors[keys[lane]])
        ax.text(lane + 0.5, -0.45, str(example["ranks"][lane]), ha="center", va="center", fontsize=13,
                color=style.MUTED)
        ax.text(lane + 0.5, -1.65, str(lane), ha="center", va="center", fontsize=13, color=style.MUTED)
    for y, label in [(-1.65 - 0.5, "lane"), (-1.05 - 0.5, "key"), (-0.45 - 0.5, "rank")] + labels_y:
        ax.text(-0.25, y + 0.5, label, ha="right", va="center", fontsize=14)
    bottom = pitch * len(rounds) + 1.0
    sums = "   ".join(f"lane {leader['lane']} (key {leader['key']}): {leader['sum']}"
                      for leader in example["leaders"])
    ax.text(lanes / 2, bottom + 0.45, f"leaders after {len(rounds)} rounds: {sums}: "
            f"{len(example['leaders'])} atomics instead of {lanes}",
            ha="center", va="top", fontsize=15, fontweight="bold")
    ax.set_xlim(-2.4, lanes + 0.2)
    ax.set_ylim(bottom + 1.3, -2.1)
    ax.axis("off")
    style.caption(fig, [
        "Each round every lane adds the value of its nearest remaining peer above it (an arrow: the adds whose"
        " sums are read on); the lanes of odd rank are then taken (grey)",
        "and the ranks halve. A lane that is taken still adds (the whole warp shuffles), but nobody reads its sum."
        " Color: the key; the peer masks are the slides', the keys are named 1, 2, 3 here.",
    ])
    style.add_titles(fig, ax, default_title(document, "subtree") if title is None else title,
                     "common/algorithm/warp_aggregate.hpp's SubtreeLane, replayed by --analyze (Westphal, GTC 2015 S5151,"
                     " slides 19-20)" if sub is None else sub)
    return fig


register(KIND, sys.modules[__name__])
