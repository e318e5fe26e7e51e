#!/usr/bin/env bash
# The README test's stand-in for cuobjdump and nvdisasm: the real tool (they need no GPU), given the real program for
# each build/bin stand-in among the arguments; 77 (skipped) where the CUDA toolkit lacks it. Logged to
# STEPWISE_README_LOG like build/bin's.
tool=$(basename "$0")
arguments=()
for argument in "$@"; do
  if [ -L "$argument" ] && [ "$(basename "$(readlink "$argument")")" = bin.sh ]; then
    arguments+=("$STEPWISE_REAL_BIN/$(basename "$argument")")
  else
    arguments+=("$argument")
  fi
done
if [ -x "$STEPWISE_CUDA_BIN/$tool" ]; then
  "$STEPWISE_CUDA_BIN/$tool" "${arguments[@]}"
  code=$?
else
  echo "$tool (README test): skipped: the CUDA toolkit here has no $tool" >&2
  code=77
fi
printf '%s\t%s%s\n' "$code" "$tool" "$(printf ' %q' "$@")" >> "$STEPWISE_README_LOG"
exit "$code"
