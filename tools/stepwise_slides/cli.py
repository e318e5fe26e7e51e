"""Command line of tools/slides: build chapter decks (and the course's), or render an edited Markdown deck."""
import argparse
import os
import sys
from typing import List, Optional

from stepwise_plot.report import ReportError

from . import deck as decks
from .lecture import LectureError
from .render import RenderError, render, render_file, write_text

EXIT_USAGE = 2

_DESCRIPTION = """Slide decks of the chapters, built offline from the lectures, the stage files, the committed figures
and the reports in each chapter's results/ (or a fresh run's, --reports). Each deck is written twice: NAME.md, pandoc's
slide Markdown (edit it, then --render it again; `pandoc NAME.md -o NAME.pptx` makes PowerPoint), and NAME.html, one
self-contained file (arrow keys or space to move, `n` for the notes; print to PDF for a handout, one slide a page).

  tools/slides --all -o build/slides            every chapter, and course.md/.html with all of them
  tools/slides 03_merge -o build/slides         one chapter (03_merge, 03 or chapters/03_merge)
  tools/slides 01 --reports build/reports -o build/slides   tables from your own run (regenerate.sh gpu)
  tools/slides --render deck.md -o deck.html    an edited deck, rendered again
See docs/teaching.md."""


class UsageError(Exception):
    """Bad input on the command line; the message is the one line to print."""


def repository_root() -> str:
    """The repository this tools/ folder belongs to."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    parser = argparse.ArgumentParser(prog="tools/slides", description=_DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("chapters", nargs="*", metavar="CHAPTER",
                        help="chapters to build: 01_reduction, 01 or chapters/01_reduction (default with --all: every "
                             "chapter)")
    parser.add_argument("--all", action="store_true", help="every chapter, and the course's deck (course.md/.html)")
    parser.add_argument("-o", "--output", metavar="DIR|FILE.html",
                        help="the folder the decks go to (default build/slides); with --render, the HTML file "
                             "(default: the Markdown's name with .html)")
    parser.add_argument("--reports", metavar="DIR",
                        help="a fresh run's JSON reports: DIR/NN/ (what figures/regenerate.sh gpu writes under "
                             "build/reports) or DIR itself, the same file names as results/; a report not there is "
                             "taken from results/")
    parser.add_argument("--render", metavar="DECK.md", help="render one Markdown deck to HTML (nothing else)")
    return parser


def chapter_name(root: str, typed: str) -> str:
    """The chapter folder a name on the command line means, or UsageError."""
    known = decks.chapters(root)
    name = os.path.basename(os.path.normpath(typed))
    matches = [chapter for chapter in known if name == chapter or (name.isdigit() and chapter.split("_")[0] == name)]
    if len(matches) != 1:
        raise UsageError(f"'{typed}': no such chapter (one of {', '.join(known)}, or its number)")
    return matches[0]


def _write_deck(deck: decks.Deck, output_dir: str) -> str:
    markdown = decks.to_markdown(deck)
    md_path = os.path.join(output_dir, deck.name + ".md")
    html_path = os.path.join(output_dir, deck.name + ".html")
    write_text(md_path, markdown)
    page, total = render(markdown, output_dir, md_path)
    write_text(html_path, page)
    return f"{html_path}: {total} slides (source {md_path})"


def run(args: argparse.Namespace) -> int:
    """Build what the arguments ask for; UsageError for bad input."""
    if args.render:
        if args.chapters or args.all or args.reports:
            raise UsageError("--render takes one Markdown deck and -o, nothing else")
        if not os.path.isfile(args.render):
            raise UsageError(f"--render {args.render}: no such file")
        output = args.output or os.path.splitext(args.render)[0] + ".html"
        total = render_file(args.render, output)
        print(f"{output}: {total} slides")
        return 0
    root = repository_root()
    if not args.chapters and not args.all:
        raise UsageError("name a chapter (e.g. 01_reduction), or --all, or --render DECK.md")
    names = decks.chapters(root) if args.all else []
    for typed in args.chapters:
        name = chapter_name(root, typed)
        if name not in names:
            names.append(name)
    if args.reports is not None and not os.path.isdir(args.reports):
        raise UsageError(f"--reports {args.reports}: no such folder")
    output_dir = os.path.abspath(args.output or os.path.join("build", "slides"))
    if os.path.exists(output_dir) and not os.path.isdir(output_dir):
        raise UsageError(f"-o {args.output}: not a folder")
    built: List[decks.Deck] = []
    for name in names:
        deck = decks.chapter_deck(root, name, output_dir, args.reports)
        if args.reports is not None and "your reports" not in deck.device_line:
            print(f"tools/slides: {name}: no report of it in {args.reports}: its tables are the shipped H100 ones",
                  file=sys.stderr)
        built.append(deck)
    for deck in built:
        print(_write_deck(deck, output_dir))
    if args.all:
        print(_write_deck(decks.course_deck(root, built), output_dir))
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point: 0 on success, 2 (one line) on bad input, 1 when a file cannot be read or written."""
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except UsageError as error:
        print(f"tools/slides: {error}", file=sys.stderr)
        return EXIT_USAGE
    except (LectureError, ReportError, RenderError) as error:
        print(f"tools/slides: {error}", file=sys.stderr)
        return 1
