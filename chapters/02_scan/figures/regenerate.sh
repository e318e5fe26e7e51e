#!/usr/bin/env bash
# Chapter 02's measurements and figures, from the repository root:
#   chapters/02_scan/figures/regenerate.sh gpu [bin-dir] [report-dir]         on a GPU: the README's tables, the
#                                                                             sweeps, the tour and the ncu counters
#                                                                             (about 4 minutes on an H100)
#   chapters/02_scan/figures/regenerate.sh candidates [bin-dir] [report-dir]  on a GPU: the single pass's tuning
#                                                                             candidates against CUB (about 2 minutes)
#   chapters/02_scan/figures/regenerate.sh sass [bin-dir]                     anywhere with cuobjdump: the width of
#                                                                             every shared-memory access of every kernel
#   chapters/02_scan/figures/regenerate.sh plot [bin-dir] [report-dir]        anywhere with matplotlib: every figure
#                                                                             (the --analyze diagrams need no GPU)
set -euo pipefail
mode=${1:?usage: $0 gpu|candidates|sass|plot [bin-dir] [report-dir]}
# plot reads report-dir when given, else build/reports/02 when it exists, else chapters/02_scan/results (the H100
# reports the committed figures are drawn from); STEPWISE_FIGURE_DIR=DIR draws into DIR (tools/figures-plot.sh).
figures=${STEPWISE_FIGURE_DIR:-chapters/02_scan/figures}
bin=${2:-build/bin}
reports=${3:-build/reports/02}  # plot: see tools/figures-plot.sh
scan="$bin/chapter_02_scan"
# Nsight Compute: the bank conflicts and the shared-memory wavefronts of each kernel's first launches.
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics=$metrics,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics=$metrics,gpu__time_duration.sum
profile() {  # profile NAME KERNEL-REGEX LAUNCHES chapter-arguments...
  local name=$1 kernels=$2 launches=$3
  shift 3
  ncu --clock-control none --metrics "$metrics" -k "regex:$kernels" -c "$launches" --csv \
    "$scan" --n 2^24 --reps 1 --warmup 0 "$@" > "$reports/ncu_$name.csv" 2> "$reports/ncu_$name.log"
}

case "$mode" in
  gpu)
    mkdir -p "$reports"
    # The README's tables: int32 exclusive at 2^28 (the default) and 2^24, each as markdown and as JSON.
    "$scan" --format markdown --output "$reports/table_2e28.md" --json "$reports/table_2e28.json" \
      > "$reports/table_2e28.txt"
    "$scan" --n 2^24 --reps 50 --format markdown --output "$reports/table_2e24.md" --json "$reports/table_2e24.json" \
      > "$reports/table_2e24.txt"
    # Every compiled tile of the single pass, against CUB.
    "$scan" --n 2^24 --sweep --stage single-pass --stage lib --reps 10 --format json \
      --output "$reports/sweep_2e24.json" > "$reports/sweep_2e24.txt"
    "$scan" --n 2^28 --sweep --stage single-pass --stage lib --reps 10 --format json \
      --output "$reports/sweep_2e28.json" > "$reports/sweep_2e28.txt"
    # Time against n.
    "$bin/tour" --chapter 02 --sizes 2^16..2^28 --reps 10 --reports "$reports" > "$reports/tour.txt"
    # Bank conflicts: the reduce-then-scan transposes with the compiler's accesses and with 32-bit ones,
    # Blelloch's tree unpadded and padded, and the single pass at VT = 8, 12, 16, 24, 28 and 32.
    profile rts_vt8 'reduce_tiles|scan_tiles' 2 --stage rts-vt8
    profile rts_vt7 'reduce_tiles|scan_tiles' 2 --stage rts-vt7
    profile rts_vt8_scalar 'reduce_tiles|scan_tiles' 2 --stage rts-vt8 --scalar-transpose
    profile blelloch blelloch_block_scan 1 --stage blelloch
    profile blelloch_padded blelloch_block_scan 1 --stage blelloch-padded
    for vt in 8 12 16 24 28 31 32; do
      profile "single_pass_128x$vt" single_pass_scan 1 --stage single-pass --nt 128 --vt "$vt"
    done
    ;;
  candidates)
    mkdir -p "$reports"
    # The single pass's default against the tiles and look-back delays that came close, each beside
    # CUB in the same run: 2^24 (100 repetitions, three runs) and 2^28 (20, two runs). One line per run.
    candidates=(
      "128x31-at-once --nt 128 --vt 31 --first-poll-ns 0"
      "128x28-delay --nt 128 --vt 28 --first-poll-ns 1245"
      "128x31-delay --nt 128 --vt 31 --first-poll-ns 1245"
      "256x28-speculative --nt 256 --vt 28 --first-poll-ns 0 --speculative-load"
      "128x28-at-once --nt 128 --vt 28 --first-poll-ns 0"
      "256x28-at-once --nt 256 --vt 28 --first-poll-ns 0"
    )
    for candidate in "${candidates[@]}"; do
      read -r name options <<< "$candidate"
      for n in 24 28; do
        reps=$([ "$n" = 24 ] && echo 100 || echo 20)
        runs=$([ "$n" = 24 ] && echo 3 || echo 2)
        for run in $(seq "$runs"); do
          # shellcheck disable=SC2086
          "$scan" --n "2^$n" --reps "$reps" --stage single-pass --stage lib $options \
            > "$reports/candidate_${name}_2e${n}_$run.txt"
          awk -v c="$name" -v n="2^$n" '$1 == "7" { s = $4 } $1 == "lib" { printf "%-20s n = %s  single pass %s ms  cub %s ms  cub / single pass %.3f\n", c, n, s, $4, $4 / s }' \
            "$reports/candidate_${name}_2e${n}_$run.txt"
        done
      done
    done
    ;;
  sass)
    # Which width each kernel's shared accesses have (LDS, LDS.64, LDS.128, ...), counted in its SASS.
    cuobjdump -sass "$scan" | python3 -c '
import collections, re, subprocess, sys
counts, name = collections.OrderedDict(), None
for line in sys.stdin:
    match = re.search(r"Function : (\S+)", line)
    if match:
        name = subprocess.run(["c++filt", match.group(1)], capture_output=True, text=True).stdout.strip()
        name = re.sub(r"\(anonymous namespace\)::|stepwise::scan::|stepwise::|void ", "", name)
        for number, access in enumerate(("compiler", "scalar", "vector")):
            name = name.replace(f"(ThreadOrderAccess){number}", access)
        name = name.split("(")[0]
        counts[name] = collections.Counter()
        continue
    match = re.search(r"\b((?:LDS|STS)(?:\.(?:64|128|U8|S8|U16|S16))?)\b", line)
    if match and name:
        counts[name][match.group(1)] += 1
for name, count in counts.items():
    if count and not name.startswith("cub::"):
        print(name, " ".join(f"{op}:{n}" for op, n in sorted(count.items())))
'
    ;;
  plot)
    source "$(dirname "$0")/../../../tools/figures-plot.sh"
    plot_reports 02_scan "${3:-}"
    # The --analyze diagrams: no GPU needed, only the built chapter.
    if [ -x "$scan" ]; then
      analysis=$(mktemp)
      trap 'rm -f "$analysis"' EXIT
      "$scan" --analyze --format json > "$analysis"
      for figure in banks transpose lookback; do
        tools/plot analysis "$analysis" --figure "$figure" -o "$figures/02_$figure.svg"
      done
    else
      echo "plot: no $scan: 02_banks.svg, 02_transpose.svg and 02_lookback.svg not drawn (build the chapter first)" >&2
    fi
    # The measured figures, from the gpu mode's reports (skipped when they are not there).
    if [ -f "$reports/table_2e28.json" ]; then
      tools/plot staircase "$reports/table_2e28.json" -o "$figures/02_staircase.svg"
      tools/plot bandwidth "$reports/table_2e28.json" -o "$figures/02_bandwidth.svg"
      tools/plot sweep "$reports/sweep_2e24.json" --stage single-pass -o "$figures/02_sweep_2e24.svg"
      tools/plot sweep "$reports/sweep_2e28.json" --stage single-pass -o "$figures/02_sweep_2e28.svg"
      tools/plot time-vs-n "$reports"/chapter_02_scan-n*.json -o "$figures/02_time_vs_n.svg"
      tools/plot time-vs-n "$reports"/chapter_02_scan-n*.json --metric gbps -o "$figures/02_gbps_vs_n.svg"
      plot_ratio 02_scan 2^20,2^22,2^24,2^26,2^28,2^30
    else
      echo "no $reports/table_2e28.json: run '$0 gpu' on a GPU first for the measured figures" >&2
    fi
    ;;
  *)
    echo "usage: $0 gpu|candidates|sass|plot [bin-dir] [report-dir]" >&2
    exit 2
    ;;
esac
