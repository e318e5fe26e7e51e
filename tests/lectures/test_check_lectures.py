"""The lecture checker fails where a lecture drifts from the form: unittest, standard library only."""
import pathlib
import subprocess
import sys
import tempfile
import unittest

CHECKER = pathlib.Path(__file__).with_name("check_lectures.py")

STAGE = """// Stage 1, the lesson.
__global__ void add_one(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}
"""

GOOD = """# Chapter 99: a test

<!-- excerpt: stages/01_one.cu -->
```cuda
__global__ void add_one(int* data, int n) {
  ...
  if (i < n) data[i] += 1;
```

The lab history is in [NOTES.md](NOTES.md).
"""


class CheckLectures(unittest.TestCase):
    def run_on(self, readme, notes="# Notes\n", stage=STAGE):
        with tempfile.TemporaryDirectory() as folder:
            chapter = pathlib.Path(folder) / "chapters" / "99_test"
            (chapter / "stages").mkdir(parents=True)
            (chapter / "stages" / "01_one.cu").write_text(stage)
            (chapter / "README.md").write_text(readme)
            if notes is not None:
                (chapter / "NOTES.md").write_text(notes)
            result = subprocess.run([sys.executable, str(CHECKER), folder, str(chapter)], capture_output=True,
                                    text=True, check=False)
            return result.returncode, result.stdout

    def test_a_lecture_in_form_passes(self):
        code, out = self.run_on(GOOD)
        self.assertEqual(code, 0, out)

    def test_an_excerpt_the_file_no_longer_has_fails(self):
        code, out = self.run_on(GOOD, stage=STAGE.replace("+= 1", "+= 2"))
        self.assertEqual(code, 1)
        self.assertIn("no longer matches it, from: if (i < n) data[i] += 1;", out)

    def test_lines_out_of_order_fail(self):
        swapped = GOOD.replace("__global__ void add_one(int* data, int n) {\n  ...\n  if (i < n) data[i] += 1;",
                               "  if (i < n) data[i] += 1;\n__global__ void add_one(int* data, int n) {")
        code, out = self.run_on(swapped)
        self.assertEqual(code, 1, out)

    def test_a_stage_without_an_excerpt_fails(self):
        code, out = self.run_on(GOOD.replace("<!-- excerpt: stages/01_one.cu -->\n", ""))
        self.assertEqual(code, 1)
        self.assertIn("no excerpt of stages/01_one.cu", out)

    def test_a_diff_excerpt_checks_its_added_and_kept_lines(self):
        diff = GOOD.replace("```cuda\n__global__ void add_one(int* data, int n) {\n  ...\n",
                            "```diff\n __global__ void add_one(int* data, int n) {\n-  if (n) data[0] = 0;\n+")
        code, out = self.run_on(diff)
        self.assertEqual(code, 0, out)

    def test_process_words_and_shared_links_fail(self):
        code, out = self.run_on(GOOD + "\nAn earlier build was slower; see ../shared/seeds/000.txt.\n")
        self.assertEqual(code, 1)
        self.assertIn("'An earlier build'", out)
        self.assertIn("a link into ../shared/", out)

    def test_notes_are_required_and_linked(self):
        code, out = self.run_on(GOOD, notes=None)
        self.assertEqual(code, 1)
        self.assertIn("no NOTES.md", out)
        code, out = self.run_on(GOOD.replace("[NOTES.md](NOTES.md)", "the notes"))
        self.assertEqual(code, 1)
        self.assertIn("does not link its NOTES.md", out)

    def test_a_lecture_over_its_word_budget_fails(self):
        code, out = self.run_on(GOOD + "\n" + "word " * 4500 + "\n")
        self.assertEqual(code, 1)
        self.assertIn("words of prose, above the lecture's 4400", out)


if __name__ == "__main__":
    unittest.main()
