// Everything a CUDA translation unit may include: nvcc cannot `import gpuchrono;`, so .cu files include this
// header and get the very entities the module exports (the module re-exports these declarations; it does
// not declare its own). Nothing here may include range-v3: nvcc 13.0 cannot compile it, so the statistics
// pipeline is reachable from host code only (`import gpuchrono;` or <gpuchrono/stats.hpp>).
#pragma once

#include <gpuchrono/block_samples.hpp>
#include <gpuchrono/check_cold_start.hpp>
#include <gpuchrono/check_device_clock.hpp>
#include <gpuchrono/check_event_interval.hpp>
#include <gpuchrono/check_gpu_state.hpp>
#include <gpuchrono/check_host_memory.hpp>
#include <gpuchrono/check_host_stop.hpp>
#include <gpuchrono/check_resolution.hpp>
#include <gpuchrono/check_stream_state.hpp>
#include <gpuchrono/cuda_error.hpp>
#include <gpuchrono/device.hpp>
#include <gpuchrono/device_clock_calibration.hpp>
#include <gpuchrono/device_clock_decode.hpp>
#include <gpuchrono/device_clock_policy.hpp>
#include <gpuchrono/driver_probe.hpp>
#include <gpuchrono/duration.hpp>
#include <gpuchrono/event_floor.hpp>
#include <gpuchrono/event_policy.hpp>
#include <gpuchrono/event_pool.hpp>
#include <gpuchrono/finding.hpp>
#include <gpuchrono/finding_catalog.hpp>
#include <gpuchrono/finding_reaction.hpp>
#include <gpuchrono/gpu_state.hpp>
#include <gpuchrono/host_clock_policy.hpp>
#include <gpuchrono/host_sync_policy.hpp>
#include <gpuchrono/measurement.hpp>
#include <gpuchrono/probe_buffer_pool.hpp>
#include <gpuchrono/probe_layout.hpp>
#include <gpuchrono/scoped_timer.hpp>
#include <gpuchrono/series.hpp>
#include <gpuchrono/stream_state.hpp>
#include <gpuchrono/timing_policy.hpp>
