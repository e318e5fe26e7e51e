"""Chapter 01's --analyze diagrams, from `chapter_01_reduction --analyze --format json`.

The document (kind "reduction-addressing", written by analysis_json in
chapters/01_reduction/reduce_analysis.cpp) replays the index maps that kernels 1 to 3 call
(addressing.hpp) on the CPU. Two figures:

- "trees": the addition tree of each of Harris's kernels 1, 2 and 3 over a small block
  (`tree_elements` words, --tree-block): at every step, which thread adds which word into which,
  and the values after it (the slides' example input); side by side up to 16 words, stacked above.
- "banks": kernel 2's warp 0 at every stride of a `block`-thread block: the shared-memory bank of
  each lane's word, the lanes that share a bank with another word highlighted, and the conflict
  degree of the access.

Schema (what this module reads; other fields are ignored):
  {"analysis": "reduction-addressing", "chapter": {"id", "name", "title"}, "block", "banks",
   "tree_elements", "tree_input": [...],
   "schemes": [{"kernel", "stage", "name", "formula",
                "steps": [{"step", "stride", "conflict_degree",
                           "warp0": {"conflict_degree", "lanes": [{"lane", "thread", "active",
                                     "left", "right", "left_bank", "right_bank", "left_ways",
                                     "right_ways"}]}}],
                "tree": [{"step", "stride", "adds": [{"thread", "left", "right"}], "values": [...]}]}]}
Inactive lanes carry only "lane", "thread" and "active": false.
"""
import sys

from matplotlib.patches import Rectangle

from .. import style
from ..report import ReportError
from . import register

FIGURES = ("trees", "banks")

_WRITTEN = style.STAGE     # a word written at this step
_CONFLICT = style.LIBRARY  # vermillion: a lane whose bank holds another word of the same access
_CLEAN = "#56B4E9"         # sky blue (Okabe-Ito): an active lane alone in its bank
_IDLE = "#EEEEEE"          # a lane that does not add at this step
_FAINT = "#9A9A9A"         # values not written at this step
_EDGE = "#333333"
_SIDE_BY_SIDE_MAX = 16     # trees of more words are stacked, so their values stay legible
_SPACING = 1.25            # tree: data units from one row of values to the next
_LEFT_MARGIN = 2.0         # tree: data units left of word 0, for the row labels
_DEGREE_COLUMNS = 3.2      # banks: lane-widths right of the last lane, for the k-way labels
_FORMULA_WIDTH = 36        # trees: characters of code per line above a panel


def figures(document: dict) -> list:
    """The figures a reduction-addressing document draws: trees and banks."""
    _schemes(document)
    return list(FIGURES)


def default_title(document: dict, figure: str) -> str:
    """The title of each figure."""
    chapter = _chapter(document)
    if figure == "trees":
        return f"Chapter {chapter}: who adds what, kernels 1, 2 and 3"
    return f"Chapter {chapter}: kernel 2's lanes and their shared-memory banks"


def draw(document: dict, figure: str, title: str = None, sub: str = None):
    """The figure named `figure` ("trees" or "banks") of the document."""
    if figure == "trees":
        return _draw_trees(document, title, sub)
    if figure == "banks":
        return _draw_banks(document, title, sub)
    raise ReportError(f"--figure {figure}: this document draws {', '.join(FIGURES)}")


# ---------------------------------------------------------------------------------------------
# Reading the document


def _field(mapping: dict, name: str, where: str):
    if not isinstance(mapping, dict) or name not in mapping:
        raise ReportError(f"not a complete reduction-addressing document: {where} has no '{name}'")
    return mapping[name]


def _chapter(document: dict) -> str:
    chapter = document.get("chapter") or {}
    text = " ".join(str(chapter[key]) for key in ("id", "name") if chapter.get(key))
    return style.plain(text or "01 reduction")


def _schemes(document: dict) -> list:
    schemes = _field(document, "schemes", "the document")
    if not isinstance(schemes, list) or not schemes:
        raise ReportError("not a complete reduction-addressing document: 'schemes' is empty")
    for scheme in schemes:
        for name in ("kernel", "name", "formula", "steps", "tree"):
            _field(scheme, name, "a scheme")
    return schemes


def _scheme(document: dict, kernel: int) -> dict:
    for scheme in _schemes(document):
        if scheme["kernel"] == kernel:
            return scheme
    raise ReportError(f"the document has no kernel {kernel}")


def _label(scheme: dict) -> str:
    """`Kernel 2 (stage 3): interleaved-strided`."""
    stage = f" (stage {scheme['stage']})" if scheme.get("stage") else ""
    return f"Kernel {scheme['kernel']}{stage}: {style.plain(scheme['name'])}"


def _formula_lines(formula: str) -> str:
    """The kernel's line of code, split after each `;` and after a long line's `if (...)`, so that it fits a panel."""
    parts = [part.strip() for part in formula.split(";") if part.strip()]
    lines = []
    for i, part in enumerate(parts):
        text = part + (";" if i + 1 < len(parts) else "")
        condition = _condition_end(text) if len(text) > _FORMULA_WIDTH else None
        if condition is None:
            lines.append(text)
        else:
            lines += [text[:condition], "    " + text[condition:].strip()]
    return "\n".join(lines)


def _condition_end(text: str):
    """The index just past the `)` that closes a leading `if (`, or None."""
    if not text.startswith("if ("):
        return None
    depth = 0
    for index, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == ")" and depth == 0:
            return index + 1
    return None


# ---------------------------------------------------------------------------------------------
# trees


def _draw_trees(document: dict, title: str, sub: str):
    schemes = [_scheme(document, kernel) for kernel in (1, 2, 3)]
    elements = _field(document, "tree_elements", "the document")
    values = _field(document, "tree_input", "the document")
    if len(values) != elements:
        raise ReportError(f"tree_input has {len(values)} values for {elements} words")
    steps = max(len(scheme["tree"]) for scheme in schemes)
    formula_lines = max(_formula_lines(scheme["formula"]).count("\n") + 1 for scheme in schemes)
    side_by_side = elements <= _SIDE_BY_SIDE_MAX
    column = 0.28 if side_by_side else max(0.26, min(0.5, 15.5 / elements))  # inches per word
    panel_width = 0.6 + column * (elements + _LEFT_MARGIN)
    panel_height = 0.8 + 0.62 * (steps * _SPACING + _formula_top(formula_lines) + 0.6)
    if side_by_side:
        fig = style.new_figure(max(12.0, 3 * panel_width), panel_height + 2.4)
    else:
        fig = style.new_figure(max(12.0, panel_width), 3 * panel_height + 2.4)
    body = _titled(fig, default_title(document, "trees") if title is None else title,
                   _trees_subtitle(document, elements) if sub is None else sub)
    axes = body.subplots(1, 3, squeeze=False)[0] if side_by_side else body.subplots(3, 1, squeeze=False)[:, 0]
    for ax, scheme in zip(axes, schemes):
        _draw_tree(ax, scheme, values, steps, formula_lines)
    total = sum(values)
    finals = {scheme["tree"][-1]["values"][0] for scheme in schemes if scheme["tree"]}
    check = f"every tree leaves the sum, {total}, in word 0" if finals == {total} else \
        f"word 0 ends as {', '.join(str(value) for value in sorted(finals))}; the input sums to {total}"
    style.caption(body, ["t3 above a box: thread 3 adds there; line from above: the word it adds into, "
                         "arrow: the word it reads; blue: written at this step, gray: unchanged",
                         check])
    return fig


def _titled(fig, title: str, sub: str):
    """The title at the top of the figure, the subtitle as the heading of a subfigure holding the panels."""
    if title:
        fig.suptitle(title)
    body = fig.subfigures(1, 1)
    if sub:
        body.suptitle(sub, fontsize=14, color=style.MUTED, fontweight="normal")
    return body


def _trees_subtitle(document: dict, elements: int) -> str:
    return (f"a block of {elements} threads summing {elements} words of shared memory "
            f"(--tree-block {elements}), as addressing.hpp's thread_work replays it")


def _draw_tree(ax, scheme: dict, values: list, steps: int, formula_lines: int) -> None:
    elements = len(values)
    spacing = _SPACING  # vertical distance between two rows of values
    half = 0.3          # half the height of a value's box
    formula = _formula_lines(scheme["formula"])
    top = _formula_top(formula_lines)
    ax.set_xlim(-_LEFT_MARGIN - 0.5, elements - 0.4)
    ax.set_ylim(-(steps * spacing) - 0.45, top + 0.1)
    ax.axis("off")
    ax.set_title(_label(scheme), loc="left", fontsize=15, fontweight="bold")
    ax.text(-_LEFT_MARGIN - 0.5, top, formula, ha="left", va="top", fontsize=12, family="DejaVu Sans Mono",
            color=style.INK)
    ax.text(-0.6, 0, "input", ha="right", va="center", fontsize=13, color=style.MUTED)
    for x, value in enumerate(values):
        _box(ax, x, 0, half, str(value), fill="white", edge=_EDGE, color=style.INK)
    current = list(values)
    for row, level in enumerate(scheme["tree"], start=1):
        y = -row * spacing
        above = y + spacing
        ax.text(-0.6, y, f"s = {level['stride']}", ha="right", va="center", fontsize=13, color=style.MUTED)
        written = {}
        for add in level["adds"]:
            left, right = add["left"], add["right"]
            ax.plot([left, left], [above - half, y + half], color=_EDGE, linewidth=1.4, zorder=1)
            ax.annotate("", xy=(left, y + half), xytext=(right, above - half),
                        arrowprops={"arrowstyle": "-|>", "color": _EDGE, "linewidth": 1.4, "shrinkA": 0,
                                    "shrinkB": 0, "mutation_scale": 12}, zorder=1)
            written[left] = add["thread"]
        after = level.get("values") or current
        for x, value in enumerate(after):
            if x in written:
                _box(ax, x, y, half, str(value), fill=_WRITTEN, edge=_WRITTEN, color="white")
                ax.text(x, y + half + 0.08, f"t{written[x]}", ha="center", va="bottom", fontsize=12,
                        fontweight="bold", color=style.INK, zorder=4, bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.4})
            else:
                ax.text(x, y, str(value), ha="center", va="center", fontsize=12, color=_FAINT, zorder=2)
        current = after


def _formula_top(lines: int) -> float:
    """Where the code above a tree starts (data units above the input row): room for its lines."""
    return 0.5 + 0.36 * lines


def _box(ax, x: float, y: float, half: float, text: str, fill: str, edge: str, color: str) -> None:
    ax.add_patch(Rectangle((x - 0.42, y - half), 0.84, 2 * half, facecolor=fill, edgecolor=edge, linewidth=1.2,
                           zorder=3))
    ax.text(x, y, text, ha="center", va="center", fontsize=12, fontweight="bold", color=color, zorder=4)


# ---------------------------------------------------------------------------------------------
# banks


def _draw_banks(document: dict, title: str, sub: str):
    scheme = _scheme(document, 2)
    steps = scheme["steps"]
    if not steps:
        raise ReportError("kernel 2 has no steps to draw")
    for step in steps:
        lanes = _field(_field(step, "warp0", "a step"), "lanes", "a step's warp0")
        if not lanes:
            raise ReportError("a step of kernel 2 has no lanes")
    lanes_across = max(len(step["warp0"]["lanes"]) for step in steps)
    same = all(_same_conflicts(step) for step in steps)
    sides = ("left",) if same else ("left", "right")
    rows = [(step, side) for step in steps for side in sides]
    fig = style.new_figure(max(12.0, 3.0 + 0.46 * (lanes_across + _DEGREE_COLUMNS)), 3.2 + 0.56 * len(rows))
    ax = fig.add_subplot()
    for index, (step, side) in enumerate(rows):
        _draw_lane_row(ax, index, step, side, same)
    ax.set_xlim(-0.5, lanes_across - 0.5 + _DEGREE_COLUMNS)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xticks(range(lanes_across))
    ax.set_xticklabels([str(lane) for lane in range(lanes_across)], fontsize=12)
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.set_xlabel("lane of warp 0 (= thread)", labelpad=8)
    ax.tick_params(length=0)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([_row_label(step, side, same) for step, side in rows], fontsize=13)
    for spine in ax.spines.values():
        spine.set_visible(False)
    banks = document.get("banks", 32)
    key = [f"number: the bank (word mod {banks}) of the word the lane reads and writes; gray: the lane does not add",
           "vermillion, bold: that bank holds other words of the same access, which the bank serves one at a time: "
           "the access is replayed k times (k-way)"]
    if same:
        key.append("the other read of the step, sdata[index + s], falls s banks further on (mod 32), with the same "
                   "conflicts")
    style.caption(fig, key)
    block = _field(document, "block", "the document")
    subtitle = (f"{_label(scheme)}, {style.plain(scheme['formula'])}  ·  warp 0 of a {block}-thread block"
                if sub is None else sub)
    style.add_titles(fig, ax, default_title(document, "banks") if title is None else title, subtitle)
    return fig


def _same_conflicts(step: dict) -> bool:
    """True when the step's right words conflict lane for lane as its left words do."""
    return all(lane.get("left_ways") == lane.get("right_ways") for lane in step["warp0"]["lanes"] if lane["active"])


def _row_label(step: dict, side: str, same: bool) -> str:
    if same:
        return f"s = {step['stride']}"
    return f"s = {step['stride']}, " + ("sdata[index]" if side == "left" else "sdata[index + s]")


def _draw_lane_row(ax, row: int, step: dict, side: str, same: bool) -> None:
    lanes = step["warp0"]["lanes"]
    for lane in lanes:
        x = lane["lane"]
        if not lane["active"]:
            ax.add_patch(Rectangle((x - 0.46, row - 0.42), 0.92, 0.84, facecolor=_IDLE, edgecolor="none"))
            continue
        conflicted = lane[f"{side}_ways"] > 1
        ax.add_patch(Rectangle((x - 0.46, row - 0.42), 0.92, 0.84,
                               facecolor=_CONFLICT if conflicted else _CLEAN, edgecolor="none"))
        ax.text(x, row, str(lane[f"{side}_bank"]), ha="center", va="center", fontsize=12,
                fontweight="bold" if conflicted else "normal", color="white" if conflicted else style.INK)
    degree = max((lane[f"{side}_ways"] for lane in lanes if lane["active"]), default=0)
    text = "conflict free" if degree <= 1 else f"{degree}-way"
    ax.text(len(lanes) - 0.2, row, text, ha="left", va="center", fontsize=14,
            fontweight="normal" if degree <= 1 else "bold", color=style.INK if degree <= 1 else _CONFLICT,
            clip_on=False)


register("reduction-addressing", sys.modules[__name__])
