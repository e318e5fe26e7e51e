"""The look shared by every figure, titles, and saving with the same bytes for the same input.

Colors are Okabe and Ito's palette, which stays distinct for the common forms of color
blindness; the heat maps use viridis, which also reads in grayscale. Sizes are for a figure
projected on a slide: nothing under 12 points at the figure's own size.
"""
import io
import os
import textwrap

import matplotlib

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402  (after choosing the backend)

from .report import Report, format_n  # noqa: E402

STAGE = "#0072B2"      # blue: the chapter's kernels
LIBRARY = "#D55E00"    # vermillion: the vendor library
MEMCPY = "#000000"     # black: measured cudaMemcpy bandwidth
PEAK = "#777777"       # gray: the datasheet peak
INK = "#222222"        # text
MUTED = "#555555"      # secondary text
SEQUENCE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#000000")  # lines; vermillion is the library's
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "h", "<", ">", "p", "*")
HEATMAP = "viridis"

_RC = {
    "font.family": "DejaVu Sans",  # bundled with matplotlib: the same glyphs on every machine
    "font.size": 14,
    "axes.titlesize": 14,
    "axes.labelsize": 15,
    "xtick.labelsize": 13,
    "ytick.labelsize": 13,
    "legend.fontsize": 13,
    "figure.titlesize": 19,
    "figure.titleweight": "bold",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.edgecolor": MUTED,
    "axes.labelcolor": INK,
    "text.color": INK,
    "xtick.color": MUTED,
    "ytick.color": MUTED,
    "hatch.color": MUTED,
    "hatch.linewidth": 1.2,
    "svg.fonttype": "path",        # text drawn as outlines: the figure looks the same in any viewer
    "svg.hashsalt": "stepwise",    # stable ids inside the SVG: the same input gives the same bytes
}
_SOFTWARE = "stepwise tools/plot"


def new_figure(width: float, height: float) -> Figure:
    """An empty figure (inches) in the shared style, laid out by matplotlib's constrained layout."""
    matplotlib.rcParams.update(_RC)
    return Figure(figsize=(width, height), layout="constrained")


def plain(text: str) -> str:
    """Text from a report, safe from matplotlib's `$...$` math markup."""
    return text.replace("$", r"\$")


def n_text(n: int) -> str:
    """n for a title or a tick: 2^28 as a superscript, other sizes with thousands separators."""
    written = format_n(n)
    if written.startswith("2^"):
        return f"$2^{{{written[2:]}}}$"
    return written


def subtitle(report: Report, sweep_note: bool = True) -> str:
    """`NVIDIA H200 · n = 2^28 int32 · best shape per stage (--sweep) · 2026-11-21`."""
    parts = [plain(report.device_name), f"n = {n_text(report.n)} {plain(report.element_type)}".strip()]
    if report.flush == "none":
        parts.append("L2 warm")
    if report.sweep and sweep_note:
        parts.append("best shape per stage (--sweep)")
    if report.date:
        parts.append(report.date)
    return "  ·  ".join(parts)


def add_titles(fig: Figure, ax, title: str, sub: str) -> None:
    """The figure's title, and under it the run it shows; an empty text leaves that line out."""
    if title:
        fig.suptitle(title)
    if sub:
        ax.set_title(sub, color=MUTED, fontsize=14, pad=14)


def log2_n_axis(ax, sizes, most_ticks: int, margin: float) -> None:
    """An x axis of n on a log2 scale: a tick 2^k at each power of two between the sizes (every other
    one when there are more than @p most_ticks), @p margin octaves of room on both sides."""
    import math

    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

    ax.set_xscale("log", base=2)
    low, high = math.log2(min(sizes)), math.log2(max(sizes))
    exponents = list(range(math.floor(low), math.ceil(high) + 1))
    if len(exponents) > most_ticks:
        exponents = [e for e in exponents if e % 2 == exponents[-1] % 2]
    ax.xaxis.set_major_locator(FixedLocator([2.0 ** e for e in exponents]))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"$2^{{{round(math.log2(value))}}}$"))
    ax.set_xlim(2 ** (low - margin), 2 ** (high + margin))


def caption(fig: Figure, lines, rows=()) -> None:
    """Lines under the figure: a key to its marks, then one line per failed row with the check's words."""
    failures = [f"FAIL {plain(row.label)}: {plain(_shorten(row.check_detail))}" for row in rows if row.failed]
    lines = list(lines) + failures
    if lines:
        wrapped = [part for line in lines for part in textwrap.wrap(line, 200, subsequent_indent="    ")]
        fig.supxlabel("\n".join(wrapped), x=0.01, ha="left", fontsize=13, color=MUTED)


def _shorten(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def save(fig: Figure, path: str, title: str, png_too: bool = False) -> None:
    """Write the figure as SVG or PNG (by the name's extension), and a PNG beside an SVG if asked."""
    stem, extension = os.path.splitext(path)
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    _write(fig, path, extension.lower().lstrip("."), title)
    if png_too and extension.lower() != ".png":
        _write(fig, stem + ".png", "png", title)


def _write(fig: Figure, path: str, kind: str, title: str) -> None:
    if kind == "svg":
        metadata = {"Title": title, "Creator": _SOFTWARE, "Date": None}
        options = {}
    else:
        metadata = {"Title": title, "Software": _SOFTWARE}
        options = {"dpi": 150}
    buffer = io.BytesIO()
    fig.savefig(buffer, format=kind, metadata=metadata, facecolor="white", **options)
    with open(path, "wb") as stream:
        stream.write(buffer.getvalue())
