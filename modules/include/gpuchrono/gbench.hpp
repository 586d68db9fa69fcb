// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Google Benchmark with the GPU's own time: each iteration's time is the CUPTI record of the work it launched
// (KernelPolicy), handed to Google Benchmark's manual time. Opt-in, header-only: Google Benchmark is the user's
// dependency (1.7 or later), so this header is neither part of the module nor of <gpuchrono/gpuchrono.hpp>; the
// program links gpuchrono and benchmark.
//
//     #include <benchmark/benchmark.h>
//     #include <gpuchrono/gbench.hpp>
//
//     static void saxpy(benchmark::State& state) {
//         gpuchrono::gbench::run(state, [&](cudaStream_t s) { saxpy_kernel<<<blocks, 256, 0, s>>>(n, a, x, y); },
//                                {.bytes_read = 2 * n * sizeof(float), .bytes_written = n * sizeof(float)});
//     }
//     BENCHMARK(saxpy)->UseManualTime();   // manual time: without it Google Benchmark reports the host's clock
//
// The body launches its work on the stream it is given (a non-blocking stream the bridge owns for the run).
//
// No synchronization per iteration. Iterations run in batches of up to Options::batch: each iteration is a
// KernelPolicy scope that ends without waiting (a pending Measurement), and at the end of the batch the first
// read waits for the batch's work once and flushes CUPTI's buffers once; then SetIterationTime() is called once
// per iteration of the batch with that iteration's record. The batches are Google Benchmark's own
// KeepRunningBatch(k), with k = min(batch, iterations still to run): Google Benchmark counts every iteration
// and, when it has run them all, has been given every iteration's time, so its iteration-count logic (grow the
// count until the manual time reaches --benchmark_min_time) and its repetitions work as with one
// SetIterationTime() per iteration. The host's wait at the end of a batch is in the real and CPU times Google
// Benchmark also reports, never in the manual time.
//
// What else is reported, per run: bytes_per_second / items_per_second from the work's declared bytes and items
// per iteration (SetBytesProcessed, SetItemsProcessed); the counter gpuchrono_warnings, the number of
// iterations whose measurement carried a warning-level finding, and the label "gpuchrono: <code>, ..." naming
// those findings' codes (the findings go nowhere else: they are collected, not printed).
//
// Refusals, each through state.SkipWithError() with the reason (the benchmark reports the error and no time):
// no usable CUDA device, CUPTI unavailable (another tool holds it, or no libcupti), a body that launched nothing
// on the given stream, a body that throws (its what()), a CUDA error.
#pragma once

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/core/finding.hpp>
#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/core/measurement.hpp>
#include <gpuchrono/policies/kernel/kernel_policy.hpp>

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gpuchrono::gbench {

struct Options {
    // Iterations launched before one wait and one flush: larger batches cost less host time per iteration and
    // keep more of CUPTI's records in host memory (about 80 B each) until they are read.
    std::size_t batch = 256;
    std::uint64_t bytes_read = 0;     // per iteration, for bytes_per_second
    std::uint64_t bytes_written = 0;  // per iteration
    std::int64_t items = 0;           // per iteration, for items_per_second
    // stream: the work enqueued on the given stream counts (a body that launches elsewhere is refused with
    // kernel-no-activity); thread: every launch of the benchmark's thread counts, on any stream, without the
    // two marker kernels per iteration the stream mode adds to the GPU's (not the timed) work.
    KernelPolicy::Count count = KernelPolicy::Count::stream;
};

namespace detail {

// The run's own stream: non-blocking, so the legacy default stream's work neither waits for it nor joins it.
class OwnedStream {
public:
    OwnedStream() {
        GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking),
                             "the Google Benchmark bridge's stream");
    }
    ~OwnedStream() {
        if (stream_ != nullptr) {
            (void)cudaStreamSynchronize(stream_);
            (void)cudaStreamDestroy(stream_);
        }
    }
    OwnedStream(const OwnedStream&) = delete;
    OwnedStream& operator=(const OwnedStream&) = delete;
    cudaStream_t get() const noexcept { return stream_; }

private:
    cudaStream_t stream_ = nullptr;
};

// Why an iteration's measurement cannot stand for its time, or nothing: failed, or no work on the stream.
inline std::optional<std::string> refusal(const Measurement& m) {
    if (m.resolve() == Measurement::State::failed) return "gpuchrono: the iteration's measurement failed: " + m.error();
    for (const Finding& f : m.findings())
        if (f.code == codes::kernel_no_activity)
            return "gpuchrono: the benchmark body launched no GPU work on the stream it was given (" + f.message +
                   "); launch on the cudaStream_t the body receives";
    return std::nullopt;
}

}  // namespace detail

// Runs the benchmark's iterations: body(cudaStream_t) launches one iteration's work on the stream it is given.
// Call it once per benchmark function, in place of Google Benchmark's `for (auto _ : state)` loop.
template <class Body>
void run(benchmark::State& state, Body&& body, Options options = {}) {
    if (options.batch == 0) {
        state.SkipWithError("gpuchrono::gbench::Options::batch must be at least 1");
        return;
    }
    if (const std::optional<std::string> why = no_device_reason()) {
        state.SkipWithError(("gpuchrono: no usable CUDA device: " + *why).c_str());
        return;
    }
    std::string error;
    std::set<std::string> warned_codes;
    std::int64_t warned_iterations = 0;
    try {
        ScopedFindingReaction collect(Reaction::collect);  // findings go to the counters and the label
        detail::OwnedStream stream;
        if (!KernelPolicy::available()) {
            state.SkipWithError(("gpuchrono: CUPTI is unavailable, so no kernel can be timed: " +
                                 KernelPolicy::unavailable_reason()).c_str());
            return;
        }
        KernelPolicy policy(stream.get(), {.count = options.count, .wait_at_stop = false});
        std::vector<Measurement> pending;
        pending.reserve(options.batch);
        // Google Benchmark 1.7's max_iterations is the count it chose for this run; the batches add up to it.
        std::int64_t left = static_cast<std::int64_t>(state.max_iterations);
        while (error.empty()) {
            const std::int64_t k = std::max<std::int64_t>(1, std::min<std::int64_t>(left, static_cast<std::int64_t>(options.batch)));
            if (!state.KeepRunningBatch(static_cast<benchmark::IterationCount>(k))) break;
            left -= k;
            pending.clear();
            for (std::int64_t i = 0; i < k; ++i) {
                policy.start();
                body(stream.get());
                pending.push_back(policy.stop());
            }
            for (const Measurement& m : pending) {  // the first read waits and flushes for the whole batch
                if (std::optional<std::string> why = detail::refusal(m)) {
                    error = std::move(*why);
                    break;
                }
                bool warned = false;
                for (const Finding& f : m.findings())
                    if (f.severity != Severity::info) {
                        warned_codes.insert(f.code);
                        warned = true;
                    }
                warned_iterations += warned ? 1 : 0;
                state.SetIterationTime(m.duration().ns() * 1e-9);
            }
        }
    } catch (const std::exception& e) {
        error = std::string("gpuchrono: the benchmark stopped: ") + e.what();
    }
    if (!error.empty()) {
        state.SkipWithError(error.c_str());
        return;
    }
    const auto iterations = static_cast<std::int64_t>(state.iterations());
    if (options.bytes_read + options.bytes_written > 0)
        state.SetBytesProcessed(iterations * static_cast<std::int64_t>(options.bytes_read + options.bytes_written));
    if (options.items > 0) state.SetItemsProcessed(iterations * options.items);
    state.counters["gpuchrono_warnings"] = benchmark::Counter(static_cast<double>(warned_iterations));
    if (!warned_codes.empty()) {
        std::string label = "gpuchrono:";
        for (const std::string& code : warned_codes) label += (label.size() > 10 ? ", " : " ") + code;
        state.SetLabel(label);
    }
}

// Registers `name` with Google Benchmark, timed by run() with manual time on. Returns Google Benchmark's
// handle for further settings (->Arg(), ->Repetitions(), ...).
template <class Body>
benchmark::internal::Benchmark* register_benchmark(const std::string& name, Body body, Options options = {}) {
    return benchmark::RegisterBenchmark(name.c_str(), [body, options](benchmark::State& state) mutable {
               run(state, body, options);
           })->UseManualTime();
}

}  // namespace gpuchrono::gbench
