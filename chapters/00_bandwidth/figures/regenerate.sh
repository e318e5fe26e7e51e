#!/usr/bin/env bash
# Chapter 00's measurements and figures, from the repository root:
#   chapters/00_bandwidth/figures/regenerate.sh gpu  [bin-dir] [report-dir]   on a GPU (about 3 minutes on an H100)
#   chapters/00_bandwidth/figures/regenerate.sh plot [report-dir]             anywhere with matplotlib
set -euo pipefail
mode=${1:?usage: $0 gpu [bin-dir] [report-dir] | plot [report-dir]}
# plot reads report-dir when given, else build/reports/00 when it exists, else chapters/00_bandwidth/results (the H100
# reports the committed figures are drawn from); STEPWISE_FIGURE_DIR=DIR draws into DIR (tools/figures-plot.sh).
figures=${STEPWISE_FIGURE_DIR:-chapters/00_bandwidth/figures}
if [ "$mode" = gpu ]; then
  bin=${2:-build/bin}
  reports=${3:-build/reports/00}
  mkdir -p "$reports"
  "$bin/chapter_00_bandwidth" --format markdown --output "$reports/table.md" --json "$reports/table.json"
  "$bin/chapter_00_bandwidth" --n 2^27 --sweep --reps 5 --warmup 1 --format json --output "$reports/sweep.json"
  "$bin/chapter_00_bandwidth" --latency > "$reports/latency.txt"
  # The chase's DRAM bytes per load: its six walks (warm-up and timed, over L2 / 4, 4 x L2 and 2 GiB).
  ncu --clock-control none --metrics dram__bytes_read.sum,lts__t_sectors.sum,gpu__time_duration.sum \
    -k regex:chase --csv "$bin/chapter_00_bandwidth" --latency 2> /dev/null | grep '^"' > "$reports/chase_ncu.csv"
  "$bin/tour" --chapter 00 --sizes 2^16..2^28 --reps 10 --reports "$reports" > /dev/null
  # The counters of each stage's first launch at 2^26 (one ncu run per stage: ncu.csv holds them all).
  metrics=dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
  metrics+=,smsp__inst_executed.sum,gpu__time_duration.sum
  : > "$reports/ncu.csv"
  for stage in 1 2 3 4 5 6 7; do
    ncu --clock-control none --metrics "$metrics" -k regex:copy_ -c 1 --csv \
      "$bin/chapter_00_bandwidth" --n 2^26 --reps 1 --warmup 0 --stage $stage 2> /dev/null |
      grep '^"' | { if [ -s "$reports/ncu.csv" ]; then grep -v '^"ID"'; else cat; fi; } >> "$reports/ncu.csv"
  done
elif [ "$mode" = plot ]; then
  source "$(dirname "$0")/../../../tools/figures-plot.sh"
  plot_reports 00_bandwidth "${2:-}"
  tools/plot staircase "$reports/table.json" -o "$figures/00_staircase.svg"
  tools/plot bandwidth "$reports/table.json" -o "$figures/00_bandwidth.svg"
  tools/plot sweep "$reports/sweep.json" --all -o "$figures/00_sweep.svg"
  tools/plot time-vs-n "$reports"/chapter_00_bandwidth-n*.json --metric gbps -o "$figures/00_gbps_vs_n.svg"
  plot_ratio 00_bandwidth 2^20,2^22,2^24,2^26,2^28,2^30
else
  echo "usage: $0 gpu [bin-dir] [report-dir] | plot [report-dir]" >&2
  exit 2
fi
