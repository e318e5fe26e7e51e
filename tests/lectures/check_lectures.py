#!/usr/bin/env python3
"""Checks that the chapters' lectures (chapters/NN_name/README.md) keep the lecture form of
docs/lectures.md, with no Python package beyond the standard library:

- every excerpt still stands in its file: a fenced code block right after a line
  `<!-- excerpt: PATH -->` (PATH relative to the README) must appear in PATH, its lines in
  order (each compared with its leading and trailing blanks removed; blank lines, `...` and
  `// ...` elide; in a ```diff block the `+` and ` ` lines are the file's, `-` lines are skipped);
- every stage file (stages/**/NN_*.cu) is excerpted at least once;
- the prose, code and tables left out, stays within the word budget;
- no words about how the work was done, and no link into ../shared/ (not part of the repository),
  in any README.md (a chapter's exercises/README.md included) or docs page; NOTES.md may keep lab history
  but no such link.

Usage: check_lectures.py [REPO_ROOT] [CHAPTER_DIR ...]  (default: every chapter). Exit 1 with
one line per problem, 0 when all hold.
"""
import pathlib
import re
import sys

EXCERPT = re.compile(r"^<!--\s*excerpt:\s*(\S+)\s*-->\s*$")
FENCE = re.compile(r"^(```+|~~~+)\s*([\w+-]*)")
ELISION = {"...", "// ...", "/* ... */", "# ..."}
PROCESS_WORDS = re.compile(
    r"the issue\b|issue's|\blent\b|device tool|this session|the CEO|closing note|in this edition|"
    r"an earlier build|measured on the way|another machine|the same day",
    re.IGNORECASE)
SHARED_LINK = re.compile(r"\.\./shared/|shared/seeds")
WORD_BUDGET = {"01_reduction": 6000}
DEFAULT_WORD_BUDGET = 4400


def code_blocks(lines):
    """(start line number, language, marker path or None, block lines) of every fenced block."""
    blocks = []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        fence, language = match.group(1), match.group(2)
        marker = None
        j = i - 1
        while j >= 0 and lines[j].strip() == "":
            j -= 1
        if j >= 0:
            excerpt = EXCERPT.match(lines[j].strip())
            if excerpt:
                marker = excerpt.group(1)
        body = []
        k = i + 1
        while k < len(lines) and not lines[k].startswith(fence[:3]):
            body.append(lines[k])
            k += 1
        blocks.append((i + 1, language, marker, body))
        i = k + 1
    return blocks


def excerpt_lines(language, body):
    """The lines of an excerpt that must stand in the file, blanks removed."""
    wanted = []
    for line in body:
        if language == "diff":
            if line.startswith("-"):
                continue
            if line[:1] in "+ ":
                line = line[1:]
        text = line.strip()
        if text and text not in ELISION:
            wanted.append(text)
    return wanted


def missing_line(wanted, source_lines):
    """The first wanted line that does not follow the previous one in the source, or None."""
    stripped = [line.strip() for line in source_lines]
    position = 0
    for text in wanted:
        try:
            position = stripped.index(text, position) + 1
        except ValueError:
            return text
    return None


def prose_words(lines):
    """Words outside code blocks, tables, HTML comments and image lines."""
    count = 0
    in_code = False
    for line in lines:
        if FENCE.match(line):
            in_code = not in_code
            continue
        text = line.strip()
        if in_code or text.startswith("|") or text.startswith("<!--") or text.startswith("!["):
            continue
        count += len(re.findall(r"[A-Za-z0-9][\w'.,%-]*", text))
    return count


def check_chapter(root, chapter):
    problems = []
    readme = chapter / "README.md"
    if not readme.is_file():
        return [f"{chapter}: no README.md"]
    lines = readme.read_text(encoding="utf-8").splitlines()
    excerpted = set()
    for number, language, marker, body in code_blocks(lines):
        if marker is None:
            continue
        path = (chapter / marker).resolve()
        where = f"{readme.relative_to(root)}:{number}"
        if not path.is_file():
            problems.append(f"{where}: excerpt of {marker}, which does not exist")
            continue
        excerpted.add(path)
        wanted = excerpt_lines(language, body)
        if not wanted:
            problems.append(f"{where}: the excerpt of {marker} is empty")
            continue
        missing = missing_line(wanted, path.read_text(encoding="utf-8").splitlines())
        if missing is not None:
            problems.append(f"{where}: the excerpt of {marker} no longer matches it, from: {missing}")
    for stage in sorted((chapter / "stages").rglob("*.cu")):
        if re.match(r"^\d\d_", stage.name) and stage.resolve() not in excerpted:
            problems.append(f"{readme.relative_to(root)}: no excerpt of {stage.relative_to(chapter)}")
    budget = WORD_BUDGET.get(chapter.name, DEFAULT_WORD_BUDGET)
    words = prose_words(lines)
    if words > budget:
        problems.append(f"{readme.relative_to(root)}: {words} words of prose, above the lecture's {budget}")
    notes = chapter / "NOTES.md"
    if not notes.is_file():
        problems.append(f"{chapter.relative_to(root)}: no NOTES.md (the lab history the lecture links to)")
    elif "NOTES.md" not in "\n".join(lines):
        problems.append(f"{readme.relative_to(root)}: does not link its NOTES.md")
    return problems


def check_words(root, pages):
    problems = []
    for page in pages:
        text = page.read_text(encoding="utf-8").splitlines()
        lab = page.name == "NOTES.md"
        for number, line in enumerate(text, 1):
            if SHARED_LINK.search(line):
                problems.append(f"{page.relative_to(root)}:{number}: a link into ../shared/, which is not in the repository")
            if not lab and PROCESS_WORDS.search(line):
                word = PROCESS_WORDS.search(line).group(0)
                problems.append(f"{page.relative_to(root)}:{number}: '{word}' tells how the work was done, not what it does")
    return problems


def main(argv):
    root = pathlib.Path(argv[1] if len(argv) > 1 else ".").resolve()
    chapters = [pathlib.Path(a).resolve() for a in argv[2:]] or sorted(
        p for p in (root / "chapters").glob("[0-9][0-9]_*") if p.is_dir())
    problems = []
    for chapter in chapters:
        problems += check_chapter(root, chapter)
    pages = [chapter / name for chapter in chapters for name in ("README.md", "NOTES.md", "exercises/README.md")
             if (chapter / name).is_file()]
    if len(argv) <= 2:
        # docs/lectures.md names the words it forbids: it is the one page left out.
        pages += [root / "README.md", root / "CONTRIBUTING.md"] + sorted(
            page for page in (root / "docs").glob("*.md") if page.name != "lectures.md")
    problems += check_words(root, pages)
    for problem in problems:
        print(problem)
    print(f"check_lectures: {len(chapters)} chapter(s), {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
