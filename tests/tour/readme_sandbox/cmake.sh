#!/usr/bin/env bash
# The README test's stand-in for cmake: it checks that the presets and the targets a page names exist, and builds
# nothing (the test runs from a build that is already there). Logged to STEPWISE_README_LOG like build/bin's.
arguments=("$@")
finish() {
  printf '%s\tcmake%s\n' "$1" "$(printf ' %q' "${arguments[@]}")" >> "$STEPWISE_README_LOG"
  exit "$1"
}
refuse() {
  echo "cmake (README test): $*" >&2
  finish 2
}
# preset_exists NAME LIST-COMMAND...: `cmake LIST-COMMAND...`, run in the source tree, lists the preset NAME.
preset_exists() {
  local name=$1
  shift
  (cd "$STEPWISE_SOURCE_DIR" && "$STEPWISE_CMAKE" "$@" 2> /dev/null) | grep -q "^  \"$name\""
}
case "${1:-}" in
  --workflow)
    case "${2:-}" in
      --preset) name=${3:-} ;;
      --preset=*) name=${2#--preset=} ;;
      *) refuse "cmake --workflow needs --preset NAME" ;;
    esac
    preset_exists "$name" --workflow --list-presets && finish 0
    refuse "no workflow preset '$name' in CMakePresets.json"
    ;;
  --preset | --preset=*)
    name=${2:-}
    [ "$1" = --preset ] || name=${1#--preset=}
    preset_exists "$name" --list-presets && finish 0
    refuse "no configure preset '$name' in CMakePresets.json"
    ;;
  --build)
    case "${2:-}" in
      build | build/ | ./build | ./build/) ;;
      *) refuse "cmake --build ${2:-}: the pages build in build/" ;;
    esac
    shift 2
    while [ $# -gt 0 ]; do
      if [ "$1" = --target ] || [ "$1" = -t ]; then
        shift
        while [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; do
          grep -qx -- "$1" "$STEPWISE_TARGET_LIST" || refuse "no target '$1' in the build"
          shift
        done
      else
        shift
      fi
    done
    finish 0
    ;;
  -S | -B | -G | -D*) finish 0 ;;  # a configure step written out: nothing to check
  --version | --help | --list-presets*) "$STEPWISE_CMAKE" "$@" > /dev/null; finish $? ;;
  *) refuse "a form of cmake the README test does not know (tests/tour/readme_sandbox/cmake.sh): $*" ;;
esac
