#!/usr/bin/env python3
"""CTest's entry to the tests of tools/plot: exit 77 (skipped) when matplotlib cannot be imported,
else `python3 -B -m unittest discover` over this folder, with the same interpreter (-B: no __pycache__).
Its argument, when given, is the interpreter as CMake named it (Python3_EXECUTABLE), for the skip's message."""
import importlib
import os
import sys

SKIPPED = 77


def main() -> int:
    """Skip without matplotlib; otherwise become the unittest run."""
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        named = sys.argv[1] if len(sys.argv) > 1 else sys.executable
        interpreter = named if named == sys.executable else named + " (" + sys.executable + ")"
        print("stepwise-skip: matplotlib cannot be imported by " + interpreter +
              ": install it (python3 -m pip install matplotlib, or apt-get install python3-matplotlib),"
              " or configure with another interpreter (-DPython3_EXECUTABLE=/usr/bin/python3)")
        return SKIPPED
    here = os.path.dirname(os.path.abspath(__file__))
    os.execv(sys.executable, [sys.executable, "-B", "-m", "unittest", "discover", "-s", here, "-t", here, "-v"])
    return 1


if __name__ == "__main__":
    sys.exit(main())
