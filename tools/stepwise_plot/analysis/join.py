"""Chapter 08's diagrams, from `chapter_08_join --analyze --format json` ("analysis": "join",
written by analysis_json in chapters/08_join/analysis.cpp with the sorted search and the
load-balancing search the kernels run).

Two figures:
  - expansion: the talk's inner-join walk-through. Above, the input domain, one column per A row:
    its key, the sorted searches' LB and UB in B, the count UB - LB and its exclusive scan. Below,
    the output domain, one column per output row: the load-balancing search's A row (LBS), its
    rank, and the B row LB[LBS] + RANK. Bands join each A row to the output rows it expands into
    (SCAN[i] .. SCAN[i + 1]);
  - load-balance: that expansion as the merge of the output rows with the A rows' offsets, cut
    into tiles (load_balance.py, shared with chapter 03).

Schema (what this module reads; other fields are ignored):
  {"analysis": "join", "chapter": "08",
   "inner_join": {"a": [letters], "b": [letters], "lower", "upper", "counts", "scan" (one more entry: the total),
                  "lbs", "scan_at_lbs", "rank", "b_row"},
   "load_balance": {... load_balance.py's schema, and "slide_items"}}
"""
import sys

from matplotlib.patches import Polygon, Rectangle

from .. import style
from ..report import ReportError
from . import load_balance, register, require

KIND = "join"
FIGURES = ("expansion", "load-balance")

_GAP = 3.2  # between the input and the output domain, in cell heights


def _field(mapping, key: str, where: str = "the --analyze document"):
    return require(mapping, key, where, "chapter_08_join")


def figures(document: dict) -> list:
    """Both diagrams (the document always holds their data)."""
    _field(document, "inner_join")
    _field(document, "load_balance")
    return list(FIGURES)


def default_title(document: dict, figure: str) -> str:
    """The title of each diagram."""
    if figure == "expansion":
        walk = document.get("inner_join", {})
        return (f"Chapter 08 join: the talk's inner join, {len(walk.get('a', []))} A rows expand into"
                f" {len(walk.get('lbs', []))} output rows")
    lbs = document.get("load_balance", {})
    return (f"Chapter 08 join: the expansion as a load-balancing search, {lbs.get('items')} output rows and"
            f" {len(lbs.get('counts', []))} A rows in tiles")


def draw(document: dict, figure: str, title: str = None, sub: str = None):
    """One of FIGURES."""
    if figure == "expansion":
        return _expansion(document, title, sub)
    if figure == "load-balance":
        lbs = _field(document, "load_balance")
        slide = lbs.get("slide_items")
        items = lbs.get("items")
        objects = len(lbs.get("counts", []))
        default_sub = (f"{items} output rows + {objects} offsets SCAN[0..{objects - 1}] = {items + objects} steps"
                       + (f" (the slide counts {slide}: SCAN[1..{objects - 1}])" if slide is not None else "")
                       + " · computed by --analyze")
        return load_balance.draw(lbs, default_title(document, figure) if title is None else title,
                                 default_sub if sub is None else sub)
    raise ReportError(f"--figure {figure}: this document draws {', '.join(FIGURES)}")


def _expansion(document: dict, title: str, sub: str):
    walk = _field(document, "inner_join")
    where = "inner_join"
    a, b = _field(walk, "a", where), _field(walk, "b", where)
    lower, upper = _field(walk, "lower", where), _field(walk, "upper", where)
    counts, scan = _field(walk, "counts", where), _field(walk, "scan", where)
    lbs, rank, b_row = _field(walk, "lbs", where), _field(walk, "rank", where), _field(walk, "b_row", where)
    scan_at_lbs = _field(walk, "scan_at_lbs", where)
    rows = len(lbs)
    if not (len(lower) == len(upper) == len(counts) == len(a) and len(scan) == len(a) + 1):
        raise ReportError("inner_join: lower, upper, counts need one entry per A row, scan one more")
    if not (len(rank) == len(b_row) == len(scan_at_lbs) == rows == scan[-1]):
        raise ReportError("inner_join: lbs, scan_at_lbs, rank and b_row need one entry per output row (scan's total)")

    inputs = [("A row", list(range(len(a))), None), ("A key", a, None), ("B key", b, "B's keys: column j is B row j"),
              ("LB", lower, "sorted search: first B key ≥ A key"), ("UB", upper, "sorted search: first B key > A key"),
              ("COUNT", counts, "UB − LB"), ("SCAN", scan[:-1], f"exclusive scan: the first output row ({scan[-1]} in all)")]
    outputs = [("output row", list(range(rows)), None), ("LBS", lbs, "the A row (load-balancing search)"),
               ("SCAN[LBS]", scan_at_lbs, None), ("RANK", rank, "row − SCAN[LBS]"),
               ("LB[LBS] + RANK", b_row, "the B row"),
               ("pair", [f"{o},{j}" for o, j in zip(lbs, b_row)], "the output: (A row, B row)")]
    width = max(len(a), rows)
    left, right = -3.6, width + 7.6
    top, bottom = -0.4, len(inputs) + _GAP + len(outputs) + 0.2
    fig_width = 19.0
    fig = style.new_figure(fig_width, 3.4 + (bottom - top) * 0.95 * fig_width / (right - left))
    ax = fig.add_subplot()

    def cell(x, y, text, color, bold=False, size=14):
        ax.add_patch(Rectangle((x, y), 1, 1, facecolor=color, edgecolor="white", linewidth=1.5))
        ax.text(x + 0.5, y + 0.5, str(text), ha="center", va="center", fontsize=size,
                fontweight="bold" if bold else "normal")

    for r, (label, values, note) in enumerate(inputs):
        for i, value in enumerate(values):
            if label == "B key":
                color = "#EEEEEE"
            else:
                color = load_balance.lighten(load_balance.hue(i), 0.4 if counts[i] else 0.12)
            cell(i, r, value, color, bold=label in ("A key", "B key"))
        ax.text(-0.3, r + 0.5, label, ha="right", va="center", fontsize=13, fontweight="bold")
        if note:
            ax.text(len(values) + 0.3, r + 0.5, note, ha="left", va="center", fontsize=12, color=style.MUTED)
    y0 = len(inputs) + _GAP
    for r, (label, values, note) in enumerate(outputs):
        for k, value in enumerate(values):
            cell(k, y0 + r, value, load_balance.lighten(load_balance.hue(lbs[k]), 0.4), bold=label == "LBS",
                 size=12 if label == "pair" else 14)
        ax.text(-0.3, y0 + r + 0.5, label, ha="right", va="center", fontsize=13, fontweight="bold")
        if note:
            ax.text(rows + 0.3, y0 + r + 0.5, note, ha="left", va="center", fontsize=12, color=style.MUTED)
    # Each A row's band: from its column under SCAN to its output rows [SCAN[i], SCAN[i + 1]).
    for i, count in enumerate(counts):
        if count == 0:
            ax.text(i + 0.5, len(inputs) + 0.35, "none", ha="center", va="top", fontsize=11, color=style.MUTED)
            continue
        ax.add_patch(Polygon([(i + 0.06, len(inputs)), (i + 0.94, len(inputs)),
                              (scan[i + 1] - 0.06, y0), (scan[i] + 0.06, y0)],
                             closed=True, facecolor=load_balance.lighten(load_balance.hue(i), 0.45), edgecolor="none"))
    ax.set_xlim(left, right)
    ax.set_ylim(bottom, top)
    ax.set_aspect("equal")
    ax.axis("off")
    keys = " ".join(a)
    style.caption(fig, [
        f"A = {keys}, B = {' '.join(b)}. Above: one column per A row; below: one column per output row,"
        " in the color of the A row it comes from.",
        "A row i emits COUNT[i] = UB − LB rows, starting at row SCAN[i] (the band); a row with no match in B"
        " (none) emits nothing in an inner join.",
        "The load-balancing search gives each output row its A row (LBS); its rank picks its B row, LB[LBS] + RANK.",
    ])
    style.add_titles(fig, ax, default_title(document, "expansion") if title is None else title,
                     "the slide's walk-through, computed by the chapter's sorted search and load-balancing search"
                     " (--analyze)" if sub is None else sub)
    return fig


register(KIND, sys.modules[__name__])
