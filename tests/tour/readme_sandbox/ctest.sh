#!/usr/bin/env bash
# The README test's stand-in for ctest: it lists the tests the command selects in the real build (ctest -N), runs
# none, and fails when the selection is empty. Logged to STEPWISE_README_LOG like build/bin's.
arguments=("$@")
real_arguments=()
while [ $# -gt 0 ]; do
  if [ "$1" = --test-dir ]; then
    case "${2:-}" in
      build | build/ | ./build | ./build/) real_arguments+=(--test-dir "$STEPWISE_REAL_BUILD") ;;
      *) real_arguments+=(--test-dir "${2:-}") ;;
    esac
    shift 2
  else
    real_arguments+=("$1")
    shift
  fi
done
listing=$("$STEPWISE_CTEST" "${real_arguments[@]}" -N 2>&1)
code=$?
if [ "$code" = 0 ] && ! grep -q "Total Tests: [1-9]" <<< "$listing"; then
  echo "ctest (README test): the command selects no test: $listing" >&2
  code=2
fi
printf '%s\tctest%s\n' "$code" "$(printf ' %q' "${arguments[@]}")" >> "$STEPWISE_README_LOG"
exit "$code"
