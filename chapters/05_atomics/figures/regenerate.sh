#!/usr/bin/env bash
# Chapter 05's measurements and figures, from the repository root:
#   chapters/05_atomics/figures/regenerate.sh gpu  [bin-dir] [report-dir]   on a GPU: the README's tables, the surface,
#                                                                          the ncu counters, the SASS of the ticket
#                                                                          kernels, the GPU tests and compute-sanitizer
#   chapters/05_atomics/figures/regenerate.sh plot [report-dir]             anywhere with matplotlib: the measured figures
#   chapters/05_atomics/figures/regenerate.sh concepts [bin-dir] [report-dir]  anywhere with matplotlib, no GPU: the
#                                                                          peers and sub-tree diagrams (--analyze)
# bin-dir defaults to build/bin, report-dir to build/reports/05 (neither is committed). The gpu mode prints a
# summary last: each step's exit code and seconds; the full outputs are in report-dir.
set -uo pipefail
usage="usage: $0 gpu [bin-dir] [report-dir] | plot [report-dir] | concepts [bin-dir] [report-dir]"
mode=${1:?$usage}
# plot reads report-dir when given, else build/reports/05 when it exists, else chapters/05_atomics/results (the H100
# reports the committed figures are drawn from); STEPWISE_FIGURE_DIR=DIR draws into DIR (tools/figures-plot.sh).
figures=${STEPWISE_FIGURE_DIR:-chapters/05_atomics/figures}
case "$mode" in
  gpu)
    bin=${2:-build/bin}
    reports=${3:-build/reports/05}
    atomics="$bin/chapter_05_atomics"
    source "$(dirname "$0")/../../../tools/figures-steps.sh"
    steps_begin
    table() {  # table NAME chapter-arguments...: the markdown table and the JSON report of one run (--reps 10 unless given)
      local name=$1
      shift
      local reps=(--reps 10)
      [[ " $* " == *" --reps "* ]] && reps=()
      step "$name" "$atomics" "$@" "${reps[@]}" --format markdown --output "$reports/$name.md" --json "$reports/$name.json"
    }

    # 1. The GPU tests of the chapter, then compute-sanitizer on every table at a small n.
    step gpu-tests "$bin/test_atomics_gpu" --duration=true
    for tool in memcheck racecheck synccheck initcheck; do
      for op in int-add float-add double-cas; do
        step "sanitizer-$tool-$op" compute-sanitizer --tool "$tool" --error-exitcode 99 "$atomics" --n 100003 \
          --op "$op" --distribution runs:4 --bins 300 --reps 1 --warmup 1
      done
      step "sanitizer-$tool-ticket" compute-sanitizer --tool "$tool" --error-exitcode 99 "$atomics" --problem ticket \
        --n 100003 --reps 1 --warmup 1
    done

    # 2. The README's tables: the ticket, then the histogram at 32, 256, 1024 and 65536 bins, keys in runs of 32, 8
    #    and 1 (each warp's runs on random bins) and uniform, all-equal and zipf, for each operation (2^24 keys, the
    #    default).
    table ticket --problem ticket
    for op in int-add float-add double-cas; do
      # The CAS loop of stage 1 at 32 bins takes seconds per launch even at 2^22 keys (2.4-4.7 s): those run at 2^22.
      for bins in 32 1024; do
        size=()
        [ "$op" = double-cas ] && [ "$bins" = 32 ] && size=(--n 2^22 --reps 5)
        for keys in runs:32 runs:8 runs:1; do
          table "hist-$op-$bins-${keys/:/}" --op "$op" --bins "$bins" --distribution "$keys" "${size[@]}"
        done
      done
      table "hist-$op-256-uniform" --op "$op" --bins 256
      table "hist-$op-256-allequal" --op "$op" --bins 256 --distribution all-equal
      table "hist-$op-65536-uniform" --op "$op" --bins 65536
      table "hist-$op-65536-runs1" --op "$op" --bins 65536 --distribution runs:1
      # double-cas's stage 1 spends seconds per launch retrying on zipf's hottest bin: at 2^22 keys, 5 repetitions.
      if [ "$op" = double-cas ]; then
        table "hist22-$op-1024-zipf" --op "$op" --n 2^22 --bins 1024 --distribution zipf:1.1 --reps 5
      else
        table "hist-$op-1024-zipf" --op "$op" --bins 1024 --distribution zipf:1.1
      fi
    done
    # 2^22 keys, the size of the double-cas tables at 32 bins, for the other operations too.
    for op in float-add double-cas; do
      table "hist22-$op-32-runs32" --op "$op" --n 2^22 --bins 32 --distribution runs:32
      table "hist22-$op-65536-runs1" --op "$op" --n 2^22 --bins 65536 --distribution runs:1
    done
    # Bank conflicts on purpose: 32 keys per warp on bins K/32 apart (strided:1; at 1024 bins all in one bank of the
    # shared bins) beside the same runs on random bins.
    table hist-int-add-256-runs1 --op int-add --bins 256 --distribution runs:1
    table hist-float-add-256-runs1 --op float-add --bins 256 --distribution runs:1
    for op in int-add float-add; do
      for bins in 256 1024; do
        table "hist-$op-$bins-strided1" --op "$op" --bins "$bins" --distribution strided:1
      done
    done

    # At 2^24 keys stage 7 and CUB take 27-49 us, where fixed costs (launches, zeroing and merging the bins) weigh:
    # the same tables at 2^28 keys (1 GiB of keys), and the 256-bin columns at 2^26.
    for bins in 32 256 65536; do
      table "hist28-int-add-$bins-uniform" --op int-add --bins "$bins" --n 2^28
    done
    table hist28-int-add-256-allequal --op int-add --bins 256 --n 2^28 --distribution all-equal
    table hist28-int-add-256-runs1 --op int-add --bins 256 --n 2^28 --distribution runs:1
    table hist26-int-add-256-uniform --op int-add --bins 256 --n 2^26
    table hist26-int-add-256-runs1 --op int-add --bins 256 --n 2^26 --distribution runs:1

    # 3. The surface: every stage over 1..32 keys per warp and each operation, at 256 and 1024 bins.
    for bins in 256 1024; do
      step "surface-$bins" "$atomics" --surface --bins "$bins" --reps 10 --format json --output "$reports/surface-$bins.json"
      "$atomics" --surface --bins "$bins" --reps 10 --format markdown --output "$reports/surface-$bins.md" > /dev/null 2>&1
    done

    # 4. The launch shapes (--sweep) at 256 bins, runs of 8.
    step sweep "$atomics" --bins 256 --distribution runs:8 --sweep --reps 10 --format json --output "$reports/sweep.json"

    # 5. Nsight Compute: the atomic traffic of each stage's first launch (its check before timing). Requests are
    #    warp-level atomic instructions (RED/ATOM) at L1; the L2's requests and sectors are what the slices serve.
    atomic_metrics=l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
    atomic_metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
    atomic_metrics+=,lts__t_requests_srcunit_tex_op_red.sum,lts__t_requests_srcunit_tex_op_atom.sum
    atomic_metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,smsp__inst_executed_op_shared_atom.sum
    atomic_metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum
    atomic_metrics+=,smsp__inst_executed.sum,gpu__time_duration.sum
    profile() {  # profile NAME KERNEL-REGEX LAUNCHES chapter-arguments...
      local name=$1 kernels=$2 launches=$3
      shift 3
      step "ncu-$name" ncu --clock-control none --metrics "$atomic_metrics" -k "regex:$kernels" -c "$launches" --csv \
        --log-file "$reports/ncu_$name.csv" "$atomics" --reps 1 --warmup 0 "$@"
    }
    for op in int-add float-add double-cas; do
      for keys in runs:32 runs:8 runs:1; do
        for stage in 1 2 3 4 5 6 7; do
          profile "$op-32-${keys/:/}-stage$stage" 'histogram_' 1 --op "$op" --bins 32 --distribution "$keys" --stage "$stage"
        done
      done
      for stage in 1 4 5 6 7; do
        profile "$op-65536-uniform-stage$stage" 'histogram_' 1 --op "$op" --bins 65536 --stage "$stage"
      done
    done
    # Shared-memory bank conflicts of the stages with shared bins: 32 keys per warp on random bins (runs:1) and on bins
    # K/32 apart (strided:1: 32 banks at 32 bins, 4 at 256, 1 at 1024).
    for op in int-add float-add; do
      for bins in 32 256 1024; do
        for keys in runs:1 strided:1; do
          [ "$bins" = 32 ] && [ "$keys" = runs:1 ] && continue  # profiled above
          for stage in 5 6 7; do
            profile "$op-$bins-${keys/:/}-stage$stage" 'histogram_' 1 --op "$op" --bins "$bins" --distribution "$keys" \
              --stage "$stage"
          done
        done
      done
    done
    profile int-add-256-uniform-cub 'Histogram|histogram' 4 --bins 256 --stage lib
    profile ticket-stage1 ticket_each 1 --problem ticket --stage 1
    profile ticket-stage2 ticket_warp 1 --problem ticket --stage 2

    # 6. The SASS of the ticket kernels: what nvcc made of stage 1's atomicAdd on one address.
    if command -v cuobjdump > /dev/null; then
      cuobjdump -sass "$atomics" | awk '/Function : .*ticket_(each|warp)/{f=1;print;next} f&&/Function :/{f=0} f' \
        | grep -E 'Function|VOTE|FLO|POPC|ATOM|RED|SHFL|LTMASK' > "$reports/sass_ticket.txt"
      cuobjdump -sass "$atomics" | awk '/Function : .*histogram_each.*IntAdd/{f=1;print;next} f&&/Function :/{f=0} f' \
        | grep -E 'Function|VOTE|MATCH|ATOM|RED' > "$reports/sass_histogram_naive.txt"
      summary+=("sass: $(grep -c 'VOTE' "$reports/sass_ticket.txt") VOTE in the ticket kernels (see sass_ticket.txt)")
    fi
    steps_end
    ;;
  plot)
    source "$(dirname "$0")/../../../tools/figures-plot.sh"
    plot_reports 05_atomics "${2:-}"
    tools/plot surface "$reports/surface-256.json" -o "$figures/05_surface_256.svg"
    tools/plot surface "$reports/surface-1024.json" -o "$figures/05_surface_1024.svg"
    tools/plot compare "$reports/hist-float-add-1024-runs1.json" "$reports/hist-float-add-1024-strided1.json" \
      --metric gbps --labels "runs:1 (random bins),strided:1 (bins 32 apart: one bank)" \
      -o "$figures/05_compare_float_1024_random_strided.svg"
    tools/plot staircase "$reports/hist-int-add-32-runs32.json" -o "$figures/05_staircase_int_32_runs32.svg"
    tools/plot staircase "$reports/hist-int-add-256-uniform.json" -o "$figures/05_staircase_int_256_uniform.svg"
    tools/plot bandwidth "$reports/hist-int-add-256-uniform.json" -o "$figures/05_bandwidth_int_256_uniform.svg"
    tools/plot staircase "$reports/hist-int-add-65536-uniform.json" -o "$figures/05_staircase_int_65536_uniform.svg"
    plot_ratio 05_atomics 2^20,2^22,2^24,2^26,2^28,2^30
    ;;
  concepts)
    bin=${2:-build/bin}
    reports=${3:-build/reports/05}
    mkdir -p "$reports"
    "$bin/chapter_05_atomics" --analyze --format json > "$reports/analyze.json"
    tools/plot analysis "$reports/analyze.json" --figure peers -o "$figures/05_peers.svg"
    tools/plot analysis "$reports/analyze.json" --figure subtree -o "$figures/05_subtree.svg"
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
