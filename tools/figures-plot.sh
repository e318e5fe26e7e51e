# Where a chapter's plot mode reads and writes, sourced by chapters/NN_name/figures/regenerate.sh:
#   plot_reports NN_name [REPORT-DIR]  sets reports: REPORT-DIR when given; else build/reports/NN when that folder
#                                      exists (a fresh gpu run); else chapters/NN_name/results, the H100 reports the
#                                      committed figures are drawn from. Says on stderr which one it chose.
#   plot_ratio NN_name SIZES           draws NN_ratio_vs_n.svg at SIZES (a --sizes list) from $reports/size-sweep (the
#                                      chapter's reports of docs/size-sweep.md's tour), or says why it did not
# The figures go to $figures: chapters/NN_name/figures, or the folder STEPWISE_FIGURE_DIR names (made if missing).

plot_reports() {
  local chapter=$1 given=${2:-}
  local fresh=build/reports/${chapter%%_*}
  if [ -n "$given" ]; then
    reports=$given
  elif [ -d "$fresh" ]; then
    reports=$fresh
  else
    reports=chapters/$chapter/results
  fi
  echo "plot: drawing from $reports into $figures" >&2
  mkdir -p "$figures"
}

plot_ratio() {
  local chapter=$1 sizes=$2
  local sweep=("$reports/size-sweep/chapter_$chapter"-*.json)
  if [ ! -f "${sweep[0]}" ]; then
    echo "plot: no $reports/size-sweep/chapter_$chapter-*.json: ${chapter%%_*}_ratio_vs_n.svg not drawn" \
      "(docs/size-sweep.md runs them)" >&2
    return 0
  fi
  tools/plot ratio-vs-n "${sweep[@]}" --sizes "$sizes" -o "$figures/${chapter%%_*}_ratio_vs_n.svg"
}
