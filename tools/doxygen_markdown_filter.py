#!/usr/bin/env python3
"""Doxygen input filter for the READMEs: rewrites the two Markdown constructs that Doxygen
1.9 renders wrongly, so that the documentation site shows what GitHub shows.

- A heading with inline code (`## The sweep (`--sweep`)`): Doxygen escapes the code and turns
  `--` into a dash; an HTML heading with the same text renders it as code.
- A collapsible `<details><summary>...</summary> ... </details>` block: Doxygen closes it
  before its content; the site shows the summary in bold and the content open.
"""
import re
import sys

HEADING = re.compile(r"^(#{1,6})\s+(.*`.*)$")
SUMMARY = re.compile(r"<details>\s*<summary>(.*?)</summary>")


def filter_line(line: str) -> str:
    heading = HEADING.match(line)
    if heading:
        level = len(heading.group(1))
        return f"<h{level}>{heading.group(2)}</h{level}>"
    line = SUMMARY.sub(lambda match: f"**{match.group(1)}**\n", line)
    return line.replace("<details>", "").replace("</details>", "")


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as source:
        in_code_block = False
        for line in source.read().splitlines():
            if line.lstrip().startswith("```"):
                in_code_block = not in_code_block
            print(line if in_code_block else filter_line(line))


if __name__ == "__main__":
    main()
