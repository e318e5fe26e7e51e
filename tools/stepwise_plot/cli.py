"""Command line of tools/plot: one subcommand per figure, each writing one SVG (or PNG)."""
import argparse
import importlib
import sys

from .report import ReportError, read_file, read_one, read_series

INSTALL_HINT = ("tools/plot needs matplotlib: sudo apt-get install python3-matplotlib (Debian/Ubuntu) "
                "or python3 -m pip install matplotlib")
EXIT_USAGE = 2

_DESCRIPTION = """Draw a chapter's figures from its JSON report:
  build/bin/chapter_01_reduction --format json --output ch01.json
  tools/plot staircase ch01.json -o chapters/01_reduction/figures/staircase.svg
See docs/figures.md."""


def _common(parser: argparse.ArgumentParser, single: bool) -> None:
    parser.add_argument("-o", "--output", required=True, metavar="FILE.svg",
                        help="the figure to write: .svg (what the READMEs commit) or .png")
    parser.add_argument("--title", help="replace the title (default: chapter and what the figure shows)")
    parser.add_argument("--subtitle", help="replace the line under it (default: GPU, n, type, date; '' for none)")
    parser.add_argument("--png", action="store_true", help="also write a PNG beside the SVG (150 dpi, for slides)")
    if single:
        parser.add_argument("--run", type=int, metavar="K",
                            help="the K-th run (from 1) of a file that holds a JSON array of runs")


def _sizes_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sizes", metavar="LIST",
                        help="the sizes the sweep ran, as the tour's --sizes (2^20..2^30 or 2^20,2^22): a size with no "
                             "report is marked missing (default: every size some report has)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(prog="tools/plot", description=_DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True, metavar="FIGURE")

    staircase = commands.add_parser("staircase", help="speedup of each stage over the first, library as a line")
    staircase.add_argument("report", metavar="REPORT.json", help="a chapter's --format json output ('-': stdin)")
    _common(staircase, single=True)

    bandwidth = commands.add_parser("bandwidth", help="GB/s of each stage and library, with memcpy and peak")
    bandwidth.add_argument("report", metavar="REPORT.json", help="a chapter's --format json output ('-': stdin)")
    _common(bandwidth, single=True)

    scaling = commands.add_parser("time-vs-n", help="median time (or GB/s) of every stage against n")
    scaling.add_argument("reports", nargs="+", metavar="REPORT.json",
                         help="runs of one chapter at different --n (files, or JSON arrays of runs)")
    scaling.add_argument("--metric", choices=("time", "gbps"), default="time", help="what to draw (default: time)")
    _common(scaling, single=False)

    ratio = commands.add_parser("ratio-vs-n", help="library time ÷ best stage time against n, a line per problem")
    ratio.add_argument("reports", nargs="+", metavar="REPORT.json",
                       help="runs of the size sweep (tour --sizes ... --problems --reports DIR): one chapter, or every "
                            "chapter with --all")
    ratio.add_argument("--all", action="store_true", help="one small panel per chapter (the root README's overview)")
    _sizes_option(ratio)
    _common(ratio, single=False)

    table = commands.add_parser("ratio-table", help="the ratios of ratio-vs-n as a markdown table, on stdout")
    table.add_argument("reports", nargs="+", metavar="REPORT.json", help="runs of the size sweep, of any chapters")
    _sizes_option(table)

    libraries = commands.add_parser("library-table",
                                    help="one row per run: best stage, each library, their ratio; geometric mean")
    libraries.add_argument("reports", nargs="+", metavar="REPORT.json", help="runs of one chapter (inputs, types)")
    libraries.add_argument("--stage", type=int, metavar="N", help="also each run's ratio against stage N")

    sweep = commands.add_parser("sweep", help="heat map of one stage's --sweep, or of every stage's")
    sweep.add_argument("report", metavar="REPORT.json", help="the --format json output of a --sweep run")
    which = sweep.add_mutually_exclusive_group(required=True)
    which.add_argument("--stage", metavar="N|NAME", help="the stage, by number or name")
    which.add_argument("--all", action="store_true", help="one small heat map per stage with sweep points")
    sweep.add_argument("--metric", choices=("gbps", "time"), default="gbps", help="cell color (default: gbps)")
    _common(sweep, single=True)

    compare = commands.add_parser("compare", help="one group of bars per run (per input or GPU), one bar per stage")
    compare.add_argument("reports", nargs="+", metavar="REPORT.json",
                         help="runs of one chapter on different inputs or GPUs (files, or JSON arrays of runs)")
    compare.add_argument("--metric", choices=("gflops", "gbps"),
                         help="what the bars show (default: gflops when the runs count flops, else gbps)")
    compare.add_argument("--labels", metavar="A,B,...",
                         help="the groups' names, comma-separated, one per run (default: each run's element type); "
                              "runs of different GPUs are drawn side by side, e.g. --labels H100,mine")
    _common(compare, single=False)

    versus = commands.add_parser("versus", help="speedup of every stage over a baseline stage against a parameter")
    versus.add_argument("reports", nargs="+", metavar="REPORT.json",
                        help="runs of one chapter that differ in one parameter (files, or JSON arrays of runs)")
    versus.add_argument("--baseline", required=True, metavar="N|NAME",
                        help="the stage whose time is 1.0x, by number or name (as sweep --stage)")
    versus.add_argument("--xlabel", required=True, metavar="TEXT", help="what varies from run to run: the x axis")
    versus.add_argument("--labels", required=True, metavar="A,B,...",
                        help="the x value of each run, comma-separated, one per run (numbers: a numeric axis)")
    _common(versus, single=False)

    surface = commands.add_parser("surface", help="heat map of a --surface run: speedup by keys per warp and stage")
    surface.add_argument("report", metavar="SURFACE.json", help="a chapter's --surface --format json output")
    _common(surface, single=False)

    busbw = commands.add_parser("busbw-vs-size", help="bus bandwidth against bytes per GPU of chapter 11's "
                                "--size-sweep, a panel per GPU count")
    busbw.add_argument("reports", nargs="+", metavar="SWEEP.json",
                       help="chapter_11_multigpu --size-sweep --format json runs, one per --gpus")
    busbw.add_argument("--line-rate", metavar="GBPS[:LABEL]",
                       help="a link's rate each way, marked on every panel of two or more GPUs: a dotted line at GBPS "
                            "GB/s, named LABEL in the legend (default: line rate)")
    _common(busbw, single=False)

    scaling_g = commands.add_parser("gpu-scaling", help="speedup of chapter 11's scan or sort stages over the library "
                                    "on one GPU against the GPU count")
    scaling_g.add_argument("reports", nargs="+", metavar="REPORT.json",
                           help="chapter_11_multigpu --problem scan|sort --format json runs of one n, one per --gpus")
    _common(scaling_g, single=False)

    analysis = commands.add_parser("analysis", help="a diagram from a chapter's --analyze --format json output")
    analysis.add_argument("report", metavar="ANALYSIS.json", help="a chapter's --analyze --format json output")
    analysis.add_argument("--figure", metavar="NAME",
                          help="which diagram, when the document holds several (an unknown name lists them)")
    _common(analysis, single=False)
    return parser


def _figure(args: argparse.Namespace):
    """Draw the figure the arguments ask for; returns it with its title as plain text."""
    from . import bandwidth, compare, scaling, staircase, sweep

    if args.command == "compare":
        reports = [report for path in args.reports for report in read_file(path)]
        labels = args.labels.split(",") if args.labels else None
        metric = args.metric or compare.default_metric(reports)
        figure = compare.draw(reports, metric, labels, args.title, args.subtitle)
        return figure, compare.default_title(reports[0], metric, reports)
    if args.command == "versus":
        from . import versus

        reports = [report for path in args.reports for report in read_file(path)]
        labels = [label.strip() for label in args.labels.split(",")]
        figure = versus.draw(reports, args.baseline, args.xlabel, labels, args.title, args.subtitle)
        return figure, versus.default_title(reports[0], args.baseline, args.xlabel)
    if args.command == "ratio-vs-n":
        from . import ratio

        chapters = ratio.collect([report for path in args.reports for report in read_file(path)])
        sizes = ratio.sweep_sizes(chapters, ratio.parse_sizes(args.sizes) if args.sizes else None)
        if args.all:
            return ratio.draw_all(chapters, sizes, args.title, args.subtitle), "Library time ÷ best stage time"
        return ratio.draw(chapters, sizes, args.title, args.subtitle), ratio.default_title(chapters[0])
    if args.command == "time-vs-n":
        reports = read_series(args.reports)
        figure = scaling.draw(reports, args.metric, args.title, args.subtitle)
        return figure, scaling.default_title(reports[0], args.metric)
    if args.command == "analysis":
        return _analysis_figure(args)
    if args.command == "busbw-vs-size":
        from . import busbw

        teams = busbw.read_teams(args.reports)
        rate = parse_line_rate(args.line_rate) if args.line_rate is not None else None
        return busbw.draw(teams, args.title, args.subtitle, rate), busbw.default_title(teams)
    if args.command == "gpu-scaling":
        from . import gpu_scaling

        runs = gpu_scaling.read_runs(args.reports)
        return gpu_scaling.draw(runs, args.title, args.subtitle), gpu_scaling.default_title(runs)
    if args.command == "surface":
        from . import surface
        from .report import read_json

        document = read_json(args.report)
        return surface.draw(document, args.report, args.title, args.subtitle), surface.default_title(document)
    report = read_one(args.report, args.run)
    if args.command == "staircase":
        return staircase.draw(report, args.title, args.subtitle), staircase.default_title(report)
    if args.command == "bandwidth":
        return bandwidth.draw(report, args.title, args.subtitle), bandwidth.default_title(report)
    return (sweep.draw(report, args.stage, args.all, args.metric, args.title, args.subtitle),
            sweep.default_title(report, args.stage))


def _analysis_figure(args: argparse.Namespace):
    """The diagram of an --analyze document: its kind picks the drawer, --figure the diagram."""
    from . import analysis
    from .report import read_json

    document = read_json(args.report)
    drawer = analysis.drawer(document)
    names = drawer.figures(document)
    figure = args.figure or names[0]
    if figure not in names:
        raise ReportError(f"--figure {figure}: this document draws {', '.join(names)}")
    return drawer.draw(document, figure, args.title, args.subtitle), drawer.default_title(document, figure)


def parse_line_rate(text: str):
    """--line-rate GBPS[:LABEL]: (GB/s, label). GBPS is a plain positive decimal (digits and one point).
    @throws ValueError naming what was typed."""
    number, _, label = text.partition(":")
    plain = number.count(".") <= 1 and any(c.isdigit() for c in number) and all(c.isdigit() or c == "." for c in number)
    if not plain or float(number) <= 0.0 or float(number) > 1e6:
        raise ValueError(f"--line-rate {text}: GBPS must be a decimal number of GB/s above 0 and at most 10^6, "
                         "then :LABEL if wanted")
    return float(number), label.strip() or "line rate"


def _check_output(parser: argparse.ArgumentParser, path: str) -> None:
    if not path.lower().endswith((".svg", ".png")):
        parser.error(f"-o {path}: the figure's name must end in .svg or .png")


def parse_arguments(argv=None) -> argparse.Namespace:
    """The arguments of a tools/plot command, checked as far as they can be without reading the reports (argparse
    exits with status 2 and one message otherwise). Needs no matplotlib: the README test checks every documented
    tools/plot command with it."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command not in ("ratio-table", "library-table"):
        _check_output(parser, args.output)
    if args.command == "busbw-vs-size" and args.line_rate is not None:
        try:
            parse_line_rate(args.line_rate)
        except ValueError as error:
            parser.error(str(error))
    return args


def _table(args: argparse.Namespace) -> int:
    """tools/plot ratio-table: the markdown table on stdout (no matplotlib needed)."""
    from . import ratio

    try:
        chapters = ratio.collect([report for path in args.reports for report in read_file(path)])
        sizes = ratio.sweep_sizes(chapters, ratio.parse_sizes(args.sizes) if args.sizes else None)
    except ReportError as error:
        print(f"tools/plot: {error}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(ratio.render_table(chapters, sizes))
    return 0


def _library_table(args: argparse.Namespace) -> int:
    """tools/plot library-table: the markdown table on stdout (no matplotlib needed)."""
    from . import ratio

    try:
        reports = [report for path in args.reports for report in read_file(path)]
        if len({report.device_name for report in reports}) > 1:
            raise ReportError("the reports are of different devices: one GPU at a time")
        text = ratio.render_library_table(reports, args.stage)
    except ReportError as error:
        print(f"tools/plot: {error}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(text)
    return 0


def main(argv=None) -> int:
    """Run tools/plot; returns the exit code (0, or 2 for bad arguments, input or a missing matplotlib)."""
    args = parse_arguments(argv)
    if args.command == "ratio-table":
        return _table(args)
    if args.command == "library-table":
        return _library_table(args)
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        print(INSTALL_HINT, file=sys.stderr)
        return EXIT_USAGE
    from . import style

    try:
        fig, default_title = _figure(args)
        style.save(fig, args.output, args.title if args.title is not None else default_title, args.png)
    except ReportError as error:
        print(f"tools/plot: {error}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        print(f"tools/plot: cannot write {args.output}: {error.strerror}", file=sys.stderr)
        return EXIT_USAGE
    except ValueError as error:
        if "$" not in (args.title or "") + (args.subtitle or ""):
            raise
        print(f"tools/plot: bad math markup ($...$) in the title: {' '.join(str(error).split())}", file=sys.stderr)
        return EXIT_USAGE
    return 0
