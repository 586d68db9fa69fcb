// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What every benchmark of a timer's cost or reading needs: a steady clock, the median and tails of a sample,
// host time per call of a scope, and a warmed stream.
#pragma once

#include <gpuchrono/api.hpp>
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/duration.hpp>

#include <spin.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

namespace bench {

using Clock = std::chrono::steady_clock;

struct Spread {
    double p5, median, p95;
};

inline Spread spread(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    auto at = [&](double q) { return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5)]; };
    return {at(0.05), at(0.5), at(0.95)};
}

inline double ns_since(Clock::time_point t0) { return std::chrono::duration<double, std::nano>(Clock::now() - t0).count(); }

// Median over batches of the mean host ns per call of `scope`.
inline double ns_per_scope(const std::function<void()>& scope, cudaStream_t stream, int batches = 21, int per_batch = 1000) {
    std::vector<double> per_call;
    for (int b = 0; b < batches; ++b) {
        const auto t0 = Clock::now();
        for (int i = 0; i < per_batch; ++i) scope();
        per_call.push_back(ns_since(t0) / per_batch);
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "draining between batches");
    }
    return spread(per_call).median;
}

// Median host time of one launch call, over `n` launches of the empty kernel (the queue drained every 50).
inline double launch_call_ns(cudaStream_t stream, int n = 1000) {
    std::vector<double> t;
    for (int i = 0; i < n; ++i) {
        const auto t0 = Clock::now();
        gpuchrono::kernels::launch_empty(stream);
        t.push_back(ns_since(t0));
        if (i % 50 == 49) GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "draining the launches");
    }
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "draining the launches");
    return spread(t).median;
}

inline void warm(cudaStream_t stream) {
    for (int i = 0; i < 20; ++i) gpuchrono::kernels::launch_spin(gpuchrono::Duration::from_us(10), stream);
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "warming up");
}

}  // namespace bench

// The names the timer benchmarks spell unqualified, declared once here rather than at the top of each program;
// only benchmark programs include this header, so global using-declarations reach nothing else.
using gpuchrono::Duration;
using gpuchrono::EventPolicy;
using gpuchrono::KernelPolicy;
using gpuchrono::ScopedTimer;
namespace kernels = gpuchrono::kernels;
using bench::Clock;
using bench::Spread;
using bench::spread;
using bench::ns_since;
using bench::ns_per_scope;
using bench::launch_call_ns;
using bench::warm;
