#!/usr/bin/env python3
"""Tests of tools/doxygen_markdown_filter.py (the Markdown the docs site reads): heading labels
and the links to them, code spans joined onto one line, global-scope names, collapsible blocks,
and the page's line count kept. Standard library only."""
import pathlib
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import doxygen_markdown_filter as dmf  # noqa: E402


def run(text, name="page.md", others=None):
    """The filtered text of a page written in a temporary folder beside the pages in others."""
    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        for other, body in (others or {}).items():
            (folder / other).parent.mkdir(parents=True, exist_ok=True)
            (folder / other).write_text(body, encoding="utf-8")
        page = folder / name
        page.write_text(text, encoding="utf-8")
        dmf.slugs_of.cache_clear()
        return dmf.filter_page(text, page), dmf.page_prefix(page)


class Slugs(unittest.TestCase):
    def test_github_slugs(self):
        self.assertEqual(dmf.github_slug("What the numbers teach"), "what-the-numbers-teach")
        self.assertEqual(dmf.github_slug("The sweep (`--sweep`)"), "the-sweep---sweep")
        self.assertEqual(dmf.github_slug("Count–scan–scatter: two passes"), "countscanscatter-two-passes")
        self.assertEqual(dmf.github_slug("Stage 3: `TileRanks` [link](x.md)"), "stage-3-tileranks-link")

    def test_labels_are_ascii(self):
        self.assertEqual(dmf.label("sec_a", "é-b_c"), "sec_a__xe9-b_c")


class Headings(unittest.TestCase):
    def test_in_page_links_reach_their_heading(self):
        out, prefix = run("# Title\n\nSee [r](#results) and [again](#results-1).\n\n## Results\n\n## Results\n")
        self.assertIn(f"[r](#{prefix}_results)", out)
        self.assertIn(f"[again](#{prefix}_results-1)", out)
        self.assertIn(f"## Results {{#{prefix}_results}}", out)
        self.assertIn(f"## Results {{#{prefix}_results-1}}", out)
        self.assertTrue(out.startswith("# Title\n"), "the title keeps no label: Doxygen names the page after it")

    def test_a_heading_with_code_becomes_html_with_an_anchor(self):
        out, prefix = run("# T\n\n[s](#the-sweep---sweep)\n\n### The sweep (`--sweep`)\n")
        self.assertIn(f"\\anchor {prefix}_the-sweep---sweep <h3>The sweep (`--sweep`)</h3>", out)
        self.assertIn(f"[s](#{prefix}_the-sweep---sweep)", out)

    def test_links_into_another_page(self):
        others = {"sub/other.md": "# Other\n\n## Deep part\n"}
        out, _ = run("# T\n\n[d](sub/other.md#deep-part) [p](sub/other.md) [w](https://x.org/a.md#b)\n", others=others)
        self.assertIn("[d](#sec_", out)
        self.assertIn("_sub_other_deep-part)", out)
        self.assertIn("[p](sub/other.md)", out)
        self.assertIn("[w](https://x.org/a.md#b)", out)

    def test_a_link_to_no_heading_is_left_for_doxygen_to_report(self):
        out, _ = run("# T\n\n[x](#nowhere)\n\n## Somewhere\n")
        self.assertIn("[x](#nowhere)", out)

    def test_headings_in_code_blocks_are_code(self):
        out, _ = run("# T\n\n```sh\n# a comment\n## not a heading\n```\n")
        self.assertIn("\n# a comment\n## not a heading\n", out)


class Text(unittest.TestCase):
    def test_a_long_code_span_is_joined_and_its_lines_given_back(self):
        text = "# T\n\nRun `a --b\n... --c\nd --e` now,\nthen more.\n\nNext paragraph.\n"
        out, _ = run(text)
        self.assertIn("Run `a --b ... --c d --e` now,\nthen more.\n", out)
        self.assertEqual(len(out.splitlines()), len(text.splitlines()))
        self.assertEqual(out.splitlines().index("Next paragraph."), text.splitlines().index("Next paragraph."))

    def test_global_scope_names_link_nothing(self):
        out, _ = run("# T\n\n`cub::DeviceSelect::If` / `::Flagged`, (::X), std::vector\n")
        self.assertIn("`cub::DeviceSelect::If` / `::%Flagged`, (::%X), std::vector", out)

    def test_details_open(self):
        out, _ = run("# T\n\n<details><summary>More</summary>\n\ntext\n</details>\n")
        self.assertIn("**More**", out)
        self.assertNotIn("<details>", out)


if __name__ == "__main__":
    unittest.main()
