#!/usr/bin/env bash
# The README test's stand-in for python3: `python3 -m pip ...` and `python3 -m venv ...` are not run (they install
# software); anything else runs with the build's Python 3 (STEPWISE_PYTHON).
if [ "${1:-}" = -m ] && { [ "${2:-}" = pip ] || [ "${2:-}" = venv ]; }; then
  printf '0\t%s%s (not run: it installs software)\n' "$(basename "$0")" "$(printf ' %q' "$@")" >> "$STEPWISE_README_LOG"
  exit 0
fi
if [ -z "$STEPWISE_PYTHON" ]; then
  echo "python3 (README test): no Python 3 was found when the build was configured" >&2
  exit 127
fi
exec "$STEPWISE_PYTHON" "$@"
