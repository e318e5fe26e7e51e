"""stepwise's slide decks: one per chapter and one for the course, built from the lectures, the stage files, the
figures and the JSON reports the repository holds.

tools/slides is the command line; lecture.py reads a chapter's README, stage files and exercises; reports.py picks
the reports a deck's rows come from; deck.py builds a deck and writes its Markdown (pandoc's slide format); render.py
and template.py turn that Markdown into one self-contained HTML file. Standard library only.
"""
