#!/usr/bin/env bash
# One whole round on a GPU machine, from an already-built tree:
#   GPU tests, every chapter through the tour, and compute-sanitizer on every chapter at a small n.
# Usage: tools/gpu-round.sh [bin-dir (default build/bin)] [log-dir (default gpu-round-logs)]
# Prints a short summary last; full logs go to the log directory.
set -uo pipefail
bin=${1:-build/bin}
logs=${2:-gpu-round-logs}
mkdir -p "$logs"
status=0

nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader > "$logs/device.txt" 2>&1
summary=("device: $(cat "$logs/device.txt")")

for test in "$bin"/test_*; do
  name=$(basename "$test")
  "$test" > "$logs/$name.log" 2>&1
  code=$?
  [ $code -ne 0 ] && status=1
  summary+=("$name: exit $code, $(grep -E '^\[doctest\] test cases' "$logs/$name.log" | tr -s ' ')")
done

"$bin/tour" > "$logs/tour.log" 2>&1
code=$?
[ $code -ne 0 ] && status=1
summary+=("tour: exit $code")

for chapter in "$bin"/chapter_*; do
  name=$(basename "$chapter")
  for tool in memcheck racecheck synccheck initcheck; do
    compute-sanitizer --tool "$tool" --error-exitcode 99 "$chapter" --n 100003 --reps 1 --warmup 1 \
      > "$logs/sanitizer_${name}_$tool.log" 2>&1
    code=$?
    [ $code -ne 0 ] && status=1
    summary+=("$name $tool: exit $code, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logs/sanitizer_${name}_$tool.log" | sed 's/=* *//')")
  done
done

sed -n '/== stepwise tour: summary ==/,$p' "$logs/tour.log"
printf '%s\n' "${summary[@]}"
exit $status
