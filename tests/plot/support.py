"""Helpers of the plot tests: where tools/plot is, running it, writing reports, reading SVGs."""
import contextlib
import importlib
import io
import json
import os
import subprocess
import tempfile
import sys
import unittest
import xml.etree.ElementTree as ElementTree

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOLS = os.path.join(ROOT, "tools")
PLOT = os.path.join(TOOLS, "plot")
if TOOLS not in sys.path:
    sys.path.insert(0, TOOLS)


def _can_import_matplotlib() -> bool:
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        return False
    return True


HAVE_MATPLOTLIB = _can_import_matplotlib()
needs_matplotlib = unittest.skipUnless(HAVE_MATPLOTLIB, "matplotlib is not installed")


def write_json(folder: str, name: str, document) -> str:
    """Write a report (or an array of them) as folder/name; returns the path."""
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as stream:
        json.dump(document, stream, indent=2)
    return path


def plot(*args: str):
    """tools/plot in this process: (exit code, stderr)."""
    from stepwise_plot.cli import main

    errors = io.StringIO()
    with contextlib.redirect_stderr(errors):
        try:
            code = main(list(args))
        except SystemExit as exit_:  # argparse's usage errors
            code = exit_.code
    return code, errors.getvalue()


def run_plot(*args: str, env=None) -> subprocess.CompletedProcess:
    """tools/plot as its own process, with this interpreter."""
    return subprocess.run([sys.executable, PLOT, *args], capture_output=True, text=True, env=env, timeout=300)


def svg_texts(path: str) -> list:
    """Parse the SVG as XML and return the texts it draws (matplotlib writes each as a comment)."""
    parser = ElementTree.XMLParser(target=ElementTree.TreeBuilder(insert_comments=True))
    root = ElementTree.parse(path, parser=parser).getroot()
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        raise AssertionError(f"{path}: the root element is {root.tag}, not svg")
    return [element.text.strip() for element in root.iter() if element.tag is ElementTree.Comment]


def chapter_binary(name):
    """The executable `name` of the build tree under test: STEPWISE_BIN_DIR (CTest sets it to the
    tree's bin/), else build/bin of the repository; None when it is not built there."""
    folder = os.environ.get("STEPWISE_BIN_DIR") or os.path.join(ROOT, "build", "bin")
    path = os.path.join(folder, name)
    return path if os.access(path, os.X_OK) else None


def drawn_bytes_by_hash_seed(source: str, folder: str, *figure_args: str) -> list:
    """The bytes of the figure tools/plot draws from @p source under two different PYTHONHASHSEEDs
    (`analysis SOURCE FIGURE_ARGS -o ...`): a figure that depends on set or dict order differs."""
    outputs = []
    for seed in ("1", "2"):
        output = os.path.join(folder, f"same-bytes-{seed}.svg")
        result = run_plot("analysis", source, *figure_args, "-o", output, env=dict(os.environ, PYTHONHASHSEED=seed))
        if result.returncode != 0:
            raise AssertionError(result.stderr)
        with open(output, "rb") as stream:
            outputs.append(stream.read())
    return outputs


def analysis_of(binary: str, *arguments: str) -> dict:
    """A chapter's `--analyze --format json` document (@p arguments added); fails on a non-zero exit."""
    result = subprocess.run([binary, "--analyze", "--format", "json", *arguments], capture_output=True, text=True,
                            timeout=60)
    if result.returncode != 0:
        raise AssertionError(f"{binary} --analyze --format json {' '.join(arguments)}: exit {result.returncode}: "
                             f"{result.stderr}")
    return json.loads(result.stdout)


class AnalysisTestCase(unittest.TestCase):
    """A test of `tools/plot analysis`: a temporary folder, drawing a document, and the texts drawn."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def path(self, name: str) -> str:
        return os.path.join(self.folder.name, name)

    def draw(self, document, figure: str, *extra: str) -> list:
        """Draws @p figure of @p document; returns the texts of the SVG."""
        source = write_json(self.folder.name, "analysis.json", document)
        output = self.path(f"{figure}.svg")
        code, errors = plot("analysis", source, "--figure", figure, "-o", output, *extra)
        self.assertEqual(code, 0, errors)
        return svg_texts(output)

    def assertDrawn(self, texts: list, *wanted: str) -> None:
        joined = "\n".join(texts)
        for text in wanted:
            self.assertIn(text, joined)
