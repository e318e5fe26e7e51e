#!/usr/bin/env python3
"""Doxygen input filter for the Markdown pages: rewrites the Markdown constructs that Doxygen
1.9 renders wrongly or warns about, so that the documentation site shows what GitHub shows.

- Heading links. GitHub gives every heading an anchor (its slug: `## What the numbers teach`
  is `#what-the-numbers-teach`); Doxygen gives a heading a label only when asked (`{#label}`),
  and labels are global to the site. Every heading after the page's title gets a label made of
  the page's path and its GitHub slug, and every link to a heading, in the page
  (`[x](#slug)`) or in another page (`[x](../02_scan/README.md#slug)`), is rewritten to that
  label. A link to a heading that does not exist is left as written (Doxygen warns about it).
- A heading with inline code (`## The sweep (`--sweep`)`): Doxygen escapes the code and turns
  `--` into a dash; an HTML heading with the same text renders it as code.
- A code span broken over more than two lines: Doxygen 1.9 closes a code span at the second line
  break and reads the rest as text (`</tt>` warnings); the span is joined onto one line, and the
  lines it took are given back at the end of the paragraph so that later line numbers hold.
- A scope operator that starts a name (`::Flagged`): Doxygen reads it as an explicit link to a
  global symbol; `::%Flagged` prints the same and links nothing.
- A collapsible `<details><summary>...</summary> ... </details>` block: Doxygen closes it
  before its content; the site shows the summary in bold and the content open.

Usage (Doxygen's FILTER_PATTERNS): doxygen_markdown_filter.py FILE.md; the filtered page goes to
standard output. Standard library only.
"""
import functools
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^\s*(```+|~~~+)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
EXPLICIT_LABEL = re.compile(r"\{#[\w-]+\}\s*$")
SUMMARY = re.compile(r"<details>\s*<summary>(.*?)</summary>")
LINK_TARGET = re.compile(r"\]\(([^()\s]*)#([^()\s]+)\)")
GLOBAL_SCOPE = re.compile(r"(?<![\w:])::(?=[A-Za-z_])")
BACKTICKS = re.compile(r"`+")


def github_slug(text: str) -> str:
    """The anchor GitHub gives a heading: its text lower-cased, punctuation dropped, spaces as '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"<[^>]+>", "", text)
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def page_prefix(path: pathlib.Path) -> str:
    """A label prefix unique to a page: its path from the repository root, as a C identifier."""
    path = path.resolve()
    try:
        path = path.relative_to(ROOT)
    except ValueError:
        pass
    return "sec_" + re.sub(r"[^A-Za-z0-9]", "_", str(path.with_suffix("")).lstrip("/"))


def label(prefix: str, slug: str) -> str:
    """A Doxygen label for a slug: letters, digits, '_' and '-' kept, anything else as _xHH."""
    return prefix + "_" + "".join(c if c.isascii() and (c.isalnum() or c in "_-") else f"_x{ord(c):x}" for c in slug)


def outside_code_blocks(lines):
    """(index, line, in code block) for every line; fence lines count as inside."""
    in_block = None
    for index, line in enumerate(lines):
        fence = FENCE.match(line)
        if fence and in_block is None:
            in_block = fence.group(1)[0] * 3
            yield index, line, True
        elif fence and in_block is not None and fence.group(1).startswith(in_block):
            in_block = None
            yield index, line, True
        else:
            yield index, line, in_block is not None


def heading_labels(lines, prefix):
    """{line index: label} for every heading after the first line's title, and {slug: label}."""
    by_line, by_slug, seen = {}, {}, {}
    for index, line, in_code in outside_code_blocks(lines):
        heading = HEADING.match(line)
        if in_code or not heading or EXPLICIT_LABEL.search(line):
            continue
        slug = github_slug(heading.group(2))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        unique = slug if count == 0 else f"{slug}-{count}"
        by_slug[unique] = label(prefix, unique)
        if index == 0 and len(heading.group(1)) == 1:
            continue  # the page's title: Doxygen names the page after it
        by_line[index] = by_slug[unique]
    return by_line, by_slug


@functools.lru_cache(maxsize=None)
def slugs_of(path: pathlib.Path):
    """{slug: label} of a Markdown page, or {} when it cannot be read."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return {}
    return heading_labels(lines, page_prefix(path))[1]


def rewrite_links(line: str, page: pathlib.Path, own_slugs) -> str:
    """Links to a heading, in this page or in another Markdown page, as links to its label."""

    def target(match):
        where, slug = match.group(1), match.group(2)
        if not where:
            slugs = own_slugs
        elif where.endswith(".md") and "://" not in where:
            slugs = slugs_of((page.parent / where).resolve())
        else:
            return match.group(0)
        return f"](#{slugs[slug]})" if slug in slugs else match.group(0)

    return LINK_TARGET.sub(target, line)


def open_code_span(text: str) -> bool:
    """Whether text ends inside a code span (a run of backticks not yet closed by an equal run)."""
    opened = None
    for run in BACKTICKS.finditer(text):
        if opened is None:
            opened = len(run.group(0))
        elif len(run.group(0)) == opened:
            opened = None
    return opened is not None


def filter_line(line: str, heading_label) -> str:
    heading = HEADING.match(line)
    if heading:
        level, text = len(heading.group(1)), heading.group(2)
        if "`" in text:
            anchor = f"\\anchor {heading_label} " if heading_label else ""
            return f"{anchor}<h{level}>{text}</h{level}>"
        return f"{line.rstrip()} {{#{heading_label}}}" if heading_label else line
    line = GLOBAL_SCOPE.sub("::%", line)
    line = SUMMARY.sub(lambda match: f"**{match.group(1)}**\n", line)
    return line.replace("<details>", "").replace("</details>", "")


def filter_page(text: str, page: pathlib.Path) -> str:
    lines = text.splitlines()
    labels_by_line, own_slugs = heading_labels(lines, page_prefix(page))
    out = []
    pending = None  # a paragraph line whose code span is still open
    owed = 0  # line breaks taken by joined code spans, given back at the paragraph's end
    for index, line, in_code in outside_code_blocks(lines):
        if in_code:
            if pending is not None:
                out.append(filter_line(pending, None))
                pending = None
            out.append(line)
            continue
        if pending is not None:
            if line.strip():
                pending = f"{pending} {line.strip()}"
                owed += 1
                if open_code_span(pending):
                    continue
                line, pending = pending, None
            else:
                out.append(filter_line(pending, None))
                pending = None
        if not line.strip() and owed:
            out.extend([""] * owed)
            owed = 0
        line = rewrite_links(line, page, own_slugs)
        if line.strip() and not HEADING.match(line) and open_code_span(line):
            pending = line
            continue
        out.append(filter_line(line, labels_by_line.get(index)))
    if pending is not None:
        out.append(filter_line(pending, None))
    out.extend([""] * owed)
    return "\n".join(out)


def main() -> None:
    page = pathlib.Path(sys.argv[1])
    print(filter_page(page.read_text(encoding="utf-8"), page))


if __name__ == "__main__":
    main()
