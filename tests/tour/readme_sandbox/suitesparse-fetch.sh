#!/usr/bin/env bash
# The README test's stand-in for tools/suitesparse-fetch: it parses the arguments with the tool's own parser and
# downloads nothing. Logged to STEPWISE_README_LOG like build/bin's; without a Python 3, as not checked.
if [ -z "$STEPWISE_PYTHON" ]; then
  printf '0\ttools/suitesparse-fetch%s (not checked: no Python 3)\n' "$(printf ' %q' "$@")" >> "$STEPWISE_README_LOG"
  exit 0
fi
"$STEPWISE_PYTHON" - "$STEPWISE_SOURCE_DIR/tools/suitesparse-fetch" "$@" << 'PYTHON'
import importlib.machinery
import importlib.util
import sys

sys.dont_write_bytecode = True
loader = importlib.machinery.SourceFileLoader("suitesparse_fetch", sys.argv[1])
module = importlib.util.module_from_spec(importlib.util.spec_from_loader("suitesparse_fetch", loader))
loader.exec_module(module)
module.parse_arguments(sys.argv[2:])
PYTHON
code=$?
printf '%s\ttools/suitesparse-fetch%s\n' "$code" "$(printf ' %q' "$@")" >> "$STEPWISE_README_LOG"
exit "$code"
