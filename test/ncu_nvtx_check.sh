#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Checks that Nsight Compute sees gpuchrono's NVTX ranges: with
#     ncu --nvtx --nvtx-include "gpuchrono@inside/" nvtx_ncu_probe
# (domain "gpuchrono", push/pop range "inside": the trailing slash selects push/pop ranges) ncu must profile the
# kernel launched inside the ScopedTimer bound to Series "inside" and not the one launched outside it, nor the
# library's own warm-up kernel (launch_warmup.hpp), which the probe's first scope launches before its start
# record; with GPUCHRONO_NVTX=0 the range is gone, so ncu must profile neither.
#   usage: ncu_nvtx_check.sh PATH/TO/nvtx_ncu_probe
# Exit status: 0 passed, 1 failed, 77 skipped (no ncu, or no CUDA device).
set -uo pipefail
probe=${1:?usage: ncu_nvtx_check.sh PATH/TO/nvtx_ncu_probe}
[ -x "$probe" ] || { echo "ncu_nvtx_check: FAILED: $probe is not an executable"; exit 1; }
ncu=$(command -v ncu || true)
[ -z "$ncu" ] && [ -x /usr/local/cuda/bin/ncu ] && ncu=/usr/local/cuda/bin/ncu
[ -n "$ncu" ] || { echo "ncu_nvtx_check: skipped: ncu not found (PATH, /usr/local/cuda/bin)"; exit 77; }

inside=kernel_beta_inside_scope
outside=kernel_alpha_outside_scope
library=warmup_kernel
failed=0
profile() {  # profile LABEL [ENV=VALUE...]: runs the probe under ncu with the range filter, output in $out
  local label=$1; shift
  local cmd=(env "$@" "$ncu" --nvtx --nvtx-include "gpuchrono@inside/" --metrics gpu__time_duration.sum "$probe")
  echo "== $label: ${cmd[*]}"
  out=$("${cmd[@]}" 2>&1)
  local rc=$?
  echo "$out"
  if grep -q '^skipped: no CUDA device' <<<"$out"; then echo "ncu_nvtx_check: skipped: no CUDA device"; exit 77; fi
  if [ $rc -ne 0 ] || ! grep -q '==PROF==' <<<"$out"; then
    echo "ncu_nvtx_check: FAILED: ncu or the probe failed ($label, exit status $rc)"
    failed=1
    return 1
  fi
}

if profile "NVTX on"; then
  grep -q "$inside" <<<"$out" || { echo "ncu_nvtx_check: FAILED: ncu did not profile $inside, launched inside gpuchrono@inside/"; failed=1; }
  grep -q "$outside" <<<"$out" && { echo "ncu_nvtx_check: FAILED: ncu profiled $outside, launched outside every gpuchrono range"; failed=1; }
  grep -q "$library" <<<"$out" && { echo "ncu_nvtx_check: FAILED: ncu profiled the library's $library inside the user's range"; failed=1; }
fi
if profile "NVTX off" GPUCHRONO_NVTX=0; then
  grep -q "$inside\|$outside" <<<"$out" && { echo "ncu_nvtx_check: FAILED: with GPUCHRONO_NVTX=0 ncu still found a kernel in gpuchrono@inside/"; failed=1; }
fi
if [ $failed -eq 0 ]; then
  echo "ncu_nvtx_check: passed: ncu profiled $inside (inside gpuchrono@inside/), not $outside nor $library; nothing with GPUCHRONO_NVTX=0"
fi
exit $failed
