#!/usr/bin/env bash
# The README test's stand-in for nvidia-smi: the test's machine has no GPU, wherever it runs.
echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver (the README test has no GPU)." >&2
exit 9
