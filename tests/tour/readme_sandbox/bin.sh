#!/usr/bin/env bash
# The README test's stand-in for build/bin/PROGRAM (a link to this script, named after the program). It runs the
# real program (in STEPWISE_REAL_BIN) as a machine without a GPU would, and in seconds:
#   - a chapter with --help, --list, --list-options, --check-options or --analyze runs as written (none needs a GPU);
#     any other chapter command is checked with --check-options added, and exits 77 (skipped: no GPU) when it passes;
#   - the tour runs with --dry-run added (it checks every chapter's options first), unless given --help or --dry-run;
#   - a GPU test program (test_*_gpu) exits 77; any other program runs as written.
# Each run is logged as "EXIT-CODE<tab>COMMAND" to STEPWISE_README_LOG.
name=$(basename "$0")
real="$STEPWISE_REAL_BIN/$name"
as_written=0
for argument in "$@"; do
  case "$argument" in
    --help | -h | --list | --list-options | --check-options | --analyze | --dry-run) as_written=1 ;;
  esac
done
case "$name" in
  tour)
    if [ "$as_written" = 1 ]; then "$real" "$@"; else "$real" "$@" --dry-run; fi
    code=$?
    ;;
  chapter_* | harness_chapter)
    if [ "$as_written" = 1 ]; then
      "$real" "$@"
      code=$?
    else
      "$real" "$@" --check-options
      code=$?
      if [ "$code" = 0 ]; then
        echo "$0: skipped: no GPU here (the README test checked the options only)" >&2
        code=77
      fi
    fi
    ;;
  test_*_gpu)
    echo "$0: skipped: no GPU here (the README test runs no GPU test)" >&2
    code=77
    ;;
  *)
    "$real" "$@"
    code=$?
    ;;
esac
printf '%s\t%s%s\n' "$code" "$0" "$(printf ' %q' "$@")" >> "$STEPWISE_README_LOG"
exit "$code"
