"""Chapter 11's diagrams, from `chapter_11_multigpu --analyze --format json` ("analysis": "multigpu", written by
analysis.cpp in chapters/11_multigpu with the code the stages run: ring.hpp's ring_step, and sort_plan.cpp's
replay_sample_sort and make_exchange_plan).

Two figures, for the document's "diagram_gpus" GPUs:
  - ring-steps: stage 3's ring all-reduce, one panel per step (the inputs first, then the G - 1 reduce-scatter steps,
    then the G - 1 all-gather steps): each GPU's copy of each chunk, labelled with the GPUs whose inputs it sums, the
    chunk each GPU receives from its left neighbour framed, and an arrow from the neighbour;
  - sort-exchange: a small sample sort: each GPU's part as given, sorted and cut into buckets by the splitters (the
    samples framed), the G x G count matrix, a line per non-empty bucket to the GPU that receives it, and each GPU's
    received runs in sender order (which the merge then turns into its share of the sorted output).

Schema (what this module reads; other fields are ignored):
  {"analysis": "multigpu", "chapter": "11", "diagram_gpus",
   "ring": {"gpus", "start": [[[gpu]]], "steps": [{"phase", "moves": [{"gpu", "from", "receives_chunk", "to",
            "sends_chunk"}], "holds": [[[gpu]]]}], "owned"} or null,
   "sort_exchange": {"gpus", "keys_per_gpu", "samples_per_gpu", "seed", "parts", "sorted_parts",
                     "samples": [[{"key", "position", "index"} or null]], "splitters": [{"key", "position"}],
                     "counts", "send_offsets", "recv_offsets", "transfers": [{"from", "to", "keys", "send_offset",
                     "recv_offset", "kept"}], "outputs", "output_begin", "load_balance"} or null}
"""
import sys

from matplotlib.patches import Rectangle

from .. import style
from ..report import ReportError
from . import load_balance, register, require

KIND = "multigpu"
FIGURES = ("ring-steps", "sort-exchange")
_FIELDS = {"ring-steps": "ring", "sort-exchange": "sort_exchange"}


def _field(mapping, key: str, where: str = "the --analyze document"):
    return require(mapping, key, where, "chapter_11_multigpu")


def figures(document: dict) -> list:
    """The diagrams whose data the document holds (none above the chapter's most GPUs)."""
    for key in _FIELDS.values():
        _field(document, key)
    names = [name for name in FIGURES if document[_FIELDS[name]] is not None]
    if not names:
        notes = "; ".join(document.get("notes") or [])
        raise ReportError(f"this document holds no diagram ({notes or 'ring and sort_exchange are null'})")
    return names


def default_title(document: dict, figure: str) -> str:
    """The title of each diagram."""
    data = document.get(_FIELDS.get(figure, ""), None) or {}
    gpus = data.get("gpus")
    if figure == "ring-steps":
        return f"Chapter 11: the ring all-reduce (stage 3) on {gpus} GPUs, step by step"
    return f"Chapter 11: the sample sort's exchange on {gpus} GPUs"


def draw(document: dict, figure: str, title: str = None, sub: str = None):
    """One of FIGURES."""
    if figure not in FIGURES:
        raise ReportError(f"--figure {figure}: this document draws {', '.join(figures(document))}")
    if document.get(_FIELDS[figure]) is None:
        notes = "; ".join(document.get("notes") or [])
        raise ReportError(f"--figure {figure}: the document's {_FIELDS[figure]} is null ({notes})")
    if figure == "ring-steps":
        return _ring_steps(document, title, sub)
    return _sort_exchange(document, title, sub)


def _sum_label(gpus: list, total: int) -> str:
    """The GPUs whose inputs a copy sums: `all` when every GPU's, else `2+3+0` in ring order (the partial sums of a
    ring are runs of neighbours), `5+…+1` when long."""
    if len(gpus) == total:
        return "all"
    members = set(gpus)
    first = next((g for g in gpus if (g - 1) % total not in members), gpus[0])
    order = [(first + k) % total for k in range(len(gpus))]
    if set(order) != members:  # not a run of neighbours: list them
        order = sorted(gpus)
    if len(order) <= 3:
        return "+".join(str(g) for g in order)
    return f"{order[0]}+…+{order[-1]}"


def _check_holds(holds, gpus: int, where: str) -> None:
    if len(holds) != gpus or any(len(row) != gpus for row in holds):
        raise ReportError(f"{where}: holds is not {gpus} x {gpus} chunks")
    for row in holds:
        for chunk in row:
            if not chunk or any(not 0 <= g < gpus for g in chunk):
                raise ReportError(f"{where}: a chunk summing GPUs {chunk!r}, not some of 0..{gpus - 1}")


def _ring_panel(ax, x0: float, y0: float, gpus: int, holds, moves, label: str, final: bool, heads: bool,
                fontsize: float) -> None:
    """One step: G rows (GPUs) of G cells (chunks) at (x0, y0), the received chunks framed with an arrow from the
    left neighbour."""
    dy = 1.25
    received = {(move["gpu"], move["receives_chunk"]) for move in moves}
    ax.text(x0 + (gpus - 1) / 2, y0 - 1.05, label, ha="center", va="bottom", fontsize=fontsize + 2.5,
            fontweight="bold")
    for c in range(gpus):
        ax.text(x0 + c, y0 - 0.6, f"c{c}", ha="center", va="bottom", fontsize=fontsize, color=style.MUTED)
    for g in range(gpus):
        y = y0 + g * dy
        if heads:
            ax.text(x0 - 0.75, y, f"GPU {g}", ha="right", va="center", fontsize=fontsize + 2)
        for c in range(gpus):
            chunk = holds[g][c]
            framed = (g, c) in received
            color = load_balance.lighten(load_balance.hue(c), 0.12 + 0.7 * len(chunk) / gpus)
            ax.add_patch(Rectangle((x0 + c - 0.45, y - 0.38), 0.9, 0.76, facecolor=color,
                                   edgecolor=style.INK if framed else "none", linewidth=2.4 if framed else 0))
            complete = len(chunk) == gpus
            ax.text(x0 + c, y, _sum_label(chunk, gpus), ha="center", va="center", fontsize=fontsize,
                    fontweight="bold" if complete or framed else "normal",
                    color=style.INK if framed or complete else style.MUTED)
    for move in moves:
        g, c, left = move["gpu"], move["receives_chunk"], move["from"]
        color = load_balance.hue(c)
        if left == g - 1:
            ax.annotate("", xy=(x0 + c, y0 + g * dy - 0.4), xytext=(x0 + c, y0 + left * dy + 0.4),
                        arrowprops={"arrowstyle": "-|>", "color": color, "linewidth": 1.6, "mutation_scale": 11})
        else:  # around the ring: out of the last row, into the first (beside the chunk's heading)
            x = x0 + c + 0.3
            ax.annotate("", xy=(x, y0 + left * dy + 0.78), xytext=(x, y0 + left * dy + 0.4),
                        arrowprops={"arrowstyle": "-", "color": color, "linewidth": 1.6, "linestyle": "--"})
            ax.annotate("", xy=(x, y0 + g * dy - 0.4), xytext=(x, y0 + g * dy - 0.95),
                        arrowprops={"arrowstyle": "-|>", "color": color, "linewidth": 1.6, "linestyle": "--",
                                    "mutation_scale": 11})
            ax.text(x + 0.1, y0 + left * dy + 0.62, f"to {g}", ha="left", va="center", fontsize=fontsize - 1,
                    color=color)
    if final:
        ax.text(x0 + (gpus - 1) / 2, y0 + (gpus - 1) * dy + 0.9, "each GPU owns one whole chunk", ha="center",
                va="top", fontsize=fontsize, color=style.MUTED)


def _ring_steps(document: dict, title: str, sub: str):
    ring = _field(document, "ring")
    gpus = _field(ring, "gpus", "ring")
    start, steps = _field(ring, "start", "ring"), _field(ring, "steps", "ring")
    if not isinstance(gpus, int) or gpus < 1:
        raise ReportError(f"ring: gpus {gpus!r}")
    if len(steps) != 2 * (gpus - 1):
        raise ReportError(f"ring: {len(steps)} steps, not 2(G-1) = {2 * (gpus - 1)} for {gpus} GPUs")
    _check_holds(start, gpus, "ring's start")
    for s, step in enumerate(steps):
        for key in ("phase", "moves", "holds"):
            _field(step, key, f"ring step {s}")
        _check_holds(step["holds"], gpus, f"ring step {s}")
        if len(step["moves"]) != gpus:
            raise ReportError(f"ring step {s}: {len(step['moves'])} moves, not one per GPU ({gpus})")
        for move in step["moves"]:
            for key in ("gpu", "from", "receives_chunk", "to", "sends_chunk"):
                _field(move, key, f"a move of ring step {s}")
    half = gpus - 1
    fontsize = 11.5 if gpus <= 4 else 8.5
    # Slots of a phase: the inputs (slot 0) and the reduce-scatter steps, then the all-gather steps in slots 1..G-1
    # (slot 0 empty), so that the all-gather's step k lies under the reduce-scatter's; at most 4 slots a row.
    columns = min(gpus, 4)
    rows_per_phase = (gpus + columns - 1) // columns
    rows = rows_per_phase * (2 if half else 1)
    pitch_x, pitch_y = gpus + 1.9, 1.25 * gpus + 2.4
    fig = style.new_figure(max(12.0, 0.78 * columns * pitch_x + 2.0), 2.6 + 0.62 * pitch_y * rows)

    def place(slot: int, phase: int):
        return (slot % columns) * pitch_x, (phase * rows_per_phase + slot // columns) * pitch_y

    ax = fig.add_subplot(1, 1, 1)
    _ring_panel(ax, 0.0, 0.0, gpus, start, [], "inputs", False, True, fontsize)
    for s, step in enumerate(steps):
        reduce = s < half
        number = s + 1 if reduce else s - half + 1
        x0, y0 = place(number, 0 if reduce else 1)
        label = f"{'reduce-scatter' if reduce else 'all-gather'} {number}"
        _ring_panel(ax, x0, y0, gpus, step["holds"], step["moves"], label, reduce and number == half, x0 == 0.0,
                    fontsize)
    ax.set_xlim(-2.4, columns * pitch_x - 1.4)
    ax.set_ylim((rows - 1) * pitch_y + 1.25 * (gpus - 1) + 1.1, -1.4)
    ax.axis("off")
    if half:
        style.caption(fig, [
            f"Each GPU's buffer is cut into {gpus} chunks (c0..c{gpus - 1}); a cell names the GPUs whose inputs that"
            " copy of the chunk sums.",
            "At reduce-scatter step s, GPU g receives chunk (g - s - 1) mod G (framed) from GPU g - 1, its left"
            f" neighbour, and adds its own input: after {half} steps GPU g holds the whole sum of chunk g + 1.",
            f"The {half} all-gather steps pass the finished chunks on around the ring. Every link carries one chunk"
            f" per step: each GPU sends and receives 2(G-1)/G = {2 * half}/{gpus} of its buffer.",
        ])
    else:
        style.caption(fig, ["One GPU: the all-reduce is a copy of its input; nothing travels."])
    style.add_titles(fig, ax, default_title(document, "ring-steps") if title is None else title,
                     "ring_step (ring.hpp), the stages' own schedule, replayed by --analyze" if sub is None else sub)
    return fig


def _key_box(ax, x: float, y: float, key, color: str, framed: bool = False, fontsize: float = 9.5) -> None:
    ax.add_patch(Rectangle((x - 0.45, y - 0.38), 0.9, 0.76, facecolor=color,
                           edgecolor=style.INK if framed else "none", linewidth=2.2 if framed else 0))
    ax.text(x, y, str(key), ha="center", va="center", fontsize=fontsize)


def _read_sort(data: dict) -> dict:
    where = "sort_exchange"
    fields = {key: _field(data, key, where) for key in (
        "gpus", "keys_per_gpu", "samples_per_gpu", "seed", "parts", "sorted_parts", "samples", "splitters", "counts",
        "recv_offsets", "send_offsets", "transfers", "outputs", "output_begin", "load_balance")}
    gpus = fields["gpus"]
    if not isinstance(gpus, int) or gpus < 1:
        raise ReportError(f"{where}: gpus {gpus!r}")
    for key in ("parts", "sorted_parts", "samples", "counts", "send_offsets", "recv_offsets", "outputs",
                "output_begin"):
        if len(fields[key]) != gpus:
            raise ReportError(f"{where}: {key} has {len(fields[key])} entries, not one per GPU ({gpus})")
    if len(fields["splitters"]) not in (0, gpus - 1):
        raise ReportError(f"{where}: {len(fields['splitters'])} splitters, not G - 1 = {gpus - 1}")
    for g in range(gpus):
        row = fields["counts"][g]
        if len(row) != gpus:
            raise ReportError(f"{where}: counts row {g} has {len(row)} entries, not {gpus}")
        if sum(row) != len(fields["sorted_parts"][g]):
            raise ReportError(f"{where}: GPU {g}'s buckets hold {sum(row)} keys, its part"
                              f" {len(fields['sorted_parts'][g])}")
    for g in range(gpus):
        received = sum(fields["counts"][s][g] for s in range(gpus))
        if received != len(fields["outputs"][g]):
            raise ReportError(f"{where}: GPU {g} receives {received} keys but ends with {len(fields['outputs'][g])}")
    return fields


def _sort_exchange(document: dict, title: str, sub: str):
    data = _read_sort(_field(document, "sort_exchange"))
    gpus, parts, sorted_parts = data["gpus"], data["parts"], data["sorted_parts"]
    counts, send_offsets, outputs = data["counts"], data["send_offsets"], data["outputs"]
    recv_offsets = data["recv_offsets"]
    width = max([len(p) for p in parts] + [1])
    out_width = max([len(o) for o in outputs] + [1])
    gap = 9.0
    right = width + gap  # where the shares start
    dy = 1.15
    top = 1.6  # the parts as given: rows 0..G-1 from here
    low = top + gpus * dy + 2.0  # the sorted parts and the shares: rows from here
    fig = style.new_figure(max(14.0, 0.34 * (right + out_width) + 3.5), 3.4 + 0.5 * (2 * gpus * dy + 5.0))
    ax = fig.add_subplot(1, 1, 1)
    ax.text(-0.6, top - 1.0, "each GPU's part, as given", ha="left", va="bottom", fontsize=12.5, fontweight="bold")
    for g, part in enumerate(parts):
        y = top + g * dy
        ax.text(-0.9, y, f"GPU {g}", ha="right", va="center", fontsize=12)
        for i, key in enumerate(part):
            _key_box(ax, i, y, key, "#DDDDDD")
    ax.text(-0.6, low - 1.0, "sorted, cut into buckets by the splitters (samples framed)", ha="left", va="bottom",
            fontsize=12.5, fontweight="bold")
    ax.text(right - 0.6, low - 1.0, "after the exchange: the runs each GPU receives, in sender order", ha="left",
            va="bottom", fontsize=12.5, fontweight="bold")
    for g, part in enumerate(sorted_parts):
        y = low + g * dy
        ax.text(-0.9, y, f"GPU {g}", ha="right", va="center", fontsize=12)
        sampled = {sample["index"] for sample in data["samples"][g] if sample is not None}
        for d in range(gpus):
            begin, count = send_offsets[g][d], counts[g][d]
            for i in range(begin, begin + count):
                _key_box(ax, i, y, part[i], load_balance.lighten(load_balance.hue(d), 0.55), i in sampled)
            if d > 0:
                ax.plot([begin - 0.5] * 2, [y - 0.5, y + 0.5], color=style.INK, linewidth=2.2)
    for d, share in enumerate(outputs):
        y = low + d * dy
        ax.text(right + out_width + 0.4, y, f"merged: GPU {d}'s output [{data['output_begin'][d]},"
                f" {data['output_begin'][d] + len(share)})", ha="left", va="center", fontsize=11)
        for g in range(gpus):
            begin, count = recv_offsets[d][g], counts[g][d]
            if count == 0:
                continue
            run = sorted_parts[g][send_offsets[g][d]:send_offsets[g][d] + count]
            for i, key in enumerate(run):
                _key_box(ax, right + begin + i, y, key, load_balance.lighten(load_balance.hue(d), 0.55))
            if begin > 0:
                ax.plot([right + begin - 0.5] * 2, [y - 0.5, y + 0.5], color=style.MUTED, linewidth=1.4,
                        linestyle=":")
            ax.text(right + begin + (count - 1) / 2, y - 0.43, f"from {g}", ha="center", va="bottom", fontsize=7.5,
                    color=style.MUTED)
    # One line per non-empty bucket, in its receiver's colour: out of the sender's row, into the receiver's run.
    for transfer in data["transfers"]:
        for key in ("from", "to", "keys", "kept"):
            _field(transfer, key, "a transfer of sort_exchange")
        g, d = transfer["from"], transfer["to"]
        if not (0 <= g < gpus and 0 <= d < gpus):
            raise ReportError(f"sort_exchange: a transfer from {g} to {d}, outside 0..{gpus - 1}")
        start = (width - 0.4, low + g * dy + (d - (gpus - 1) / 2) * 0.7 / gpus)
        end = (right - 0.6, low + d * dy + (g - (gpus - 1) / 2) * 0.7 / gpus)
        ax.annotate("", xy=end, xytext=start,
                    arrowprops={"arrowstyle": "-|>", "color": load_balance.hue(d), "linewidth": 1.2 + 0.1 *
                                transfer["keys"], "alpha": 0.85, "mutation_scale": 9,
                                "linestyle": ":" if transfer["kept"] else "-"})
    # The count matrix, beside the parts as given.
    mx = right + 1.0
    ax.text(mx - 0.6, top - 1.0, "counts: row g sends column d", ha="left", va="bottom", fontsize=12.5,
            fontweight="bold")
    cell = 2.0
    for d in range(gpus):
        ax.text(mx + 1.6 + d * cell, top - 0.35, f"to {d}", ha="center", va="center", fontsize=10.5,
                color=load_balance.hue(d))
    for g in range(gpus):
        y = top + g * dy * 0.72 + 0.2
        ax.text(mx + 0.4, y, f"from {g}", ha="right", va="center", fontsize=10.5)
        for d in range(gpus):
            value = counts[g][d]
            ax.add_patch(Rectangle((mx + 1.6 + d * cell - 0.9, y - 0.36), 1.8, 0.72,
                                   facecolor=load_balance.lighten(load_balance.hue(d), 0.2 + (0.5 if value else 0)),
                                   edgecolor=style.INK if g == d else "none", linewidth=1.6 if g == d else 0))
            ax.text(mx + 1.6 + d * cell, y, str(value), ha="center", va="center", fontsize=10.5)
    splitters = ", ".join(f"{s['key']}@{s['position']}" for s in data["splitters"]) or "none (one GPU)"
    ax.text(mx + 1.6 + gpus * cell, top + 0.2, f"splitters (key@position):\n{splitters}", ha="left", va="top",
            fontsize=11)
    ax.text(mx + 1.6 + gpus * cell, top + 1.6, f"buckets max/mean: {data['load_balance']:.3f}", ha="left", va="top",
            fontsize=11)
    ax.set_xlim(-4.0, right + out_width + 9.0)
    ax.set_ylim(low + gpus * dy + 0.2, top - 1.5)
    ax.axis("off")
    s = data["samples_per_gpu"]
    style.caption(fig, [
        f"Each GPU sorts its part and draws {s} regular samples (framed), each a pair (key, global position); every GPU"
        f" gathers the {gpus} x {s} samples",
        "and takes the same G - 1 splitters, so that equal keys split like distinct ones. Two binary searches per"
        " splitter cut a sorted part into G buckets (colour: the GPU that receives it).",
        "The G x G counts are all-gathered; the buckets cross in one group of ncclSend/ncclRecv (framed in the"
        " matrix and dotted: the bucket a GPU keeps, a copy on the GPU).",
        "Each GPU receives its runs in sender order (dotted: where one ends) and merges them: its share is its slice of"
        " the sorted output.",
    ])
    style.add_titles(fig, ax, default_title(document, "sort-exchange") if title is None else title,
                     f"replay_sample_sort and make_exchange_plan (sort_plan.cpp), replayed by --analyze:"
                     f" {data['keys_per_gpu']} keys per GPU (seed {data['seed']})" if sub is None else sub)
    return fig


register(KIND, sys.modules[__name__])
