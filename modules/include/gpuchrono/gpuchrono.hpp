// Everything a CUDA translation unit may include: nvcc cannot `import gpuchrono;`, so .cu files include this
// header and get the very entities the module exports (the module re-exports these declarations; it does
// not declare its own). Nothing here may include range-v3: nvcc 13.0 cannot compile it, so the statistics
// pipeline is reachable from host code only (`import gpuchrono;` or <gpuchrono/stats.hpp>).
#pragma once

#include <gpuchrono/cuda_error.hpp>
#include <gpuchrono/device.hpp>
#include <gpuchrono/duration.hpp>
#include <gpuchrono/event_policy.hpp>
#include <gpuchrono/event_pool.hpp>
#include <gpuchrono/finding.hpp>
#include <gpuchrono/host_clock_policy.hpp>
#include <gpuchrono/host_sync_policy.hpp>
#include <gpuchrono/measurement.hpp>
#include <gpuchrono/scoped_timer.hpp>
#include <gpuchrono/series.hpp>
#include <gpuchrono/timing_policy.hpp>
