#!/usr/bin/env bash
# Chapter 08's measurements and figures, from the repository root:
#   chapters/08_join/figures/regenerate.sh gpu  [bin-dir] [report-dir] [part...]   on a GPU
#   chapters/08_join/figures/regenerate.sh plot [report-dir]                       anywhere with matplotlib
#   chapters/08_join/figures/regenerate.sh concepts [bin-dir]                      anywhere with matplotlib, no GPU
# The gpu parts, all by default: tests (the GPU tests and compute-sanitizer), tables (the four joins at the default
# size), dup (the inner and outer joins at duplication 1, 4, 16 and 64), sweeps (--sweep of the outer join), ncu
# (where the tuned stage and the library spend their time), causes (the counters behind NOTES.md's open questions;
# needs chapter_03_merge in bin-dir too), variants (stage 4's variant rows: compute-sanitizer on them, the README's
# variant tables of the inner and the outer join, and each row's kernels in Nsight Compute). bin-dir defaults to build/bin, report-dir to
# build/reports/08 (neither is committed). The gpu mode prints a summary last: each step's exit code and seconds; the
# full outputs are in report-dir. plot draws the README's measured figures, concepts its concept diagrams (from
# --analyze --format json).
set -uo pipefail
usage="usage: $0 gpu [bin-dir] [report-dir] [part...] | plot [report-dir] | concepts [bin-dir]"
mode=${1:?$usage}
# plot reads report-dir when given, else build/reports/08 when it exists, else chapters/08_join/results (the H100
# reports the committed figures are drawn from); STEPWISE_FIGURE_DIR=DIR draws into DIR (tools/figures-plot.sh).
figures=${STEPWISE_FIGURE_DIR:-chapters/08_join/figures}
case "$mode" in
  gpu)
    bin=${2:-build/bin}
    reports=${3:-build/reports/08}
    parts=("${@:4}")
    [ ${#parts[@]} -eq 0 ] && parts=(tests tables dup sweeps ncu causes variants)
    wants() { [[ " ${parts[*]} " == *" $1 "* ]]; }
    join="$bin/chapter_08_join"
    source "$(dirname "$0")/../../../tools/figures-steps.sh"
    steps_begin
    table() {  # table NAME chapter-arguments...: the JSON report (and its table, in NAME.log) of one run
      local name=$1
      shift
      step "$name" "$join" "$@" --format markdown --output "$reports/$name.md" --json "$reports/$name.json"
    }

    # 1. The GPU tests of the chapter, then compute-sanitizer on an outer join (every phase runs) at a small size.
    if wants tests; then
      step gpu-tests "$bin/test_join_gpu" --duration=true
      for tool in memcheck racecheck synccheck initcheck; do
        step "sanitizer-$tool" compute-sanitizer --tool "$tool" --error-exitcode 99 "$join" --n 20011 --nb 30011 \
          --join outer --dup 3 --reps 1 --warmup 1
      done
    fi

    # 2. The README's tables: the four joins at the default size (2^24 rows a side, duplication 1).
    if wants tables; then
      for kind in inner left right outer; do table "$kind" --join "$kind"; done
    fi

    # 3. Duplication: each A row matches about dup B rows, so the output grows dup-fold (2^22 rows a side).
    if wants dup; then
      for dup in 1 4 16 64; do
        table "inner-dup$dup" --n 2^22 --dup "$dup"
        table "outer-dup$dup" --n 2^22 --dup "$dup" --join outer
      done
    fi

    # 4. The launch shapes (--sweep) of the outer join.
    if wants sweeps; then
      step sweep-outer "$join" --join outer --sweep --reps 5 --format json --output "$reports/sweep-outer.json"
    fi

    # 5. Nsight Compute: the tuned stage's kernels and the library's, one launch each.
    if wants ncu; then
      sections=(--section SpeedOfLight --section Occupancy --section LaunchStats)
      step ncu-tuned ncu "${sections[@]}" -k regex:'bounds_and_offsets|expand_rows|expansion_partitions|scatter_unmatched_b' -c 4 \
        --log-file "$reports/ncu_tuned.txt" "$join" --join outer --stage tuned --reps 1 --warmup 0
      step ncu-lib ncu --section SpeedOfLight --kernel-name-base demangled -k regex:cub -c 8 \
        --log-file "$reports/ncu_lib.txt" \
        "$join" --join outer --stage lib --reps 1 --warmup 0
    fi

    # 6. The counters behind NOTES.md's open questions (the predictions are there). Stage 1 against stage 2 by
    #    duplication, inner join of 2^22 x 2^22: every kernel's memory traffic, instructions and occupancy; stage 1's
    #    writer's warp states and memory tables at dup 16 and 64. Then the stall reasons of stage 4's
    #    bounds_and_offsets (outer join, 2^24 x 2^24) beside chapter 03's best sorted search on the same 2^25 keys,
    #    and the stall metrics this ncu knows.
    if wants causes; then
      traffic=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
      traffic+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
      traffic+=,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum
      traffic+=,smsp__inst_executed.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active
      for dup in 1 16 64; do
        step "ncu-naive-dup$dup" ncu --clock-control none --metrics "$traffic" \
          -k regex:'bounds_by_binary_search|DeviceScan|expand_per_object' -c 4 --csv \
          --log-file "$reports/ncu_naive_dup$dup.csv" "$join" --n 2^22 --dup "$dup" --stage 1 --reps 1 --warmup 0
      done
      for dup in 1 64; do
        step "ncu-sorted-search-dup$dup" ncu --clock-control none --metrics "$traffic" \
          -k regex:'merge_path_partitions|search_tiles|DeviceScan|expansion_partitions|expand_rows' -c 8 --csv \
          --log-file "$reports/ncu_sorted_search_dup$dup.csv" "$join" --n 2^22 --dup "$dup" --stage 2 --reps 1 \
          --warmup 0
      done
      for dup in 16 64; do
        step "ncu-naive-writer-dup$dup" ncu --clock-control none --section WarpStateStats \
          --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section Occupancy \
          -k regex:expand_per_object -c 1 --log-file "$reports/ncu_naive_writer_dup$dup.txt" \
          "$join" --n 2^22 --dup "$dup" --stage 1 --reps 1 --warmup 0
      done
      stalls=(--section WarpStateStats --section SourceCounters --section SchedulerStats --section Occupancy
        --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats)
      step ncu-bounds-stalls ncu --clock-control none "${stalls[@]}" -k regex:bounds_and_offsets -c 1 \
        --log-file "$reports/ncu_bounds_stalls.txt" "$join" --join outer --stage tuned --reps 1 --warmup 0
      step ncu-ch03-search-stalls ncu --clock-control none "${stalls[@]}" -k regex:search_tiles -c 1 \
        --log-file "$reports/ncu_ch03_search_stalls.txt" "$bin/chapter_03_merge" --problem search --na 2^24 \
        --nb 2^24 --stage 2 --reps 1 --warmup 0
      step ncu-query-metrics ncu --query-metrics
    fi

    # 7. Stage 4's variant rows (--variants: stage 4 with one change undone each). compute-sanitizer on the variants'
    #    kernels (an outer join runs every change; an inner one, where B's rows emit nothing; a right one, B larger
    #    than A); the README's variant
    #    tables, stages 3, 4 and 4's variants in one run, the default inner join and the outer join (where B's
    #    scatter matters), 2^24 x 2^24; then the time, DRAM traffic, registers and occupancy of every kernel of stage
    #    4 and each variant on the outer join (each row runs its kernels for its check and one timed repetition).
    if wants variants; then
      for tool in memcheck racecheck synccheck initcheck; do
        step "sanitizer-$tool-variants-outer" compute-sanitizer --tool "$tool" --error-exitcode 99 "$join" --n 20011 \
          --nb 30011 --join outer --dup 3 --stage 4 --variants --reps 1 --warmup 1
      done
      step sanitizer-memcheck-variants-inner compute-sanitizer --tool memcheck --error-exitcode 99 "$join" --n 20011 \
        --nb 30011 --dup 3 --stage 4 --variants --reps 1 --warmup 1
      step sanitizer-memcheck-variants-right compute-sanitizer --tool memcheck --error-exitcode 99 "$join" --n 7001 \
        --nb 30011 --join right --dup 5 --stage 4 --variants --reps 1 --warmup 1
      table variants-inner --stage 3 --stage 4 --variants
      table variants-outer --stage 3 --stage 4 --variants --join outer
      kernels='bounds_and_offsets|search_tiles|merge_path_partitions|DeviceScan|expansion_partitions|expand_rows'
      kernels+='|scatter_unmatched_b|offset_b_rows'
      metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread
      metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active
      step ncu-variants-outer ncu --clock-control none --metrics "$metrics" -k regex:"$kernels" -c 120 --csv \
        --log-file "$reports/ncu_variants_outer.csv" "$join" --join outer --stage 4 --variants --reps 1 --warmup 0
    fi
    steps_end
    ;;
  plot)
    source "$(dirname "$0")/../../../tools/figures-plot.sh"
    plot_reports 08_join "${2:-}"
    tools/plot compare --metric gbps --labels "inner,left,right,outer" "$reports/inner.json" "$reports/left.json" \
      "$reports/right.json" "$reports/outer.json" -o "$figures/08_gbps_by_join.svg" \
      --title 'Chapter 08: GB/s of every stage, four joins of $2^{24}$ × $2^{24}$ rows'
    tools/plot compare --metric gbps --labels "dup 1,dup 4,dup 16,dup 64" "$reports/outer-dup1.json" \
      "$reports/outer-dup4.json" "$reports/outer-dup16.json" "$reports/outer-dup64.json" \
      -o "$figures/08_gbps_by_duplication.svg" \
      --title 'Chapter 08: GB/s of every stage, outer joins of $2^{22}$ × $2^{22}$ rows, by duplication'
    tools/plot staircase "$reports/outer.json" -o "$figures/08_staircase_outer.svg"
    tools/plot sweep --stage tuned "$reports/sweep-outer.json" -o "$figures/08_sweep_tuned_outer.svg"
    plot_ratio 08_join 2^20,2^22,2^24,2^26,2^28,2^30
    ;;
  concepts)
    bin=${2:-build/bin}
    analysis=$(mktemp)
    trap 'rm -f "$analysis"' EXIT
    "$bin/chapter_08_join" --analyze --format json > "$analysis" || exit 1
    for figure in expansion load-balance; do
      tools/plot analysis "$analysis" --figure "$figure" -o "$figures/08_${figure//-/_}.svg" || exit 1
    done
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
