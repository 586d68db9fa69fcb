// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono::measure(): a benchmark loop that takes the right number of samples of a callable, at the floor
// of what the GPU lets a timer see, and says how it did so.
//
//     gpuchrono::Series s = gpuchrono::measure("saxpy", stream, [&](cudaStream_t st) { launch_saxpy(st); });
//     gpuchrono::Series s = gpuchrono::measure("saxpy", stream, launch, {.cache = gpuchrono::CacheState::cold});
//
// The callable launches work (a kernel, several, a library call) and returns without waiting. It may take the
// stream to launch on (then the graph method may capture it on a private stream), or nothing (then it must
// launch on `stream` itself). One Series sample per call, in the order taken; Series::measure_record() says
// which method ran, what warm-up did, why sampling stopped, the confidence interval of the median, the cache
// state and the throughput.
//
// Methods (Method):
//   kernel  KernelPolicy per call: the kernels' own GPU time from CUPTI activity records, launch overhead out.
//   graph   the callable captured once into a CUDA graph of N calls, replayed; per-call time = interval / N.
//           A callable that cannot be captured (it synchronises, allocates, or launches on another stream) is
//           refused with CudaError naming the CUDA error.
//   event   a CUDA event pair around each call (samples queued back to back, one synchronisation per batch).
//   host    the host's steady clock around each call and a stream synchronisation: what a caller waits.
//   automatic (default) kernel where CUPTI can be used, else graph, else event (when the callable cannot be
//           captured); the record says which ran and why.
// Warm-up by time and state (warmup.hpp), the stopping rule (stopping_rule.hpp), the cold-cache scrub
// (l2_flush.hpp): see those files. Nothing is dropped: samples taken while NVML read the SM clock under 75% of
// its maximum, or reported a capping reason, carry that finding and are counted as flagged; with
// exclude_flagged they become failed measurements saying why (Series::failed_count()), never vanish.
//
// Throws std::invalid_argument for bad options (naming the field), CudaError for CUDA failures, and whatever
// the callable throws (after ending a capture it was in). Not for use while `stream` is being captured.
#pragma once

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/series.hpp>

#include <cuda_runtime_api.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <source_location>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpuchrono {

enum class Method { automatic, kernel, graph, event, host };
enum class CacheState { warm, cold };

// "automatic", "kernel", "graph", "event", "host"; "warm", "cold".
const char* to_string(Method m) noexcept;
const char* to_string(CacheState c) noexcept;
// The inverse; std::nullopt for any other text.
std::optional<Method> method_from_string(std::string_view text) noexcept;
std::optional<CacheState> cache_state_from_string(std::string_view text) noexcept;

// What `automatic` runs first: kernel when the kernel method can be used here, else graph (which falls back to
// event if the callable cannot be captured). Pure, for the tests.
Method first_choice(Method requested, bool kernel_method_available) noexcept;

// Whether the kernel method (KernelPolicy over CUPTI) can be used in this process, and why not. The first call
// sets CUPTI up (KernelPolicy::available()): from then on CUPTI records every launch of the process.
bool kernel_method_available(std::string* why_not = nullptr);

struct MeasureOptions {
    Method method = Method::automatic;
    CacheState cache = CacheState::warm;

    // Stopping rule (stopping_rule.hpp).
    double target_relative_width = 0.01;  // of the 95% CI of the median, relative to the median
    double confidence = 0.95;
    std::size_t min_samples = 10;
    std::size_t max_samples = 100000;
    Duration min_time = Duration{};
    Duration max_time = Duration::from_s(2);  // of sampling, warm-up excluded; nvbench's timeout is 15 s

    // Warm-up (docs/measure.md): at least min, at most max; in between until the module is loaded and the SM clock
    // reads 75% of its maximum or more after GPU work.
    Duration warmup_min_time = Duration{};
    Duration warmup_max_time = Duration::from_ms(500);

    // Samples taken under 75% of the maximum SM clock or a capping reason: flagged always, excluded if asked.
    bool exclude_flagged = false;

    // Graph method: calls per graph; 0 chooses N so one replay lasts about graph_replay_time, with at least 64
    // calls (a replay's own start, 1.3-2.1 us on an H100, is shared by them) unless a replay would pass 10 ms,
    // and at most 1000.
    unsigned calls_per_graph = 0;
    Duration graph_replay_time = Duration::from_us(200);

    // Throughput: what one call reads, writes and processes; 0 = not declared. Reported as GB/s, as a fraction
    // of the device's peak memory bandwidth, and as items/s.
    std::uint64_t bytes_read = 0;
    std::uint64_t bytes_written = 0;
    std::uint64_t items = 0;

    // Hardware metrics (docs/metrics.md): set names ("memory", "compute", "speed_of_light"/"sol", "roofline") or ncu metric
    // names. Checked against the device's list before warm-up; collected after the timing samples, in one call
    // of the callable of its own under CUPTI's Range Profiler (never among the samples), into
    // MeasureRecord::kernel_metrics. Empty: none.
    std::vector<std::string> metrics = {};  // "= {}": g++ warns of designated initialisers that skip a member without one

    void validate() const;  // std::invalid_argument naming the field
};

namespace detail {
// The callable as measure() runs it: given the stream to launch on.
using LaunchFn = std::function<void(cudaStream_t)>;
Series measure_erased(std::string name, cudaStream_t stream, const LaunchFn& launch, bool takes_stream,
                      const MeasureOptions& options, std::source_location where);
// std::invalid_argument naming `name` when `set` holds a non-empty series of that name.
void require_unused_series_name(const SeriesSet& set, std::string_view name);
}  // namespace detail

template <class F>
    requires std::invocable<F&, cudaStream_t> || std::invocable<F&>
Series measure(std::string name, cudaStream_t stream, F&& callable, const MeasureOptions& options = {},
               std::source_location where = std::source_location::current()) {
    if constexpr (std::invocable<F&, cudaStream_t>) {
        const detail::LaunchFn launch = [&callable](cudaStream_t s) { std::invoke(callable, s); };
        return detail::measure_erased(std::move(name), stream, launch, true, options, where);
    } else {
        const detail::LaunchFn launch = [&callable](cudaStream_t) { std::invoke(callable); };
        return detail::measure_erased(std::move(name), stream, launch, false, options, where);
    }
}

// Measures into set[name] and returns it; std::invalid_argument if the set already holds samples under that
// name (they would be mixed with samples of another run).
template <class F>
    requires std::invocable<F&, cudaStream_t> || std::invocable<F&>
Series& measure(SeriesSet& set, std::string_view name, cudaStream_t stream, F&& callable,
                const MeasureOptions& options = {}, std::source_location where = std::source_location::current()) {
    detail::require_unused_series_name(set, name);
    Series measured = measure(std::string(name), stream, std::forward<F>(callable), options, where);
    Series& into = set[name];
    into = std::move(measured);
    return into;
}

}  // namespace gpuchrono
