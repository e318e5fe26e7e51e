#!/usr/bin/env bash
# The README test's stand-in for tools/plot: it parses the arguments with tools/plot's own parser (the subcommand,
# its options, the figure's name) and draws nothing, so it needs neither matplotlib nor the GPU's reports. Logged to
# STEPWISE_README_LOG like build/bin's; without a Python 3 it logs the command as not checked.
if [ -z "$STEPWISE_PYTHON" ]; then
  printf '0\ttools/plot%s (not checked: no Python 3)\n' "$(printf ' %q' "$@")" >> "$STEPWISE_README_LOG"
  exit 0
fi
"$STEPWISE_PYTHON" - "$STEPWISE_SOURCE_DIR/tools" "$@" << 'PYTHON'
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
from stepwise_plot.cli import parse_arguments  # noqa: E402

parse_arguments(sys.argv[2:])
PYTHON
code=$?
printf '%s\ttools/plot%s\n' "$code" "$(printf ' %q' "$@")" >> "$STEPWISE_README_LOG"
exit "$code"
