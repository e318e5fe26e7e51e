"""Markdown in pandoc's slide format to one self-contained HTML deck (standard library only).

The Markdown this reads is the subset tools/slides writes, which pandoc reads the same way:

- a YAML title block first (`title:`, `subtitle:`, `author:`, `date:`, each one line, quoted or not);
- `# Part` starts a section (a slide with its title alone), `## Title` a slide, `###` a heading inside a slide;
- paragraphs, `-`/`*`/`1.` lists (one level), pipe tables, fenced code blocks, images (`![alt](path)`, the path
  relative to the Markdown file), inline code, `**bold**`, `*italic*`, links and `<https://...>`, backslash escapes;
- fenced divs: `:::::: {.columns}` holding `::: {.column width="56%"}` blocks, `::: notes` (speaker notes: hidden on
  the slide, `n` shows them), and `::: {.name}` for any other class (a style of the deck's stylesheet).

Images are inlined as data: URIs, the stylesheet and the script are in the file: it opens offline, anywhere.
"""
import base64
import html
import os
import re
from typing import Callable, Dict, List, Optional, Tuple

from . import template

FENCE = re.compile(r"^(`{3,}|~{3,})\s*([^`\s]*)\s*$")
DIV_OPEN = re.compile(r"^(:{3,})\s*(\{[^}]*\}|[A-Za-z][\w-]*)\s*:*\s*$")
DIV_CLOSE = re.compile(r"^:{3,}\s*$")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
TABLE_DELIMITER = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
BULLET = re.compile(r"^([-*+])\s+(.*)$")
ORDERED = re.compile(r"^(\d+)[.)]\s+(.*)$")
IMAGE_ONLY = re.compile(r"^!\[([^\]]*)\]\(([^)\s]+)\)$")
MEDIA_TYPES = {".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
               ".gif": "image/gif"}


class RenderError(Exception):
    """A deck that cannot be rendered (an image that is not there, a div never closed); the message says where."""


# ---------------------------------------------------------------------------------------------------------------
# Inline Markdown.


class Inline:
    """Renders inline Markdown; images become data: URIs through `resolve`."""

    def __init__(self, resolve: Callable[[str], str]):
        self.resolve = resolve
        self.images = 0

    def __call__(self, text: str) -> str:
        saved: List[str] = []

        def keep(fragment: str) -> str:
            saved.append(fragment)
            return f"\x00{len(saved) - 1}\x00"

        text = re.sub(r"(`+)(.+?)\1", lambda m: keep(f"<code>{html.escape(m.group(2).strip(), quote=False)}</code>"),
                      text)
        text = re.sub(r"\\([!-/:-@\[-`{-~])", lambda m: keep(html.escape(m.group(1))), text)
        text = re.sub(r"<(https?://[^>\s]+)>", lambda m: keep(f'<a href="{html.escape(m.group(1), quote=True)}">'
                                                             f"{html.escape(m.group(1))}</a>"), text)
        text = html.escape(text, quote=False)

        def image(match: re.Match) -> str:
            self.images += 1
            alt = html.unescape(match.group(1))
            return keep(f'<img alt="{html.escape(_restore(alt, saved), quote=True)}" '
                        f'src="{self.resolve(html.unescape(match.group(2)))}">')

        text = re.sub(r"!\[([^\]]*)\]\(([^)\s]+)\)", image, text)
        text = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", lambda m: f'<a href="{_href(m.group(2))}">{m.group(1)}</a>', text)
        text = re.sub(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", r"<strong>\1</strong>", text)
        text = re.sub(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])", r"<em>\1</em>", text)
        text = re.sub(r"(?<![\w])_(?=\S)(.+?)(?<=\S)_(?![\w])", r"<em>\1</em>", text)
        return _restore(text, saved)


def _href(escaped: str) -> str:
    return html.escape(html.unescape(escaped), quote=True)


def _restore(text: str, saved: List[str]) -> str:
    while "\x00" in text:
        text = re.sub(r"\x00(\d+)\x00", lambda m: saved[int(m.group(1))], text)
    return text


# ---------------------------------------------------------------------------------------------------------------
# Blocks.


def _attributes(spec: str) -> Tuple[List[str], Dict[str, str]]:
    """The classes and key="value" pairs of a div's `{.a .b key="v"}` (or a bare name: one class)."""
    if not spec.startswith("{"):
        return [spec], {}
    classes = re.findall(r"\.([\w-]+)", spec)
    pairs = dict(re.findall(r"([\w-]+)=\"([^\"]*)\"", spec))
    return classes, pairs


def _cells(row: str) -> List[str]:
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", row)]


def _table(rows: List[str], render: Inline) -> str:
    header = _cells(rows[0])
    aligns = []
    for cell in _cells(rows[1]):
        cell = cell.strip()
        aligns.append("right" if cell.endswith(":") and not cell.startswith(":")
                      else "center" if cell.startswith(":") and cell.endswith(":") else "left")

    def style(column: int) -> str:
        align = aligns[column] if column < len(aligns) else "left"
        return "" if align == "left" else f' style="text-align:{align}"'

    out = ["<table>", "<thead><tr>"]
    out += [f"<th{style(c)}>{render(cell)}</th>" for c, cell in enumerate(header)]
    out.append("</tr></thead><tbody>")
    for row in rows[2:]:
        out.append("<tr>" + "".join(f"<td{style(c)}>{render(cell)}</td>" for c, cell in enumerate(_cells(row))) +
                   "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def blocks_html(lines: List[str], render: Inline, where: str) -> Tuple[str, str]:
    """(the HTML of Markdown blocks, the HTML of the speaker notes among them)."""
    out: List[str] = []
    notes: List[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            i += 1
            continue
        fence = FENCE.match(stripped)
        if fence:
            marker = fence.group(1)
            body = []
            i += 1
            while i < len(lines) and not (lines[i].strip().startswith(marker[0] * len(marker)) and
                                          set(lines[i].strip()) == {marker[0]}):
                body.append(lines[i])
                i += 1
            if i >= len(lines):
                raise RenderError(f"{where}: a code block ({marker}) is never closed")
            i += 1
            language = fence.group(2)
            attribute = f' class="language-{html.escape(language)}"' if language else ""
            out.append(f"<pre><code{attribute}>{html.escape(chr(10).join(body), quote=False)}</code></pre>")
            continue
        opening = DIV_OPEN.match(stripped)
        if opening:
            depth = 1
            body = []
            i += 1
            while i < len(lines):
                current = lines[i].strip()
                if FENCE.match(current):  # a code block inside the div: copy it whole
                    marker = FENCE.match(current).group(1)
                    body.append(lines[i])
                    i += 1
                    while i < len(lines) and not (lines[i].strip().startswith(marker[0] * len(marker)) and
                                                  set(lines[i].strip()) == {marker[0]}):
                        body.append(lines[i])
                        i += 1
                    if i < len(lines):
                        body.append(lines[i])
                        i += 1
                    continue
                if DIV_OPEN.match(current):
                    depth += 1
                elif DIV_CLOSE.match(current):
                    depth -= 1
                    if depth == 0:
                        break
                body.append(lines[i])
                i += 1
            if depth:
                raise RenderError(f"{where}: a div ({stripped}) is never closed")
            i += 1
            classes, pairs = _attributes(opening.group(2))
            inner, inner_notes = blocks_html(body, render, where)
            notes.append(inner_notes)
            if "notes" in classes:
                notes.append(inner)
                continue
            style = f' style="flex: 0 0 {html.escape(pairs["width"])}"' if "width" in pairs else ""
            out.append(f'<div class="{" ".join(html.escape(c) for c in classes)}"{style}>{inner}</div>')
            continue
        heading = HEADING.match(stripped)
        if heading:
            level = min(6, max(3, len(heading.group(1))))
            out.append(f"<h{level}>{render(heading.group(2))}</h{level}>")
            i += 1
            continue
        if stripped.startswith("|") and i + 1 < len(lines) and TABLE_DELIMITER.match(lines[i + 1]):
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(lines[i])
                i += 1
            out.append(_table(rows, render))
            continue
        if BULLET.match(stripped) or ORDERED.match(stripped):
            ordered = bool(ORDERED.match(stripped))
            items: List[List[str]] = []
            while i < len(lines) and lines[i].strip():
                current = lines[i].strip()
                item = ORDERED.match(current) if ordered else BULLET.match(current)
                if item and not lines[i].startswith((" ", "\t")):
                    items.append([item.group(2)])
                elif items and not (FENCE.match(current) or DIV_OPEN.match(current) or DIV_CLOSE.match(current)):
                    items[-1].append(current)
                else:
                    break
                i += 1
            tag = "ol" if ordered else "ul"
            out.append(f"<{tag}>" + "".join(f"<li>{render(' '.join(item))}</li>" for item in items) + f"</{tag}>")
            continue
        paragraph = []
        while i < len(lines) and lines[i].strip():
            current = lines[i].strip()
            if paragraph and (FENCE.match(current) or DIV_OPEN.match(current) or DIV_CLOSE.match(current) or
                              HEADING.match(current)):
                break
            paragraph.append(current)
            i += 1
        text = " ".join(paragraph)
        image = IMAGE_ONLY.match(text)
        if image:
            alt = render(image.group(1))
            out.append(f'<figure class="figure">{render(text)}<figcaption>{alt}</figcaption></figure>')
        else:
            out.append(f"<p>{render(text)}</p>")
    return "\n".join(out), "\n".join(note for note in notes if note)


# ---------------------------------------------------------------------------------------------------------------
# The deck.


def parse_metadata(lines: List[str]) -> Tuple[Dict[str, str], int]:
    """The YAML title block's one-line fields, and the index of the first line after it."""
    if not lines or lines[0].strip() != "---":
        return {}, 0
    meta: Dict[str, str] = {}
    for index in range(1, len(lines)):
        line = lines[index]
        if line.strip() in ("---", "..."):
            return meta, index + 1
        match = re.match(r"^([A-Za-z][\w-]*):\s*(.*)$", line)
        if match:
            value = match.group(2).strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
                if match.group(2).strip()[0] == '"':
                    value = re.sub(r"\\(.)", r"\1", value)
            meta[match.group(1)] = value
    raise RenderError("the YAML title block (---) is never closed")


def split_slides(lines: List[str]) -> List[Tuple[int, str, List[str]]]:
    """(heading level, title, body lines) of every `#` and `##` heading outside code blocks and divs."""
    slides: List[Tuple[int, str, List[str]]] = []
    fence = ""
    depth = 0
    loose: List[str] = []
    for line in lines:
        stripped = line.strip()
        body = slides[-1][2] if slides else loose
        if fence:
            body.append(line)
            if stripped.startswith(fence) and set(stripped) == {fence[0]}:
                fence = ""
            continue
        match = FENCE.match(stripped)
        if match:
            fence = match.group(1)
            body.append(line)
            continue
        if DIV_OPEN.match(stripped):
            depth += 1
        elif DIV_CLOSE.match(stripped):
            depth = max(0, depth - 1)
        heading = HEADING.match(stripped)
        if heading and depth == 0 and len(heading.group(1)) <= 2:
            slides.append((len(heading.group(1)), heading.group(2), []))
            continue
        body.append(line)
    if any(line.strip() for line in loose):
        slides.insert(0, (2, "", loose))
    return slides


def data_uri(path: str) -> str:
    """A file as a data: URI, its type from its extension."""
    media = MEDIA_TYPES.get(os.path.splitext(path)[1].lower())
    if media is None:
        raise RenderError(f"{path}: not an image this deck can inline (svg, png, jpg, gif)")
    with open(path, "rb") as stream:
        return f"data:{media};base64,{base64.b64encode(stream.read()).decode('ascii')}"


def render(text: str, base_dir: str, source_name: str = "deck.md") -> Tuple[str, int]:
    """The HTML deck of Markdown text whose images are relative to base_dir; also the number of slides."""
    cache: Dict[str, str] = {}

    def resolve(src: str) -> str:
        if re.match(r"^(https?:|data:)", src):
            if src.startswith("data:"):
                return html.escape(src, quote=True)
            raise RenderError(f"{source_name}: image {src}: a deck inlines its images, give a file")
        path = os.path.normpath(os.path.join(base_dir, src))
        if path not in cache:
            if not os.path.isfile(path):
                raise RenderError(f"{source_name}: image {src} not found (looked for {path})")
            cache[path] = data_uri(path)
        return cache[path]

    inline_renderer = Inline(resolve)
    lines = text.splitlines()
    meta, start = parse_metadata(lines)
    parsed = split_slides(lines[start:])
    title = meta.get("title", "")
    deck_title = html.escape(re.sub(r"\\(.)", r"\1", title))
    sections: List[str] = []
    total = len(parsed) + (1 if meta else 0)
    number = 0
    if meta:
        number += 1
        parts = [f"<h1>{inline_renderer(title)}</h1>"]
        if meta.get("subtitle"):
            parts.append(f'<p class="subtitle">{inline_renderer(meta["subtitle"])}</p>')
        if meta.get("author"):
            parts.append(f'<p class="author">{inline_renderer(meta["author"])}</p>')
        if meta.get("date"):
            parts.append(f'<p class="date">{inline_renderer(meta["date"])}</p>')
        sections.append(template.slide("title-slide", "\n".join(parts), "", number, total, deck_title))
    for level, heading, body in parsed:
        number += 1
        where = f"{source_name}, slide {number}" + (f" ({heading})" if heading else "")
        content, notes = blocks_html(body, inline_renderer, where)
        if level == 1:
            inner = f"<h1>{inline_renderer(heading)}</h1>" + (f'<div class="body">{content}</div>' if content else "")
            sections.append(template.slide("section-slide", inner, notes, number, total, deck_title))
        else:
            inner = (f"<h2>{inline_renderer(heading)}</h2>" if heading else "") + f'<div class="body">{content}</div>'
            sections.append(template.slide("content-slide", inner, notes, number, total, deck_title))
    return template.page(deck_title or "slides", sections, inline_renderer.images), total


def render_file(markdown_path: str, html_path: str) -> int:
    """Render one Markdown deck into one HTML file; the number of slides."""
    try:
        with open(markdown_path, encoding="utf-8") as stream:
            text = stream.read()
    except OSError as error:
        raise RenderError(f"{markdown_path}: {error.strerror}") from error
    page, total = render(text, os.path.dirname(os.path.abspath(markdown_path)), markdown_path)
    write_text(html_path, page)
    return total


def write_text(path: str, text: str) -> None:
    """Write a text file, its folder made if missing."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    try:
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(text)
    except OSError as error:
        raise RenderError(f"{path}: {error.strerror}") from error


def images_in(page: str) -> List[str]:
    """The src of every <img> of a rendered page (what the tests check resolved)."""
    return re.findall(r'<img [^>]*src="([^"]*)"', page)


def slide_titles(page: str) -> List[Optional[str]]:
    """The title of every slide of a rendered page, as text (None for a slide without one)."""
    titles: List[Optional[str]] = []
    for section in re.findall(r'<section class="slide[^"]*"[^>]*>(.*?)</section>', page, re.DOTALL):
        match = re.search(r"<h([12])>(.*?)</h\1>", section, re.DOTALL)
        titles.append(html.unescape(re.sub(r"<[^>]+>", "", match.group(2))) if match else None)
    return titles
