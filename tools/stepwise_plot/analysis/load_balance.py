"""The load-balancing search drawn from an --analyze document: shared by chapter 03 (the talk's
40 objects and 79 items, merge.py) and chapter 08 (the join's expansion, join.py). Not a drawer
of its own: those modules call read() and draw() on their document's "load_balance" object.

The picture is the merge of the items 0, 1, 2, ... with the objects' offsets, as the partition
kernel cuts it: one row per tile, one cell per step of the merge, NT x VT steps a row. A step
either starts an object (its offset is taken: a dark cell) or gives the next item its object (a
light cell in that object's color), so every tile does the same number of steps however many
items and objects fall in it, which is the load balance.

Schema (what this module reads; other fields are ignored):
  {"item_name": "item", "object_name": "object", "counts": [...], "items": N, "nt", "vt",
   "steps": [{"starts": object} | {"item": i, "object": o}, ...],   (the merge, in order)
   "tiles": [{"tile", "first", "last", "items_begin", "items_end", "objects_begin", "objects_end"}]}
"""
from matplotlib.patches import Rectangle

from .. import style
from ..report import ReportError
from . import require

# One hue per object, cycling (Okabe-Ito's, without the yellow, and a wine): dark for the step that
# starts the object, lightened for its items. White text on every one of them.
_HUES = ("#E69F00", "#0072B2", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#882255", "#666666")
_GAP = 0.12  # between the threads' groups of VT cells, in cells
_ROW = 1.55  # from one tile's row to the next, in cell heights


def _field(mapping, key: str, where: str):
    return require(mapping, key, where)


def read(lbs: dict, where: str = "the load_balance object") -> dict:
    """The fields draw() needs, checked: a ReportError names the first one missing or wrong."""
    fields = {name: _field(lbs, name, where)
              for name in ("item_name", "object_name", "counts", "items", "nt", "vt", "steps", "tiles")}
    steps = fields["steps"]
    if len(steps) != fields["items"] + len(fields["counts"]):
        raise ReportError(f"{where}: {len(steps)} steps, not items + objects "
                          f"({fields['items']} + {len(fields['counts'])})")
    for step in steps:
        if not isinstance(step, dict) or ("starts" not in step and not {"item", "object"} <= step.keys()):
            raise ReportError(f"{where}: a step is neither {{'starts'}} nor {{'item', 'object'}}: {step!r}")
    for tile in fields["tiles"]:
        for key in ("tile", "first", "last", "items_begin", "items_end", "objects_begin", "objects_end"):
            _field(tile, key, f"{where}'s tile {tile.get('tile') if isinstance(tile, dict) else tile!r}")
    if not fields["tiles"]:
        raise ReportError(f"{where}: no tile")
    return fields


def lighten(color: str, amount: float) -> str:
    """@p color blended with white: amount 0 is white, 1 the color itself."""
    rgb = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - c) * amount):02X}" for c in rgb)


def hue(index: int) -> str:
    """The color of object (or row) @p index, the same in every diagram of the chapter."""
    return _HUES[index % len(_HUES)]


def draw(lbs: dict, title: str, sub: str, where: str = "the load_balance object"):
    """The tiles of the merge, one row each; returns the figure (titles set)."""
    fields = read(lbs, where)
    nt, vt = fields["nt"], fields["vt"]
    per_tile = nt * vt
    tiles = fields["tiles"]
    steps = fields["steps"]
    width = per_tile + (nt - 1) * _GAP
    left, right = -2.2, width + 7.2
    top, bottom = -0.75, _ROW * (len(tiles) - 1) + 1.15
    fig_width = max(18.5, 0.92 * width + 7.5)
    fig = style.new_figure(fig_width, 3.6 + (bottom - top) * 0.97 * fig_width / (right - left))
    ax = fig.add_subplot()
    item_name, object_name = fields["item_name"], fields["object_name"]
    small = 10.5 if per_tile > 12 else 12.5
    for row, tile in enumerate(tiles):
        y = row * _ROW
        for k in range(tile["last"] - tile["first"]):
            step = steps[tile["first"] + k]
            x = k + (k // vt) * _GAP
            if "starts" in step:
                color = hue(step["starts"])
                ax.add_patch(Rectangle((x, y), 1, 1, facecolor=color, edgecolor="white", linewidth=1.2))
                ax.text(x + 0.5, y + 0.34, "starts", ha="center", va="center", fontsize=small - 1.5, color="white")
                ax.text(x + 0.5, y + 0.68, str(step["starts"]), ha="center", va="center", fontsize=small + 1,
                        color="white", fontweight="bold")
            else:
                color = hue(step["object"])
                ax.add_patch(Rectangle((x, y), 1, 1, facecolor=lighten(color, 0.35), edgecolor="white", linewidth=1.2))
                ax.text(x + 0.5, y + 0.36, str(step["item"]), ha="center", va="center", fontsize=small + 1,
                        fontweight="bold")
                ax.text(x + 0.5, y + 0.72, f"→{step['object']}", ha="center", va="center", fontsize=small - 1,
                        color=style.MUTED)
        items = tile["items_end"] - tile["items_begin"]
        objects = tile["objects_end"] - tile["objects_begin"]
        ax.text(-0.25, y + 0.5, f"tile {tile['tile']}", ha="right", va="center", fontsize=13, fontweight="bold")
        ax.text(width + 0.25, y + 0.5,
                f"{items} {_plural(item_name, items)} + {objects} {_plural(object_name, objects)}"
                f" = {items + objects} steps",
                ha="left", va="center", fontsize=12.5, color=style.INK)
    for t in range(nt):
        x = t * (vt + _GAP) + vt / 2
        ax.text(x, -0.22, f"thread {t}", ha="center", va="bottom", fontsize=12, color=style.MUTED)
    ax.set_xlim(left, right)
    ax.set_ylim(bottom, top)
    ax.set_aspect("equal")
    ax.axis("off")
    style.caption(fig, [
        f"Each cell is one step of the merge of the {item_name}s 0, 1, 2, … with the {object_name}s' offsets"
        f" (the exclusive scan of their counts). Dark: an {object_name} starts (its offset is taken);",
        f"light: the next {item_name} gets the {object_name} started last (→ its number), in that {object_name}'s"
        f" color. Every thread takes VT = {vt} steps and every tile NT × VT = {per_tile},",
        f"however the counts fall: an {object_name} with many {item_name}s spans tiles, an empty one costs one step.",
    ])
    style.add_titles(fig, ax, title, sub)
    return fig


def _plural(name: str, count: int) -> str:
    return name if count == 1 else name + "s"
