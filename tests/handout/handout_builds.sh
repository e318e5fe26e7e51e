#!/usr/bin/env bash
# The students' handout (tools/handout) builds and grades the student files: made from the committed tree, it has
# no exercises' solutions; configured as usual, the host-only graders of chapters 04 and 05 and the GPU grader of
# the build exercise 00-4 build, and each fails on its untouched student file with the message that says what to
# do (never a crash, never a pass; 00-4's before it looks for a GPU, so on any machine).
# Arguments: the repository, the CUDA compiler, the C++ compiler, then extra cmake arguments (launchers, Python).
set -uo pipefail
repo=$1 cuda=$2 cxx=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "handout test: $*" >&2; exit 1; }

"$repo/tools/handout" "$work/tree" || fail "tools/handout failed"
ls "$work"/tree/chapters/*/exercises/solutions > /dev/null 2>&1 && fail "the handout still has a solutions folder"
[ -f "$work/tree/chapters/04_spmv/exercises/01_warps.cpp" ] || fail "the handout has no student file"
"$repo/tools/handout" "$work/tree" > /dev/null 2>&1 && fail "tools/handout wrote into a folder that is not empty"

cmake -S "$work/tree" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_CUDA_COMPILER="$cuda" -DCMAKE_CXX_COMPILER="$cxx" "$@" > "$work/configure.log" 2>&1 \
  || { cat "$work/configure.log"; fail "the handout does not configure"; }
targets=(exercise_04_1 exercise_04_2 exercise_04_3 exercise_05_1 exercise_05_2 exercise_05_3 exercise_00_4)
cmake --build "$work/build" --target "${targets[@]}" > "$work/build.log" 2>&1 \
  || { tail -40 "$work/build.log"; fail "the handout's graders of chapters 04 and 05 and of 00-4 do not build"; }
[ -e "$work/build/bin/exercise_04_1_untouched" ] && fail "the handout built a solution-side target"
grep -q "exercise_00_4_untouched" "$work/build/build.ninja" && fail "the handout has a target for an untouched 00-4"
checked=0
for target in "${targets[@]}"; do
  id=${target#exercise_}
  id=${id/_/-}
  output=$("$work/build/bin/$target" 2>&1)
  code=$?
  [ "$code" -eq 1 ] || fail "$target exited $code on the untouched student file (want 1: the grader fails)"
  grep -q "exercise $id: fill in" <<< "$output" || fail "$target did not say what to fill in: $output"
  checked=$((checked + 1))
done
echo "handout test: $checked graders built in the handout and failed on the untouched student files, as they should"
