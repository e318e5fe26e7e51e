#!/usr/bin/env bash
# Chapter 06's measurements and figures, from the repository root:
#   chapters/06_compaction/figures/regenerate.sh gpu      [bin-dir] [report-dir] [part...]   on a GPU
#   chapters/06_compaction/figures/regenerate.sh plot     [report-dir]                       anywhere with matplotlib
#   chapters/06_compaction/figures/regenerate.sh concepts [bin-dir] [report-dir]             anywhere with matplotlib
# The gpu parts, all by default: tests (the GPU tests and compute-sanitizer), tables (the README's tables), more (the
# other inputs), polls (stages 6, 7 and CUB at six first-poll delays, both forms, 1/50/99 %), sweeps (--sweep of both
# forms at 50 %, of stages 3, 7 and 8 at 1 %), ncu (the counters, and the SASS of stages 1 and 2), variants (stage 7's
# variant rows: compute-sanitizer on them, the README's variant table in both forms and at 2^28, stages 4-6 at every
# launch shape, and the registers and occupancy of each variant under Nsight Compute), sizes (stage 7 per size: its
# tiles and first polls beside CUB at 2^20..2^28, the ticket first against --speculative-load, and the L2 read sectors
# of both at 2^26; not in the default parts). bin-dir defaults to
# build/bin, report-dir to build/reports/06 (neither is committed). The gpu mode prints a summary last: each step's
# exit code and seconds; the full outputs are in report-dir. plot draws the README's measured figures from the gpu
# mode's reports; concepts draws its two diagrams from --analyze --format json (no GPU, about 2 s).
set -uo pipefail
usage="usage: $0 gpu [bin-dir] [report-dir] [part...] | plot [report-dir] | concepts [bin-dir] [report-dir]"
mode=${1:?$usage}
# plot reads report-dir when given, else build/reports/06 when it exists, else chapters/06_compaction/results (the H100
# reports the committed figures are drawn from); STEPWISE_FIGURE_DIR=DIR draws into DIR (tools/figures-plot.sh).
figures=${STEPWISE_FIGURE_DIR:-chapters/06_compaction/figures}
case "$mode" in
  gpu)
    bin=${2:-build/bin}
    reports=${3:-build/reports/06}
    parts=("${@:4}")
    [ ${#parts[@]} -eq 0 ] && parts=(tests tables more polls sweeps ncu variants)
    wants() { [[ " ${parts[*]} " == *" $1 "* ]]; }
    compaction="$bin/chapter_06_compaction"
    source "$(dirname "$0")/../../../tools/figures-steps.sh"
    steps_begin
    table() {  # table NAME chapter-arguments...: the JSON report (and its table, in NAME.log) of one run
      local name=$1
      shift
      step "$name" "$compaction" "$@" --format markdown --output "$reports/$name.md" --json "$reports/$name.json"
    }

    # 1. The GPU tests of the chapter, then compute-sanitizer on both forms at a small n.
    if wants tests; then
      step gpu-tests "$bin/test_compaction_gpu" --duration=true
      for tool in memcheck racecheck synccheck initcheck; do
        step "sanitizer-$tool-if" compute-sanitizer --tool "$tool" --error-exitcode 99 "$compaction" --n 20011 \
          --reps 1 --warmup 1
        step "sanitizer-$tool-flagged" compute-sanitizer --tool "$tool" --error-exitcode 99 "$compaction" --n 20011 \
          --flags --payload --type float32 --pattern runs:300 --reps 1 --warmup 1
      done
    fi

    # 2. The README's tables: both forms at 1 %, 50 % and 99 % (int32 keys, 2^26, the default), then the other
    #    inputs at 50 %: float keys, a payload, runs of 1000, and the default size of the issue's CUB numbers.
    if wants tables; then
      for percent in 1 50 99; do
        table "if-$percent" --selectivity "$percent%"
        table "flagged-$percent" --selectivity "$percent%" --flags
      done
    fi
    if wants more; then
      table if-50-float --type float32
      table if-50-payload --payload
      table flagged-50-payload --flags --payload
      table if-50-runs --pattern runs:1000
      table if-50-2e28 --n 2^28 --reps 10
    fi

    # 3. The launch shapes (--sweep) at 50 %, both forms; the tile stages at 1 %.
    if wants polls; then
      for percent in 1 50 99; do
        for poll in 0 1245 2000 2600 3500 5000; do
          step "poll-$poll-if-$percent" "$compaction" --stage 6 --stage 7 --stage lib --selectivity "$percent%" \
            --first-poll-ns "$poll" --reps 30 --format json --output "$reports/poll-$poll-if-$percent.json"
          step "poll-$poll-flagged-$percent" "$compaction" --stage 6 --stage 7 --stage lib --selectivity "$percent%" \
            --flags --first-poll-ns "$poll" --reps 30 --format json --output "$reports/poll-$poll-flagged-$percent.json"
        done
      done
    fi

    if wants sweeps; then
      step sweep-if "$compaction" --sweep --reps 5 --format json --output "$reports/sweep-if.json"
      step sweep-flagged "$compaction" --sweep --reps 5 --flags --format json --output "$reports/sweep-flagged.json"
      step sweep-if-1 "$compaction" --sweep --reps 5 --selectivity 1% --stage 3 --stage 7 --stage 8 --format json \
        --output "$reports/sweep-if-1.json"
    fi

    # 4. Nsight Compute: the counter's atomics (stages 1-3), and where stage 7 and CUB spend their cycles.
    if wants ncu; then
      atomic_metrics=l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,lts__t_requests_srcunit_tex_op_atom.sum
      atomic_metrics+=,gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
      for stage in 1 2 3; do
        step "ncu-atomics-stage$stage" ncu --clock-control none --metrics "$atomic_metrics" -k regex:select_ -c 1 --csv \
          --log-file "$reports/ncu_atomics_stage$stage.csv" "$compaction" --stage "$stage" --reps 1 --warmup 0
      done
      sections=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats)
      step ncu-stage3 ncu "${sections[@]}" -k regex:select_block -c 1 --log-file "$reports/ncu_stage3.txt" \
        "$compaction" --stage 3 --reps 1 --warmup 0
      step ncu-stage6 ncu "${sections[@]}" -k regex:select_single -c 1 --log-file "$reports/ncu_stage6.txt" \
        "$compaction" --stage 6 --reps 1 --warmup 0
      step ncu-stage7 ncu "${sections[@]}" -k regex:select_tuned -c 1 --log-file "$reports/ncu_stage7.txt" \
        "$compaction" --stage 7 --reps 1 --warmup 0
      step ncu-stage8 ncu "${sections[@]}" -k regex:select_tuned_unordered -c 1 --log-file "$reports/ncu_stage8.txt" \
        "$compaction" --stage 8 --reps 1 --warmup 0
      step ncu-cub ncu "${sections[@]}" -k regex:DeviceSelectSweep -c 1 --log-file "$reports/ncu_cub.txt" \
        "$compaction" --stage lib --reps 1 --warmup 0

      # 5. The SASS of stages 1 and 2: what nvcc made of stage 1's atomicAdd on one address.
      if command -v cuobjdump > /dev/null; then
        cuobjdump -sass "$compaction" | awk '/Function : .*select_(atomic|warp_aggregated).*SelectorIiLb0ELb0/{f=1;print;next}
          f&&/Function :/{f=0} f' | grep -E 'Function|VOTE|FLO|POPC|ATOM|RED|SHFL' > "$reports/sass_stages_1_2.txt"
        summary+=("sass: $(grep -c 'VOTE' "$reports/sass_stages_1_2.txt") VOTE in stages 1 and 2 (sass_stages_1_2.txt)")
      fi
    fi

    # 6. Stage 7's variant rows (--variants: stage 7 with one change undone each). compute-sanitizer on the variants'
    #    kernels, both forms; the README's variant table (stages 6, 7 and the variants, 2^26, 50 %) with the predicate,
    #    with flag bytes (where `7 - packed flags` differs from stage 7) and at 2^28; stages 4, 5 and 6 at every launch
    #    shape (--sweep: the JSON keeps each shape's time, the defaults included), with default and best side by side in
    #    shapes-4-5-6-summary.md; registers, occupancy, DRAM throughput and duration of stage 7 and each variant (2^24,
    #    each row launches its kernel twice: the check, then one timed repetition).
    if wants variants; then
      for tool in memcheck racecheck synccheck; do
        step "sanitizer-$tool-variants-if" compute-sanitizer --tool "$tool" --error-exitcode 99 "$compaction" \
          --n 20011 --stage 7 --variants --reps 1 --warmup 1
        step "sanitizer-$tool-variants-flagged" compute-sanitizer --tool "$tool" --error-exitcode 99 "$compaction" \
          --n 20011 --stage 7 --variants --flags --payload --type float32 --pattern runs:300 --reps 1 --warmup 1
      done
      table variants-if-2e26 --stage 6 --stage 7 --variants
      table variants-flagged-2e26 --stage 6 --stage 7 --variants --flags
      table variants-if-2e28 --stage 6 --stage 7 --variants --n 2^28
      table shapes-4-5-6 --stage 4 --stage 5 --stage 6 --sweep
      step shapes-4-5-6-summary python3 - "$reports/shapes-4-5-6.json" "$reports/shapes-4-5-6-summary.md" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
defaults = {4: "128x8, 8 blk/SM", 5: "128x8, 8 blk/SM", 6: "256x12"}  # the stages' default shapes (--list)
lines = ["| # | stage | default shape | ms | best shape | ms | default / best |",
         "| ---: | --- | --- | ---: | --- | ---: | ---: |"]
for row in report["rows"]:
    if row["kind"] != "kernel" or not row["sweep"]:
        continue
    points = [p for p in row["sweep"] if p["median_ms"] is not None]
    default = next((p for p in points if p["shape"]["label"] == defaults.get(row["number"])), None)
    best = min(points, key=lambda p: p["median_ms"])
    if default is None:
        lines.append(f"| {row['number']} | {row['name']} | (default shape not found) | | {best['shape']['label']} | "
                     f"{best['median_ms']:.4f} | |")
        continue
    lines.append(f"| {row['number']} | {row['name']} | {default['shape']['label']} | {default['median_ms']:.4f} | "
                 f"{best['shape']['label']} | {best['median_ms']:.4f} | {default['median_ms'] / best['median_ms']:.3f} |")
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
      metrics=launch__registers_per_thread,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active
      metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
      for form in if flagged; do
        flags=()
        [ "$form" = flagged ] && flags=(--flags)
        step "ncu-registers-$form" ncu --clock-control none --metrics "$metrics" -k regex:select_tuned -c 16 --csv \
          --log-file "$reports/ncu-registers-$form.csv" "$compaction" --n 2^24 --stage 7 --variants "${flags[@]}" \
          --reps 1 --warmup 0
      done
    fi
    # 7. Stage 7 per size (shapes_by_n and its first poll): --sweep of its tiles beside CUB at three first polls, each
    #    point its own process; the default against --speculative-load at every size; what the guess costs in L2
    #    read sectors and DRAM bytes (Nsight Compute, 2^26).
    if wants sizes; then
      for e in 20 22 24 26 28; do
        for poll in 0 1245 2600; do
          table "n2e$e-ticket-p$poll" --n "2^$e" --stage 7 --stage lib --sweep --reps 30 --first-poll-ns "$poll"
        done
        table "n2e$e-spec-p2600" --n "2^$e" --stage 7 --stage lib --sweep --reps 30 --first-poll-ns 2600 \
          --speculative-load
        table "n2e$e-ticket" --n "2^$e" --stage 7 --stage lib --reps 30
        table "n2e$e-spec" --n "2^$e" --stage 7 --stage lib --reps 30 --speculative-load
      done
      l2_metrics=dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum
      for mode in ticket spec; do
        extra=()
        [ "$mode" = spec ] && extra=(--speculative-load)
        step "ncu-$mode" ncu --clock-control none --metrics "$l2_metrics" -k regex:select_tuned --csv \
          --log-file "$reports/ncu-$mode.csv" "$compaction" --stage 7 --reps 1 --warmup 0 "${extra[@]}"
      done
    fi
    steps_end
    ;;
  plot)
    source "$(dirname "$0")/../../../tools/figures-plot.sh"
    plot_reports 06_compaction "${2:-}"
    tools/plot compare --metric gbps --labels "1 %,50 %,99 %" "$reports/if-1.json" "$reports/if-50.json" \
      "$reports/if-99.json" -o "$figures/06_gbps_by_selectivity.svg" \
      --title "Chapter 06: GB/s of every stage at three selectivities (predicate key < 0)"
    tools/plot compare --metric gbps --labels "1 %,50 %,99 %" "$reports/flagged-1.json" "$reports/flagged-50.json" \
      "$reports/flagged-99.json" -o "$figures/06_gbps_by_selectivity_flagged.svg" \
      --title "Chapter 06: GB/s of every stage at three selectivities (flag bytes)"
    tools/plot staircase "$reports/if-50.json" -o "$figures/06_staircase_if_50.svg" \
      --title "Chapter 06: speedup at 50 % (stages 1-3, 8 unordered; 4-7, CUB ordered)"
    tools/plot sweep --stage tuned "$reports/sweep-if.json" -o "$figures/06_sweep_tuned_if_50.svg"
    plot_ratio 06_compaction 2^20,2^22,2^24,2^26,2^28,2^30
    ;;
  concepts)
    bin=${2:-build/bin}
    reports=${3:-build/reports/06}
    mkdir -p "$reports" || exit 1
    "$bin/chapter_06_compaction" --analyze --format json > "$reports/analysis.json" || exit 1
    for figure in packing lookback; do
      tools/plot analysis "$reports/analysis.json" --figure "$figure" -o "$figures/06_$figure.svg" || exit 1
    done
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
