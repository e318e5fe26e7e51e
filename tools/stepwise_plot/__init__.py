"""stepwise's figures: staircase, bandwidth, time-vs-n and sweep, drawn from a chapter's JSON report.

tools/plot is the command line; report.py reads the reports (standard library only), style.py
holds the shared look and the deterministic saving, and one module draws each figure.
"""
