#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs gpuchrono-example-nccl-training-step as N ranks, one per GPU, and merges the step reports:
#   run_nccl_job.sh BIN_DIR OUT_DIR N step      [step options: --steps --work-us --bytes --slow-rank --slow-steps --delay-us]
#   run_nccl_job.sh BIN_DIR OUT_DIR N bandwidth [--min-bytes 8 --max-bytes 1G --factor 2 --iters 20 --warmup 5]
#   run_nccl_job.sh BIN_DIR OUT_DIR 1 threads   [--devices N, step options]   (one process, one thread per GPU)
#   run_nccl_job.sh BIN_DIR OUT_DIR 1 clocks    [--seconds 60 --devices N --interval-ms 100]
# BIN_DIR holds gpuchrono-example-nccl-training-step and the gpuchrono command. With mpirun on PATH the ranks are MPI
# processes (identity from OMPI_*); without it (or GPUCHRONO_NO_MPI=1), background processes with RANK/LOCAL_RANK/
# WORLD_SIZE set, as torchrun would. The NCCL id goes through OUT_DIR/nccl-id (OUT_DIR must be new or empty).
# libnccl.so.2: the one the binary was linked with if it is there, else LD_LIBRARY_PATH gets the folder of the
# Python package nvidia.nccl (the GPU machines have nvidia-nccl-cu13 in their site-packages).
# NVLink multicast stays off: NCCL_NVLS_ENABLE=0 is forced (the lent multi-GPU machines require it); nothing here
# or in the program calls cuMulticastCreate.
set -euo pipefail
[ $# -ge 4 ] || { sed -n '2,6p' "$0" >&2; exit 2; }
bin=$(cd "$1" && pwd) out=$2 n=$3 mode=$4
shift 4
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "run_nccl_job: N '$n' is not a positive number" >&2; exit 2; }
case "$mode" in step|bandwidth|threads|clocks) ;; *) echo "run_nccl_job: unknown mode '$mode'" >&2; exit 2 ;; esac
prog=$bin/gpuchrono-example-nccl-training-step
[ -x "$prog" ] || { echo "run_nccl_job: no $prog" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ -z "$(ls -A "$out")" ] || { echo "run_nccl_job: $out is not empty (a stale nccl-id or rank report would be read)" >&2; exit 2; }

export NCCL_NVLS_ENABLE=0
export GPUCHRONO_JOB_ID=nccl-$mode-$$
# nvidia.nccl is a namespace package (its __file__ is None on the GPU machine): take its __path__.
if ! ldd "$prog" | grep -q 'libnccl.so.2 => /'; then
  nccl_lib=$(python3 -c 'import nvidia.nccl as m, os; print(os.path.join(list(m.__path__)[0], "lib"))' 2>/dev/null) \
    || { echo "run_nccl_job: libnccl.so.2 not found (no linked path, no python3 nvidia.nccl package)" >&2; exit 1; }
  export LD_LIBRARY_PATH=$nccl_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  echo "run_nccl_job: libnccl.so.2 from $nccl_lib"
fi

echo "run_nccl_job: $(ldd "$prog" | grep libnccl.so.2 | sed 's/^[[:space:]]*//;s/ (0x.*//')"

args=("$mode")
case "$mode" in
  step) args+=("$out" "$out") ;;
  bandwidth) args+=("$out") ;;
  threads) args+=("$out") ;;
esac
args+=("$@")

if [ "$mode" = threads ] || [ "$mode" = clocks ]; then
  [ "$n" = 1 ] || { echo "run_nccl_job: $mode runs as one process (N = 1); give --devices for the GPUs" >&2; exit 2; }
  "$prog" "${args[@]}" 2>&1 | tee "$out/$mode.log"
elif command -v mpirun >/dev/null && [ "${GPUCHRONO_NO_MPI:-0}" != 1 ]; then
  echo "run_nccl_job: mpirun -np $n"
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --allow-run-as-root -np "$n" \
    -x NCCL_NVLS_ENABLE -x GPUCHRONO_JOB_ID -x LD_LIBRARY_PATH "$prog" "${args[@]}" 2>&1 | tee "$out/$mode.log"
else
  echo "run_nccl_job: no mpirun; $n background processes with RANK/LOCAL_RANK/WORLD_SIZE"
  pids=()
  for ((r = 0; r < n; r++)); do
    RANK=$r LOCAL_RANK=$r WORLD_SIZE=$n LOCAL_WORLD_SIZE=$n "$prog" "${args[@]}" > "$out/$mode-rank$r.log" 2>&1 &
    pids+=($!)
  done
  status=0
  for p in "${pids[@]}"; do wait "$p" || status=$?; done
  cat "$out/$mode"-rank*.log
  [ "$status" = 0 ] || { echo "run_nccl_job: a rank failed ($status)"; exit "$status"; }
fi

case "$mode" in
  step|threads) "$bin/gpuchrono" merge "$out"/rank-*.json -o "$out/job.json" --trace "$out/trace.json" --svg "$out" ;;
esac
