#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# gpuchrono run with another tool's injection library already set: the program gets that tool's library
# unchanged, run says so, and its report says nothing was recorded.
#   other_injection_test.sh GPUCHRONO OUTDIR
set -u
gpuchrono=$1
out=$2/other
rm -rf "$out"
CUDA_INJECTION64_PATH=/opt/other-tool/libinject.so "$gpuchrono" run -o "$out" -- \
    sh -c 'test "$CUDA_INJECTION64_PATH" = /opt/other-tool/libinject.so' 2>"$2/other.err"
rc=$?
cat "$2/other.err"
[ $rc -eq 0 ] || { echo "FAIL: the program did not get the other tool's library unchanged (status $rc)"; exit 1; }
grep -q "another tool's injection library" "$2/other.err" || { echo "FAIL: run did not say so"; exit 1; }
grep -q "another tool's injection library was set" "$out/report.json" || { echo "FAIL: the report does not say so"; exit 1; }
echo "ok"
