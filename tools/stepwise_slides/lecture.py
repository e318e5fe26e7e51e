"""What a chapter already holds, read for slides: its lecture (README.md) cut into sections, its stage files with
their lessons and opening comments, and its exercises (exercises/README.md). Standard library only.

A lecture's units are its `##` and `###` sections, each with the blocks up to the next heading: paragraphs, fenced
code blocks (with the stage file an `<!-- excerpt: PATH -->` line names), pipe tables, lists and images.
"""
import os
import re
from dataclasses import dataclass, field
from typing import List, Optional

EXCERPT = re.compile(r"^<!--\s*excerpt:\s*(\S+)\s*-->\s*$")
FENCE = re.compile(r"^(```+|~~~+)\s*([\w+-]*)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
IMAGE = re.compile(r"^!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]+)(?:\s+\"[^\"]*\")?\)\s*$")
LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+")
TABLE_DELIMITER = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
STAGE_FILE = re.compile(r"^(\d+)_.*\.(cu|cpp)$")
LIBRARY_FILE = re.compile(r"^lib_.*\.(cu|cpp)$")
LESSON = re.compile(r"\blesson\s*=\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+);")
STRING = re.compile(r"\"((?:[^\"\\]|\\.)*)\"")


class LectureError(Exception):
    """A chapter whose files cannot be read as a lecture; the message says which file and why."""


@dataclass
class Block:
    """One block of a section: kind is paragraph, code, table, list, image or comment."""

    kind: str
    lines: List[str]
    language: str = ""  # code: the fence's info string
    excerpt: str = ""  # code: the file the `<!-- excerpt: -->` line before it names, relative to the README
    alt: str = ""  # image
    src: str = ""  # image, relative to the README

    def text(self) -> str:
        """A paragraph or list item's lines joined into one line."""
        return " ".join(line.strip() for line in self.lines)


@dataclass
class Section:
    """A `##` or `###` section: its heading, its level, the `##` section it belongs to, and its own blocks."""

    title: str
    level: int
    parent: str
    blocks: List[Block] = field(default_factory=list)

    def first(self, kind: str) -> Optional[Block]:
        """The first block of a kind, or None."""
        return next((block for block in self.blocks if block.kind == kind), None)

    def all(self, kind: str) -> List[Block]:
        """Every block of a kind, in order."""
        return [block for block in self.blocks if block.kind == kind]

    def excerpts(self) -> List[str]:
        """The files this section's code blocks excerpt, in order (relative to the README)."""
        return [block.excerpt for block in self.blocks if block.kind == "code" and block.excerpt]


@dataclass
class Lecture:
    """A README.md: its title, the blocks before its first section (the intro) and its sections in order."""

    title: str
    intro: List[Block]
    sections: List[Section]

    def find(self, pattern: str) -> Optional[Section]:
        """The first `##` section whose title matches a regular expression (case-insensitive), or None."""
        return next((s for s in self.sections if s.level == 2 and re.search(pattern, s.title, re.IGNORECASE)), None)

    def children(self, parent: Section) -> List[Section]:
        """The `###` sections under a `##` section, in order."""
        index = self.sections.index(parent)
        children = []
        for section in self.sections[index + 1:]:
            if section.level <= parent.level:
                break
            children.append(section)
        return children


def parse_blocks(lines: List[str]) -> List[Block]:
    """The blocks of Markdown lines (no headings among them)."""
    blocks: List[Block] = []
    i = 0
    pending_excerpt = ""
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            i += 1
            continue
        excerpt = EXCERPT.match(stripped)
        if excerpt:
            pending_excerpt = excerpt.group(1)
            i += 1
            continue
        if stripped.startswith("<!--"):
            while i < len(lines) and "-->" not in lines[i]:
                i += 1
            i += 1
            continue
        fence = FENCE.match(line)
        if fence:
            marker = fence.group(1)
            body = []
            i += 1
            while i < len(lines) and not lines[i].startswith(marker[:3]):
                body.append(lines[i])
                i += 1
            blocks.append(Block("code", body, language=fence.group(2), excerpt=pending_excerpt))
            pending_excerpt = ""
            i += 1
            continue
        pending_excerpt = ""
        image = IMAGE.match(stripped)
        if image:
            blocks.append(Block("image", [stripped], alt=image.group("alt"), src=image.group("src")))
            i += 1
            continue
        if stripped.startswith("|") and i + 1 < len(lines) and TABLE_DELIMITER.match(lines[i + 1]):
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(lines[i].strip())
                i += 1
            blocks.append(Block("table", rows))
            continue
        if LIST_ITEM.match(line):
            items: List[List[str]] = []
            while i < len(lines) and lines[i].strip():
                if LIST_ITEM.match(lines[i]) and len(LIST_ITEM.match(lines[i]).group(1)) == 0:
                    items.append([LIST_ITEM.sub("", lines[i], count=1)])
                elif items:
                    items[-1].append(lines[i])
                i += 1
            for item in items:
                blocks.append(Block("list", item))
            continue
        paragraph = []
        while i < len(lines) and lines[i].strip() and not FENCE.match(lines[i]) and not IMAGE.match(lines[i].strip()):
            if lines[i].strip().startswith("|") and i + 1 < len(lines) and TABLE_DELIMITER.match(lines[i + 1]):
                break
            if paragraph and LIST_ITEM.match(lines[i]) and not LIST_ITEM.match(lines[i]).group(1):
                break
            paragraph.append(lines[i])
            i += 1
        if paragraph:
            blocks.append(Block("paragraph", paragraph))
        else:
            i += 1
    return blocks


def read_lecture(path: str) -> Lecture:
    """Read a README.md into its title, intro and sections."""
    try:
        with open(path, encoding="utf-8") as stream:
            lines = stream.read().splitlines()
    except OSError as error:
        raise LectureError(f"{path}: {error.strerror}") from error
    title = ""
    intro_lines: List[str] = []
    headed = []  # (title, level, parent, lines) of each section
    current: List[str] = intro_lines
    parent = ""
    in_fence = ""
    for line in lines:
        fence = FENCE.match(line)
        if in_fence:
            if line.startswith(in_fence[:3]):
                in_fence = ""
            current.append(line)
            continue
        if fence:
            in_fence = fence.group(1)
            current.append(line)
            continue
        heading = HEADING.match(line)
        if heading:
            level = len(heading.group(1))
            text = heading.group(2)
            if level == 1 and not title:
                title = text
                continue
            if level in (2, 3):
                if level == 2:
                    parent = text
                current = []
                headed.append((text, level, parent, current))
                continue
        current.append(line)
    sections = [Section(text, level, parent, parse_blocks(body)) for text, level, parent, body in headed]
    if not title:
        raise LectureError(f"{path}: no '# title' line")
    return Lecture(title, parse_blocks(intro_lines), sections)


@dataclass
class StageFile:
    """One file under stages/: its path relative to the chapter, its problem folder ('' at top level), its number
    (0 for a library file), its lessons (one per row it adds), its opening comment and its source lines."""

    path: str
    folder: str
    number: int
    lessons: List[str]
    comment: List[str]
    source: List[str]

    @property
    def is_library(self) -> bool:
        """True for a library row's file (stages/lib_*)."""
        return self.number == 0

    def comment_paragraphs(self) -> List[str]:
        """The opening comment's paragraphs, each joined into one line."""
        paragraphs: List[str] = []
        current: List[str] = []
        for line in self.comment:
            if line.strip():
                current.append(line.strip())
            elif current:
                paragraphs.append(" ".join(current))
                current = []
        if current:
            paragraphs.append(" ".join(current))
        return paragraphs

    def first_lines(self, count: int) -> List[str]:
        """The kernel's first lines (the first `__global__` function, with its template line), or for a file with
        no kernel the first function after the includes: what a slide shows when the lecture excerpts nothing."""
        start = next((i for i, line in enumerate(self.source) if "__global__" in line), None)
        if start is not None and start > 0 and self.source[start - 1].lstrip().startswith("template"):
            start -= 1
        if start is None:
            start = next((i for i, line in enumerate(self.source)
                          if re.match(r"^(template|void|static|inline|[A-Za-z_][\w:<>]*\s+[a-z_]\w*\()", line)), 0)
        lines = []
        for line in self.source[start:]:
            lines.append(line)
            if len(lines) == count or line.startswith("}"):
                break
        return lines


def _unescape(literal: str) -> str:
    return re.sub(r"\\(.)", lambda match: {"n": "\n", "t": "\t"}.get(match.group(1), match.group(1)), literal)


def read_stage_file(chapter_dir: str, relative: str) -> StageFile:
    """Read one stage file: its lessons (`stage.lesson = "..."`, string literals joined) and opening comment."""
    path = os.path.join(chapter_dir, relative)
    try:
        with open(path, encoding="utf-8") as stream:
            text = stream.read()
    except OSError as error:
        raise LectureError(f"{path}: {error.strerror}") from error
    lines = text.splitlines()
    comment = []
    for line in lines:
        if not line.startswith("//"):
            break
        comment.append(line[2:].strip())
    lessons = ["".join(_unescape(part) for part in STRING.findall(match.group(1))) for match in LESSON.finditer(text)]
    name = os.path.basename(relative)
    number = STAGE_FILE.match(name)
    folder = os.path.dirname(os.path.relpath(relative, "stages"))
    return StageFile(relative, "" if folder == "." else folder, int(number.group(1)) if number else 0, lessons,
                     comment, lines)


def stage_files(chapter_dir: str) -> List[StageFile]:
    """Every stage file of a chapter (stages/NN_*.cu|cpp and stages/lib_*, in any problem folder), each folder's
    numbered files in order, then its library files."""
    root = os.path.join(chapter_dir, "stages")
    if not os.path.isdir(root):
        raise LectureError(f"{root}: no stages folder")
    files = []
    for folder, _, names in sorted(os.walk(root)):
        numbered = sorted((n for n in names if STAGE_FILE.match(n)), key=lambda n: int(STAGE_FILE.match(n).group(1)))
        libraries = sorted(n for n in names if LIBRARY_FILE.match(n))
        for name in numbered + libraries:
            files.append(read_stage_file(chapter_dir, os.path.relpath(os.path.join(folder, name), chapter_dir)))
    if not any(not f.is_library for f in files):
        raise LectureError(f"{root}: no numbered stage file (NN_name.cu)")
    return files


@dataclass
class Exercise:
    """One graded exercise: its heading (`01-1: ...`) and what its `**Predict first.**` paragraph asks."""

    title: str
    predict: str


def read_exercises(path: str) -> List[Exercise]:
    """The exercises of a chapter's exercises/README.md, in order ([] when the file does not exist)."""
    if not os.path.exists(path):
        return []
    lecture = read_lecture(path)
    exercises = []
    for section in lecture.sections:
        if section.level != 2:
            continue
        predict = ""
        for block in section.all("paragraph"):
            text = block.text()
            if text.startswith("**Predict first.**"):
                predict = text[len("**Predict first.**"):].strip()
                break
        exercises.append(Exercise(section.title, predict))
    return exercises
