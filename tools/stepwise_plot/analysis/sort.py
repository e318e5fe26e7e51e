"""Chapter 09's diagrams, from `chapter_09_sort --analyze --format json` ("analysis": "sort", written by analysis.cpp
in chapters/09_sort with the functions the kernels run: tile_digit_places, merge_sort_partition and friends).

Three figures of the same small example (24 keys of 6 bits):
  - digit-scatter: one pass of the radix sort (2-bit digits, tiles of 6 keys): each key coloured by its digit,
    its place = where its digit starts (the histogram's scan) + the keys of its digit in earlier tiles + its rank
    in its tile, and an arrow to that place;
  - lookback-chain: the same pass's digit counts, one row per tile and one column per digit, chained from tile to
    tile: at one moment of the run, which tiles have published their aggregate (A) or their inclusive count (P), and
    the walk the last tile makes along each digit; above, the histogram pass's digit starts of every pass;
  - merge-passes: the merge sort of the same keys (tiles of 4): the block sort's runs, then every pass with the
    split of each tile (the A and B ranges merge_sort_partition finds) and the runs it leaves.

Schema (what this module reads; other fields are ignored):
  {"analysis": "sort", "chapter": "09",
   "example": {"keys", "key_bits", "digit_bits", "tile"},
   "radix": [{"shift", "input", "counts", "starts", "tiles": [{"first", "digits", "ranks", "earlier", "places"}],
              "output"}],
   "lookback": {"pass", "tile", "counts", "exclusive", "inclusive", "flags", "walks": [[{"tile", "flag", "value"}]],
                "prefix"},
   "merge": {"tile", "keys", "block_sorted",
             "passes": [{"width", "input", "partitions", "tiles": [{"first", "last", "a_begin", "a_end", "b_begin",
                                                                    "b_end"}], "output"}]}}
"""
import sys

from matplotlib.patches import Rectangle

from .. import style
from ..report import ReportError
from . import load_balance, register, require

KIND = "sort"
FIGURES = ("digit-scatter", "lookback-chain", "merge-passes")
_FLAG_COLORS = {"P": "#009E73", "A": "#E69F00"}


def _field(mapping, key: str, where: str = "the --analyze document"):
    return require(mapping, key, where, "chapter_09_sort")


def figures(document: dict) -> list:
    """All three diagrams (the document always holds their data)."""
    for key in ("example", "radix", "lookback", "merge"):
        _field(document, key)
    return list(FIGURES)


def default_title(document: dict, figure: str) -> str:
    """The title of each diagram."""
    example = document.get("example", {})
    if figure == "digit-scatter":
        return (f"Chapter 09 sort: one radix pass, {example.get('digit_bits')}-bit digits, tiles of"
                f" {example.get('tile')} keys")
    if figure == "lookback-chain":
        return "Chapter 09 sort: Onesweep's look-back, one chain per digit"
    return f"Chapter 09 sort: the merge sort's passes, tiles of {document.get('merge', {}).get('tile')} keys"


def draw(document: dict, figure: str, title: str = None, sub: str = None):
    """One of FIGURES."""
    if figure == "digit-scatter":
        return _digit_scatter(document, title, sub)
    if figure == "lookback-chain":
        return _lookback_chain(document, title, sub)
    if figure == "merge-passes":
        return _merge_passes(document, title, sub)
    raise ReportError(f"--figure {figure}: this document draws {', '.join(FIGURES)}")


def _box(ax, x: float, y: float, text: str, color: str, width: float = 0.9, height: float = 0.8,
         fontsize: float = 12, alpha: float = 0.85) -> None:
    ax.add_patch(Rectangle((x - width / 2, y - height / 2), width, height, facecolor=color, alpha=alpha,
                           edgecolor="none"))
    ax.text(x, y, text, ha="center", va="center", fontsize=fontsize, fontweight="bold")


def _pass(document: dict):
    passes = _field(document, "radix")
    if not passes:
        raise ReportError("radix: no pass")
    lookback = _field(document, "lookback")
    index = lookback.get("pass", 0)
    if not 0 <= index < len(passes):
        raise ReportError(f"lookback: pass {index} of {len(passes)}")
    return passes[index], index


def _digit_scatter(document: dict, title: str, sub: str):
    example = _field(document, "example")
    bits = _field(example, "digit_bits", "example")
    radix, index = _pass(document)
    keys, output = _field(radix, "input", "a radix pass"), _field(radix, "output", "a radix pass")
    tiles, starts = _field(radix, "tiles", "a radix pass"), _field(radix, "starts", "a radix pass")
    shift = _field(radix, "shift", "a radix pass")
    n = len(keys)
    fig = style.new_figure(max(14.0, 0.62 * n + 3.0), 8.6)
    ax = fig.add_subplot(1, 1, 1)
    top, bottom = 5.4, 0.0
    placed = 0
    for t, tile in enumerate(tiles):
        for field in ("first", "digits", "ranks", "earlier", "places"):
            _field(tile, field, f"tile {t} of the radix pass")
        first = tile["first"]
        for i, (d, rank, place) in enumerate(zip(tile["digits"], tile["ranks"], tile["places"])):
            x = first + i
            if not 0 <= place < n:
                raise ReportError(f"tile {t}: place {place} outside 0..{n - 1}")
            color = load_balance.hue(d)
            _box(ax, x, top, str(keys[x]), color)
            ax.text(x, top - 0.62, f"d{d}", ha="center", va="top", fontsize=10, color=style.MUTED)
            ax.text(x, top - 1.05, f"{starts[d]}+{tile['earlier'][d]}+{rank}", ha="center", va="top", fontsize=9.5,
                    color=style.INK, rotation=90)
            ax.annotate("", xy=(place, bottom + 0.45), xytext=(x, top - 2.35),
                        arrowprops={"arrowstyle": "->", "color": color, "linewidth": 1.3, "alpha": 0.8})
            placed += 1
        last = first + len(tile["digits"])
        ax.plot([first - 0.5, first - 0.5], [top - 0.5, top + 0.6], color=style.INK, linewidth=2)
        ax.text((first + last - 1) / 2, top + 0.75, f"tile {t}", ha="center", va="bottom", fontsize=12)
        if t == len(tiles) - 1:
            ax.plot([last - 0.5, last - 0.5], [top - 0.5, top + 0.6], color=style.INK, linewidth=2)
    if placed != n:
        raise ReportError(f"radix pass: its tiles place {placed} keys, not {n}")
    for x, key in enumerate(output):
        d = (key >> shift) & ((1 << bits) - 1)
        _box(ax, x, bottom, str(key), load_balance.hue(d))
        ax.text(x, bottom - 0.55, str(x), ha="center", va="top", fontsize=9, color=style.MUTED)
    for d, start in enumerate(starts):
        ax.plot([start - 0.5, start - 0.5], [bottom - 0.5, bottom + 0.6], color=style.INK, linewidth=2)
        ax.text(start - 0.4, bottom - 1.1, f"digit {d} starts at {start}", ha="left", va="top", fontsize=10.5,
                color=load_balance.hue(d))
    ax.text(-1.0, top, "input", ha="right", va="center", fontsize=12)
    ax.text(-1.0, bottom, "output", ha="right", va="center", fontsize=12)
    ax.set_xlim(-2.6, n + 0.2)
    ax.set_ylim(bottom - 2.0, top + 1.4)
    ax.axis("off")
    style.caption(fig, [
        f"Pass {index + 1} reads bits {shift}..{shift + bits - 1} of each key (d: its digit). A key's place is"
        " start + earlier + rank: where its digit starts in the output (the histogram's exclusive scan),",
        "the keys of its digit in the tiles before its own, and its rank among its tile's keys of that digit."
        " Keys of one digit keep their input order: the pass is stable.",
    ])
    style.add_titles(fig, ax, default_title(document, "digit-scatter") if title is None else title,
                     "tile_digit_places (tile_places.hpp), the kernels' own function, replayed by --analyze"
                     if sub is None else sub)
    return fig


def _lookback_chain(document: dict, title: str, sub: str):
    lookback = _field(document, "lookback")
    counts, inclusive = _field(lookback, "counts", "lookback"), _field(lookback, "inclusive", "lookback")
    flags, walks = _field(lookback, "flags", "lookback"), _field(lookback, "walks", "lookback")
    prefix, looker = _field(lookback, "prefix", "lookback"), _field(lookback, "tile", "lookback")
    radix, index = _pass(document)
    passes = _field(document, "radix")
    tiles, digits = len(counts), len(counts[0]) if counts else 0
    if len(walks) != digits or len(prefix) != digits or len(flags) != tiles or len(inclusive) != tiles:
        raise ReportError(f"lookback: {tiles} tiles x {digits} digits, but {len(flags)} rows of flags,"
                          f" {len(walks)} walks and {len(prefix)} prefixes")
    fig = style.new_figure(15.0, 3.2 + 1.35 * tiles + 0.45 * len(passes))
    ax = fig.add_subplot(1, 1, 1)
    dx, dy = 3.0, 1.35
    # The histogram pass: every pass's digit starts, from one read of the keys.
    for p, other in enumerate(passes):
        y = -1.2 - 0.45 * (len(passes) - 1 - p)
        ax.text(-0.4, y, f"pass {p + 1} starts", ha="right", va="center", fontsize=11,
                fontweight="bold" if p == index else "normal")
        for d, start in enumerate(_field(other, "starts", "a radix pass")):
            ax.text(d * dx + 1.0, y, str(start), ha="center", va="center", fontsize=11, color=load_balance.hue(d),
                    fontweight="bold" if p == index else "normal")
    for d in range(digits):
        ax.text(d * dx + 1.0, -0.35, f"digit {d}", ha="center", va="center", fontsize=12.5, fontweight="bold",
                color=load_balance.hue(d))
    walked = {(step["tile"], d) for d, walk in enumerate(walks) for step in walk}
    for t in range(tiles):
        y = 0.55 + t * dy
        ax.text(-0.4, y, f"tile {t}", ha="right", va="center", fontsize=12.5)
        for d in range(digits):
            x = d * dx + 1.0
            flag = flags[t][d] if t != looker else "looks back"
            color = _FLAG_COLORS.get(flag, "#DDDDDD")
            edge = style.INK if (t, d) in walked else "none"
            ax.add_patch(Rectangle((x - 1.25, y - 0.5), 2.5, 1.0, facecolor=color, alpha=0.55, edgecolor=edge,
                                   linewidth=2.2))
            text = (f"count {counts[t][d]}  ·  {flag} {inclusive[t][d] if flag == 'P' else counts[t][d]}"
                    if t != looker else f"count {counts[t][d]}: A {counts[t][d]}")
            ax.text(x, y - 0.12, text, ha="center", va="center", fontsize=10.5)
            if t == looker:
                walk = " + ".join(f"{step['value']}{step['flag']}" for step in walks[d])
                ax.text(x, y + 0.62, f"{walk} = {prefix[d]}", ha="center", va="top", fontsize=10.5,
                        fontweight="bold")
                ax.text(x, y + 1.0, f"place base {radix['starts'][d]} + {prefix[d]}", ha="center", va="top",
                        fontsize=10, color=style.MUTED)
            if t > 0:
                ax.annotate("", xy=(x, y - 0.5), xytext=(x, y - dy + 0.5),
                            arrowprops={"arrowstyle": "->", "color": style.MUTED, "linewidth": 1.1})
    ax.set_xlim(-2.6, digits * dx)
    ax.set_ylim(0.55 + tiles * dy + 0.6, -1.6 - 0.45 * len(passes))
    ax.axis("off")
    style.caption(fig, [
        f"Pass {index + 1}, at one moment: each tile publishes its count of every digit (A: an aggregate; tile 0"
        " publishes it as P, an inclusive count),",
        "then one thread per digit walks back along its digit's column, adding A's until it reaches a P"
        f" (look_back_column). Tile {looker} adds the framed statuses:",
        "the sum is the keys of that digit in all earlier tiles. Its keys of digit d go to digit d's start (one"
        " histogram kernel gives every pass's starts)",
        "+ that sum + their rank; then the tile publishes P = sum + its count.",
    ])
    style.add_titles(fig, ax, default_title(document, "lookback-chain") if title is None else title,
                     "the example's counts and look_back_column's walk, replayed by --analyze"
                     if sub is None else sub)
    return fig


def _merge_passes(document: dict, title: str, sub: str):
    merge = _field(document, "merge")
    keys, tile = _field(merge, "keys", "merge"), _field(merge, "tile", "merge")
    block_sorted, passes = _field(merge, "block_sorted", "merge"), _field(merge, "passes", "merge")
    n = len(keys)
    rows = [("input", keys, None, None), (f"block sort (runs of {tile})", block_sorted, tile, None)]
    for p, one in enumerate(passes):
        for field in ("width", "tiles", "output", "partitions"):
            _field(one, field, f"pass {p + 1} of merge")
        if sum(t["last"] - t["first"] for t in one["tiles"]) != n:
            raise ReportError(f"merge pass {p + 1}: its tiles write {sum(t['last'] - t['first'] for t in one['tiles'])}"
                              f" keys, not {n}")
        rows.append((f"pass {p + 1} (runs of {min(2 * one['width'], n)})", one["output"], 2 * one["width"], one))
    fig = style.new_figure(max(14.0, 0.6 * n + 5.0), 1.9 * len(rows) + 2.2)
    ax = fig.add_subplot(1, 1, 1)
    dy = 1.9
    for r, (label, values, run, one) in enumerate(rows):
        y = r * dy
        ax.text(-1.0, y, label, ha="right", va="center", fontsize=12)
        for x, key in enumerate(values):
            color = load_balance.hue(x // tile) if one is not None else "#DDDDDD"
            _box(ax, x, y, str(key), color, alpha=0.55 if one is not None else 0.8)
        if run:
            for start in range(0, n + 1, run):
                ax.plot([min(start, n) - 0.5] * 2, [y - 0.5, y + 0.5], color=style.INK, linewidth=2.4)
            ax.plot([n - 0.5] * 2, [y - 0.5, y + 0.5], color=style.INK, linewidth=2.4)
        if one is None:
            continue
        # The split of each tile in the row above: its A and B ranges, in the tile's colour.
        above = y - dy
        for k, t in enumerate(one["tiles"]):
            color = load_balance.hue(k)
            for begin, end, lift in ((t["a_begin"], t["a_end"], 0.52), (t["b_begin"], t["b_end"], 0.62)):
                if end > begin:
                    ax.plot([begin - 0.42, end - 0.58], [above + lift] * 2, color=color, linewidth=4,
                            solid_capstyle="butt")
            ax.text((t["first"] + t["last"] - 1) / 2, y - 0.62,
                    f"A[{t['a_begin']},{t['a_end']}) B[{t['b_begin']},{t['b_end']})", ha="center", va="bottom",
                    fontsize=8.5, color=style.INK)
    ax.set_xlim(-6.0, n + 0.2)
    ax.set_ylim((len(rows) - 1) * dy + 0.9, -0.9)
    ax.axis("off")
    style.caption(fig, [
        f"The block sort leaves runs of {tile}; each pass merges neighbouring runs in pairs. Its outputs are cut in"
        f" tiles of {tile} (colours): a Merge Path search on each tile boundary's diagonal",
        "inside its pair (merge_sort_partition) splits the pair into the A and B ranges the tile merges (bars under"
        " the row above, A upper), so every tile merges exactly its own outputs.",
    ])
    style.add_titles(fig, ax, default_title(document, "merge-passes") if title is None else title,
                     "merge_sort_partition and merge_sort_tile_range (common/algorithm/merge_sort.hpp), replayed by"
                     " --analyze" if sub is None else sub)
    return fig


register(KIND, sys.modules[__name__])
