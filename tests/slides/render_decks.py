#!/usr/bin/env python3
"""Every deck of `tools/slides --all`, printed by headless Chromium to PDF, one slide per page.

For each HTML deck: every <img> is a data: URI that decodes (an SVG that parses, a PNG or JPEG signature); printed
to PDF, the page count is the slide count, no page is blank (the pixel variance of `pdftoppm -png -r 30`), each
slide's title is on its page (`pdftotext`), and no image failed to load in the browser (the deck's script replaces
one that did with a line that says so). Exit 77 (skipped) without chromium or poppler-utils, naming them.

Usage: render_decks.py [REPO_ROOT]
"""
import base64
import html
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import unicodedata
import xml.etree.ElementTree as ElementTree
import zlib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from itertools import accumulate

SKIPPED = 77
ROOT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.dont_write_bytecode = True

from stepwise_slides.render import images_in, slide_titles  # noqa: E402  (after the path is set)


def chromium() -> str:
    """The Chromium (or Chrome) executable on PATH, or ''."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return ""


def png_pixels(path: str):
    """(width, height, rows of channel values) of an 8-bit PNG (gray, RGB or RGBA; what pdftoppm -png writes)."""
    with open(path, "rb") as stream:
        data = stream.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    position = 8
    idat = b""
    width = height = depth = color = 0
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        chunk = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", chunk[:10])
        elif kind == b"IDAT":
            idat += chunk
        position += 12 + length
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(color)
    if depth != 8 or channels is None:
        raise ValueError(f"{path}: a PNG of bit depth {depth}, color type {color}: not read here")
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    rows = []
    offset = 0
    for _ in range(height):
        kind = raw[offset]
        line = bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        if kind == 1 and channels == 1:  # Sub: a running sum (the common case of a gray page, done fast)
            line = bytearray(accumulate(line, lambda a, b: (a + b) & 255))
        elif kind == 2:  # Up
            line = bytearray((a + b) & 255 for a, b in zip(line, previous))
        elif kind:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                up = previous[i]
                corner = previous[i - channels] if i >= channels else 0
                if kind == 1:
                    line[i] = (line[i] + left) & 255
                elif kind == 3:
                    line[i] = (line[i] + (left + up) // 2) & 255
                elif kind == 4:
                    p = left + up - corner
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                    line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, rows


def variance(path: str) -> float:
    """The variance of a page's channel values (0 for a page of one color)."""
    _, _, rows = png_pixels(path)
    counts = Counter(b"".join(rows))
    total = sum(counts.values())
    mean = sum(value * count for value, count in counts.items()) / total
    return sum((value - mean) ** 2 * count for value, count in counts.items()) / total


def squeeze(text: str) -> str:
    """Text compared as a reader sees it: NFKC (ligatures apart), quotes plain, no whitespace and no hyphens (pdftotext
    joins a word hyphenated at a line break)."""
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"[\s\-\u00ad\u2010]+", "", text)


def check_images(name: str, page: str) -> list:
    """Problems with the deck's <img> data."""
    problems = []
    for src in images_in(page):
        src = html.unescape(src)
        match = re.match(r"^data:([\w/+.-]+);base64,(.*)$", src, re.DOTALL)
        if not match:
            problems.append(f"{name}: an image is not inlined: {src[:80]}")
            continue
        try:
            data = base64.b64decode(match.group(2), validate=True)
        except ValueError:
            problems.append(f"{name}: an image's base64 data does not decode")
            continue
        if match.group(1) == "image/svg+xml":
            try:
                ElementTree.fromstring(data)
            except ElementTree.ParseError as error:
                problems.append(f"{name}: an inlined SVG does not parse ({error})")
        elif not (data.startswith(b"\x89PNG") or data.startswith(b"\xff\xd8")):
            problems.append(f"{name}: an inlined {match.group(1)} is not a PNG or JPEG")
    return problems


def check_deck(browser: str, folder: str, name: str) -> list:
    """Print one deck and check its pages; the problems found."""
    html_path = os.path.join(folder, name + ".html")
    with open(html_path, encoding="utf-8") as stream:
        page = stream.read()
    problems = check_images(name, page)
    titles = slide_titles(page)
    pdf = os.path.join(folder, name + ".pdf")
    profile = tempfile.mkdtemp(dir=folder, prefix="profile-")
    result = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                             f"--user-data-dir={profile}", f"--print-to-pdf={pdf}", "file://" + html_path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=180)
    if result.returncode != 0 or not os.path.exists(pdf):
        return problems + [f"{name}: chromium did not print it (exit {result.returncode}): {result.stderr[-300:]}"]
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", pdf, "-"], stdout=subprocess.PIPE, check=True).stdout
    pages = text.decode("utf-8", errors="replace").split("\f")
    if pages and not pages[-1].strip():
        pages = pages[:-1]
    if len(pages) != len(titles):
        problems.append(f"{name}: {len(pages)} pages printed for {len(titles)} slides")
    for number, (title, page_text) in enumerate(zip(titles, pages), start=1):
        if title and squeeze(title) not in squeeze(page_text):
            problems.append(f"{name}: slide {number}'s title '{title}' is not on page {number}")
        if "IMAGE FAILED TO LOAD" in page_text:
            problems.append(f"{name}: an image of slide {number} failed to load in the browser")
    prefix = os.path.join(folder, name + "-page")
    subprocess.run(["pdftoppm", "-png", "-r", "30", pdf, prefix], check=True)
    images = sorted(f for f in os.listdir(folder) if f.startswith(name + "-page") and f.endswith(".png"))
    if len(images) != len(titles):
        problems.append(f"{name}: pdftoppm drew {len(images)} pages for {len(titles)} slides")
    for number, image in enumerate(images, start=1):
        if variance(os.path.join(folder, image)) < 4.0:
            problems.append(f"{name}: page {number} is blank")
    print(f"render test: {name}: {len(titles)} slides, {len(pages)} pages, {len(images_in(page))} images")
    return problems


def main() -> int:
    browser = chromium()
    missing = [package for package, tool in (("chromium", browser), ("poppler-utils", shutil.which("pdftoppm")))
               if not tool]
    if not shutil.which("pdftotext") and "poppler-utils" not in missing:
        missing.append("poppler-utils")
    if missing:
        print("stepwise-skip: the render test needs " + " and ".join(missing) +
              " (apt-get install --no-install-recommends chromium poppler-utils)")
        return SKIPPED
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        built = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "slides"), "--all", "-o", folder],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if built.returncode != 0:
            print(f"render test: tools/slides --all failed (exit {built.returncode}): {built.stderr}")
            return 1
        names = sorted(f[:-5] for f in os.listdir(folder) if f.endswith(".html"))
        if "course" not in names or len(names) < 2:
            print(f"render test: tools/slides --all wrote {names}: want every chapter and course")
            return 1
        with ThreadPoolExecutor(max_workers=2) as pool:
            problems = [p for found in pool.map(lambda n: check_deck(browser, folder, n), names) for p in found]
    for problem in problems:
        print("render test: " + problem)
    print(f"render test: {len(names)} decks in {time.monotonic() - start:.0f} s, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
