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
// No synchronization per iteration. Iterations run in batches of up to Options::batch: per iteration the bridge
// calls the body and notes how many launch calls the thread has made so far (CUPTI's launch callbacks give each
// call's correlation id, which CUPTI stamps on the records of the work the call launched); at the end of the batch
// it waits for the batch's work once, flushes CUPTI's buffers once, and calls SetIterationTime() once per iteration
// with the busy time of that iteration's records. The iterations' records are told apart by correlation ids, never by
// timestamps, and no marker kernel is launched. The batches are Google Benchmark's own KeepRunningBatch(k), with
// k = min(batch, iterations still to run): Google Benchmark counts every iteration and, when it has run them all,
// has been given every iteration's time, so its iteration-count logic (grow the count until the manual time reaches
// --benchmark_min_time) and its repetitions work as with one SetIterationTime() per iteration. The host's wait at
// the end of a batch is in the real and CPU times Google Benchmark also reports, never in the manual time.
// While the bridge runs, CUPTI records every kernel of the process and calls back at each launch call: a launch
// costs a little more host time meanwhile (bench/gbench_bridge.cpp prints both bare launches side by side).
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
#include <gpuchrono/policies/kernel/iteration_batch.hpp>
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
    // keep more of CUPTI's records in host memory (about 100 B each) until they are read.
    std::size_t batch = 256;
    std::uint64_t bytes_read = 0;     // per iteration, for bytes_per_second
    std::uint64_t bytes_written = 0;  // per iteration
    std::int64_t items = 0;           // per iteration, for items_per_second
    // stream: the work enqueued on the given stream during the iteration counts, by any thread, with the kernels of
    // graphs the body launched (a body whose work all ran elsewhere is refused with kernel-no-activity; work that
    // also ran elsewhere is kernel-activity-elsewhere); thread: every launch of the benchmark's thread counts, on
    // any stream.
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

// Why a batch's times cannot stand for its iterations, or nothing: an iteration counted no work on the stream, or
// CUPTI's records of the batch are incomplete.
inline std::optional<std::string> refusal(const Findings& found) {
    for (const Finding& f : found)
        if (f.code == codes::kernel_no_activity)
            return "gpuchrono: the benchmark body launched no GPU work on the stream it was given (" + f.message +
                   "); launch on the cudaStream_t the body receives";
    for (const Finding& f : found)
        if (f.code == codes::kernel_records_dropped || f.code == codes::kernel_records_late)
            return "gpuchrono: the iterations' times are incomplete: " + f.message;
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
        IterationBatch batch(stream.get(), options.count, options.batch);
        // Google Benchmark 1.7's max_iterations is the count it chose for this run; the batches add up to it.
        std::int64_t left = static_cast<std::int64_t>(state.max_iterations);
        while (error.empty()) {
            const std::int64_t k = std::max<std::int64_t>(1, std::min<std::int64_t>(left, static_cast<std::int64_t>(options.batch)));
            if (!state.KeepRunningBatch(static_cast<benchmark::IterationCount>(k))) break;
            left -= k;
            batch.begin();
            for (std::int64_t i = 0; i < k; ++i) {
                body(stream.get());
                batch.end_iteration();
            }
            const IterationBatch::Times& times = batch.read();
            if (std::optional<std::string> why = detail::refusal(times.findings)) {
                error = std::move(*why);
                break;
            }
            if (times.ns.size() != static_cast<std::size_t>(k)) {
                error = "gpuchrono: the bridge noted " + std::to_string(times.ns.size()) + " of the batch's " +
                        std::to_string(k) + " iterations (out of memory)";
                break;
            }
            for (const Finding& f : times.findings)
                if (f.severity != Severity::info) warned_codes.insert(f.code);
            for (std::size_t i = 0; i < times.ns.size(); ++i) {
                warned_iterations += times.warned[i] ? 1 : 0;
                state.SetIterationTime(times.ns[i] * 1e-9);
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
