// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Example: event timing (seed 003) and host timing (seed 000, section 4.2.2), and their classic mistakes.
//
// Part 1 times one kernel, whose blocks spin for a known 100 us, with all three policies:
//     gpuchrono::ScopedTimer<gpuchrono::HostSyncPolicy>    t(stream);  // host clock, stream drained at both ends
//     gpuchrono::ScopedTimer<gpuchrono::EventPolicy>       t(stream);  // cudaEvent pair on the stream
//     gpuchrono::ScopedTimer<gpuchrono::DeviceClockPolicy> t(stream);  // %globaltimer inside the kernel
// and shows what each interval contains besides the kernel.
//
// Part 2 makes the mistakes the seeds warn about (and one they recommend) and shows the finding gpuchrono
// attaches to each measurement: a host timer stopped without synchronising, events recorded on another
// stream than the work, a start event followed by host work, no warm-up, and the legacy default stream.
#include <cuda_runtime_api.h>

#include <gpuchrono/core/cuda_error.hpp>  // GPUCHRONO_CUDA_CHECK: a macro, which no module exports

#include <cold_spin.hpp>
#include <spin.hpp>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

// The report model and its renderers' parts are internal (examples build richer reports than write_report).
#include <gpuchrono/report/render/progress.hpp>
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/render/report_files.hpp>
#include <gpuchrono/report/render/text_report.hpp>
#include <gpuchrono/report/render/units.hpp>

#include <gpuchrono/api.hpp>

#include "example.hpp"

namespace gpuchrono_examples {

namespace {

using gpuchrono::Duration;
namespace report = gpuchrono::report;

class Stream {
public:
    Stream() { GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "creating a second stream"); }
    ~Stream() { (void)cudaStreamDestroy(s_); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const noexcept { return s_; }

private:
    cudaStream_t s_ = nullptr;
};

// "gpuchrono attached: a, b." or "gpuchrono attached no finding."
std::string codes_of(const report::SampleSeries& s) {
    std::string out;
    for (const gpuchrono::Finding& f : s.findings) out += (out.empty() ? "" : ", ") + f.code;
    return out.empty() ? "gpuchrono attached no finding." : "gpuchrono attached: " + out + ".";
}

}  // namespace

report::Experiment event_and_host_timing(Context& ctx) {
    const cudaStream_t stream = ctx.stream();
    const auto sms = static_cast<unsigned>(ctx.device_info().sm_count);
    const Duration spin = Duration::from_us(100);
    const int repetitions = ctx.repetitions(21);
    // Ten samples per mistake: the fewest for which the library's own too-few-samples check (nvbench's
    // --min-samples) stays quiet, so each mistake's series shows the findings that mistake earns and no other.
    constexpr int mistake_samples = 10;

    report::Experiment e;
    e.id = "event-and-host-timing";
    e.title = "One kernel, three policies, and the classic timing mistakes";
    e.reproduces = "003, 000 (4.2.2)";
    report::Progress progress("policies and mistakes", 3 * static_cast<std::size_t>(repetitions) + 5 * mistake_samples);

    // ---- Part 1: the same kernel (every SM's block spins 100 us) under each policy, taken in turns so that
    // clock drift affects all three alike.
    gpuchrono::Series host("host-sync: kernel of 100 us"), event("event: kernel of 100 us"),
        device("device-clock: kernel of 100 us");
    gpuchrono::DeviceClockPolicy::Options options;
    options.regions = {"spin"};
    options.max_blocks = sms;
    gpuchrono::kernels::launch_spin(spin, stream, sms, 128);  // loads the module, untimed
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "warming up the spin kernel");
    for (int r = 0; r < repetitions; ++r) {
        {
            gpuchrono::ScopedTimer<gpuchrono::HostSyncPolicy> t(host, stream);
            gpuchrono::kernels::launch_spin(spin, stream, sms, 128);
        }
        {
            gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(event, stream);
            gpuchrono::kernels::launch_spin(spin, stream, sms, 128);
        }
        {
            gpuchrono::ScopedTimer<gpuchrono::DeviceClockPolicy> t(device, stream, options);
            gpuchrono::kernels::launch_spin(spin, stream, sms, 128, t.policy().probe());
            if (const auto& blocks = t.stop().blocks()) ctx.note_device_clock(*blocks);
        }
        progress.advance("three policies");
        progress.advance("three policies");
        progress.advance("three policies");
    }
    for (const gpuchrono::Series* s : {&host, &event, &device}) e.series.push_back(report::make_series(*s));
    const Duration host_median = e.series[0].stats.median, event_median = e.series[1].stats.median,
                   device_median = e.series[2].stats.median;

    // ---- Part 2: the mistakes. Each series' findings are what gpuchrono detected while measuring.
    // (i) A host clock around a launch, stopped without waiting for the kernel (seed 000, 4.2.2: "CUDA API
    //     functions are asynchronous"). HostClockPolicy(stream) watches the stream, so it can tell.
    const Duration long_spin = Duration::from_ms(5);
    gpuchrono::Series unsynced("mistake: host clock, no sync (kernel of 5 ms)");
    for (int r = 0; r < mistake_samples; ++r) {
        {
            gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> t(unsynced, stream);
            gpuchrono::kernels::launch_spin(long_spin, stream, 1, 128);
        }
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "letting the unsynchronised kernel finish");
        progress.advance("host clock without sync");
    }
    e.series.push_back(report::make_series(unsynced));
    const Duration unsynced_median = e.series.back().stats.median;

    // (ii) Events recorded on another stream than the kernel's (seed 003 notes the two events "need not be on
    //      the same stream"; the interval then measures that other stream, which had nothing to do).
    const Duration mid_spin = Duration::from_ms(2);
    gpuchrono::Series other_stream("mistake: events on another stream (kernel of 2 ms)");
    {
        Stream second;
        for (int r = 0; r < mistake_samples; ++r) {
            {
                gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(other_stream, second.get());
                gpuchrono::kernels::launch_spin(mid_spin, stream, 1, 128);
            }
            GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "letting the kernel on the first stream finish");
            progress.advance("events on another stream");
        }
    }
    e.series.push_back(report::make_series(other_stream));
    const Duration other_median = e.series.back().stats.median;

    // (iii) The start event recorded on an idle stream, then host work before the launch (the nvperf README's
    //       warning): the event fires at once, so the host's 1 ms is inside the interval.
    gpuchrono::Series host_work("mistake: 1 ms of host work after the start event (kernel of 100 us)");
    for (int r = 0; r < mistake_samples; ++r) {
        {
            gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(host_work, stream);
            std::this_thread::sleep_for(std::chrono::milliseconds(1));  // stands for preparing the next launch
            gpuchrono::kernels::launch_spin(spin, stream, sms, 128);
        }
        progress.advance("host work inside the event pair");
    }
    e.series.push_back(report::make_series(host_work));
    const Duration host_work_median = e.series.back().stats.median;

    // (iv) No warm-up (seed 000: "run once before timing"): the first launch of a kernel loads its module.
    const Duration cold = Duration::from_us(50);
    gpuchrono::Series cold_series("mistake: no warm-up (kernel of 50 us, first launch included)");
    for (int r = 0; r < mistake_samples; ++r) {
        {
            gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(cold_series, stream);
            gpuchrono::kernels::launch_cold_spin(cold, stream);
        }
        progress.advance("no warm-up");
    }
    e.series.push_back(report::make_series(cold_series));
    const std::size_t cold_index = e.series.size() - 1;  // an index: e.series grows below
    const Duration first_cold =
        e.series[cold_index].samples.empty() ? Duration::from_ns(report::not_measured) : e.series[cold_index].samples.front();

    // (v) The seed's recommendation: events on stream 0, the legacy default stream, which waits for and holds
    //     up every blocking stream of the device. Right here (nothing else runs), but worth knowing.
    gpuchrono::Series legacy("events on the legacy default stream (kernel of 100 us)");
    for (int r = 0; r < mistake_samples; ++r) {
        {
            gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(legacy, cudaStreamLegacy);
            gpuchrono::kernels::launch_spin(spin, cudaStreamLegacy, sms, 128);
        }
        progress.advance("legacy default stream");
    }
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy), "draining the legacy default stream");
    progress.finish();
    e.series.push_back(report::make_series(legacy));
    const report::SampleSeries& cold_result = e.series[cold_index];

    auto over = [&](Duration measured) { return measured - device_median; };
    e.metrics = {
        {"device clock (first block start to last block end)", device_median.ns(), "ns", "the spin is 100 us"},
        {"event pair", event_median.ns(), "ns", "+" + str(over(event_median)) + " over the device clock"},
        {"host clock with synchronisation", host_median.ns(), "ns", "+" + str(over(host_median)) + " over the device clock"},
        {"host clock without sync, 5 ms kernel", unsynced_median.ns(), "ns", str(long_spin / unsynced_median) + "x too low"},
        {"events on another stream, 2 ms kernel", other_median.ns(), "ns", str(mid_spin / other_median) + "x too low"},
        {"host work after the start event, 100 us kernel", host_work_median.ns(), "ns", "includes the host's 1 ms"},
        {"first launch without warm-up, 50 us kernel", first_cold.ns(), "ns",
         "median of the rest " + str(cold_result.stats.median)},
    };

    e.explanation = {
        "Part 1: one kernel, every block spinning 100 us, timed " + std::to_string(repetitions) +
            " times by each policy in turn. Inside the kernel, %globaltimer says it ran " + str(device_median) +
            " from the first block's start to the last block's end. The event pair reads " + str(event_median) + " (+" +
            str(over(event_median)) + "): the interval starts when the GPU processes the start event, so it also holds "
            "the launch of the kernel. The host clock with the stream synchronised at both ends reads " + str(host_median) +
            " (+" + str(over(host_median)) + "): it adds the launch call and the wake-up from the final synchronisation. "
            "Each is right for its question: the event pair for GPU time on a stream, the host clock for what a caller "
            "waits, the device clock for the kernel itself.",
        "(i) A host clock around the launch without a synchronisation reads " + str(unsynced_median) + " for a 5 ms kernel (" +
            str(long_spin / unsynced_median) + "x too low): the launch returns before the kernel runs, as seed 000 warns. " +
            codes_of(e.series[3]),
        "(ii) Events recorded on a second stream while the 2 ms kernel runs on the first read " + str(other_median) +
            ": the pair measures the second stream, which had nothing to do (seed 003: the two events need not share a "
            "stream, and then the interval is not the kernel's). " + codes_of(e.series[4]),
        "(iii) A start event recorded on an idle stream fires at once; the 1 ms of host work before the launch then lies "
        "inside the interval, which reads " + str(host_work_median) + " for a 100 us kernel (the nvperf README's warning). " +
            codes_of(e.series[5]),
        "(iv) Without a warm-up the first launch of a kernel loads its module (lazy loading, the default since CUDA 12.2): "
        "the first of " + std::to_string(mistake_samples) + " samples reads " + str(first_cold) + " against a median of " + str(cold_result.stats.median) + ". " +
            codes_of(cold_result) + " Seed 000 advises a run before timing for this reason.",
        "(v) Seed 003 suggests recording both events on stream 0 to time the GPU's work. The legacy default stream waits for "
        "every other blocking stream and holds them up; alone on the GPU, as here, the reading is right (" +
            str(e.series[7].stats.median) + "), but beside other work it is not. " + codes_of(e.series[7]),
    };
    return e;
}

}  // namespace gpuchrono_examples
