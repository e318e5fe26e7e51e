#!/usr/bin/env bash
# The README test's stand-in for ncu, nsys and compute-sanitizer: it runs the program they would profile (the first
# argument that is a path to an executable, a build/bin stand-in), without the profiler.
tool=$(basename "$0")
for ((i = 1; i <= $#; i++)); do
  argument=${!i}
  if [[ "$argument" == */* && -f "$argument" && -x "$argument" ]]; then
    exec "$argument" "${@:i+1}"
  fi
done
echo "$tool (README test): no program to run in: $*" >&2
printf '2\t%s%s\n' "$tool" "$(printf ' %q' "$@")" >> "$STEPWISE_README_LOG"
exit 2
