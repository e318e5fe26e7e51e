# shellcheck shell=bash
# Read by every bash the README test starts (BASH_ENV): `tools/plot` and `tools/suitesparse-fetch`, as a page or a
# script it runs calls them, go to their stand-ins, which check the arguments and neither draw nor download. A program
# that is not a bash script (tools/plot's own tests, in Python) still finds the real tools.
tools/plot() { "$STEPWISE_STAND_INS/plot.sh" "$@"; }
./tools/plot() { "$STEPWISE_STAND_INS/plot.sh" "$@"; }
tools/suitesparse-fetch() { "$STEPWISE_STAND_INS/suitesparse-fetch.sh" "$@"; }
./tools/suitesparse-fetch() { "$STEPWISE_STAND_INS/suitesparse-fetch.sh" "$@"; }
