#!/usr/bin/env bash
# Chapter 09's measurements and figures, from the repository root:
#   chapters/09_sort/figures/regenerate.sh gpu  [bin-dir] [report-dir] [part...]   on a GPU
#   chapters/09_sort/figures/regenerate.sh plot [report-dir] [bin-dir]             anywhere with matplotlib
# The gpu parts, all by default: tests (the GPU tests, then compute-sanitizer on both tables at a small n), tables
# (the README's tables: both problems, uint32 keys and pairs and uint64 keys, at the default n = 2^26, with stage 5's
# variant rows), sweeps (--sweep of radix stage 5 and merge stage 3), ncu (the pass kernels' time, DRAM bytes and
# store sectors), sizes (the tour's problems of this chapter at 2^20..2^28: the ratio-vs-n figure). bin-dir defaults
# to build/bin, report-dir to build/reports/09 (neither is committed). One part runs only when named: huge (radix
# and merge sorts of 2^30 and of 2^31 + 5 uint32 keys beside their libraries; about 80 GB of host memory). The gpu mode prints a summary last: each
# step's exit code and seconds; the full outputs are in report-dir. plot draws the README's figures from the gpu
# mode's reports (or, with neither a report-dir nor build/reports/09, from chapters/09_sort/results), and the
# --analyze diagrams (the digit scatter, the look-back chain, the merge passes) from bin-dir's chapter_09_sort (default
# build/bin; no GPU needed).
set -uo pipefail
usage="usage: $0 gpu [bin-dir] [report-dir] [part...] | plot [report-dir]"
mode=${1:?$usage}
figures=${STEPWISE_FIGURE_DIR:-chapters/09_sort/figures}
case "$mode" in
  gpu)
    bin=${2:-build/bin}
    reports=${3:-build/reports/09}
    parts=("${@:4}")
    [ ${#parts[@]} -eq 0 ] && parts=(tests tables sweeps ncu sizes)
    wants() { [[ " ${parts[*]} " == *" $1 "* ]]; }
    sort="$bin/chapter_09_sort"
    source "$(dirname "$0")/../../../tools/figures-steps.sh"
    steps_begin
    table() {  # table NAME chapter-arguments...: the JSON report (and its table, in NAME.md) of one run
      local name=$1
      shift
      step "$name" "$sort" "$@" --format markdown --output "$reports/$name.md" --json "$reports/$name.json"
    }

    # 1. The GPU tests, then compute-sanitizer on every kernel row of both tables at a small n.
    if wants tests; then
      step gpu-tests "$bin/test_sort_gpu" --duration=true
      for tool in memcheck racecheck synccheck initcheck; do
        step "sanitizer-$tool-radix" compute-sanitizer --tool "$tool" --error-exitcode 99 "$sort" --problem radix \
          --n 20011 --key uint32 --pairs --input few:300 --variants --reps 1 --warmup 1
        step "sanitizer-$tool-merge" compute-sanitizer --tool "$tool" --error-exitcode 99 "$sort" --problem merge \
          --n 20011 --key float32 --pairs --input entropy:3 --reps 1 --warmup 1
      done
    fi

    # 2. The README's tables.
    if wants tables; then
      table radix-uint32 --problem radix --key uint32 --variants
      table radix-pairs --problem radix --key uint32 --pairs --variants
      table radix-uint64 --problem radix --key uint64 --stage 2 --stage 3 --stage 4 --stage 5 --stage lib
      table merge-uint32 --problem merge --key uint32 --variants
      table merge-pairs --problem merge --key uint32 --pairs --variants
    fi

    # 3. The launch shapes of the tuned stages.
    if wants sweeps; then
      step sweep-radix-uint32 "$sort" --problem radix --stage 5 --sweep --reps 5 --format json \
        --output "$reports/sweep-radix-uint32.json"
      step sweep-radix-uint64 "$sort" --problem radix --key uint64 --stage 5 --sweep --reps 5 --format json \
        --output "$reports/sweep-radix-uint64.json"
      step sweep-merge-uint32 "$sort" --problem merge --stage 3 --sweep --reps 5 --format json \
        --output "$reports/sweep-merge-uint32.json"
    fi

    # 4. Nsight Compute: the time, DRAM bytes and global store sectors per request of each radix pass kernel, and the
    #    time of each merge-sort kernel (block sort, partitions, merge passes), at 2^24 uint32 keys.
    if wants ncu; then
      metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
      metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
      for stage in 2 3 4 5; do
        step "ncu-radix-stage$stage" ncu --clock-control none --metrics "$metrics" \
          -k 'regex:scatter|onesweep_pass|tuned_pass|count_all_digits' -c 6 --csv \
          --log-file "$reports/ncu_radix_stage$stage.csv" "$sort" --problem radix --stage "$stage" --n 2^24 \
          --reps 1 --warmup 0
      done
      step ncu-radix-cub ncu --clock-control none --metrics "$metrics" -k regex:DeviceRadixSort -c 6 --csv \
        --log-file "$reports/ncu_radix_cub.csv" "$sort" --problem radix --stage lib --n 2^24 --reps 1 --warmup 0
      for stage in 2 3 lib; do
        step "ncu-merge-stage$stage" ncu --clock-control none --metrics "$metrics" \
          -k 'regex:block_sort|merge_sort_partitions|merge_pass|DeviceMergeSort' -c 40 --csv \
          --log-file "$reports/ncu_merge_stage$stage.csv" "$sort" --problem merge --stage "$stage" --n 2^24 \
          --reps 1 --warmup 0
      done
    fi

    # 5. The tour's problems of this chapter at six sizes (docs/size-sweep.md): the ratio-vs-n figure.
    if wants sizes; then
      step sizes "$bin/tour" --chapter 09 --problems --sizes 2^20,2^22,2^24,2^26,2^28 --reps 10 \
        --reports "$reports/size-sweep"
    fi
    # 6. Past 2^30: the sizes the other parts leave out (the check needs about 80 GB of host memory at 2^31 + 5).
    if wants huge; then
      table radix-uint32-2e30 --problem radix --stage 5 --stage lib --n 2^30 --reps 10 --warmup 2
      table radix-pairs-2e30 --problem radix --pairs --stage 5 --stage lib --n 2^30 --reps 10 --warmup 2
      table merge-uint32-2e30 --problem merge --stage 3 --stage lib --n 2^30 --reps 10 --warmup 2
      table merge-pairs-2e30 --problem merge --pairs --stage 3 --stage lib --n 2^30 --reps 10 --warmup 2
      table radix-uint32-2e31p5 --problem radix --stage 5 --stage cub::DeviceRadixSort --n 2^31+5 --reps 3 --warmup 1
      table merge-uint32-2e31p5 --problem merge --stage 3 --stage cub::DeviceMergeSort --n 2^31+5 --reps 3 --warmup 1
      table radix-1to4-2e31p5 --problem radix --stage 1 --stage 2 --stage 3 --stage 4 --n 2^31+5 --reps 1 --warmup 0
      table merge-all-2e31p5 --problem merge --n 2^31+5 --reps 1 --warmup 0
    fi
    steps_end
    ;;
  plot)
    source "$(dirname "$0")/../../../tools/figures-plot.sh"
    plot_reports 09_sort "${2:-}"
    tools/plot staircase "$reports/radix-uint32.json" -o "$figures/09_staircase_radix.svg" \
      --title "Chapter 09: radix sort, speedup of each stage (uint32 keys)"
    tools/plot staircase "$reports/merge-uint32.json" -o "$figures/09_staircase_merge.svg" \
      --title "Chapter 09: merge sort, speedup of each stage (uint32 keys)"
    plot_ratio 09_sort 2^20,2^22,2^24,2^26,2^28,2^30
    sort="${3:-build/bin}/chapter_09_sort"
    if [ -x "$sort" ]; then
      analysis=$(mktemp)
      trap 'rm -f "$analysis"' EXIT
      "$sort" --analyze --format json > "$analysis"
      for figure in digit-scatter lookback-chain merge-passes; do
        tools/plot analysis "$analysis" --figure "$figure" -o "$figures/09_${figure//-/_}.svg"
      done
    else
      echo "plot: no $sort: 09_digit_scatter.svg, 09_lookback_chain.svg and 09_merge_passes.svg not drawn" \
        "(build the chapter first)" >&2
    fi
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
