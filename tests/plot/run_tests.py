#!/usr/bin/env python3
"""CTest's entry to the tests of tools/plot: exit 77 (skipped) when matplotlib cannot be imported,
else `python3 -B -m unittest discover` over this folder, with the same interpreter (-B: no __pycache__)."""
import importlib
import os
import sys

SKIPPED = 77


def main() -> int:
    """Skip without matplotlib; otherwise become the unittest run."""
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        print("stepwise-skip: matplotlib cannot be imported by " + sys.executable +
              " (python3 -m pip install matplotlib, or apt-get install python3-matplotlib)")
        return SKIPPED
    here = os.path.dirname(os.path.abspath(__file__))
    os.execv(sys.executable, [sys.executable, "-B", "-m", "unittest", "discover", "-s", here, "-t", here, "-v"])
    return 1


if __name__ == "__main__":
    sys.exit(main())
