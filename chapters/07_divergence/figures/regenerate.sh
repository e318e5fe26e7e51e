#!/usr/bin/env bash
# Chapter 07's measurements and figures, from the repository root:
#   chapters/07_divergence/figures/regenerate.sh gpu  [bin-dir] [report-dir] [part...]   on a GPU
#   chapters/07_divergence/figures/regenerate.sh plot [report-dir]                       anywhere with matplotlib
#   chapters/07_divergence/figures/regenerate.sh concepts [bin-dir] [report-dir]         anywhere with matplotlib, no GPU
# The gpu parts, all by default: tests (the GPU tests and compute-sanitizer), tables (the README's tables; mutation:
# only the two mutation tables at 10 % and 0), divergence
# (the synthetic workload from 0 % to 100 % mixed warps), ncu (threads per instruction and time of the work's kernel,
# stages 1 and 2 on sorted input, and the duration of every kernel of stage 3's mutation run: the remaps that stages 6
# and 7 try to hide).
# bin-dir defaults to build/bin, report-dir to build/reports/07 (neither is committed). The gpu mode prints a summary
# last: each step's exit code and seconds; the full outputs are in report-dir. plot draws the README's measured figures,
# concepts its remapping diagram (from --analyze --format json).
set -uo pipefail
usage="usage: $0 gpu [bin-dir] [report-dir] [part...] | plot [report-dir] | concepts [bin-dir] [report-dir]"
mode=${1:?$usage}
# plot reads report-dir when given, else build/reports/07 when it exists, else chapters/07_divergence/results (the H100
# reports the committed figures are drawn from); STEPWISE_FIGURE_DIR=DIR draws into DIR (tools/figures-plot.sh).
figures=${STEPWISE_FIGURE_DIR:-chapters/07_divergence/figures}
case "$mode" in
  gpu)
    bin=${2:-build/bin}
    reports=${3:-build/reports/07}
    parts=("${@:4}")
    [ ${#parts[@]} -eq 0 ] && parts=(tests tables divergence ncu)
    wants() { [[ " ${parts[*]} " == *" $1 "* ]]; }
    chapter="$bin/chapter_07_divergence"
    source "$(dirname "$0")/../../../tools/figures-steps.sh"
    steps_begin
    table() {  # table NAME chapter-arguments...: the JSON report (and its table, in NAME.log) of one run
      local name=$1
      shift
      step "$name" "$chapter" "$@" --format markdown --output "$reports/$name.md" --json "$reports/$name.json"
    }

    # 1. The GPU tests, then compute-sanitizer on both workloads at a small n.
    if wants tests; then
      step gpu-tests "$bin/test_divergence_gpu" --duration=true
      for tool in memcheck racecheck synccheck initcheck; do
        step "sanitizer-$tool-synthetic" compute-sanitizer --tool "$tool" --error-exitcode 99 "$chapter" --n 20011 \
          --divergence 50% --costs 4,8,16,32 --reps 1 --warmup 1
        step "sanitizer-$tool-mutation" compute-sanitizer --tool "$tool" --error-exitcode 99 "$chapter" --n 20011 \
          --workload mutation --steps 3 --mutation-rounds 32 --reps 1 --warmup 1
      done
    fi

    # 2. The README's tables: the synthetic workload mixed, half mixed and sorted, equal costs, eight paths; the
    #    mutation workload at rates 10 %, 1 % and 0 (nothing mutates: no divergence at all).
    if wants mutation && ! wants tables; then
      table mutation-10 --workload mutation
      table mutation-0 --workload mutation --mutation-rate 0
    fi
    if wants tables; then
      table synthetic-100
      table synthetic-50 --divergence 50%
      table synthetic-0 --divergence 0
      table synthetic-equal --costs 256,256,256,256
      table synthetic-8-paths --paths 8
      table mutation-10 --workload mutation
      table mutation-1 --workload mutation --mutation-rate 1%
      table mutation-0 --workload mutation --mutation-rate 0
    fi

    # 3. The synthetic workload from sorted to fully mixed warps.
    if wants divergence; then
      for percent in 0 5 10 20 30 40 50 60 70 80 90 100; do
        table "divergence-$percent" --divergence "$percent%" --reps 10
      done
    fi

    # 4. Nsight Compute: threads per issued instruction (warp efficiency) of the work's kernel, stages 1-3 and 5 (and 9,
    #    mutation only).
    if wants ncu; then
      metrics=smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum,gpu__time_duration.sum
      for stage in 1 2 3 5; do
        step "ncu-stage$stage" ncu --metrics "$metrics" -k regex:apply_ -c 2 --csv \
          --log-file "$reports/ncu_stage$stage.csv" "$chapter" --stage "$stage" --reps 1 --warmup 0
        step "ncu-mutation-stage$stage" ncu --metrics "$metrics" -k regex:apply_ -c 2 --csv \
          --log-file "$reports/ncu_mutation_stage$stage.csv" "$chapter" --workload mutation --steps 1 \
          --stage "$stage" --reps 1 --warmup 0
      done
      step "ncu-mutation-stage9" ncu --metrics "$metrics" -k regex:apply_ -c 2 --csv \
        --log-file "$reports/ncu_mutation_stage9.csv" "$chapter" --workload mutation --steps 1 --stage 9 --reps 1 \
        --warmup 0
    fi
    # 5. Stage 1 against stage 2 on sorted input (NOTES.md): the warp instructions each issues (564,908,030 and
    #    620,994,672 predicted from the SASS, and so measured), the warp states, the scheduler's issue rate and the
    #    pipes, at the clocks of a normal run.
    if wants ncu; then
      for stage in 1 2; do
        step "ncu-sorted-stage$stage" ncu --clock-control none \
          --metrics smsp__inst_executed.sum,gpu__time_duration.sum --section WarpStateStats --section SchedulerStats \
          --section ComputeWorkloadAnalysis --section InstructionStats --section Occupancy --section SpeedOfLight \
          -k regex:apply_own -c 1 \
          --log-file "$reports/ncu_sorted_stage$stage.txt" "$chapter" --divergence 0 --stage "$stage" \
          --reps 1 --warmup 0
      done
    fi
    # 6. The remaps' cost: every kernel of the first run of 8 generations of stage 3 (classify, CUB's sort, the work)
    #    and of stages 7 and 9 (their remaps on one block per SM, the work), one at a time, at the clocks and caches of a
    #    normal run. The work's kernels alone are what a remap that hid completely would leave.
    if wants ncu; then
      for stage in 3 7 9; do
        step "ncu-remap-cost-stage$stage" ncu --metrics gpu__time_duration.sum --clock-control none \
          --cache-control none \
          -k "regex:classify|DeviceRadixSort|apply_redirected|count_paths|scatter_by_path|list_costliest|apply_lean" \
          -c 64 --csv --log-file "$reports/ncu_remap_cost_stage$stage.csv" "$chapter" --workload mutation \
          --stage "$stage" --reps 1 --warmup 0
      done
    fi
    steps_end
    ;;
  plot)
    source "$(dirname "$0")/../../../tools/figures-plot.sh"
    plot_reports 07_divergence "${2:-}"
    runs=()
    labels=()
    for percent in 0 5 10 20 30 40 50 60 70 80 90 100; do
      runs+=("$reports/divergence-$percent.json")
      labels+=("$percent")
    done
    tools/plot versus --baseline branch-light --xlabel "warps drawn mixed (%)" --labels "$(IFS=,; echo "${labels[*]}")" \
      "${runs[@]}" -o "$figures/07_speedup_vs_divergence.svg" \
      --title "Chapter 07: speedup over stage 2 by share of mixed warps (synthetic)"
    tools/plot versus --baseline branch-light --xlabel "mutation rate" --labels "0 %,1 %,10 %" \
      "$reports/mutation-0.json" "$reports/mutation-1.json" "$reports/mutation-10.json" \
      -o "$figures/07_mutation_vs_rate.svg" \
      --title "Chapter 07: speedup over stage 2 by mutation rate (mutation, 8 generations)"
    ;;
  concepts)
    bin=${2:-build/bin}
    reports=${3:-build/reports/07}
    mkdir -p "$reports"
    "$bin/chapter_07_divergence" --analyze --format json > "$reports/analyze.json"
    tools/plot analysis "$reports/analyze.json" --figure remap -o "$figures/07_remap.svg"
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
