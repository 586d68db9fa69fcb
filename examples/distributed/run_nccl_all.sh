#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Every NCCL measurement of the examples, in one go, on a machine with N GPUs (one GPU call of a few minutes):
#   run_nccl_all.sh BIN_DIR OUT_DIR N [CLOCK_SECONDS=60]
# BIN_DIR: gpuchrono-example-nccl-training-step, the gpuchrono command and the scripts of examples/distributed/.
# Writes OUT_DIR/{step,bw,threads,clocks}/ and prints the checks, the bandwidth table and the clock figures.
set -uo pipefail
bin=$(cd "$1" && pwd) out=$2 n=$3 secs=${4:-60}
here=$(cd "$(dirname "$0")" && pwd)
export NCCL_NVLS_ENABLE=0
nvidia-smi -L; nvidia-smi topo -m 2>/dev/null | head -12
nvidia-smi --query-gpu=index,clocks.sm,clocks.max.sm,driver_version --format=csv
status=0
echo "== step: $n ranks, rank 1 (0 if alone) 2000 us late on steps 5 and 12"
slow=$(( n > 1 ? 1 : 0 ))
timeout 120 "$here/run_nccl_job.sh" "$bin" "$out/step" "$n" step --steps 20 --slow-rank "$slow" --slow-steps 5,12 \
  --delay-us 2000 --bytes 64M || status=1
python3 "$here/check_nccl_job.py" "$out/step" "$slow" 2000 5 12 || status=1
python3 "$here/summarize_job.py" "$out/step" || status=1
echo "== bandwidth: 8 B .. 1 GiB x2"
timeout 240 "$here/run_nccl_job.sh" "$bin" "$out/bw" "$n" bandwidth --min-bytes 8 --max-bytes 1G --factor 2 || status=1
echo "== threads: $n devices from one process"
timeout 120 "$here/run_nccl_job.sh" "$bin" "$out/threads" 1 threads --devices "$n" --steps 20 --slow-rank "$slow" \
  --slow-steps 5,12 --delay-us 2000 || status=1
python3 "$here/summarize_job.py" "$out/threads" || status=1
echo "== clocks: $n devices, $secs s"
timeout $(( secs + 60 )) "$here/run_nccl_job.sh" "$bin" "$out/clocks" 1 clocks --seconds "$secs" --devices "$n" || status=1
echo "run_nccl_all: status $status"
exit $status
