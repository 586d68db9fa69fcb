// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Open question: what an EventPolicy scope costs on the host beyond a raw cudaEventRecord pair, checks on and in
// the minimal mode (checks = false), and which of its steps the excess is. Target: every check within 0.05x of the
// floor its own CUDA calls set around a raw pair; the minimal mode within 1.1x of the raw pair.
// Prints: host ns per empty scope, lazy (behind a queued 5 ms kernel, as around real work) and eager, against the
// raw calls; the minimal mode taken apart in place, step by step; and each check's own CUDA call alone.
// Not a test: it asserts nothing. Run on a GPU: bench_event_policy_cost
#include <cuda_runtime_api.h>

#include "bench_timing.hpp"
#include "device_banner.hpp"

#include <spin.hpp>

#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gpuchrono/core/device.hpp>
#include <gpuchrono/core/measurement.hpp>  // detail::PendingInterval, for the in-place layers
#include "gpu/context_id.hpp"
#include <gpuchrono/gpu/gpu_state.hpp>
#include <gpuchrono/gpu/stream.hpp>
#include <gpuchrono/core/nvtx_range.hpp>
#include <gpuchrono/gpu/event_floor.hpp>
#include <gpuchrono/gpu/event_pool.hpp>

#include <gpuchrono/api.hpp>

namespace {

// Host ns per call of each of `scopes`, measured in interleaved rounds (one batch of each per round, the queue
// drained after every batch), so that drift of the machine (clock, other tenants of the VM) falls on all of them
// alike. Returns, per scope, the median over rounds of its batch mean, and of its ratio to scopes[0].
struct Interleaved {
    std::vector<double> ns;
    std::vector<double> ratio;
};
Interleaved interleaved(const std::vector<std::function<void()>>& scopes, cudaStream_t stream, int rounds, int per_batch,
                        const std::function<void()>& before_batch = [] {}) {
    std::vector<std::vector<double>> ns(scopes.size()), ratio(scopes.size());
    for (int r = 0; r < rounds; ++r) {
        std::vector<double> round(scopes.size());
        for (std::size_t k = 0; k < scopes.size(); ++k) {
            before_batch();
            const auto t0 = Clock::now();
            for (int i = 0; i < per_batch; ++i) scopes[k]();
            round[k] = ns_since(t0) / per_batch;
            GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "draining between batches");
        }
        if (r == 0) continue;  // the first round warms every path up
        for (std::size_t k = 0; k < scopes.size(); ++k) {
            ns[k].push_back(round[k]);
            ratio[k].push_back(round[k] / round[0]);
        }
    }
    Interleaved out;
    for (std::size_t k = 0; k < scopes.size(); ++k) {
        out.ns.push_back(spread(ns[k]).median);
        out.ratio.push_back(spread(ratio[k]).median);
    }
    return out;
}

// The minimal mode's pending interval as event_policy.cpp has it (PlainPendingInterval), for [1]'s in-place layers:
// the two pooled events held until the interval is read or dropped, then handed back together.
class HeldPair final : public gpuchrono::detail::PendingInterval {
public:
    HeldPair(gpuchrono::EventLease start, gpuchrono::EventLease stop) : start_(std::move(start)), stop_(std::move(stop)) {}
    ~HeldPair() override { gpuchrono::EventLease::return_together(start_, stop_); }
    Duration resolve() override {
        std::lock_guard lock(mutex_);
        if (!value_) {
            GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(stop_.get()), "waiting for a held pair");
            float ms = 0.0f;
            GPUCHRONO_CUDA_CHECK(cudaEventElapsedTime(&ms, start_.get(), stop_.get()), "reading a held pair");
            value_ = Duration::from_ms(static_cast<double>(ms));
        }
        return *value_;
    }

private:
    std::mutex mutex_;
    gpuchrono::EventLease start_;
    gpuchrono::EventLease stop_;
    std::optional<Duration> value_;
};

void event_costs(cudaStream_t stream) {
    std::printf("\n[1] host ns per scope, EventPolicy vs raw event calls (empty scopes; interleaved rounds, median of "
                "the per-round means and of the per-round ratios)\n");
    gpuchrono::ScopedFindingReaction quiet(gpuchrono::Reaction::collect);  // empty scopes on an idle stream are rightly reported
    cudaEvent_t a = nullptr, b = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaEventCreate(&a), "creating a raw event");
    GPUCHRONO_CUDA_CHECK(cudaEventCreate(&b), "creating a raw event");
    // Lazy scopes run behind a spin queued before each batch, so the timed stream is busy at every start and stop,
    // as around real work: the scopes are clean and carry no finding. (An empty scope on an idle stream is
    // reported, timed-stream-idle, and building that message is the cost of a detected mistake, not of a scope.)
    const auto queue_work = [&] { kernels::launch_spin(Duration::from_ms(5), stream); };
    {
        queue_work();
        ScopedTimer<EventPolicy> t(stream, EventPolicy::Options{.wait_at_stop = false});
        const gpuchrono::Measurement m = t.stop();
        (void)m.duration();
        std::string codes;
        for (const gpuchrono::Finding& f : m.findings()) codes += " " + f.code;
        std::printf("  a lazy scope behind queued work, read: %zu findings%s (none at its stop; what its read finds is "
                    "outside the scope's cost)\n", m.findings().size(), codes.c_str());
    }
    // [1]'s layers (8) and (9), one piece of code: (9) is (8) with the pending interval (see the list below).
    const auto minimal_layer = [&](auto with_pending) {
        return [&stream] {
            gpuchrono::detail::prepare_nvtx();
            int device = -1;
            GPUCHRONO_CUDA_CHECK(cudaStreamGetDevice(stream, &device), "the stream's device");
            auto [start, stop] = gpuchrono::EventPool::instance().acquire_pair(device);
            GPUCHRONO_CUDA_CHECK(cudaEventRecord(start.get(), stream), "pooled start");
            gpuchrono::detail::NvtxRange range("event");
            GPUCHRONO_CUDA_CHECK(cudaEventRecord(stop.get(), stream), "pooled stop");
            if constexpr (decltype(with_pending)::value) {
                gpuchrono::Measurement kept = gpuchrono::Measurement::pending(
                    "event", std::make_shared<HeldPair>(std::move(start), std::move(stop)), device);
                range.end();
            } else {
                range.end();
                gpuchrono::EventLease::return_together(start, stop);
            }
        };
    };
    const Interleaved lazy = interleaved(
        {[&] {
             GPUCHRONO_CUDA_CHECK(cudaEventRecord(a, stream), "raw start");
             GPUCHRONO_CUDA_CHECK(cudaEventRecord(b, stream), "raw stop");
         },
         [&] { ScopedTimer<EventPolicy> t(stream, EventPolicy::Options{.wait_at_stop = false}); },
         [&] { ScopedTimer<EventPolicy> t(stream, EventPolicy::Options{.wait_at_stop = false, .checks = false}); },
         // The minimal mode's own steps added to the raw pair one by one, in place: the stream's device, then
         // the pooled pair instead of the two raw events.
         [&] {
             int device = -1;
             GPUCHRONO_CUDA_CHECK(cudaStreamGetDevice(stream, &device), "the stream's device");
             GPUCHRONO_CUDA_CHECK(cudaEventRecord(a, stream), "raw start");
             GPUCHRONO_CUDA_CHECK(cudaEventRecord(b, stream), "raw stop");
         },
         [&] {
             int device = -1;
             GPUCHRONO_CUDA_CHECK(cudaStreamGetDevice(stream, &device), "the stream's device");
             auto [start, stop] = gpuchrono::EventPool::instance().acquire_pair(device);
             GPUCHRONO_CUDA_CHECK(cudaEventRecord(start.get(), stream), "pooled start");
             GPUCHRONO_CUDA_CHECK(cudaEventRecord(stop.get(), stream), "pooled stop");
             gpuchrono::EventLease::return_together(start, stop);  // as a timer's pair goes back
         },
         // The checked mode's floor: the raw pair with every CUDA call its checks make on this path (a busy stream,
         // no capture, NVML not due), in place, without the library's C++ around them. Each costs more here
         // than timed alone (the list below): the records between them evict what the calls use.
         [&] {
             (void)gpuchrono::stream_is_capturing(stream);
             int device = -1;
             {
                 gpuchrono::RelaxedCaptureMode relaxed;
                 GPUCHRONO_CUDA_CHECK(cudaStreamGetDevice(stream, &device), "the stream's device");
                 (void)gpuchrono::stream_is_idle(stream);
                 (void)gpuchrono::detail::current_context_id();
                 (void)gpuchrono::current_device();
             }
             GPUCHRONO_CUDA_CHECK(cudaEventRecord(a, stream), "raw start");
             (void)gpuchrono::stream_is_capturing(stream);
             (void)gpuchrono::current_device();
             GPUCHRONO_CUDA_CHECK(cudaEventRecord(b, stream), "raw stop");
         },
         // The floor again with the library's own leaf steps added in place, in two layers, so that what the
         // full scope costs beyond them is the structure around (Measurement, pending interval, ScopedTimer):
         // (6) the pooled pair instead of the raw events; (7) plus the NVTX range and the per-device state the
         // checks read (GPU-state due check, floor, other processes). Behind queued work a scope reads no host clock.
         [&] {
             (void)gpuchrono::stream_is_capturing(stream);
             int device = -1;
             std::pair<gpuchrono::EventLease, gpuchrono::EventLease> pair;
             {
                 gpuchrono::RelaxedCaptureMode relaxed;
                 GPUCHRONO_CUDA_CHECK(cudaStreamGetDevice(stream, &device), "the stream's device");
                 (void)gpuchrono::stream_is_idle(stream);
                 pair = gpuchrono::EventPool::instance().acquire_pair(device);
                 (void)gpuchrono::current_device();
             }
             GPUCHRONO_CUDA_CHECK(cudaEventRecord(pair.first.get(), stream), "pooled start");
             (void)gpuchrono::stream_is_capturing(stream);
             (void)gpuchrono::current_device();
             GPUCHRONO_CUDA_CHECK(cudaEventRecord(pair.second.get(), stream), "pooled stop");
             gpuchrono::EventLease::return_together(pair.first, pair.second);
         },
         [&] {
             gpuchrono::detail::prepare_nvtx();
             (void)gpuchrono::stream_is_capturing(stream);
             int device = -1;
             std::pair<gpuchrono::EventLease, gpuchrono::EventLease> pair;
             gpuchrono::detail::NvtxRange range;
             {
                 gpuchrono::RelaxedCaptureMode relaxed;
                 GPUCHRONO_CUDA_CHECK(cudaStreamGetDevice(stream, &device), "the stream's device");
                 (void)gpuchrono::stream_is_idle(stream);
                 (void)gpuchrono::sample_gpu_state(device);
                 pair = gpuchrono::EventPool::instance().acquire_pair(device);
                 (void)gpuchrono::current_device();
             }
             GPUCHRONO_CUDA_CHECK(cudaEventRecord(pair.first.get(), stream), "pooled start");
             range = gpuchrono::detail::NvtxRange("event");
             (void)gpuchrono::stream_is_capturing(stream);
             (void)gpuchrono::current_device();
             GPUCHRONO_CUDA_CHECK(cudaEventRecord(pair.second.get(), stream), "pooled stop");
             range.end();
             (void)gpuchrono::recent_other_processes(device);
             (void)gpuchrono::known_event_pair_floor(device);
             gpuchrono::EventLease::return_together(pair.first, pair.second);
         },
         // The minimal mode's structure taken apart in place, on top of (4): (8) the NVTX range ScopedTimer opens
         // after the start record and closes after the stop record; (9) plus the pending interval that holds the
         // pair (allocated, handed to a Measurement the scope keeps, all of it freed at the scope's end, the pair
         // going back to the pool). What (2) costs beyond (9) is the
         // ScopedTimer and EventPolicy objects themselves.
         minimal_layer(std::false_type{}), minimal_layer(std::true_type{})},
        stream, 41, 200, queue_work);
    const Interleaved eager = interleaved(
        {[&] {
             GPUCHRONO_CUDA_CHECK(cudaEventRecord(a, stream), "raw start");
             GPUCHRONO_CUDA_CHECK(cudaEventRecord(b, stream), "raw stop");
             GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(b), "raw wait");
             float ms = 0;
             GPUCHRONO_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b), "raw read");
         },
         [&] { ScopedTimer<EventPolicy> t(stream); (void)t.stop().duration(); },
         [&] {
             ScopedTimer<EventPolicy> t(stream, EventPolicy::Options{.checks = false});
             (void)t.stop().duration();
         }},
        stream, 41, 100);
    std::printf("  lazy, behind queued work (record pair, no wait): raw %7.0f | EventPolicy %7.0f (%.2fx) | minimal %7.0f (%.2fx)\n", lazy.ns[0],
                lazy.ns[1], lazy.ratio[1], lazy.ns[2], lazy.ratio[2]);
    std::printf("    the raw pair + cudaStreamGetDevice %7.0f (%.2fx); + the pooled pair instead of raw events %7.0f (%.2fx); "
                "the rest of the minimal mode (pending Measurement, ScopedTimer) %+.0f ns\n", lazy.ns[3], lazy.ratio[3],
                lazy.ns[4], lazy.ratio[4], lazy.ns[2] - lazy.ns[4]);
    std::printf("    the raw pair + the CUDA calls of EventPolicy's checks, in place (its floor with every check on) %7.0f "
                "(%.2fx); EventPolicy's own C++ beyond them %+.0f ns\n", lazy.ns[5], lazy.ratio[5], lazy.ns[1] - lazy.ns[5]);
    std::printf("    the floor with the pooled pair %7.0f (%.2fx); with the library's leaf steps too (NVTX range, "
                "GPU-state due check, floor, other processes) %7.0f (%.2fx); EventPolicy beyond them (Measurement, "
                "pending interval, ScopedTimer) %+.0f ns\n", lazy.ns[6], lazy.ratio[6], lazy.ns[7], lazy.ratio[7], lazy.ns[1] - lazy.ns[7]);
    std::printf("    the minimal mode's structure in place: (4) + the NVTX range %7.0f (%.2fx); + the pending interval and "
                "its Measurement %7.0f (%.2fx); the ScopedTimer and EventPolicy objects beyond them %+.0f ns\n",
                lazy.ns[8], lazy.ratio[8], lazy.ns[9], lazy.ratio[9], lazy.ns[2] - lazy.ns[9]);
    std::printf("  eager, idle stream (pair + wait + read; EventPolicy reports timed-stream-idle): raw %7.0f | EventPolicy %7.0f (%.2fx) | minimal %7.0f (%.2fx)\n", eager.ns[0],
                eager.ns[1], eager.ratio[1], eager.ns[2], eager.ratio[2]);
    // What each check costs, one call at a time.
    int dev = 0;
    cudaStreamCaptureStatus status{};
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    const std::array<std::pair<const char*, std::function<void()>>, 7> calls = {{
        {"cudaStreamQuery", [&] { (void)cudaStreamQuery(stream); }},
        {"cudaStreamIsCapturing", [&] { (void)cudaStreamIsCapturing(stream, &status); }},
        {"cudaGetDevice", [&] { (void)cudaGetDevice(&dev); }},
        {"cudaStreamGetDevice", [&] { (void)cudaStreamGetDevice(stream, &dev); }},
        {"2x cudaThreadExchangeStreamCaptureMode", [&] {
             (void)cudaThreadExchangeStreamCaptureMode(&mode);
             (void)cudaThreadExchangeStreamCaptureMode(&mode);
         }},
        {"EventPool acquire+release x2", [&] {
             auto x = gpuchrono::EventPool::instance().acquire(dev);
             auto y = gpuchrono::EventPool::instance().acquire(dev);
         }},
        {"steady_clock::now", [&] { (void)Clock::now(); }},
    }};
    // The library's own steps on the checked path, one at a time (internal functions), so that what a scope
    // costs beyond the raw pair can be split into CUDA calls and the library's C++.
    cudaEvent_t done = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaEventCreate(&done), "creating a raw event");
    GPUCHRONO_CUDA_CHECK(cudaEventRecord(done, stream), "recording it");
    GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(done), "letting it complete");
    const std::array<std::pair<const char*, std::function<void()>>, 9> steps = {{
        {"cudaEventQuery (completed event)", [&] { (void)cudaEventQuery(done); }},
        {"stream_is_idle (checked query)", [&] { (void)gpuchrono::stream_is_idle(stream); }},
        {"stream_is_capturing (checked)", [&] { (void)gpuchrono::stream_is_capturing(stream); }},
        {"stream_device", [&] { (void)gpuchrono::stream_device(stream); }},
        {"runtime_context_id", [&] { (void)gpuchrono::detail::runtime_context_id(); }},
        {"EventPool acquire_pair+return_together", [&] {
             auto p = gpuchrono::EventPool::instance().acquire_pair(dev);
             gpuchrono::EventLease::return_together(p.first, p.second);
         }},
        {"known_event_pair_floor", [&] { (void)gpuchrono::known_event_pair_floor(dev); }},
        {"sample_gpu_state (not due)", [&] { (void)gpuchrono::sample_gpu_state(dev); }},
        {"NVTX range push+pop", [&] { gpuchrono::detail::NvtxRange r("event"); }},
    }};
    for (const auto& [what, call] : steps) std::printf("    %-40s %6.0f ns\n", what, ns_per_scope(call, stream, 11, 2000));
    (void)cudaEventDestroy(done);
    for (const auto& [what, call] : calls) std::printf("    %-40s %6.0f ns\n", what, ns_per_scope(call, stream, 11, 2000));
    (void)cudaEventDestroy(a);
    (void)cudaEventDestroy(b);
}

}  // namespace

int main() try {
    if (auto why = gpuchrono::no_device_reason()) {
        std::printf("bench_event_policy_cost: no CUDA device (%s); run it on a GPU machine\n", why->c_str());
        return 2;
    }
    print_device_banner("bench_event_policy_cost");
    cudaStream_t stream = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating the benchmark stream");
    bench::warm(stream);
    print_sm_clock("before the table");
    event_costs(stream);
    print_sm_clock("after the table");
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_event_policy_cost: %s\n", e.what());
    return 1;
}
