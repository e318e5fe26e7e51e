#!/usr/bin/env bash
# Chapter 11's measurements and figures, from the repository root:
#   chapters/11_multigpu/figures/regenerate.sh gpu  [bin-dir] [report-dir] [part...]   on one or more GPUs
#   chapters/11_multigpu/figures/regenerate.sh plot [report-dir] [bin-dir]             anywhere with matplotlib
# The gpu parts, all but huge by default: tests (the GPU tests, then compute-sanitizer memcheck on every problem on one
# GPU and, where there are two, on two, at small sizes), sweeps (the all-reduce's size sweep, 8 B to 1 GiB per GPU,
# float32, on --gpus 1, 2 and every visible GPU: allreduce-sweep-gG), tables (the int32 scan and the sort on every
# visible GPU at n = 2^26 in all: scan-int32-2e26-gG, sort-2e26-gG), scaling (at n = 2^28 and 2^30 on 1, 2 and every
# visible GPU: scan-int32-2e28-gG, sort-2e30-gG, ...), huge (at n = 2^32 on every visible GPU, where they hold it: over
# 88 GiB on GPU 0 for the sort, so 141 GB H200s, not 80 GB H100s: scan-int32-2e32-gG, sort-2e32-gG).
# bin-dir defaults to build/bin, report-dir to build/reports/11 (neither is committed; the lecture's JSON reports are
# copied into chapters/11_multigpu/results). The gpu mode prints a summary last: each step's exit code and seconds; the
# full outputs are in report-dir. plot draws the busbw-vs-size figure from the sweeps of the gpu mode's reports (or,
# with neither a report-dir nor build/reports/11, from chapters/11_multigpu/results), and the gpu-scaling figures of
# the scan (scan-int32-2e28-gG) and the sort (sort-2e28-gG), and says which reports it did not find. It
# also draws the --analyze diagrams (the ring's steps, the sample sort's exchange, on 4 GPUs) from bin-dir's
# chapter_11_multigpu (default build/bin; no GPU needed).
set -uo pipefail
usage="usage: $0 gpu [bin-dir] [report-dir] [part...] | plot [report-dir] [bin-dir]"
mode=${1:?$usage}
figures=${STEPWISE_FIGURE_DIR:-chapters/11_multigpu/figures}
case "$mode" in
  gpu)
    bin=${2:-build/bin}
    reports=${3:-build/reports/11}
    parts=("${@:4}")
    [ ${#parts[@]} -eq 0 ] && parts=(tests sweeps tables scaling)
    wants() { [[ " ${parts[*]} " == *" $1 "* ]]; }
    multigpu="$bin/chapter_11_multigpu"
    source "$(dirname "$0")/../../../tools/figures-steps.sh"
    steps_begin
    # The GPUs the chapter sees: CUDA_VISIBLE_DEVICES' list when set, else every GPU nvidia-smi lists.
    if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
      IFS=, read -ra visible <<< "$CUDA_VISIBLE_DEVICES"
      gpus=${#visible[@]}
    else
      gpus=$(nvidia-smi -L | grep -c '^GPU')
    fi
    teams=(1)
    [ "$gpus" -ge 2 ] && teams+=(2)
    [ "$gpus" -gt 2 ] && teams+=("$gpus")
    summary+=("visible GPUs: $gpus; all-reduce sweeps on: ${teams[*]}")

    # 1. The GPU tests, then compute-sanitizer memcheck on every problem on one GPU and on two, at small sizes.
    if wants tests; then
      step gpu-tests-multigpu "$bin/test_multigpu_gpu" --duration=true
      step gpu-tests-scan-sort "$bin/test_scan_sort_gpu" --duration=true
      for team in "${teams[@]:0:2}"; do
        for problem in allreduce scan sort; do
          step "sanitizer-memcheck-$problem-g$team" compute-sanitizer --tool memcheck --error-exitcode 99 "$multigpu" \
            --problem "$problem" --gpus "$team" --n 100003 --reps 1 --warmup 1
        done
      done
    fi

    # 2. The all-reduce's size sweep on each team: the busbw-vs-size figure and the fitted alpha and beta.
    if wants sweeps; then
      for team in "${teams[@]}"; do
        step "allreduce-sweep-g$team" "$multigpu" --problem allreduce --type float32 --gpus "$team" --size-sweep \
          --format markdown --output "$reports/allreduce-sweep-g$team.md" --json "$reports/allreduce-sweep-g$team.json"
      done
    fi

    # scan_and_sort E G [SCAN_REPS SCAN_WARMUP SORT_REPS]: the int32 scan and the sort of 2^E values in all on G GPUs,
    # reports scan-int32-2eE-gG and sort-2eE-gG (10 and 2, 5: the tables' repetitions).
    scan_and_sort() {
      local e=$1 team=$2 scan_reps=${3:-10} scan_warmup=${4:-2} sort_reps=${5:-5}
      step "scan-int32-2e$e-g$team" "$multigpu" --problem scan --type int32 --n "2^$e" --gpus "$team" \
        --reps "$scan_reps" --warmup "$scan_warmup" --format markdown --output "$reports/scan-int32-2e$e-g$team.md" \
        --json "$reports/scan-int32-2e$e-g$team.json"
      step "sort-2e$e-g$team" "$multigpu" --problem sort --n "2^$e" --gpus "$team" --reps "$sort_reps" --warmup 1 \
        --format markdown --output "$reports/sort-2e$e-g$team.md" --json "$reports/sort-2e$e-g$team.json"
    }

    # 3. The int32 scan and the sort at 2^26 on every visible GPU.
    if wants tables; then
      scan_and_sort 26 "$gpus"
    fi

    # 4. The int32 scan and the sort at 2^28 and 2^30 on 1, 2, ... GPUs: the tables' other rows and (2^28) the
    # gpu-scaling figures.
    if wants scaling; then
      for e in 28 30; do
        for team in "${teams[@]}"; do
          scan_and_sort "$e" "$team"
        done
      done
    fi

    # 5. The int32 scan and the sort at 2^32 in all on every visible GPU (run by naming the part: not in the default).
    if wants huge; then
      scan_and_sort 32 "$gpus" 5 1 3
    fi
    steps_end
    ;;
  plot)
    source "$(dirname "$0")/../../../tools/figures-plot.sh"
    plot_reports 11_multigpu "${2:-}"
    sweeps=()
    for path in "$reports"/allreduce-sweep-g*.json; do
      [ -f "$path" ] && sweeps+=("$path")
    done
    if [ ${#sweeps[@]} -eq 0 ]; then
      echo "plot: no $reports/allreduce-sweep-g*.json: 11_busbw_vs_size.svg not drawn" \
        "(chapters/11_multigpu/figures/regenerate.sh gpu measures them)" >&2
    else
      # NVLink 4 on H100 and H200 (SXM): 18 links of 25 GB/s each way, 900 GB/s both ways together.
      tools/plot busbw-vs-size "${sweeps[@]}" --line-rate "450:NVLink 4, 18 links x 25 GB/s each way" \
        -o "$figures/11_busbw_vs_size.svg" || exit $?
    fi
    # The scan and the sort against the GPU count: one report per G at 2^28.
    for figure in scan sort; do
      if [ "$figure" = scan ]; then
        runs=("$reports"/scan-int32-2e28-g*.json)
      else
        runs=("$reports"/sort-2e28-g*.json)
      fi
      found=()
      for path in "${runs[@]}"; do
        [ -f "$path" ] && found+=("$path")
      done
      if [ ${#found[@]} -lt 2 ]; then
        echo "plot: fewer than two of ${runs[*]}: 11_${figure}_scaling.svg not drawn" \
          "(chapters/11_multigpu/figures/regenerate.sh gpu measures them)" >&2
      else
        tools/plot gpu-scaling "${found[@]}" -o "$figures/11_${figure}_scaling.svg" || exit $?
      fi
    done
    multigpu="${3:-build/bin}/chapter_11_multigpu"
    if [ -x "$multigpu" ]; then
      analysis=$(mktemp)
      trap 'rm -f "$analysis"' EXIT
      "$multigpu" --analyze --format json --gpus 4 > "$analysis" || exit $?
      for figure in ring-steps sort-exchange; do
        tools/plot analysis "$analysis" --figure "$figure" -o "$figures/11_${figure//-/_}.svg" || exit $?
      done
    else
      echo "plot: no $multigpu: 11_ring_steps.svg and 11_sort_exchange.svg not drawn (build the chapter first)" >&2
    fi
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
