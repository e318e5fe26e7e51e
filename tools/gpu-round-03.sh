#!/usr/bin/env bash
# Chapter 03 (merge, sorted search, load-balancing search) on a GPU, from a built tree.
#
#   tools/gpu-round-03.sh [bin-dir] [log-dir]       defaults: build/bin and gpu-round-03-logs
#
# bin-dir holds chapter_03_merge and test_merge_gpu (a build's bin/, or a copy of it). In about
# five minutes on an H100 it runs:
#   1. the chapter's GPU tests (test_merge_gpu: every row of every table at the edge sizes, every
#      --sweep shape at its tile edges, a merge past 2^31 outputs);
#   2. each problem's default table, --format json into log-dir (merge keys, merge --pairs,
#      merge --type int64, search, lbs): the README's tables and figures come from these;
#   3. the merge table at 2^20 + 2^20 and at a 1 : 1000 skew (2^17 + 1000 * 2^17);
#   4. --sweep of each problem at a moderate size (JSON keeps every point, for the heat maps);
#   5. compute-sanitizer memcheck, racecheck, synccheck and initcheck over every row of every
#      table at a small size (the GPU tests' sanitizer case; skipped without compute-sanitizer);
# and prints a short summary last: each step's exit code and seconds, and for every table its
# fastest kernel stage against each library row. Full logs and reports are in log-dir.
# Exit code: 0 when every step passed, 1 otherwise.
set -uo pipefail

bin=$(cd "${1:-build/bin}" && pwd) || exit 1
logs=${2:-gpu-round-03-logs}
mkdir -p "$logs" && logs=$(cd "$logs" && pwd) || exit 1
chapter="$bin/chapter_03_merge"
tests="$bin/test_merge_gpu"
for program in "$chapter" "$tests"; do
  [ -x "$program" ] || { echo "$0: $program is missing: build the targets chapter_03_merge and test_merge_gpu" >&2; exit 1; }
done

status=0
summary=()
# step NAME COMMAND...: runs the command with its output in log-dir/NAME.log, records exit code and time.
step() {
  local name=$1
  shift
  local start=$SECONDS
  "$@" > "$logs/$name.log" 2>&1
  local code=$?
  [ $code -ne 0 ] && status=1
  summary+=("$(printf '%-28s exit %3d  %4ds' "$name" "$code" $((SECONDS - start)))")
  return $code
}

nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
  --format=csv,noheader > "$logs/device.txt" 2>&1
summary+=("device: $(head -1 "$logs/device.txt")")

# 1. The GPU tests.
step gpu-tests "$tests" --duration=true
summary+=("  $(grep -E '^\[doctest\] test cases' "$logs/gpu-tests.log" | tail -1)")

# 2. Each problem's default table, as JSON for the README's tables and figures.
step merge "$chapter" --format json --output "$logs/merge.json"
step merge-pairs "$chapter" --pairs --format json --output "$logs/merge-pairs.json"
step merge-int64 "$chapter" --type int64 --format json --output "$logs/merge-int64.json"
step search "$chapter" --problem search --format json --output "$logs/search.json"
step lbs "$chapter" --problem lbs --format json --output "$logs/lbs.json"

# 3. The merge at 2^20 + 2^20 and at a 1 : 1000 skew.
step merge-small "$chapter" --na 2^20 --nb 2^20 --reps 50 --format json --output "$logs/merge-small.json"
step merge-skew "$chapter" --na 2^17 --nb 131072000 --format json --output "$logs/merge-skew.json"

# 4. --sweep of each problem at a moderate size (the first three stages of a table sweep too).
step sweep-merge "$chapter" --n 2^26 --sweep --reps 10 --format json --output "$logs/sweep-merge.json"
step sweep-merge-pairs "$chapter" --n 2^26 --pairs --sweep --stage 3 --stage 4 --stage lib --reps 10 \
  --format json --output "$logs/sweep-merge-pairs.json"
step sweep-search "$chapter" --problem search --na 2^22 --nb 2^24 --sweep --reps 10 --format json \
  --output "$logs/sweep-search.json"
step sweep-lbs "$chapter" --problem lbs --n 2^25 --sweep --reps 10 --format json --output "$logs/sweep-lbs.json"

# 5. compute-sanitizer, each tool over the GPU tests' sanitizer case: every row of every table
#    (merge keys and pairs, int32 and int64, both search bounds, the load-balancing search) at a
#    small size of several tiles. It runs the rows directly, without the harness's timer: under
#    compute-sanitizer the timer's hold of the stream times out (chapter 00 shows it too), so a
#    chapter run would stop after its first row.
if command -v compute-sanitizer > /dev/null; then
  for tool in memcheck racecheck synccheck initcheck; do
    step "sanitizer-$tool" compute-sanitizer --tool "$tool" --error-exitcode 99 "$tests" --test-case="sanitizer round*"
    summary+=("  $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logs/sanitizer-$tool.log" | sed 's/=* *//' | tr '\n' ' ')")
  done
else
  summary+=("compute-sanitizer: not on the PATH, skipped")
  status=1
fi

# The summary: each table's fastest kernel stage against each library row.
best_lines=$(python3 - "$logs" <<'PYTHON' 2>&1
import json, pathlib, sys
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    try:
        report = json.loads(path.read_text())
    except ValueError as error:
        print(f"{path.name}: unreadable ({error})")
        continue
    rows = [r for r in report["rows"] if r.get("median_ms") and r.get("check") == "PASS"]
    kernels = [r for r in rows if r["kind"] == "kernel"]
    failed = [r["name"] for r in report["rows"] if r.get("check") == "FAIL"]
    if not kernels:
        print(f"{path.name}: no kernel row passed")
        continue
    best = min(kernels, key=lambda r: r["median_ms"])
    line = (f"{path.stem:20} best {best['number']} {best['name']} {best['shape']['label']}: "
            f"{best['median_ms']:.4f} ms, {best['gbps']:.0f} GB/s, {best['pct_memcpy']:.1f} % memcpy")
    for lib in (r for r in rows if r["kind"] == "library"):
        line += f"; {lib['median_ms'] / best['median_ms']:.3f}x {lib['name']}"
    if failed:
        line += f"; FAILED: {', '.join(failed)}"
    print(line)
PYTHON
)

echo "== chapter 03 GPU round: $logs =="
printf '%s\n' "${summary[@]}"
echo "-- fastest kernel stage per table (x library: library time / stage time, above 1 is faster) --"
echo "$best_lines"
exit $status
