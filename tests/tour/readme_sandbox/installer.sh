#!/usr/bin/env bash
# The README test's stand-in for sudo, apt-get, apt, pip and pip3: a page's installation commands are not run (they
# would change the machine); they are logged to STEPWISE_README_LOG as not run.
printf '0\t%s%s (not run: it installs software)\n' "$(basename "$0")" "$(printf ' %q' "$@")" >> "$STEPWISE_README_LOG"
