#!/usr/bin/env bash
# Chapter 03's measurements and figures, from the repository root:
#   chapters/03_merge/figures/regenerate.sh gpu  [bin-dir] [report-dir]   on a GPU: the README's tables, the sweeps
#                                                                         and the ncu counters (about 8 minutes on an H100)
#   chapters/03_merge/figures/regenerate.sh sizes [bin-dir] [report-dir]  on a GPU: stage 4's tile by size (the sweeps
#                                                                         behind its size table) and the library ratio
#                                                                         at 2^20 .. 2^28
#   chapters/03_merge/figures/regenerate.sh plot [report-dir]             anywhere with matplotlib: the measured figures
#   chapters/03_merge/figures/regenerate.sh concepts [bin-dir]            anywhere with matplotlib, no GPU: the concept
#                                                                         diagrams, from --analyze --format json
# bin-dir defaults to build/bin, report-dir to build/reports/03 (neither is committed).
set -euo pipefail
usage="usage: $0 gpu [bin-dir] [report-dir] | sizes [bin-dir] [report-dir] | plot [report-dir] | concepts [bin-dir]"
mode=${1:?$usage}
# plot reads report-dir when given, else build/reports/03 when it exists, else chapters/03_merge/results (the H100
# reports the committed figures are drawn from); STEPWISE_FIGURE_DIR=DIR draws into DIR (tools/figures-plot.sh).
figures=${STEPWISE_FIGURE_DIR:-chapters/03_merge/figures}
# table NAME chapter-arguments...: the markdown table and the JSON report of one run (gpu and sizes modes)
table() {
  local name=$1
  shift
  "$merge" "$@" --format markdown --output "$reports/$name.md" --json "$reports/$name.json" > "$reports/$name.txt"
}
case "$mode" in
  gpu)
    bin=${2:-build/bin}
    reports=${3:-build/reports/03}
    mkdir -p "$reports"
    merge="$bin/chapter_03_merge"
    # The README's tables: merge (keys, pairs, int64, small, skewed), sorted search, load-balancing search.
    table merge
    table merge-pairs --pairs
    table merge-int64 --type int64
    "$merge" --na 2^20 --nb 2^20 --reps 50 --format markdown --output "$reports/merge-small.md" > /dev/null
    "$merge" --na 2^17 --nb 131072000 --format markdown --output "$reports/merge-skew.md" > /dev/null
    table search --problem search
    "$merge" --problem search --bound upper --format markdown --output "$reports/search-upper.md" > /dev/null
    table lbs --problem lbs
    "$merge" --problem lbs --distribution duplicates --format markdown --output "$reports/lbs-duplicates.md" > /dev/null
    # Stage 4's variant rows (--variants: stage 4 with one change undone each) beside stages 3 and 4: the README's
    # variant table, int32 keys, int32 pairs and int64 keys at the default size, and int32 keys at 2^26 (the size of
    # the sweeps and the profiles below).
    table variants-merge --stage 3 --stage 4 --variants
    table variants-merge-pairs --stage 3 --stage 4 --variants --pairs
    table variants-merge-int64 --stage 3 --stage 4 --variants --type int64
    table variants-merge-2e26 --stage 3 --stage 4 --variants --n 2^26
    # Every launch shape of the tiled stages, at 2^26 (the JSON keeps every point, for the heat maps).
    "$merge" --n 2^26 --sweep --stage 3 --stage 4 --stage lib --reps 10 --format json --output "$reports/sweep-merge.json" > /dev/null
    "$merge" --n 2^26 --pairs --sweep --stage 4 --stage lib --reps 10 --format json \
      --output "$reports/sweep-merge-pairs.json" > /dev/null
    "$merge" --n 2^26 --problem search --sweep --stage 2 --stage lib --reps 10 --format json \
      --output "$reports/sweep-search.json" > /dev/null
    "$merge" --n 2^26 --problem lbs --sweep --stage 2 --stage lib --reps 10 --format json \
      --output "$reports/sweep-lbs.json" > /dev/null
    # Nsight Compute at 2^26, the first launches of each stage's kernels (its check before timing).
    profile() {  # profile NAME KERNEL-REGEX LAUNCHES METRICS chapter-arguments...
      local name=$1 kernels=$2 launches=$3 metrics=$4
      shift 4
      ncu --clock-control none --metrics "$metrics" -k "regex:$kernels" -c "$launches" --csv \
        --log-file "$reports/ncu_$name.csv" "$merge" --n 2^26 --reps 1 --warmup 0 "$@" > /dev/null
    }
    loads=l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,smsp__inst_executed_op_global_ld.sum
    loads+=,dram__bytes_read.sum,gpu__time_duration.sum
    stores=l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
    stores+=,gpu__time_duration.sum
    banks=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
    banks+=,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
    kernels=gpu__time_duration.sum,lts__t_sector_hit_rate.pct,smsp__inst_executed_op_global_ld.sum
    kernels+=,smsp__inst_executed_op_global_st.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
    kernels+=,sm__warps_active.avg.pct_of_peak_sustained_active
    profile stage1_loads merge_by_rank 1 "$loads" --stage 1
    profile stage3_loads merge_tiles 1 "$loads" --stage 3
    profile stage2_stores merge_per_thread 1 "$stores" --stage 2
    profile stage3_stores merge_tiles 1 "$stores" --stage 3
    profile stage4_stores merge_tiles_tuned 1 "$stores" --stage 4
    profile stage3_banks merge_tiles 1 "$banks" --stage 3
    profile stage4_banks merge_tiles_tuned 1 "$banks" --stage 4
    profile stage3_kernels 'merge_path_partitions|merge_tiles' 2 "$kernels" --stage 3
    profile stage4_kernels 'merge_path_partitions|merge_tiles_tuned' 2 "$kernels" --stage 4
    profile cub_kernels 'device_partition_merge_path_kernel|device_merge_kernel' 2 "$kernels" --stage lib
    # Stage 4 and its variant rows: both kernels of each row's check and its one timed run (6 rows x 2 launches x 2
    # kernels), with registers and the occupancy limits (the variants change what a thread holds and the tile's
    # shared memory).
    variants=launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem
    variants+=,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed
    variants+=,smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum,gpu__time_duration.sum
    profile stage4_variants 'merge_path_partitions|merge_tiles_tuned' 24 "$variants" --stage 4 --variants
    profile stage4_variants_pairs 'merge_path_partitions|merge_tiles_tuned' 24 "$variants" --stage 4 --variants --pairs
    profile search1_loads search_each 1 "$loads" --problem search --stage 1
    profile search2_loads 'merge_path_partitions|search_tiles' 2 "$loads" --problem search --stage 2
    ;;
  sizes)
    bin=${2:-build/bin}
    reports=${3:-build/reports/03}
    mkdir -p "$reports"
    merge="$bin/chapter_03_merge"
    # The README's sweep table in stage 4 (the JSON's rows[].sweep keeps every shape's median): stage 4's sweep with
    # stage 3 and the libraries, int32 and int64 keys, 2^22 .. 2^26; stage 4 and the libraries at 2^28 and 2^30.
    for type in int32 int64; do
      for e in 22 24 26; do
        table "sizes-sweep-keys-$type-n2e$e" --n "2^$e" --type "$type" --stage 3 --stage 4 --stage lib --sweep --reps 30
      done
    done
    table sizes-sweep-keys-int32-n2e28 --n 2^28 --type int32 --stage 4 --stage lib --sweep --reps 10
    table sizes-sweep-keys-int32-n2e30 --n 2^30 --type int32 --stage 4 --stage lib --sweep --reps 10
    table sizes-sweep-keys-int64-n2e28 --n 2^28 --type int64 --stage 4 --stage lib --sweep --reps 10
    # The README's table across sizes: stages 2-4 and the libraries, keys and pairs, int32 and int64, 2^20 .. 2^28
    # (a cell: the faster library's median over the fastest stage's).
    for type in int32 int64; do
      for e in 20 22 24 26 28; do
        table "sizes-keys-$type-n2e$e" --n "2^$e" --type "$type" --stage 2 --stage 3 --stage 4 --stage lib --reps 10
        table "sizes-pairs-$type-n2e$e" --n "2^$e" --type "$type" --pairs --stage 2 --stage 3 --stage 4 --stage lib \
          --reps 10
      done
      # 2^30: stages 3 and 4 (stage 2 is far behind there) and the libraries.
      table "sizes-keys-$type-n2e30" --n 2^30 --type "$type" --stage 3 --stage 4 --stage lib --reps 10
      table "sizes-pairs-$type-n2e30" --n 2^30 --type "$type" --pairs --stage 3 --stage 4 --stage lib --reps 10
    done
    ;;
  plot)
    source "$(dirname "$0")/../../../tools/figures-plot.sh"
    plot_reports 03_merge "${2:-}"
    for table in merge merge-pairs; do
      tools/plot staircase "$reports/$table.json" -o "$figures/03_${table//-/_}_staircase.svg"
    done
    for table in merge merge-pairs search lbs; do
      tools/plot bandwidth "$reports/$table.json" -o "$figures/03_${table//-/_}_bandwidth.svg"
    done
    tools/plot sweep "$reports/sweep-merge.json" --stage 4 -o "$figures/03_merge_sweep.svg"
    tools/plot sweep "$reports/sweep-merge-pairs.json" --stage 4 -o "$figures/03_merge_pairs_sweep.svg"
    plot_ratio 03_merge 2^20,2^22,2^24,2^26,2^28,2^30
    ;;
  concepts)
    bin=${2:-build/bin}
    analysis=$(mktemp)
    trap 'rm -f "$analysis"' EXIT
    "$bin/chapter_03_merge" --analyze --format json > "$analysis"
    tools/plot analysis "$analysis" --figure merge-path -o "$figures/03_merge_path.svg"
    tools/plot analysis "$analysis" --figure load-balance -o "$figures/03_load_balance.svg"
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
