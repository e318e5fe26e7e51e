#!/usr/bin/env bash
# Chapter 10's measurements and figures, from the repository root:
#   chapters/10_segmented/figures/regenerate.sh gpu  [bin-dir] [report-dir] [part...]   on a GPU
#   chapters/10_segmented/figures/regenerate.sh plot [report-dir] [bin-dir]             anywhere with matplotlib
# The gpu parts, all by default: tests (the GPU tests, then compute-sanitizer on every row of each problem, variant rows
# included, at a small n), tables (the lecture's tables at n = 2^26, median of 5: segreduce int32 and segscan int32 with
# --variants on each --segments distribution of the README, ones, uniform:32, zipf:1.5, empty:50 and huge; rle int32
# with --variants on ones, uniform:32 and huge; setop on every --op of interleaved sets, and union of duplicates and
# skew; segscan and rle at 2^24 and 2^28, stage and library alone; the float64 segscan with --variants on uniform:32 and
# huge, and on uniform:32 at 2^20..2^28; the float tables, float32 and float64, best stage and libraries), sweeps (--sweep of segreduce's stages 4 and 5 on
# uniform:32 and empty:50, of segscan's stage 2 and rle's stage 1 on uniform:32 and huge, of setop's stages 2 and 3 on
# the intersection of interleaved sets), sizes (the tour's problems of this chapter at 2^20..2^28: the ratio-vs-n
# figure), ncu (each segreduce kernel's time, DRAM bytes and warp efficiency on uniform:32 and huge at 2^24); one part
# runs only when named: past-2e31 (every row of each problem at 2^31 + 5 items; about 90 GB of host memory). bin-dir
# defaults to build/bin, report-dir to build/reports/10 (neither is committed; the lecture's JSON reports are copied
# into chapters/10_segmented/results). The gpu mode prints a summary last: each step's exit code and seconds; the full
# outputs are in report-dir. plot draws a staircase per table from the gpu mode's reports (or, with neither a report-dir
# nor build/reports/10, from chapters/10_segmented/results), and names each report it did not find; then the --analyze
# diagrams (which lane adds which item, 10_segment_lanes.svg; the set operations' Balanced Path, 10_setop_path.svg) from
# bin-dir's chapter_10_segmented (default build/bin; no GPU needed).
set -uo pipefail
usage="usage: $0 gpu [bin-dir] [report-dir] [part...] | plot [report-dir] [bin-dir]"
mode=${1:?$usage}
figures=${STEPWISE_FIGURE_DIR:-chapters/10_segmented/figures}
distributions=(ones uniform:32 zipf:1.5 empty:50 huge)
ops=(intersection union difference symmetric_difference)
# The name of a table's report: segreduce-uniform-32, setop-union-duplicates.
report_name() { echo "$1" | tr ':.' '--'; }
case "$mode" in
  gpu)
    bin=${2:-build/bin}
    reports=${3:-build/reports/10}
    parts=("${@:4}")
    [ ${#parts[@]} -eq 0 ] && parts=(tests tables sweeps sizes ncu)
    wants() { [[ " ${parts[*]} " == *" $1 "* ]]; }
    segmented="$bin/chapter_10_segmented"
    source "$(dirname "$0")/../../../tools/figures-steps.sh"
    steps_begin
    table() {  # table NAME chapter-arguments...: the JSON report (and its table, in NAME.md) of one run
      local name=$1
      shift
      step "$name" "$segmented" "$@" --n 2^26 --reps 5 --format markdown --output "$reports/$name.md" \
        --json "$reports/$name.json"
    }

    # 1. The GPU tests, then compute-sanitizer on every row of each problem at a small n (empty segments included).
    if wants tests; then
      step gpu-tests-segmented "$bin/test_segmented_gpu" --duration=true
      step gpu-tests-setop "$bin/test_setop_gpu" --duration=true
      for tool in memcheck racecheck synccheck initcheck; do
        step "sanitizer-$tool-segreduce" compute-sanitizer --tool "$tool" --error-exitcode 99 "$segmented" \
          --problem segreduce --n 20011 --segments empty:50 --reps 1 --warmup 1
        step "sanitizer-$tool-segscan" compute-sanitizer --tool "$tool" --error-exitcode 99 "$segmented" \
          --problem segscan --type int32 --n 20011 --segments uniform:32 --variants --reps 1 --warmup 1
        step "sanitizer-$tool-rle" compute-sanitizer --tool "$tool" --error-exitcode 99 "$segmented" \
          --problem rle --type int32 --n 20011 --segments zipf:1.5 --variants --reps 1 --warmup 1
        step "sanitizer-$tool-setop" compute-sanitizer --tool "$tool" --error-exitcode 99 "$segmented" \
          --problem setop --op union --sets duplicates --n 20011 --reps 1 --warmup 1
      done
    fi

    # 2. The lecture's tables at 2^26.
    if wants tables; then
      for segments in "${distributions[@]}"; do
        table "segreduce-$(report_name "$segments")" --problem segreduce --type int32 --segments "$segments" \
          --variants
        table "segscan-$(report_name "$segments")" --problem segscan --type int32 --segments "$segments" --variants
      done
      for segments in ones uniform:32 huge; do
        table "rle-$(report_name "$segments")" --problem rle --type int32 --segments "$segments" --variants
      done
      for op in "${ops[@]}"; do
        table "setop-$op-interleaved" --problem setop --op "$op" --sets interleaved
      done
      table setop-union-duplicates --problem setop --op union --sets duplicates
      table setop-union-skew --problem setop --op union --sets skew
      # The segmented scan's and run-length encoding's ratio tables at 2^24 and 2^28 (stage and library alone).
      for size in 24 28; do
        for problem in segscan rle; do
          step "$problem-uniform-32-2p$size" "$segmented" --problem "$problem" --type int32 --segments uniform:32 \
            --stage single-pass --stage lib --n "2^$size" --reps 5 --format markdown \
            --output "$reports/$problem-uniform-32-2p$size.md" --json "$reports/$problem-uniform-32-2p$size.json"
        done
      done
      for name in segscan-huge-2p28 rle-ones-2p28 rle-ones-2p24; do
        problem=${name%%-*}
        segments=${name#*-}
        size=${name##*-2p}
        step "$name" "$segmented" --problem "$problem" --type int32 --segments "${segments%-2p*}" \
          --stage single-pass --stage lib --n "2^$size" --reps 5 --format markdown --output "$reports/$name.md" \
          --json "$reports/$name.json"
      done
      # The float64 segmented scan: its variant rows at 2^26, and stage against library across sizes.
      for segments in uniform:32 huge; do
        table "segscan-$(report_name "$segments")-float64" --problem segscan --type float64 --segments "$segments" \
          --stage single-pass --stage lib --variants
      done
      for size in 20 22 24 28; do
        name=segscan-uniform-32-float64-2p$size
        step "$name" "$segmented" --problem segscan --type float64 --segments uniform:32 --stage single-pass \
          --stage lib --n "2^$size" --reps 5 --format markdown --output "$reports/$name.md" --json "$reports/$name.json"
      done
      # The float tables: the best stage and the libraries, float32 and float64, at 2^26 (results/float/).
      mkdir -p "$reports/float"
      for type in float32 float64; do
        for segments in "${distributions[@]}"; do
          name="float/segreduce-$(report_name "$segments")-$type"
          step "$name" "$segmented" --problem segreduce --type "$type" --segments "$segments" --stage 5 --stage lib \
            --n 2^26 --reps 10 --warmup 2 --format markdown --output "$reports/$name.md" --json "$reports/$name.json"
        done
        for segments in ones zipf:1.5 empty:50; do
          name="float/segscan-$(report_name "$segments")-$type"
          step "$name" "$segmented" --problem segscan --type "$type" --segments "$segments" --stage single-pass \
            --stage lib --n 2^26 --reps 10 --warmup 2 --format markdown --output "$reports/$name.md" \
            --json "$reports/$name.json"
        done
        for segments in ones uniform:32 huge; do
          name="float/rle-$(report_name "$segments")-$type"
          step "$name" "$segmented" --problem rle --type "$type" --segments "$segments" --stage single-pass \
            --stage lib --n 2^26 --reps 10 --warmup 2 --format markdown --output "$reports/$name.md" \
            --json "$reports/$name.json"
        done
      done
    fi

    # 3. The launch shapes of the segmented reduce's stages 4 and 5 and of setop's stages 2 and 3.
    if wants sweeps; then
      for segments in uniform:32 empty:50; do
        step "sweep-segreduce-$(report_name "$segments")" "$segmented" --problem segreduce --type int32 \
          --segments "$segments" --stage 4 --stage 5 --n 2^26 --sweep --reps 5 --format markdown \
          --output "$reports/sweep-segreduce-$(report_name "$segments").md" \
          --json "$reports/sweep-segreduce-$(report_name "$segments").json"
      done
      for problem in segscan rle; do
        for segments in uniform:32 huge; do
          name="sweep-$problem-$(report_name "$segments")"
          step "$name" "$segmented" --problem "$problem" --type int32 --segments "$segments" --stage single-pass \
            --n 2^26 --sweep --reps 5 --format markdown --output "$reports/$name.md" --json "$reports/$name.json"
        done
      done
      step sweep-rle-ones "$segmented" --problem rle --type int32 --segments ones --stage single-pass --n 2^26 \
        --sweep --reps 5 --format markdown --output "$reports/sweep-rle-ones.md" --json "$reports/sweep-rle-ones.json"
      step sweep-setop "$segmented" --problem setop --op intersection --sets interleaved --stage 2 --stage 3 \
        --n 2^26 --sweep --reps 5 --format markdown --output "$reports/sweep-setop.md" \
        --json "$reports/sweep-setop.json"
    fi

    # 4. The tour's problems of this chapter at 2^20..2^28 (docs/size-sweep.md): the ratio-vs-n figure.
    if wants sizes; then
      step sizes "$bin/tour" --chapter 10 --problems --sizes 2^20,2^22,2^24,2^26,2^28 --reps 5 \
        --reports "$reports/size-sweep"
    fi

    # 5. Nsight Compute: each segreduce kernel's time, DRAM bytes and active lanes per warp instruction (the idle
    #    lanes of --analyze, measured), at 2^24 on a short-segment and a one-huge-segment input.
    if wants ncu; then
      metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
      metrics+=,smsp__thread_inst_executed_per_inst_executed.ratio
      for segments in uniform:32 huge; do
        for stage in 1 2 3 4 5; do
          step "ncu-segreduce-$(report_name "$segments")-stage$stage" ncu --clock-control none --metrics "$metrics" \
            -c 8 --csv --log-file "$reports/ncu_segreduce_$(report_name "$segments")_stage$stage.csv" "$segmented" \
            --problem segreduce --segments "$segments" --stage "$stage" --n 2^24 --reps 1 --warmup 0
        done
      done
    fi
    # 6. Past 2^31 items (named only: it needs about 90 GB of host memory): every row of each problem at 2^31 + 5, one
    #    timed run (three for the segmented reduce), with the default types and inputs. cub::DeviceRunLengthEncode's
    #    Encode counts in an int in CUDA 13.0's CUB, so the chapter leaves it out there and rle runs its other rows.
    if wants past-2e31; then
      past() {  # past NAME chapter-arguments...
        local name=$1
        shift
        step "$name" "$segmented" "$@" --n 2^31+5 --format markdown --output "$reports/past-2e31/$name.md" \
          --json "$reports/past-2e31/$name.json"
      }
      mkdir -p "$reports/past-2e31"
      past segreduce-all-2e31p5 --problem segreduce --stage 1 --stage 2 --stage 3 --stage 4 --stage 5 --stage lib \
        --reps 1 --warmup 0
      past segreduce-2e31p5 --problem segreduce --stage 1 --stage 5 --stage lib --reps 3 --warmup 1
      past segscan-2e31p5 --problem segscan --stage 1 --stage 2 --stage lib --reps 1 --warmup 0
      past rle-stage1-2e31p5 --problem rle --stage 1 --reps 1 --warmup 0
      past rle-unique-2e31p5 --problem rle --stage cub::Unique --reps 1 --warmup 0
      past setop-2e31p5 --problem setop --stage 1 --stage 2 --stage 3 --stage lib --reps 1 --warmup 0
    fi
    steps_end
    ;;
  plot)
    source "$(dirname "$0")/../../../tools/figures-plot.sh"
    plot_reports 10_segmented "${2:-}"
    names=()
    for segments in "${distributions[@]}"; do names+=("segreduce-$(report_name "$segments")"); done
    for segments in "${distributions[@]}"; do names+=("segscan-$(report_name "$segments")"); done
    for segments in ones uniform:32 huge; do names+=("rle-$(report_name "$segments")"); done
    for op in "${ops[@]}"; do names+=("setop-$op-interleaved"); done
    names+=(setop-union-duplicates setop-union-skew)
    missing=()
    for name in "${names[@]}"; do
      if [ ! -f "$reports/$name.json" ]; then
        missing+=("$name.json")
        continue
      fi
      problem=${name%%-*}
      tools/plot staircase "$reports/$name.json" -o "$figures/10_staircase_${name//-/_}.svg" \
        --title "Chapter 10: $problem, speedup of each stage (${name#*-})" || exit $?
    done
    sweep_runs=("$reports"/size-sweep/chapter_10_segmented-*.json)
    if [ -f "${sweep_runs[0]}" ]; then
      measured=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["device"]["name"], "·", r["date"])' \
        "${sweep_runs[0]}")
      tools/plot ratio-vs-n "${sweep_runs[@]}" --sizes 2^20,2^22,2^24,2^26,2^28 -o "$figures/10_ratio_vs_n.svg" \
        --subtitle "$measured  ·  library: the faster of the problem's CUB or Thrust rows" || exit $?
    else
      missing+=("size-sweep/chapter_10_segmented-*.json")
    fi
    if [ ${#missing[@]} -gt 0 ]; then
      echo "plot: not in $reports, not drawn: ${missing[*]}" \
        "(chapters/10_segmented/figures/regenerate.sh gpu measures them)" >&2
    fi
    segmented="${3:-build/bin}/chapter_10_segmented"
    if [ -x "$segmented" ]; then
      analysis=$(mktemp)
      trap 'rm -f "$analysis"' EXIT
      "$segmented" --analyze --format json > "$analysis" || exit $?
      tools/plot analysis "$analysis" --figure segment-lanes -o "$figures/10_segment_lanes.svg" || exit $?
      "$segmented" --analyze --format json --problem setop > "$analysis" || exit $?
      tools/plot analysis "$analysis" --figure setop-path -o "$figures/10_setop_path.svg" || exit $?
    else
      echo "plot: no $segmented: 10_segment_lanes.svg and 10_setop_path.svg not drawn (build the chapter first)" >&2
    fi
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
