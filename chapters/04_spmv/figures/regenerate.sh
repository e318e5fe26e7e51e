#!/usr/bin/env bash
# Chapter 04's measurements and figures, from the repository root:
#   chapters/04_spmv/figures/regenerate.sh gpu  [bin-dir] [report-dir]   on a GPU: the README's tables, the sweeps,
#                                                                        stage 5's variant rows and the ncu counters
#                                                                        (about 6 minutes on an H100 without the
#                                                                        variant rows)
#   chapters/04_spmv/figures/regenerate.sh concepts [bin-dir]            anywhere with matplotlib: the merge-walk
#                                                                        diagram, from --analyze (no GPU)
#   chapters/04_spmv/figures/regenerate.sh plot [report-dir] [bin-dir]   anywhere with matplotlib: every figure
#                                                                        (the measured ones from the gpu mode's reports)
# bin-dir defaults to build/bin, report-dir to build/reports/04 (neither is committed).
set -euo pipefail
usage="usage: $0 gpu [bin-dir] [report-dir] | concepts [bin-dir] | plot [report-dir] [bin-dir]"
mode=${1:?$usage}
# plot reads report-dir when given, else build/reports/04 when it exists, else chapters/04_spmv/results (the H100
# reports the committed figures are drawn from); STEPWISE_FIGURE_DIR=DIR draws into DIR (tools/figures-plot.sh).
figures=${STEPWISE_FIGURE_DIR:-chapters/04_spmv/figures}
# The matrices of the tables, 4Mi rows each (name and --matrix).
matrices=(
  "banded27 stencil27:128x128x256"
  "stencil5 stencil5:2048x2048"
  "uniform16 uniform:4194304:16"
  "rmat16 rmat:22:16"
  "uniform8 uniform:4194304:8"
  "uniform8wide uniform:4194304x16777216:8"
  "hugerow huge-row:4194304:8:16777216"
)
# The merge walk of stages 4 and 5 on a small matrix with one long row, from --analyze (no GPU needed).
concepts() {  # concepts BIN-DIR
  local analysis
  analysis=$(mktemp)
  "$1/chapter_04_spmv" --analyze --format json --matrix huge-row:8:3:20 > "$analysis"
  tools/plot analysis "$analysis" --figure merge -o "$figures/04_merge_walk.svg"
  rm -f "$analysis"
}
case "$mode" in
  concepts)
    concepts "${2:-build/bin}"
    ;;
  gpu)
    bin=${2:-build/bin}
    reports=${3:-build/reports/04}
    mkdir -p "$reports"
    spmv="$bin/chapter_04_spmv"
    for entry in "${matrices[@]}"; do
      read -r name matrix <<< "$entry"
      "$spmv" --matrix "$matrix" --format markdown --output "$reports/$name.md" --json "$reports/$name.json" \
        > "$reports/$name.txt"
      "$spmv" --matrix "$matrix" --analyze > "$reports/${name}_analyze.txt"
    done
    for name in banded27 uniform16 rmat16; do
      matrix=$(printf '%s\n' "${matrices[@]}" | awk -v n=$name '$1 == n { print $2 }')
      "$spmv" --matrix "$matrix" --type float64 --format markdown --output "$reports/${name}_f64.md" \
        --json "$reports/${name}_f64.json" > "$reports/${name}_f64.txt"
      # Every launch shape of the stages that have one (the JSON keeps every point).
      "$spmv" --matrix "$matrix" --sweep --stage 3 --stage 4 --stage 5 --reps 10 --format json \
        --output "$reports/${name}_sweep.json" > /dev/null
    done
    # The 256^3 stencil (16Mi rows, 449 M nonzeros) and the 64^3 one (262,144 rows), both types: stages 4 and 5 and
    # the library; the huge row in float64, every row.
    for type in float32 float64; do
      for grid in 256 64; do
        "$spmv" --matrix stencil27:${grid}x${grid}x${grid} --type "$type" --stage 4 --stage 5 --stage lib --reps 10 \
          --format markdown --output "$reports/banded27_${grid}_$type.md" \
          --json "$reports/banded27_${grid}_$type.json" > "$reports/banded27_${grid}_$type.txt"
      done
    done
    "$spmv" --matrix huge-row:4194304:8:16777216 --type float64 --format markdown --output "$reports/hugerow_f64.md" \
      --json "$reports/hugerow_f64.json" > "$reports/hugerow_f64.txt"
    # The real matrices of Debian's packages, where tools/debian-matrices wrote them (matrices/debian), both types,
    # every row; their table, with the geometric means, in real.md.
    real=(matrices/debian/*.mtx)
    if [ -f "${real[0]}" ]; then
      for file in "${real[@]}"; do
        for type in float32 float64; do
          name=real_$(basename "$file" .mtx)_$type
          "$spmv" --matrix "$file" --type "$type" --format markdown --output "$reports/$name.md" \
            --json "$reports/$name.json" > "$reports/$name.txt"
        done
      done
      tools/plot library-table "$reports"/real_*.json --stage 5 > "$reports/real.md"
    else
      echo "gpu: no matrices/debian/*.mtx: the real matrices skipped (tools/debian-matrices writes them)" >&2
    fi
    # Stage 5's variant rows (--variants: stage 5 with one change undone each) beside stages 4 and 5, the README's
    # variant tables: the banded kernels' changes on the 27-point stencil, the merge tile's on R-MAT, both types;
    # and on the huge row and the uniform matrix (the warp-summed carries).
    for name in banded27 rmat16 hugerow uniform16; do
      matrix=$(printf '%s\n' "${matrices[@]}" | awk -v n=$name '$1 == n { print $2 }')
      for type in float32 float64; do
        suffix=$([ "$type" = float64 ] && echo _f64 || true)
        "$spmv" --matrix "$matrix" --type "$type" --stage 4 --stage 5 --variants --format markdown \
          --output "$reports/${name}${suffix}_variants.md" --json "$reports/${name}${suffix}_variants.json" \
          > "$reports/${name}${suffix}_variants.txt"
      done
    done
    # Nsight Compute: the first launch of each stage's kernel (its check, before timing).
    profile() {  # profile NAME KERNEL-REGEX METRICS chapter-arguments...
      local name=$1 kernels=$2 metrics=$3
      shift 3
      ncu --clock-control none --metrics "$metrics" -k "regex:$kernels" -c 1 --csv \
        --log-file "$reports/ncu_$name.csv" "$spmv" --reps 1 --warmup 0 "$@" > /dev/null
    }
    loads=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
    loads+=,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,gpu__time_duration.sum
    loads+=,lts__t_requests_srcunit_tex.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed
    lanes=smsp__thread_inst_executed_per_inst_executed.ratio,sm__warps_active.avg.pct_of_peak_sustained_active
    lanes+=,gpu__time_duration.sum
    shared=l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
    shared+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__t_sector_hit_rate.pct
    shared+=,gpu__time_duration.sum
    for entry in "banded27 stencil27:128x128x256" "uniform16 uniform:4194304:16" "rmat16 rmat:22:16"; do
      read -r name matrix <<< "$entry"
      profile "${name}_scalar" spmv_row_per_thread "$loads,$lanes" --matrix "$matrix" --stage 1
      profile "${name}_shared_cache" spmv_shared_slice "$shared,$loads" --matrix "$matrix" --stage 2
      profile "${name}_vector" spmv_lanes_per_row "$loads,$lanes" --matrix "$matrix" --stage 3
      profile "${name}_merge" spmv_merge_tiles "$loads,$lanes,$shared" --matrix "$matrix" --stage 4
      profile "${name}_tuned" 'spmv_lanes_unrolled|spmv_short_rows|spmv_compact_tiles' "$loads,$lanes,$shared" \
        --matrix "$matrix" --stage 5
      ncu --clock-control none --metrics "$loads,$lanes" -k "regex:csrmv|partition|fixup" -c 8 --csv --log-file "$reports/ncu_${name}_cusparse.csv" \
        "$spmv" --reps 1 --warmup 0 --matrix "$matrix" --stage lib > /dev/null
    done
    # Stage 5 and each variant row, float32: 12 rows of two launches each (the check, one repetition), each row's
    # kernel (the vector kernels or the merge tile) with its requests, hit rates, occupancy and shared memory.
    occupancy=launch__shared_mem_config_size,launch__shared_mem_per_block_static,launch__occupancy_limit_shared_mem
    occupancy+=,launch__registers_per_thread
    for entry in "banded27 stencil27:128x128x256" "rmat16 rmat:22:16"; do
      read -r name matrix <<< "$entry"
      ncu --clock-control none --metrics "$loads,$lanes,$occupancy" -k "regex:spmv_lanes_unrolled|spmv_compact_tiles" \
        -c 24 --csv --log-file "$reports/ncu_${name}_tuned_variants.csv" \
        "$spmv" --reps 1 --warmup 0 --matrix "$matrix" --stage 5 --variants > /dev/null
    done
    ;;
  plot)
    source "$(dirname "$0")/../../../tools/figures-plot.sh"
    plot_reports 04_spmv "${2:-}"
    if [ -x "${3:-build/bin}/chapter_04_spmv" ]; then
      concepts "${3:-build/bin}"
    else
      echo "plot: no ${3:-build/bin}/chapter_04_spmv: 04_merge_walk.svg not drawn (build the chapter first)" >&2
    fi
    if [ ! -f "$reports/banded27.json" ]; then
      echo "no $reports/banded27.json: run '$0 gpu' on a GPU first for the measured figures" >&2
      exit 0
    fi
    tools/plot compare "$reports"/{banded27,stencil5,uniform16,rmat16,hugerow}.json \
      --labels "banded 27-point,2-D 5-point,uniform 16,R-MAT 16,one huge row" -o "$figures/04_gflops.svg"
    tools/plot compare "$reports"/{banded27,uniform16,rmat16}_f64.json \
      --labels "banded 27-point,uniform 16,R-MAT 16" -o "$figures/04_gflops_float64.svg"
    for name in banded27 uniform16 rmat16; do
      tools/plot staircase "$reports/$name.json" -o "$figures/04_${name}_staircase.svg"
    done
    tools/plot sweep "$reports/uniform16_sweep.json" --all -o "$figures/04_uniform16_sweep.svg"
    plot_ratio 04_spmv 2^20,2^22,2^24,2^26,2^28,2^30
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
