"""tools/slides: the decks' structure for two chapters, the Markdown renderer, a fresh run's reports, bad input."""
import contextlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.dont_write_bytecode = True

from stepwise_slides import cli, deck, lecture  # noqa: E402  (after the path is set)
from stepwise_slides.render import RenderError, images_in, render, slide_titles  # noqa: E402


def slides_main(*arguments):
    """Run tools/slides in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(list(arguments))
        except SystemExit as exit_:
            code = exit_.code
    return code, out.getvalue(), err.getvalue()


def numbered_stage_files(chapter):
    """The chapter's stage files as the test sees them on disk (stages/**/NN_*.cu|cpp and lib_*)."""
    found = []
    for folder, _, names in os.walk(os.path.join(ROOT, "chapters", chapter, "stages")):
        for name in names:
            if re.match(r"^(\d+_|lib_).*\.(cu|cpp)$", name):
                found.append(os.path.relpath(os.path.join(folder, name), os.path.join(ROOT, "chapters", chapter)))
    return sorted(found)


class Folder(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.folder)


class ChapterDeck(Folder):
    """The deck of chapter 01 (one problem, twelve stages) and of chapter 03 (three problems in folders)."""

    def build(self, chapter, reports=None):
        return deck.chapter_deck(ROOT, chapter, self.folder, reports)

    def test_one_slide_per_stage_file_in_the_stages_part(self):
        for chapter in ("01_reduction", "03_merge"):
            built = self.build(chapter)
            stage_slides = [slide for slide in built.slides() if slide.kind == "stage"]
            self.assertEqual(sorted(slide.stage_file for slide in stage_slides), numbered_stage_files(chapter))
            part = next(part for part in built.parts if part.title == "The stages")
            self.assertTrue(all(slide in part.slides for slide in stage_slides))

    def test_reduction_titles(self):
        built = self.build("01_reduction")
        titles = [slide.title for slide in built.slides()]
        self.assertEqual(built.title, "Chapter 01: parallel reduction")
        self.assertEqual([part.title for part in built.parts],
                         ["The problem", "The stages", "Results", "Beyond the chapter", "Exercises"])
        for wanted in ("The chapter", "The problem and its speed of light",
                       "Stage 1: interleaved addressing, divergent (kernel 1)", "Stage 12: one pass",
                       "The library: cub::DeviceReduce::Sum", "Results: `chapter_01_reduction --n 2^28`",
                       "Harris then and now", "What the library does beyond it", "References",
                       "Exercises: predict, then grade"):
            self.assertIn(wanted, titles)
        stage_titles = [slide.title for slide in built.slides() if slide.kind == "stage"]
        self.assertEqual(stage_titles[0], "Stage 1: interleaved addressing, divergent (kernel 1)")
        self.assertEqual(stage_titles[-1], "The library: cub::DeviceReduce::Sum")

    def test_reduction_stage_slide_has_lesson_row_code_and_diagram(self):
        built = self.build("01_reduction")
        slide = next(s for s in built.slides() if s.stage_file == "stages/03_interleaved_strided.cu")
        text = "\n".join(slide.blocks)
        self.assertIn("index = 2\\*s\\*tid: whole warps idle or busy", text)  # the file's stage.lesson
        self.assertIn("**1.5875 ms** · 676.4 GB/s · step 0.81x · total 1.60x", text)  # table_2e28.json's row
        self.assertIn("NVIDIA H100 80GB HBM3 · 2026-11-26", text)
        self.assertIn("```diff", text)  # the lecture's excerpt for this stage
        self.assertIn("thread_work(Addressing::interleaved_strided", text)
        self.assertEqual(slide.images, ["chapters/01_reduction/figures/01_banks.svg"])

    def test_device_and_date_on_the_title_and_every_table_slide(self):
        built = self.build("01_reduction")
        self.assertEqual(built.device_line, "Tables: NVIDIA H100 80GB HBM3, 2026-11-26 (the reports shipped in "
                                            "chapters/01_reduction/results)")
        tables = [slide for slide in built.slides() if slide.kind == "table"]
        self.assertEqual([slide.title for slide in tables], ["Results: `chapter_01_reduction --n 2^28`"])
        self.assertIn("NVIDIA H100 80GB HBM3 · 2026-11-26 · n = 2\\^28 int32 · table_2e28.json", tables[0].blocks[0])
        markdown = deck.to_markdown(built)
        self.assertIn('date: "Tables: NVIDIA H100 80GB HBM3, 2026-11-26', markdown)

    def test_merge_has_a_table_per_problem_and_its_stages_in_lecture_order(self):
        built = self.build("03_merge")
        tables = [slide.title for slide in built.slides() if slide.kind == "table"]
        self.assertEqual(tables, ["Results: `chapter_03_merge`", "Results: `chapter_03_merge --problem search`",
                                  "Results: `chapter_03_merge --problem lbs`"])
        order = [slide.stage_file for slide in built.slides() if slide.kind == "stage"]
        self.assertLess(order.index("stages/merge/04_tuned.cu"), order.index("stages/merge/lib_cub_merge.cu"))
        self.assertLess(order.index("stages/merge/lib_thrust_merge.cu"),
                        order.index("stages/search/01_binary_search.cu"))
        self.assertLess(order.index("stages/search/lib_thrust_bound.cu"), order.index("stages/lbs/01_binary_search.cu"))
        search = next(s for s in built.slides() if s.stage_file == "stages/search/02_merge_path.cu")
        self.assertIn("search.json", "\n".join(search.blocks))

    def test_every_figure_of_the_lecture_is_on_a_slide(self):
        for chapter in ("01_reduction", "03_merge"):
            shown = {image for slide in self.build(chapter).slides() for image in slide.images}
            with open(os.path.join(ROOT, "chapters", chapter, "README.md"), encoding="utf-8") as stream:
                cited = set(re.findall(r"\]\((figures/[^)]+\.svg)\)", stream.read()))
            self.assertEqual(shown, {f"chapters/{chapter}/{path}" for path in cited})

    def test_then_and_now_takes_the_lecture_s_table(self):
        built = self.build("01_reduction")
        slide = next(s for s in built.slides() if s.kind == "thennow")
        self.assertIn("| kernel 1 -> 2 (stage 1 -> 3) | 2.33x | 1.38x |", "\n".join(slide.blocks))

    def test_exercises_name_each_exercise_and_what_to_predict(self):
        built = self.build("01_reduction")
        slide = next(s for s in built.slides() if s.kind == "exercises")
        text = "\n".join(slide.blocks)
        for exercise in lecture.read_exercises(os.path.join(ROOT, "chapters/01_reduction/exercises/README.md")):
            self.assertIn(exercise.title, text)
        self.assertIn("Both trees run 127 adds.", text)
        self.assertIn("ctest --test-dir build -L exercise-01", text)
        self.assertIn("01-4: build stage 9 from stage 8", text)
        self.assertIn("a build exercise, a stage's kernel to write, on a GPU", text)

    def test_the_template_chapter_is_not_a_chapter(self):
        names = deck.chapters(ROOT)
        self.assertNotIn("_template", names)
        self.assertEqual(names[0], "00_bandwidth")


class FreshReports(Folder):
    """--reports DIR: a student's run in DIR/01 takes the place of the shipped report of the same name."""

    def test_tables_and_title_say_the_fresh_device_and_date(self):
        fresh = os.path.join(self.folder, "reports", "01")
        os.makedirs(fresh)
        with open(os.path.join(ROOT, "chapters/01_reduction/results/table_2e28.json"), encoding="utf-8") as stream:
            report = json.load(stream)
        report["device"]["name"] = "NVIDIA GeForce RTX 4090"
        report["date"] = "2027-01-15"
        report["rows"][0]["median_ms"] = 9.8765
        with open(os.path.join(fresh, "table_2e28.json"), "w", encoding="utf-8") as stream:
            json.dump(report, stream)
        out = os.path.join(self.folder, "slides")
        code, printed, errors = slides_main("01", "--reports", os.path.join(self.folder, "reports"), "-o", out)
        self.assertEqual(code, 0, errors)
        self.assertIn("01_reduction.html", printed)
        with open(os.path.join(out, "01_reduction.md"), encoding="utf-8") as stream:
            markdown = stream.read()
        self.assertIn('date: "Tables: NVIDIA GeForce RTX 4090, 2027-01-15 (your reports in', markdown)
        self.assertIn("NVIDIA GeForce RTX 4090 · 2027-01-15 · n = 2\\^28 int32", markdown)
        self.assertIn("| 1 | interleaved-divergent | 256 thr | 9.8765 |", markdown)
        self.assertNotIn("NVIDIA H100 80GB HBM3 · 2026-11-26 · n = 2\\^28", markdown)


class Render(unittest.TestCase):
    """The Markdown subset, rendered as pandoc would."""

    def page(self, text):
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "f.svg"), "w", encoding="utf-8") as stream:
                stream.write('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"/>')
            return render(text, folder, "t.md")

    def test_title_parts_and_slides(self):
        page, total = self.page('---\ntitle: "A \\"deck\\""\ndate: "GPU, 2026-01-01"\n---\n\n# Part\n\n## One\n\n'
                                "text\n\n## Two `code`\n\nmore\n")
        self.assertEqual(total, 4)
        self.assertEqual(slide_titles(page), ['A "deck"', "Part", "One", "Two code"])
        self.assertIn('<p class="date">GPU, 2026-01-01</p>', page)
        self.assertIn("4 / 4", page)

    def test_inline_marks_and_escapes(self):
        page, _ = self.page("## S\n\n**bold** *it* `a*b` 2\\^22 2\\*s\\*t \\<T\\> [web](https://x.org) "
                            "snake_case_name\n")
        self.assertIn("<strong>bold</strong> <em>it</em> <code>a*b</code> 2^22 2*s*t &lt;T&gt; "
                      '<a href="https://x.org">web</a> snake_case_name', page)
        page, _ = self.page("## S\n\nsee <https://x.org/a?b=1&c=2>\n")
        self.assertIn('see <a href="https://x.org/a?b=1&amp;c=2">https://x.org/a?b=1&amp;c=2</a>', page)

    def test_columns_notes_tables_code_and_images(self):
        page, _ = self.page("## S\n\n:::::: {.columns}\n::: {.column width=\"56%\"}\n::: {.lesson}\n**L**\n:::\n\n"
                            "```cuda\nint a = b < c;\n```\n:::\n::: {.column width=\"44%\"}\n![a diagram](f.svg)\n:::\n"
                            "::::::\n\n| x | y |\n| --- | ---: |\n| 1 | `2|3` |\n\n::: notes\n\nsay this\n\n:::\n")
        self.assertIn('<div class="columns"><div class="column" style="flex: 0 0 56%">', page)
        self.assertIn('<div class="lesson"><p><strong>L</strong></p></div>', page)
        self.assertIn('<pre><code class="language-cuda">int a = b &lt; c;</code></pre>', page)
        self.assertIn('<th style="text-align:right">y</th>', page)
        self.assertIn('<aside class="notes"><p>say this</p></aside>', page)
        self.assertEqual(len(images_in(page)), 1)
        self.assertTrue(images_in(page)[0].startswith("data:image/svg+xml;base64,"))

    def test_a_missing_image_names_itself(self):
        with self.assertRaises(RenderError) as raised:
            self.page("## S\n\n![x](nowhere.svg)\n")
        self.assertIn("image nowhere.svg not found", str(raised.exception))


class CommandLine(Folder):
    def test_a_bad_chapter_name_exits_2_naming_it(self):
        code, _, errors = slides_main("09_nothing", "-o", self.folder)
        self.assertEqual(code, 2)
        self.assertEqual(len(errors.strip().splitlines()), 1)
        self.assertIn("'09_nothing': no such chapter", errors)

    def test_a_missing_reports_folder_exits_2_naming_it(self):
        missing = os.path.join(self.folder, "no-reports")
        code, _, errors = slides_main("01_reduction", "--reports", missing, "-o", self.folder)
        self.assertEqual(code, 2)
        self.assertEqual(errors.strip(), f"tools/slides: --reports {missing}: no such folder")

    def test_a_reports_folder_without_the_chapter_s_reports_says_so_and_uses_the_shipped_ones(self):
        reports = os.path.join(self.folder, "reports", "01")
        os.makedirs(reports)  # what a run without a GPU leaves: the folder, no report
        code, _, errors = slides_main("01_reduction", "--reports", os.path.dirname(reports), "-o", self.folder)
        self.assertEqual(code, 0, errors)
        self.assertIn("01_reduction: no report of it in", errors)
        with open(os.path.join(self.folder, "01_reduction.md"), encoding="utf-8") as stream:
            self.assertIn("(the reports shipped in chapters/01_reduction/results)", stream.read())

    def test_chapter_by_number_or_path(self):
        for typed in ("02", "chapters/02_scan/"):
            code, printed, errors = slides_main(typed, "-o", self.folder)
            self.assertEqual(code, 0, errors)
            self.assertIn("02_scan.html", printed)

    def test_an_edited_deck_renders_again(self):
        code, _, errors = slides_main("00_bandwidth", "-o", self.folder)
        self.assertEqual(code, 0, errors)
        source = os.path.join(self.folder, "00_bandwidth.md")
        with open(source, encoding="utf-8") as stream:
            text = stream.read()
        with open(source, "w", encoding="utf-8") as stream:
            stream.write(text.replace("## The chapter\n", "## The chapter\n\nAn instructor's own line.\n", 1))
        target = os.path.join(self.folder, "edited.html")
        code, printed, errors = slides_main("--render", source, "-o", target)
        self.assertEqual(code, 0, errors)
        with open(target, encoding="utf-8") as stream:
            page = stream.read()
        self.assertIn("<p>An instructor's own line.</p>", page)
        self.assertRegex(printed, r"edited\.html: \d+ slides")

    def test_all_writes_every_chapter_and_the_course(self):
        code, printed, errors = slides_main("--all", "-o", self.folder)
        self.assertEqual(code, 0, errors)
        written = sorted(name for name in os.listdir(self.folder) if name.endswith(".html"))
        self.assertEqual(written, [name + ".html" for name in deck.chapters(ROOT)] + ["course.html"])
        with open(os.path.join(self.folder, "course.html"), encoding="utf-8") as stream:
            titles = slide_titles(stream.read())
        for name in deck.chapters(ROOT):
            self.assertIn(lecture.read_lecture(os.path.join(ROOT, "chapters", name, "README.md")).title, titles)


if __name__ == "__main__":
    unittest.main()
