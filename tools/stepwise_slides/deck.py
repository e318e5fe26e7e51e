"""A chapter's deck, and the course's, built from what the repository holds, written as Markdown in pandoc's slide
format (`# section`, `## slide`, images by relative path): the source an instructor edits, which render.py turns
into one HTML file and `pandoc deck.md -o deck.pptx` into PowerPoint.

A chapter's deck: a title slide (the chapter, the device and date of its tables); the lecture's opening and its
problem; per stage file one slide (its lesson, its row, the opening comment of its file, the lecture's code block for
it or the kernel's first lines, the lecture's diagram); every figure the lecture shows; one table slide per report
the stages' rows come from (its device and date on the slide); the seeds' numbers beside ours as the lecture's
Results section sets them; what the library does beyond; references; the exercises and what to predict.
"""
import glob
import os
import re
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from stepwise_plot.report import Row

from . import lecture as lec
from . import reports as rep

CODE_LINES = 14  # at most this many lines of code on a stage slide
TABLE_ROWS = 14  # at most this many body rows of a lecture table on a slide
TITLE_CHARACTERS = 90
WIDE = 1.8  # a diagram wider than this (width / height) goes under a stage's text, not beside it


@dataclass
class Slide:
    """One `## title` slide: its kind (intro, concept, stage, figure, table, thennow, beyond, references,
    exercises), Markdown blocks, speaker notes and, for a stage slide, its file."""

    title: str
    kind: str
    blocks: List[str] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    stage_file: str = ""
    images: List[str] = field(default_factory=list)  # the figures it shows, relative to the repository


@dataclass
class Part:
    """A `# title` section of a deck and its slides."""

    title: str
    slides: List[Slide] = field(default_factory=list)


@dataclass
class Deck:
    """A deck: its title slide (title, subtitle, the device and date line) and its sections."""

    name: str
    title: str
    subtitle: str
    device_line: str
    parts: List[Part] = field(default_factory=list)

    def slides(self) -> List[Slide]:
        """Every `##` slide, in order."""
        return [slide for part in self.parts for slide in part.slides]


# ---------------------------------------------------------------------------------------------------------------
# Markdown text: README prose as pandoc reads it, clipped to fit a slide.

CODE_SPAN = re.compile(r"(`+)(.+?)\1")
LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")


def _outside_code(text: str, change) -> str:
    """Apply change() to the parts of text that are not code spans."""
    out = []
    position = 0
    for match in CODE_SPAN.finditer(text):
        out.append(change(text[position:match.start()]))
        out.append(match.group(0))
        position = match.end()
    out.append(change(text[position:]))
    return "".join(out)


def inline(text: str) -> str:
    """README inline Markdown as a slide's: links into the repository become their text (a deck travels alone),
    web links stay; the characters pandoc reads as superscript, subscript, math or citation are escaped."""

    def change(part: str) -> str:
        part = LINK.sub(lambda m: m.group(0) if re.match(r"https?://", m.group(2)) else m.group(1), part)
        return re.sub(r"(?<!\\)([\^~$@])", r"\\\1", part)

    text = _outside_code(text.strip(), change)
    return re.sub(r"^(\d+)([.)])(\s)", r"\1\\\2\3", text)  # not a numbered list


def literal(text: str) -> str:
    """Plain text (a stage's lesson, a source comment) as Markdown: its backtick spans stay code, every other
    character Markdown or pandoc would read as a mark is escaped."""
    return _outside_code(" ".join(text.split()), lambda part: re.sub(r"([\\*_\[\]<>#^~$@|`])", r"\\\1", part))


def plain(text: str) -> str:
    """The text of inline Markdown, without its marks: what a reader sees of a title."""
    text = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = LINK.sub(r"\1", text)
    text = re.sub(r"`+([^`]*)`+", r"\1", text)
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"\1", text)
    text = re.sub(r"\\(.)", r"\1", text)
    return " ".join(text.split())


def clip(text: str, limit: int) -> str:
    """Inline Markdown cut to about `limit` characters: at the end of a sentence when one ends past half of it, else
    at a space, with an ellipsis; never inside a code span or a bold run."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    sentence = max(cut.rfind(". "), cut.rfind(": "), cut.rfind("; "))
    if sentence > limit // 2:
        cut = cut[: sentence + 1]
        ending = "" if cut.endswith(".") else " …"
    else:
        cut = cut[: cut.rfind(" ")] if " " in cut else cut
        ending = " …"
    while cut.endswith("\\"):
        cut = cut[:-1]
    for mark in ("`", "**"):
        while cut.count(mark) % 2:
            cut = cut[: cut.rfind(mark)].rstrip()
    return cut.rstrip(",;:") + ending


def _title(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= TITLE_CHARACTERS else clip(text, TITLE_CHARACTERS)


def div(kind: str, *blocks: str) -> str:
    """A fenced div of one class around Markdown blocks (pandoc keeps its content on the slide)."""
    return "\n\n".join([f"::: {{.{kind}}}", *blocks, ":::"])


def code_block(language: str, lines: List[str]) -> str:
    """A fenced code block, clipped to CODE_LINES lines (the rest elided with `...`)."""
    lines = [line.rstrip() for line in lines]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) > CODE_LINES:
        lines = lines[: CODE_LINES - 1] + ["..."]
    fence = "````" if any(line.startswith("```") for line in lines) else "```"
    return "\n".join([fence + (language or ""), *lines, fence])


def table_block(rows: List[str], limit: int = TABLE_ROWS) -> str:
    """A lecture's pipe table, its cells made slide Markdown, at most `limit` body rows."""
    def cells(row: str) -> List[str]:
        row = row.strip()
        if row.startswith("|"):
            row = row[1:]
        if row.endswith("|") and not row.endswith("\\|"):
            row = row[:-1]
        return [cell.strip() for cell in re.split(r"(?<!\\)\|", row)]

    header, delimiter, body = rows[0], rows[1], rows[2:]
    lines = ["| " + " | ".join(inline(cell) for cell in cells(header)) + " |", delimiter.strip()]
    for row in body[:limit]:
        lines.append("| " + " | ".join(inline(cell) for cell in cells(row)) + " |")
    table = "\n".join(lines)
    if len(body) > limit:  # said before the table: pandoc's PowerPoint starts a new slide after one
        table = div("source", f"The first {limit} of its {len(body)} rows.") + "\n\n" + table
    return table


# ---------------------------------------------------------------------------------------------------------------
# Rows from the reports.


def _ms(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.4f}"


def _rate(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:,.1f}"


def _speedup(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.2f}x"


def row_line(run: rep.Run, row: Row) -> str:
    """One stage's row as a line: time, GB/s (GFLOP/s), step and total speedup, and the run it is from."""
    if row.failed:
        values = f"**FAIL** ({row.check_detail or 'the check failed'})"
    else:
        values = f"**{_ms(row.median_ms)} ms** · {_rate(row.gbps)} GB/s"
        if row.gflops:
            values += f" · {_rate(row.gflops)} GFLOP/s"
        if row.kind == "kernel":
            values += f" · step {_speedup(row.step_speedup)}"
        values += f" · total {_speedup(row.total_speedup)}"
    shape = f", {row.shape.label}" if row.shape.label not in ("", "-") else ""
    return f"{literal(row.label + shape)}: {values} ({literal(run.device_line())})"


def run_table(run: rep.Run) -> str:
    """The run's table: every stage, library and reference row (no variants, no sweep repeats)."""
    report = run.report
    rows = [row for row in report.rows if not row.is_variant]
    seen = set()
    kept = []
    for row in rows:
        key = (row.kind, row.number, row.name)
        if key in seen:
            continue
        seen.add(key)
        kept.append(row)
    flops = any(row.gflops for row in kept)
    header = ["#", "stage", "shape", "time ms", "GB/s"] + (["GFLOP/s"] if flops else []) + ["step", "total", "check"]
    align = ["---:", "---", "---", "---:", "---:"] + (["---:"] if flops else []) + ["---:", "---:", "---"]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    for row in kept:
        number = str(row.number) if row.kind == "kernel" else ("lib" if row.kind == "library" else row.kind)
        cells = [number, inline(f"`{row.name}`" if "*" in row.name or "_" in row.name else row.name),
                 inline(row.shape.label), _ms(row.median_ms), _rate(row.gbps)]
        if flops:
            cells.append(_rate(row.gflops))
        cells += [_speedup(row.step_speedup) if row.kind == "kernel" else "-", _speedup(row.total_speedup),
                  row.check]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------------------------
# The chapter's deck.


@dataclass
class Sources:
    """Where a deck's files are: the repository root, and the folder the deck's Markdown is written to (image paths
    are relative to it)."""

    root: str
    output_dir: str

    def image(self, chapter_dir: str, src: str) -> Tuple[str, str]:
        """(path for the deck's Markdown, path relative to the repository) of a README image."""
        absolute = os.path.normpath(os.path.join(chapter_dir, src))
        return os.path.relpath(absolute, self.output_dir), os.path.relpath(absolute, self.root)


def _image_block(sources: Sources, chapter_dir: str, block: lec.Block, slide: Slide, alt: str = "") -> str:
    path, repository_path = sources.image(chapter_dir, block.src)
    slide.images.append(repository_path)
    text = plain(alt or block.alt)
    text = clip(text, 120).replace("[", "(").replace("]", ")")
    return f"![{inline(text)}]({path})"


def _caption_after(section: lec.Section, image: lec.Block) -> str:
    """The italic paragraph right after an image (the lecture's caption), or ''."""
    index = section.blocks.index(image)
    if index + 1 < len(section.blocks):
        following = section.blocks[index + 1]
        text = following.text()
        if following.kind == "paragraph" and text.startswith("*") and not text.startswith("**"):
            return text.strip("*").strip()
    return ""


def _prose(section: lec.Section) -> List[str]:
    """A section's paragraphs and list items, for speaker notes."""
    return [inline(block.text()) for block in section.blocks if block.kind in ("paragraph", "list")]


def _figure_slide(sources: Sources, chapter_dir: str, section: lec.Section, image: lec.Block, title: str) -> Slide:
    slide = Slide(_title(title), "figure")
    caption = _caption_after(section, image)
    if caption:
        slide.blocks.append(div("caption", inline(clip(caption, 260))))
        slide.notes.append(inline(caption))
    slide.blocks.append(_image_block(sources, chapter_dir, image, slide, alt=title))
    return slide


def _figure_title(alt: str) -> str:
    """A figure's alt text as a slide title: without its trailing parenthesis when that is long."""
    alt = " ".join(alt.split())
    if len(alt) > TITLE_CHARACTERS and "(" in alt:
        alt = alt[: alt.index("(")].rstrip(" ,:;")
    return alt or "Figure"


def _concept_slide(sources: Sources, chapter_dir: str, section: lec.Section, title: str = "") -> List[Slide]:
    """A section that is not a stage's: its first paragraph and its first table (or figure), then a slide per other
    figure."""
    slide = Slide(_title(title or section.title), "concept")
    paragraph = section.first("paragraph") or section.first("list")
    if paragraph is not None:
        slide.blocks.append(inline(clip(paragraph.text(), 420)))
    table = section.first("table")
    images = section.all("image")
    if table is not None:
        slide.blocks.append(table_block(table.lines, 10))
    elif images:
        slide.blocks.append(_image_block(sources, chapter_dir, images[0], slide))
        images = images[1:]
    slide.notes = _prose(section)
    if not slide.blocks:
        return [_figure_slide(sources, chapter_dir, section, image, _figure_title(image.alt)) for image in images]
    return [slide] + [_figure_slide(sources, chapter_dir, section, image, _figure_title(image.alt)) for image in images]


def _aspect(path: str) -> float:
    """An SVG's width over its height (from its width and height attributes or viewBox), 1.0 when unknown."""
    try:
        with open(path, encoding="utf-8", errors="replace") as stream:
            head = stream.read(4000)
    except OSError:
        return 1.0
    svg = re.search(r"<svg\b[^>]*>", head, re.DOTALL)
    if svg is None:
        return 1.0
    width = re.search(r'\swidth="([\d.]+)', svg.group(0))
    height = re.search(r'\sheight="([\d.]+)', svg.group(0))
    if width and height and float(height.group(1)) > 0:
        return float(width.group(1)) / float(height.group(1))
    box = re.search(r'viewBox="[\d.+-]+\s+[\d.+-]+\s+([\d.]+)\s+([\d.]+)"', svg.group(0))
    if box and float(box.group(2)) > 0:
        return float(box.group(1)) / float(box.group(2))
    return 1.0


def _stage_title(stage: lec.StageFile, home: Optional[lec.Section], homed_here: int, rows) -> str:
    if home is not None and homed_here == 1 and not stage.is_library:
        match = re.match(r"Stage (\d+)\b", home.title)
        if match and int(match.group(1)) == stage.number:
            return home.title
    if stage.is_library:
        names = ", ".join(row.name for _, row in rows) if rows else os.path.basename(stage.path)
        return f"The library: {names}"
    header = stage.comment_paragraphs()[0] if stage.comment_paragraphs() else ""
    header = re.sub(r"\.$", "", header.split(". ")[0])
    if header:
        return header
    prefix = f"{stage.folder} stage" if stage.folder else "Stage"
    return f"{prefix} {stage.number}"


def _stage_slide(sources: Sources, chapter_dir: str, stage: lec.StageFile, home: Optional[lec.Section],
                 homed_here: int, first_here: bool, runs: rep.ChapterRuns) -> List[Slide]:
    rows = [match for match in (runs.row_for(lesson) for lesson in stage.lessons) if match]
    slide = Slide(_title(inline(_stage_title(stage, home, homed_here, rows))), "stage", stage_file=stage.path)
    left: List[str] = []
    lessons = stage.lessons or ["(no lesson in the file)"]
    left.append(div("lesson", "\n\n".join(f"**{literal(lesson)}**" for lesson in lessons)))
    if rows:
        left.append(div("row", "\n\n".join(row_line(run, row) for run, row in rows)))
    else:
        left.append(div("row", "No row in this deck's reports: the lecture's section gives its numbers."))
    paragraphs = stage.comment_paragraphs()
    comment = paragraphs[1] if len(paragraphs) > 1 else (paragraphs[0] if paragraphs else "")
    if comment:
        left.append(div("comment", clip(literal(comment), 300)))
    code = None
    if home is not None:
        code = next((b for b in home.blocks if b.kind == "code" and os.path.normpath(b.excerpt) == stage.path), None)
    if code is not None:
        left.append(code_block(code.language or "cuda", code.lines))
    else:
        language = "cpp" if stage.path.endswith(".cpp") else "cuda"
        left.append(code_block(language, stage.first_lines(CODE_LINES - 2)))
    slide.notes = [literal(" ".join(stage.comment))] + (_prose(home) if home is not None else [])
    slides = [slide]
    images = home.all("image") if home is not None and first_here else []
    if images and _aspect(os.path.join(chapter_dir, images[0].src)) > WIDE:
        slide.blocks.extend(left)  # a wide diagram: under the text, the slide's full width
        slide.blocks.append(_image_block(sources, chapter_dir, images[0], slide))
        for image in images[1:]:
            slides.append(_figure_slide(sources, chapter_dir, home, image, _figure_title(image.alt)))
    elif images:
        right = _image_block(sources, chapter_dir, images[0], slide)
        slide.blocks.append("\n\n".join([":::::: {.columns}", "::: {.column width=\"56%\"}", *left, ":::",
                                         "::: {.column width=\"44%\"}", right, ":::", "::::::"]))
        for image in images[1:]:
            slides.append(_figure_slide(sources, chapter_dir, home, image, _figure_title(image.alt)))
    else:
        slide.blocks.extend(left)
    return slides


def _then_and_now(results: List[lec.Section]) -> Optional[Slide]:
    """The lecture's table (or paragraph) that sets the seed's numbers beside ours."""
    then_now = re.compile(r"then and now|beside (the|ours)", re.IGNORECASE)
    for section in results[1:]:
        if then_now.search(section.title):
            tables = section.all("table")
            slide = Slide(_title(inline(section.title)), "thennow")
            slide.blocks.append(div("source", "From the lecture's Results section: the seed's numbers as published, "
                                              "ours from the lecture's tables."))
            if tables:
                chosen = next((t for t in tables if re.search(r"H100|this chapter", "\n".join(t.lines))), tables[0])
                slide.blocks.append(table_block(chosen.lines))
            else:
                paragraph = section.first("paragraph")
                if paragraph is None:
                    continue
                slide.blocks.append(inline(clip(paragraph.text(), 700)))
            slide.notes = _prose(section)
            return slide
    for section in results:
        for block in section.blocks:
            text = block.text()
            lead = re.match(r"^\*\*([^*]+)\*\*", text)
            if block.kind in ("paragraph", "list") and lead and then_now.search(lead.group(1)):
                slide = Slide("Then and now", "thennow")
                slide.blocks.append(inline(clip(text, 800)))
                slide.blocks.append(div("source", "From the lecture's Results section."))
                return slide
    return None


def _beyond_slide(section: lec.Section) -> Slide:
    slide = Slide(_title(inline(section.title)), "beyond")
    items = section.all("list")
    if items:
        lines = []
        for item in items[:6]:
            text = item.text()
            lead = re.match(r"^(\*\*[^*]+\*\*)\s*(.*)$", text)
            lines.append("- " + inline(lead.group(1) + " " + clip(lead.group(2), 140) if lead else clip(text, 170)))
        intro = section.first("paragraph")
        if intro is not None and section.blocks.index(intro) < section.blocks.index(items[0]):
            slide.blocks.append(inline(clip(intro.text(), 200)))
        slide.blocks.append("\n".join(lines))
    else:
        for paragraph in section.all("paragraph")[:2]:
            slide.blocks.append(inline(clip(paragraph.text(), 400)))
    slide.notes = _prose(section)
    return slide


def _references_slide(section: lec.Section) -> Slide:
    slide = Slide("References", "references")
    items = section.all("list")
    lines = ["- " + inline(clip(item.text(), 170)) for item in items[:10]]
    if len(items) > 10:
        lines.append(f"- … {len(items) - 10} more in the lecture")
    slide.blocks.append("\n".join(lines) if lines else "See the lecture's references.")
    return slide


def _exercises_slide(chapter_dir: str, chapter: str) -> Slide:
    exercises = lec.read_exercises(os.path.join(chapter_dir, "exercises", "README.md"))
    slide = Slide("Exercises: predict, then grade", "exercises")
    lines = []
    for exercise in exercises:
        lines.append("- " + inline(f"**{exercise.title}**. " + clip(exercise.predict, 230)))
    slide.blocks.append("\n".join(lines) if lines else "This chapter has no graded exercises.")
    number = chapter.split("_")[0]
    where = "Graded on the CPU"
    if glob.glob(os.path.join(chapter_dir, "exercises", "build_*.cu")):
        where = "Graded on the CPU (a build exercise, a stage's kernel to write, on a GPU)"
    slide.blocks.append(div("source", inline(
        f"{where}: configure with `-DSTEPWISE_EXERCISES=ON`, then "
        f"`ctest --test-dir build -L exercise-{number} --output-on-failure`.")))
    slide.notes = [inline(f"{exercise.title}: {exercise.predict}") for exercise in exercises]
    return slide


def _table_slide(run: rep.Run) -> Slide:
    slide = Slide(_title(inline(f"Results: `{run.command}`")), "table")
    slide.blocks.append(div("device", inline(run.device_line())))
    slide.blocks.append(run_table(run))
    report = run.report
    slide.notes = [inline(f"Run: {report.command}. memcpy {report.memcpy_gbps:,.0f} GB/s, datasheet peak "
                          f"{report.peak_gbps:,.0f} GB/s, L2 flush: {report.flush or 'none'}.")]
    return slide


def _results_text(lecture: lec.Lecture) -> Tuple[List[lec.Section], str]:
    results = lecture.find(r"^Results")
    if results is None:
        return [], ""
    sections = [results] + lecture.children(results)
    return sections, "\n".join("\n".join(block.lines) for section in sections for block in section.blocks)


def chapter_deck(root: str, chapter: str, output_dir: str, reports_dir: Optional[str] = None) -> Deck:
    """The deck of chapters/<chapter> (e.g. 01_reduction); reports_dir: a fresh run's reports, else the shipped."""
    chapter_dir = os.path.join(root, "chapters", chapter)
    sources = Sources(root, output_dir)
    lecture = lec.read_lecture(os.path.join(chapter_dir, "README.md"))
    results, results_text = _results_text(lecture)
    fresh_dir = rep.fresh_folder(reports_dir, chapter) if reports_dir is not None else None
    runs = rep.collect(chapter_dir, results_text, fresh_dir)
    stages = lec.stage_files(chapter_dir)

    homes = {}
    for stage in stages:
        candidates = [s for s in lecture.sections if stage.path in [os.path.normpath(e) for e in s.excerpts()]]
        preferred = [s for s in candidates if re.match(r"Stage \d+", s.title)]
        homes[stage.path] = (preferred or candidates or [None])[0]
    used: List[rep.Run] = []
    for stage in stages:
        for lesson in stage.lessons:
            match = runs.row_for(lesson)
            if match and match[0] not in used:
                used.append(match[0])
    used.sort(key=runs.runs.index)  # the order the lecture cites them

    title = lecture.title
    subtitle = f"stepwise, chapter {chapter.split('_')[0]}: the lecture as slides"
    if used:
        where = f"your reports in {reports_dir}" if runs.fresh else f"the reports shipped in chapters/{chapter}/results"
        device_line = f"Tables: {rep.devices(used)}, {rep.dates(used)} ({where})"
    else:
        device_line = "Tables: no report of this chapter was found"
    if reports_dir is not None:
        device_line += "; figures: the lecture's own"
    deck = Deck(chapter, title, subtitle, device_line)

    opening = Part("The problem")
    stages_part = Part("The stages")
    results_part = Part("Results")
    beyond = Part("Beyond the chapter")
    exercises = Part("Exercises")
    deck.parts = [opening, stages_part, results_part, beyond, exercises]

    intro = Slide("The chapter", "intro")
    paragraphs = [b for b in lecture.intro if b.kind == "paragraph"]
    if paragraphs:
        intro.blocks.append(inline(clip(paragraphs[0].text(), 520)))
    commands = next((b for b in lecture.intro if b.kind == "code"), None)
    if commands is not None:
        intro.blocks.append(code_block(commands.language or "sh", commands.lines[:6]))
    intro.notes = [inline(b.text()) for b in paragraphs]
    opening.slides.append(intro)

    emitted = set()
    seen_results = False
    first_home = min((lecture.sections.index(h) for h in homes.values() if h is not None), default=0)
    for index, section in enumerate(lecture.sections):
        if results and section in results:
            if section is results[0]:
                seen_results = True
                results_part.slides.extend(_table_slide(run) for run in used)
                for part_section in results:
                    for image in part_section.all("image"):
                        results_part.slides.append(
                            _figure_slide(sources, chapter_dir, part_section, image, _figure_title(image.alt)))
                then_now = _then_and_now(results)
                if then_now is not None:
                    results_part.slides.append(then_now)
            continue
        homed = [stage for stage in stages if homes[stage.path] is section]
        if homed:
            for position, stage in enumerate(homed):
                stages_part.slides.extend(
                    _stage_slide(sources, chapter_dir, stage, section, len(homed), position == 0, runs))
                emitted.add(stage.path)
                folder_numbers = [s.number for s in stages if s.folder == stage.folder and not s.is_library]
                if stage.number == max(folder_numbers):
                    for library in (s for s in stages if s.folder == stage.folder and s.is_library):
                        stages_part.slides.extend(_stage_slide(sources, chapter_dir, library, None, 0, False, runs))
                        emitted.add(library.path)
            continue
        if section.level == 2 and re.match(r"^What (the|CUB)", section.title):
            beyond.slides.append(_beyond_slide(section))
        elif section.level == 2 and re.match(r"^References", section.title):
            beyond.slides.append(_references_slide(section))
        elif section.level == 2 and re.match(r"^Exercises", section.title):
            exercises.slides.append(_exercises_slide(chapter_dir, chapter))
        else:
            target = beyond if seen_results else (opening if index < first_home else stages_part)
            if re.search(r"speed of light", section.title, re.IGNORECASE):
                target = opening
            target.slides.extend(_concept_slide(sources, chapter_dir, section))
    for stage in stages:  # a stage the lecture does not excerpt (a library file of a folder without stages)
        if stage.path not in emitted:
            stages_part.slides.extend(_stage_slide(sources, chapter_dir, stage, None, 0, False, runs))
    if not exercises.slides:
        exercises.slides.append(_exercises_slide(chapter_dir, chapter))
    deck.parts = [part for part in deck.parts if part.slides]
    return deck


def chapters(root: str) -> List[str]:
    """The chapters to present: chapters/NN_name folders with a README.md (not chapters/_template)."""
    folder = os.path.join(root, "chapters")
    return sorted(name for name in os.listdir(folder)
                  if re.match(r"^\d\d_", name) and os.path.exists(os.path.join(folder, name, "README.md")))


def course_deck(root: str, decks: List[Deck]) -> Deck:
    """The course: a title slide, the chapters at a glance, then every chapter's slides under its own section."""
    lines = [deck.device_line.split(" (")[0].replace("Tables: ", "") for deck in decks]
    seen: List[str] = []
    for line in lines:
        if line not in seen:
            seen.append(line)
    course = Deck("course", "stepwise: GPU streaming algorithms, one stage at a time",
                  "Every chapter, from the naive kernel to the library's",
                  "Tables: " + "; ".join(seen))
    overview = Slide("The chapters", "intro")
    overview.blocks.append("\n".join(f"- {inline(deck.title)}" for deck in decks))
    course.parts.append(Part("The course", [overview]))
    for deck in decks:
        part = Part(inline(deck.title))
        first = True
        for slide in deck.slides():
            if first:
                slide = Slide(slide.title, slide.kind, list(slide.blocks) + [div("device", inline(deck.device_line))],
                              slide.notes, slide.stage_file, slide.images)
                first = False
            part.slides.append(slide)
        course.parts.append(part)
    return course


# ---------------------------------------------------------------------------------------------------------------
# Writing the Markdown.


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_markdown(deck: Deck) -> str:
    """The deck in pandoc's slide Markdown: a YAML title block, `# part`, `## slide`, notes in `::: notes`."""
    out = ["---", f"title: {_quoted(plain(deck.title))}"]
    if deck.subtitle:
        out.append(f"subtitle: {_quoted(deck.subtitle)}")
    out.append(f"date: {_quoted(deck.device_line)}")
    out += ["---", ""]
    for part in deck.parts:
        out += [f"# {part.title}", ""]
        for slide in part.slides:
            out += [f"## {slide.title}", ""]
            for block in slide.blocks:
                out += [block, ""]
            if slide.notes:
                out += ["::: notes", "", *[note + "\n" for note in slide.notes if note], ":::", ""]
    return "\n".join(out).rstrip() + "\n"
