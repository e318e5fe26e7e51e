#!/usr/bin/env bash
# One round on a GPU machine, from a tree built elsewhere and copied there.
#
#   tools/gpu-round.sh pack [build-dir]        on the build machine: copy the executables and the CTest files of
#                                              build-dir (default build) into build-gpu/, small enough to carry
#   tools/gpu-round.sh tests [log-dir] [only]  on the GPU machine: every GPU test (ctest -L gpu), then
#                                              compute-sanitizer (memcheck, racecheck, synccheck, initcheck) on
#                                              every chapter at a small n; with only (a regex such as 08_join),
#                                              just the tests and chapters whose names match it
#   tools/gpu-round.sh tour [log-dir] [args]   on the GPU machine: the tour (every chapter's default table) with args
#
# tests and tour exit with 77 (skipped) at once on a machine without a GPU.
# The CTest files name the build machine's paths; `tests` rewrites them to where the copy lies.
# Full logs go to log-dir (default gpu-round-logs); a short summary is printed last.
set -uo pipefail
mode=${1:-}
here=$(cd "$(dirname "$0")/.." && pwd)

case "$mode" in
  pack)
    build=$(cd "${2:-build}" && pwd)
    rm -rf "$here/build-gpu" && mkdir -p "$here/build-gpu"
    (cd "$build" && find . -path ./bin -prune -o \( -name CTestTestfile.cmake -o -name '*_include*.cmake' \
       -o -name '*_tests*.cmake' \) -print0 | tar --null -T - -cf -) | (cd "$here/build-gpu" && tar -xf -) || exit 1
    cp -r "$build/bin" "$here/build-gpu/bin"
    echo "$build" > "$here/build-gpu/original-path"
    echo "$(cd "$build/.." && pwd)" > "$here/build-gpu/original-source"
    du -sh "$here/build-gpu"
    exit 0
    ;;
  tests | tour) ;;
  *)
    echo "usage: $0 pack [build-dir] | tests [log-dir] [only] | tour [log-dir] [tour options]" >&2
    exit 2
    ;;
esac

if ! nvidia-smi -L > /dev/null 2>&1; then
  echo "$0 $mode: skipped: no GPU here (nvidia-smi finds none); run it on the GPU machine" >&2
  exit 77
fi
if [ ! -d "$here/build-gpu" ]; then
  echo "$0 $mode: no build-gpu/ here: run \`tools/gpu-round.sh pack\` on the build machine and copy build-gpu/ here" >&2
  exit 2
fi

logs=${2:-gpu-round-logs}
mkdir -p "$logs"
bin="$here/build-gpu/bin"
status=0
summary=()
nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader \
  > "$logs/device.txt" 2>&1
summary+=("device: $(cat "$logs/device.txt")")

if [ "$mode" = tour ]; then
  shift 2
  "$bin/tour" "$@" > "$logs/tour.log" 2>&1
  code=$?
  [ $code -ne 0 ] && status=1
  sed -n '/== stepwise tour: summary ==/,$p' "$logs/tour.log"
  summary+=("tour $*: exit $code")
  printf '%s\n' "${summary[@]}"
  exit $status
fi

# Point the CTest files at this copy: the build tree, the sources, and this machine's cmake.
original_build=$(cat "$here/build-gpu/original-path")
original_source=$(cat "$here/build-gpu/original-source")
cmake_here=$(command -v cmake)
grep -rlF "$original_build" "$here/build-gpu" --include='*.cmake' | xargs -r sed -i \
  -e "s#$original_build#$here/build-gpu#g" -e "s#$original_source#$here#g" -e "s#\"/usr/bin/cmake\"#\"$cmake_here\"#g"

only=${3:-}
(cd "$here/build-gpu" && ctest -L gpu ${only:+-R "$only"} --output-on-failure --timeout 900) > "$logs/ctest-gpu.log" 2>&1
code=$?
[ $code -ne 0 ] && status=1
summary+=("ctest -L gpu: exit $code, $(grep -E 'tests passed|tests failed' "$logs/ctest-gpu.log" | tail -1)")
grep -E '\*\*\*Failed|\(Failed\)|Not Run' "$logs/ctest-gpu.log" | head -20 | while read -r line; do echo "  $line"; done

# A small run of each chapter: --n 100003, or a small matrix with a row longer than many tiles for chapter 04
# (whose matrix sets the size).
small_run() {
  case "$1" in
    chapter_04_spmv) echo "--matrix huge-row:30011:7:50000" ;;
    *) echo "--n 100003" ;;
  esac
}
for chapter in "$bin"/chapter_*; do
  name=$(basename "$chapter")
  [[ -n "$only" && ! "$name" =~ $only ]] && continue
  for tool in memcheck racecheck synccheck initcheck; do
    # shellcheck disable=SC2046
    compute-sanitizer --tool "$tool" --error-exitcode 99 "$chapter" $(small_run "$name") --reps 1 --warmup 1 \
      > "$logs/sanitizer_${name}_$tool.log" 2>&1
    code=$?
    [ $code -ne 0 ] && status=1
    summary+=("$name $tool: exit $code, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logs/sanitizer_${name}_$tool.log" |
      sed 's/=* *//' | tr '\n' ' ')")
  done
done
printf '%s\n' "${summary[@]}"
exit $status
