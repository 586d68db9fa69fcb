#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs N ranks of gpuchrono-example-distributed-steps on this machine's GPU and merges their reports:
#   run_local_job.sh BIN_DIR OUT_DIR [N=4]
# BIN_DIR holds gpuchrono-example-distributed-steps and the gpuchrono command. With mpirun on PATH the ranks are
# MPI processes (identity from OMPI_*); without it, plain background processes with RANK/LOCAL_RANK/WORLD_SIZE
# set (as torchrun would). Either way they share a start time 3 s ahead, GPUCHRONO_START_AT_NS.
set -euo pipefail
bin=$1 out=$2 n=${3:-4}
mkdir -p "$out"
export GPUCHRONO_START_AT_NS=$(( $(date +%s%N) + 3000000000 ))
export GPUCHRONO_JOB_ID=local-$$
if command -v mpirun >/dev/null; then
  echo "run_local_job: mpirun -np $n"
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe --allow-run-as-root -np "$n" \
    -x GPUCHRONO_START_AT_NS -x GPUCHRONO_JOB_ID "$bin/gpuchrono-example-distributed-steps" "$out"
else
  echo "run_local_job: no mpirun; $n background processes with RANK/WORLD_SIZE"
  pids=()
  for ((r = 0; r < n; r++)); do
    RANK=$r LOCAL_RANK=$r WORLD_SIZE=$n "$bin/gpuchrono-example-distributed-steps" "$out" &
    pids+=($!)
  done
  status=0
  for p in "${pids[@]}"; do wait "$p" || status=$?; done
  [ "$status" = 0 ] || { echo "run_local_job: a rank failed ($status)"; exit "$status"; }
fi
"$bin/gpuchrono" merge "$out"/rank-*.json -o "$out/job.json" --trace "$out/trace.json" --svg "$out"
