"""The library against the chapter's best stage, across sizes: one line per problem of the size sweep.

Each point is one run (one chapter, one problem, one --n): the median time of the library row over
the median time of the fastest kernel stage that passed its check in that run and computes what the
library computes (a row marked `"matches_library": false` is left out, and so are variant rows), so 1.0 is a tie and
2.0 means the chapter's best stage takes half the library's time. Where a chapter has several
library rows (merge: CUB and Thrust; SpMV: two cuSPARSE algorithms) the faster one that passed is
the library, unless it is marked `"matches_library": false` (it does less than the problem asks:
chapter 10's `cub::Unique` beside run-length encoding writes no lengths). Runs are grouped into problems by the label the tour's `--problems` writes into each
report, or else by the chapter's command line without the options that only say how it was run
(--n, --output, --format, --reps, ...). The sizes are the --n each run was given (for chapter 04,
nonzeros asked for), so that the problems of a chapter share the x axis.

A size where no kernel stage or no library row passed is drawn as a cross on the strip along the
x axis; a size of the sweep with no report (a run the chapter refused, or one that crashed) as a
hollow circle there. The table (`tools/plot ratio-table`) prints the same ratios.
"""
import math
import shlex
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from .report import Report, ReportError, Row, format_n

# Options that say how a run was made, not what it computes: left out of the problem's identity.
_RUN_OPTIONS_WITH_VALUE = ("--n", "--output", "--json", "--format", "--reps", "--warmup", "--device")
_RUN_FLAGS = ("--compact", "--variants")  # variant rows are never the best row
_CANDIDATE_TICKS = (0.05, 0.1, 0.2, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0, 5.0, 10.0, 20.0, 50.0, 100.0)


@dataclass
class Point:
    """One run of one problem: its ratio, or why it has none."""

    size: int
    report: Report
    best: Optional[Row]
    library: Optional[Row]
    run_size: int = 0  # the --n of the run when it differs from its column's size (a problem's limit, 2^30 - 1)

    @property
    def ratio(self) -> Optional[float]:
        """Library median over best stage median; None when either did not pass."""
        if self.best is None or self.library is None:
            return None
        return self.library.median_ms / self.best.median_ms

    @property
    def why(self) -> str:
        """Why the point has no ratio (empty when it has one)."""
        if self.best is None and self.library is None:
            return "no kernel stage and no library row passed"
        if self.best is None:
            return "no kernel stage passed"
        if self.library is None:
            return "no library row passed"
        return ""


@dataclass
class Problem:
    """The runs of one problem of one chapter, by size."""

    chapter: str
    label: str
    points: Dict[int, Point] = field(default_factory=dict)
    libraries: List[str] = field(default_factory=list)  # the names of the library rows that do the whole problem

    def failed(self) -> List[int]:
        """The sizes whose run has no ratio."""
        return sorted(size for size, point in self.points.items() if point.ratio is None)

    def missing(self, sizes: List[int]) -> List[int]:
        """The sizes of @p sizes with no run of this problem."""
        return [size for size in sizes if size not in self.points]


@dataclass
class Chapter:
    """The problems of one chapter, in the order their first report came."""

    name: str
    problems: List[Problem] = field(default_factory=list)

    def libraries(self) -> List[str]:
        """Every library row's name across the chapter's runs, in table order."""
        names: List[str] = []
        for problem in self.problems:
            names.extend(name for name in problem.libraries if name not in names)
        return names

    def nonzeros(self) -> bool:
        """Whether --n counts nonzeros (chapter 04's matrices) rather than elements."""
        return any("nonzeros" in point.report.element_type for problem in self.problems
                   for point in problem.points.values())


def best_row(report: Report) -> Optional[Row]:
    """The fastest kernel row that passed its check and computes what the library computes (a row with
    `"matches_library": false`, such as chapter 06's unordered compactions, is left out), or None."""
    passed = [row for row in report.rows if row.kind == "kernel" and row.matches_library and not row.is_variant and not row.failed]
    return min(passed, key=lambda row: row.median_ms) if passed else None


def library_row(report: Report) -> Optional[Row]:
    """The fastest library row that passed its check and computes the whole problem (a library row with
    `"matches_library": false`, such as chapter 10's `cub::Unique` beside run-length encoding, is left out),
    or None."""
    passed = [row for row in report.libraries() if not row.failed and row.matches_library]
    return min(passed, key=lambda row: row.median_ms) if passed else None


def parse_count(text: str) -> int:
    """An element count as the chapters' --n reads it: 1000000, 1M, 16Mi, 2^26, 2^20+3."""
    text = text.strip()
    try:
        if "^" in text:
            base, _, rest = text.partition("^")
            if base != "2":
                raise ValueError
            for sign in "+-":
                if sign in rest:
                    exponent, _, offset = rest.partition(sign)
                    return 2 ** int(exponent) + (int(offset) if sign == "+" else -int(offset))
            return 2 ** int(rest)
        units = {"k": 10 ** 3, "m": 10 ** 6, "g": 10 ** 9, "ki": 2 ** 10, "mi": 2 ** 20, "gi": 2 ** 30}
        digits = text.rstrip("kKmMgGi")
        suffix = text[len(digits):]
        if suffix and (suffix.lower() not in units or (len(suffix) == 2 and suffix[1] != "i")):
            raise ValueError
        if not digits.isdigit():
            raise ValueError
        return int(digits) * (units[suffix.lower()] if suffix else 1)
    except ValueError:
        raise ReportError(f"'{text}' is not an element count (1000000, 1M, 16Mi, 2^26, 2^20+3)") from None


def parse_sizes(text: str) -> List[int]:
    """The sizes of --sizes, as the tour's: `2^20..2^30` (each power of two between) or a comma list."""
    if ".." in text:
        first, _, last = text.partition("..")
        low, high = parse_count(first), parse_count(last)
        if low <= 0 or low & (low - 1) or high & (high - 1) or high < low:
            raise ReportError(f"--sizes {text}: a range goes from a power of two up to a power of two")
        return [low << k for k in range(high.bit_length() - low.bit_length() + 1)]
    return sorted({parse_count(size) for size in text.split(",")})


def _arguments(report: Report) -> List[str]:
    """The report's command line after the executable; ReportError when it cannot be read."""
    try:
        words = shlex.split(report.command)
    except ValueError as error:
        raise ReportError(f"{report.source}: its command cannot be read ({error})") from None
    return words[1:]


def sweep_size(report: Report) -> int:
    """The --n the run was given (the size of the sweep), else the n the report gives."""
    words = _arguments(report)
    for i, word in enumerate(words):
        if word == "--n" and i + 1 < len(words):
            return parse_count(words[i + 1])
        if word.startswith("--n="):
            return parse_count(word[4:])
    return report.n


def problem_label(report: Report) -> str:
    """The problem the run is of: the tour's label, else the options of its command that pick what it computes."""
    if report.problem:
        return report.problem
    kept = []
    words = _arguments(report)
    i = 0
    while i < len(words):
        name = words[i].split("=", 1)[0]
        if name in _RUN_OPTIONS_WITH_VALUE:
            i += 1 if "=" in words[i] else 2
            continue
        if name not in _RUN_FLAGS:
            kept.append(words[i])
        i += 1
    return " ".join(kept) if kept else "default"


def column_size(size: int) -> int:
    """The sweep's size a run of @p size stands for: the power of two it is one below (a problem whose limit is
    2^30 - 1, as chapter 08's int32 row indices set, runs there for the 2^30 column), else @p size itself."""
    return size + 1 if size >= 1024 and (size + 1) & size == 0 else size


def collect(reports: List[Report]) -> List[Chapter]:
    """The reports as chapters of problems of points, chapters by number; ReportError for two GPUs or two runs of one
    problem at one size."""
    devices = {}
    for report in reports:
        devices.setdefault(report.device_name, report.source)
    if len(devices) > 1:
        listing = "; ".join(f"{source}: {device}" for device, source in devices.items())
        raise ReportError(f"the reports are of different devices ({listing}): plot one GPU at a time")
    chapters: Dict[str, Chapter] = {}
    problems: Dict[Tuple[str, str], Problem] = {}
    for report in reports:
        chapter = chapters.setdefault(report.chapter, Chapter(report.chapter))
        label = problem_label(report)
        problem = problems.get((report.chapter, label))
        if problem is None:
            problem = problems[(report.chapter, label)] = Problem(report.chapter, label)
            chapter.problems.append(problem)
        run_size = sweep_size(report)
        size = column_size(run_size)
        if size in problem.points:
            raise ReportError(f"two runs of {report.chapter} {label} at n = {format_n(size)} "
                              f"({problem.points[size].report.source}, {report.source}): keep one per size")
        problem.points[size] = Point(size, report, best_row(report), library_row(report),
                                     run_size if run_size != size else 0)
        problem.libraries.extend(row.name for row in report.libraries()
                                 if row.matches_library and row.name not in problem.libraries)
    return [chapters[name] for name in sorted(chapters)]


def sweep_sizes(chapters: List[Chapter], sizes: Optional[List[int]]) -> List[int]:
    """The sizes of the sweep: @p sizes when given, else every size some run has."""
    if sizes:
        return sorted(set(sizes))
    return sorted({size for chapter in chapters for problem in chapter.problems for size in problem.points})


def ratio_text(point: Point, several_libraries: bool) -> str:
    """A point as the table writes it: `1.05× (4)`, with the library when the chapter has several."""
    ratio = point.ratio
    if ratio is None:
        return "FAIL"
    which = f"{point.best.number}, {point.library.name}" if several_libraries else f"{point.best.number}"
    at = f", n = {format_n(point.run_size)}" if point.run_size else ""
    return f"{ratio:.2f}× ({which}{at})"


def render_table(chapters: List[Chapter], sizes: List[int]) -> str:
    """The ratios as one markdown table: a row per problem, a column per size."""
    lines = ["| chapter | problem | " + " | ".join(format_n(size) for size in sizes) + " |",
             "| --- | --- |" + " ---: |" * len(sizes)]
    several = []
    for chapter in chapters:
        libraries = chapter.libraries()
        if len(libraries) > 1:
            several.append(f"{chapter.name}: the faster of {', '.join(libraries)}")
        for problem in chapter.problems:
            cells = [ratio_text(problem.points[size], len(libraries) > 1) if size in problem.points else "—"
                     for size in sizes]
            lines.append(f"| {chapter.name} | {problem.label} | " + " | ".join(cells) + " |")
    reports = _reports(chapters)
    dates = sorted({report.date for report in reports if report.date})
    lines += ["", "Each cell: the library's median time ÷ the median time of the fastest kernel stage that passed and "
              "computes what the library computes, in the same run (that stage's number in brackets); above 1.00× the chapter's stage is faster. FAIL: no "
              "kernel stage or no library row passed; —: no report at that size."]
    if several:
        lines.append("Chapters with several library rows compare with the faster one that passed (named in the "
                     "cell): " + "; ".join(several) + ".")
    when = dates[0] if len(dates) == 1 else (f"{dates[0]} to {dates[-1]}" if dates else "")
    lines.append(f"{reports[0].device_name}" + (f", {when}" if when else "") + ".")
    return "\n".join(lines) + "\n"


def draw(chapters: List[Chapter], sizes: List[int], title: str = None, sub: str = None):
    """The figure of one chapter: a line per problem."""
    from . import style

    if len(chapters) != 1:
        names = ", ".join(chapter.name for chapter in chapters)
        raise ReportError(f"the reports are of different chapters ({names}): one chapter per figure, or --all")
    chapter = chapters[0]
    fig = style.new_figure(13, 7)
    ax = fig.add_subplot()
    _draw_chapter(ax, chapter, sizes, marker_size=9, width=2.2, strip_step=0.035)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, handlelength=2.6)
    style.caption(fig, _notes(chapter, sizes))
    style.add_titles(fig, ax, default_title(chapter) if title is None else title,
                     _subtitle(chapter) if sub is None else sub)
    return fig


def draw_all(chapters: List[Chapter], sizes: List[int], title: str = None, sub: str = None):
    """One small panel per chapter, three to a row (the root README's overview)."""
    from . import style

    columns = min(3, len(chapters))
    rows = math.ceil(len(chapters) / columns)
    fig = style.new_figure(6.6 * columns, 4.9 * rows + 1.2)
    notes = []
    for index, chapter in enumerate(chapters):
        ax = fig.add_subplot(rows, columns, index + 1)
        _draw_chapter(ax, chapter, sizes, marker_size=6, width=1.8, strip_step=0.05, compact=True)
        ax.set_title(style.plain(chapter.name), fontsize=15, loc="left", fontweight="bold")
        ax.legend(loc="best", frameon=False, fontsize=12, handlelength=2.0)
        notes += [f"{style.plain(chapter.name)}: {note}" for note in _notes(chapter, sizes)]
    if title is None:
        title = "Library time ÷ best stage time against n, every chapter"
    if sub is None:
        reports = _reports(chapters)
        sub = "  ·  ".join(part for part in (style.plain(reports[0].device_name), _dates(reports)) if part)
        sub += "\n" + _DEFINITION
    if title:
        fig.suptitle(title)
    if sub:
        fig.supxlabel("\n".join([sub] + notes), x=0.01, ha="left", fontsize=13, color=style.MUTED)
    return fig


_DEFINITION = ("best: the fastest kernel stage that passed and matches the library's output, at each size; library: the fastest library row that "
               "passed; above 1 the best stage is faster")


def default_title(chapter: Chapter) -> str:
    """`Chapter 03 merge: library time ÷ best stage time against n`."""
    return f"Chapter {chapter.name}: library time ÷ best stage time against n"


def _reports(chapters: List[Chapter]) -> List[Report]:
    return [point.report for chapter in chapters for problem in chapter.problems for point in problem.points.values()]


def _dates(reports: List[Report]) -> str:
    dates = sorted({report.date for report in reports if report.date})
    if not dates:
        return ""
    return dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"


def _subtitle(chapter: Chapter) -> str:
    from . import style

    reports = _reports([chapter])
    libraries = chapter.libraries()
    first = "  ·  ".join(part for part in (style.plain(reports[0].device_name), _dates(reports)) if part)
    second = ["best: the fastest kernel stage that passed, at each size"]
    if len(libraries) > 1:
        second.append("library: the faster of " + " and ".join(style.plain(name) for name in libraries))
    return first + "\n" + "\n".join(second)


def _notes(chapter: Chapter, sizes: List[int]) -> List[str]:
    """The caption's lines: the failed and the missing points, by problem."""
    from . import style

    failed = [f"{style.plain(problem.label)} at n = {', '.join(style.n_text(size) for size in problem.failed())} "
              f"({'; '.join(sorted({problem.points[size].why for size in problem.failed()}))})"
              for problem in chapter.problems if problem.failed()]
    missing = [f"{style.plain(problem.label)} at n = {', '.join(style.n_text(size) for size in problem.missing(sizes))}"
               for problem in chapter.problems if problem.missing(sizes)]
    notes = []
    if failed:
        notes.append("✕ FAIL (no ratio): " + "; ".join(failed))
    if missing:
        notes.append("○ missing (no report): " + "; ".join(missing))
    return notes


def _draw_chapter(ax, chapter: Chapter, sizes: List[int], marker_size: float, width: float, strip_step: float,
                  compact: bool = False) -> None:
    from matplotlib.transforms import blended_transform_factory

    from . import style

    all_sizes = sorted(set(sizes) | {size for problem in chapter.problems for size in problem.points})
    ratios = [point.ratio for problem in chapter.problems for point in problem.points.values()
              if point.ratio is not None]
    strip = blended_transform_factory(ax.transData, ax.transAxes)
    marked = {"failed": False, "missing": False}
    for index, problem in enumerate(chapter.problems):
        color = style.SEQUENCE[index % len(style.SEQUENCE)]
        marker = style.MARKERS[index % len(style.MARKERS)]
        ys = [problem.points[size].ratio if size in problem.points else None for size in all_sizes]
        ax.plot(all_sizes, [math.nan if y is None else y for y in ys], color=color, marker=marker,
                markersize=marker_size, linewidth=width, label=style.plain(problem.label), zorder=3)
        height = 0.03 + strip_step * index
        failed, missing = problem.failed(), problem.missing(all_sizes)
        if failed:
            ax.plot(failed, [height] * len(failed), transform=strip, linestyle="none", marker="X",
                    markersize=marker_size + 2, color=color, clip_on=False, zorder=4)
            marked["failed"] = True
        if missing:
            ax.plot(missing, [height] * len(missing), transform=strip, linestyle="none", marker="o",
                    markersize=marker_size, markerfacecolor="white", markeredgecolor=color, markeredgewidth=1.8,
                    clip_on=False, zorder=4)
            marked["missing"] = True
    _set_axes(ax, all_sizes, ratios, chapter.nonzeros(), compact)
    ax.axhline(1.0, color=style.MEMCPY, linestyle=(0, (6, 3)), linewidth=1.6, zorder=2)
    ax.annotate("1.0×: as fast as the library", (0.005, 1.0), xycoords=("axes fraction", "data"), xytext=(0, 4),
                textcoords="offset points", va="bottom", fontsize=12 if compact else 13, color=style.MEMCPY)
    if marked["failed"]:
        ax.plot([], [], linestyle="none", marker="X", color=style.MUTED, markersize=marker_size,
                label="FAIL: no ratio")
    if marked["missing"]:
        ax.plot([], [], linestyle="none", marker="o", markerfacecolor="white", markeredgecolor=style.MUTED,
                markersize=marker_size, label="missing: no report")


def _set_axes(ax, sizes: List[int], ratios: List[float], nonzeros: bool, compact: bool) -> None:
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    from . import style

    style.log2_n_axis(ax, sizes, 8, 0.35)
    what = "nonzeros asked for" if nonzeros else "elements"
    ax.set_xlabel(f"n ({what}, log scale)" if not compact else f"n ({what})")
    values = ratios + [1.0]
    bottom, top = min(values) / 1.25, max(values) * 1.15
    bottom = min(bottom, 1 / 1.6)  # room under the line for the strip of failed and missing points
    ax.set_yscale("log", base=2)
    ax.set_ylim(bottom, top)
    ticks = [tick for tick in _CANDIDATE_TICKS if bottom <= tick <= top]
    ax.yaxis.set_major_locator(FixedLocator(ticks))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}×"))
    ax.set_ylabel("library time ÷ best stage time" if compact else
                  "library median ÷ best stage median (log scale)")
    ax.grid(color="#e3e3e3", linewidth=0.8)
    ax.tick_params(axis="both", labelcolor=style.MUTED)


def _input_name(report: Report) -> str:
    """The input a run was of, for the library table: its --matrix file's name (or generator spec), else the
    problem's label, and its element type."""
    words = _arguments(report)
    name = ""
    for i, word in enumerate(words):
        if word == "--matrix" and i + 1 < len(words):
            name = words[i + 1]
        elif word.startswith("--matrix="):
            name = word[len("--matrix="):]
    if name.endswith(".mtx"):
        name = name.rsplit("/", 1)[-1][:-len(".mtx")]
    return f"{name or problem_label(report)} ({report.element_type.split()[0]})"


def render_library_table(reports: List[Report], stage: Optional[int] = None) -> str:
    """One row per run: the fastest kernel stage that passed, each library row, and the faster library's time over
    the stage's; with @p stage, that stage's ratio too. Last, the geometric means of the ratios over the runs."""
    libraries: List[str] = []
    for report in reports:
        libraries.extend(row.name for row in report.libraries() if row.name not in libraries)
    head = ["input", "nonzeros" if any("nonzeros" in r.element_type for r in reports) else "n", "best stage, ms"]
    head += [f"{name}, ms" for name in libraries] + ["faster library ÷ best"]
    if stage is not None:
        head += [f"stage {stage}, ms", f"faster library ÷ stage {stage}"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * 2 + " ---: |" * (len(head) - 2)]
    logs_best, logs_stage = [], []
    for report in reports:
        best, library = best_row(report), library_row(report)
        by_name = {row.name: row for row in report.libraries()}
        cells = [_input_name(report), f"{report.n:,}"]
        cells.append(f"{best.median_ms:.4f} ({best.number})" if best else "FAIL")
        cells += [f"{by_name[name].median_ms:.4f}" if name in by_name and not by_name[name].failed else "—"
                  for name in libraries]
        if best and library:
            ratio = library.median_ms / best.median_ms
            logs_best.append(math.log(ratio))
            cells.append(f"{ratio:.2f}×")
        else:
            cells.append("FAIL")
        if stage is not None:
            chosen = [row for row in report.rows if row.kind == "kernel" and row.number == stage
                      and not row.is_variant and not row.failed]
            if chosen and library:
                ratio = library.median_ms / chosen[0].median_ms
                logs_stage.append(math.log(ratio))
                cells += [f"{chosen[0].median_ms:.4f}", f"{ratio:.2f}×"]
            else:
                cells += ["—", "—"]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    if logs_best:
        lines.append(f"Geometric mean over {len(logs_best)} runs of the faster library's median ÷ the best stage's: "
                     f"{math.exp(sum(logs_best) / len(logs_best)):.2f}×" +
                     (f"; ÷ stage {stage}'s ({len(logs_stage)} runs): {math.exp(sum(logs_stage) / len(logs_stage)):.2f}×"
                      if logs_stage else "") + ".")
    devices = sorted({report.device_name for report in reports})
    dates = sorted({report.date for report in reports if report.date})
    lines.append(", ".join(devices) + (f", {dates[0]}" if len(dates) == 1 else
                                        (f", {dates[0]} to {dates[-1]}" if dates else "")) + ".")
    return "\n".join(lines) + "\n"
