// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Hardware metrics of work the caller can run again, by ncu's metric names:
//
//     gpuchrono::metrics::MetricsResult r = gpuchrono::metrics::collect({"memory"}, [&] {
//         copy_kernel<<<grid, block, 0, stream>>>(dst, src, n);
//         gather_kernel<<<grid, block, 0, stream>>>(out, table, n);
//     });
//
// `work` runs once per counter pass (CUPTI's user replay), each run a full pass over every kernel it launches:
// one range per launch, named by the kernel, as a MetricsScope gives them. Unlike a MetricsScope's kernel
// replay, no device memory is saved and restored per launch, and CUPTI's cost per pass (3 ms for a light pass,
// ~20 ms for one of DRAM or L2 counters on an H100, docs/metrics.md) is paid once for all the kernels `work`
// launches, not once per kernel. `work` must
// launch the same kernels in the same order on every run (a benchmark step: what it writes it may write again)
// and may return before they complete; each pass is waited for. measure()'s `metrics` option is this, after
// its timing samples.
#pragma once

#include <gpuchrono/metrics/kernel_metrics.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace gpuchrono::metrics {

struct CollectOptions {
    int device = -1;                // -1: the current device
    std::size_t max_kernels = 256;  // launches one run of `work` may make (more are counted in a note)
    // Before each pass, outside what is counted: write and read back a buffer of twice the L2 (L2Flush), so
    // that every pass starts cold and clean, as ncu's --cache-control all does. Off, each pass finds what the
    // previous one left (warm, as repeated calls of a step do), dirty lines included.
    bool cold_caches = false;
};

// Throws std::invalid_argument for an unknown metric or bad options, std::runtime_error for what prevents
// profiling (as MetricsScope) and for a failure of `work`'s kernels (with the pass it happened in).
MetricsResult collect(const std::vector<std::string>& metrics, const std::function<void()>& work,
                      const CollectOptions& options = {});

}  // namespace gpuchrono::metrics
