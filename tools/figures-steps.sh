# The steps of a chapter's GPU round, sourced by chapters/NN_name/figures/regenerate.sh in its gpu mode:
#   steps_begin          exits with 77 (skipped) on a machine without a GPU; else makes the folder $reports, writes
#                        the GPU's name and clocks to $reports/device.txt and starts the summary with them
#   step NAME COMMAND... runs COMMAND with its output in $reports/NAME.log; its exit code and seconds join the summary
#   steps_end            prints the summary and exits: 0 when every step passed, 1 otherwise
# They share the variables reports (set by the caller), status and summary (which the caller may add lines to).

steps_begin() {
  if ! nvidia-smi -L > /dev/null 2>&1; then
    echo "$0: skipped: no GPU here (nvidia-smi finds none)" >&2
    exit 77
  fi
  status=0
  summary=()
  mkdir -p "$reports"
  nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
    --format=csv,noheader > "$reports/device.txt" 2>&1
  summary+=("device: $(head -1 "$reports/device.txt")")
}

step() {
  local name=$1
  shift
  local start=$SECONDS
  "$@" > "$reports/$name.log" 2>&1
  local code=$?
  [ $code -ne 0 ] && status=1
  summary+=("$(printf '%-34s exit %3d  %5ds' "$name" "$code" $((SECONDS - start)))")
}

steps_end() {
  printf '%s\n' "${summary[@]}"
  exit $status
}
