#!/usr/bin/env bash
# Chapter 01's measurements and figures, from the repository root:
#   chapters/01_reduction/figures/regenerate.sh gpu     [bin-dir] [report-dir]   on a GPU (sized for under 3 minutes on an H100)
#   chapters/01_reduction/figures/regenerate.sh plot    [report-dir]             anywhere with matplotlib
#   chapters/01_reduction/figures/regenerate.sh analyze [bin-dir] [report-dir]   anywhere with matplotlib: no GPU
# bin-dir defaults to build/bin, report-dir to build/reports/01 (neither is committed).
#
# gpu writes the README's tables (*.md: paste them as they are) and the JSON reports the
# figures are drawn from; plot draws those; analyze draws the --analyze diagrams, which need
# no GPU. Set NCU=1 to also collect the Nsight Compute counters of stages 1 to 4 (ncu_stageK.csv).
set -euo pipefail
usage="usage: $0 gpu [bin-dir] [report-dir] | plot [report-dir] | analyze [bin-dir] [report-dir]"
mode=${1:?$usage}
# plot reads report-dir when given, else build/reports/01 when it exists, else chapters/01_reduction/results (the H100
# reports the committed figures are drawn from); STEPWISE_FIGURE_DIR=DIR draws into DIR (tools/figures-plot.sh).
figures=${STEPWISE_FIGURE_DIR:-chapters/01_reduction/figures}
harris=(--stage 1 --stage 3 --stage 4 --stage 5 --stage 6 --stage 7 --stage 8)  # Harris's kernels 1-7
case "$mode" in
  gpu)
    bin=${2:-build/bin}
    reports=${3:-build/reports/01}
    mkdir -p "$reports"
    chapter="$bin/chapter_01_reduction"
    # The README's tables: every stage, at the slides' size (2^22) and at 2^28, at the default shapes and at
    # Harris's 128 threads per block (stages 1-10), then float32 at 2^28.
    for e in 22 28; do
      "$chapter" --n 2^$e --reps 50 --format markdown --output "$reports/table_2e${e}.md" \
        --json "$reports/table_2e${e}.json" > /dev/null
      "$chapter" --n 2^$e --reps 50 --block 128 --format markdown --output "$reports/table_2e${e}_b128.md" \
        --json "$reports/table_2e${e}_b128.json" > /dev/null
      # Harris's seven kernels alone: the step speedups are then the slides' steps (kernel to kernel).
      "$chapter" --n 2^$e --reps 50 --block 128 "${harris[@]}" --format markdown \
        --output "$reports/harris_2e${e}_b128.md" > /dev/null
      "$chapter" --n 2^$e --reps 50 "${harris[@]}" --format markdown --output "$reports/harris_2e${e}.md" > /dev/null
    done
    "$chapter" --n 2^28 --reps 50 --type float32 --format markdown --output "$reports/table_2e28_float32.md" > /dev/null
    # The figures' reports.
    "$chapter" --n 2^26 --sweep --reps 5 --format json --output "$reports/sweep_2e26.json" > /dev/null
    "$bin/tour" --chapter 01 --sizes 2^16..2^28 --reports "$reports" > /dev/null
    if [ "${NCU:-0}" = 1 ]; then  # the first pass of stages 1-4 at 2^22, block 256: one launch each
      metrics=smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio
      metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
      metrics+=,smsp__inst_executed_op_shared_ld.sum,gpu__time_duration.sum
      for k in 1 2 3 4; do
        ncu --metrics "$metrics" --kernel-name regex:"reduce${k}_" --launch-count 1 --csv \
          --log-file "$reports/ncu_stage$k.csv" "$chapter" --n 2^22 --reps 1 --warmup 0 --stage $k > /dev/null
      done
    fi
    ;;
  plot)
    source "$(dirname "$0")/../../../tools/figures-plot.sh"
    plot_reports 01_reduction "${2:-}"
    tools/plot staircase "$reports/table_2e28.json" -o "$figures/01_staircase.svg"
    tools/plot bandwidth "$reports/table_2e28.json" -o "$figures/01_bandwidth.svg"
    tools/plot staircase "$reports/table_2e22_b128.json" -o "$figures/01_staircase_2e22_b128.svg"
    tools/plot sweep "$reports/sweep_2e26.json" --all -o "$figures/01_sweep.svg"
    tools/plot time-vs-n "$reports"/chapter_01_reduction-n*.json -o "$figures/01_time_vs_n.svg"
    tools/plot time-vs-n "$reports"/chapter_01_reduction-n*.json --metric gbps -o "$figures/01_gbps_vs_n.svg"
    plot_ratio 01_reduction 2^20,2^22,2^24,2^26,2^28,2^30
    ;;
  analyze)
    bin=${2:-build/bin}
    reports=${3:-build/reports/01}
    mkdir -p "$reports"
    "$bin/chapter_01_reduction" --analyze --format json > "$reports/analyze.json"
    tools/plot analysis "$reports/analyze.json" --figure trees -o "$figures/01_trees.svg"
    tools/plot analysis "$reports/analyze.json" --figure banks -o "$figures/01_banks.svg"
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
