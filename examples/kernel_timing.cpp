// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Example: the bias table. One kernel whose single block spins for a known D, timed by all four
// policies in turns, D = 1 us .. 1 ms:
//     gpuchrono::ScopedTimer<gpuchrono::HostSyncPolicy>    t(stream);  // host clock, stream drained at both ends
//     gpuchrono::ScopedTimer<gpuchrono::EventPolicy>       t(stream);  // cudaEvent pair on the stream
//     gpuchrono::ScopedTimer<gpuchrono::KernelPolicy>      t(stream);  // the GPU's own record of the kernel (CUPTI)
//     gpuchrono::ScopedTimer<gpuchrono::DeviceClockPolicy> t(stream);  // %globaltimer inside the kernel
// and what each reads above D. Then one library call, cub::DeviceReduce::Sum, under KernelPolicy: the kernels
// CUB launched inside it, by name, with their GPU times.
#include <cuda_runtime_api.h>

#include <gpuchrono/core/cuda_error.hpp>  // GPUCHRONO_CUDA_CHECK: a macro, which no module exports

#include <cub_sum.hpp>
#include <spin.hpp>

#include <string>
#include <vector>

// The report model and its renderers' parts are internal (examples build richer reports than write_report).
#include <gpuchrono/report/render/progress.hpp>
#include <gpuchrono/report/model/report.hpp>

#include <gpuchrono/api.hpp>

#include "example.hpp"

namespace gpuchrono_examples {

using gpuchrono::Duration;
namespace report = gpuchrono::report;

report::Experiment kernel_timing(Context& ctx) {
    const cudaStream_t stream = ctx.stream();
    const int repetitions = ctx.repetitions(21);
    const std::vector<Duration> lengths = {Duration::from_us(1), Duration::from_us(10), Duration::from_us(100),
                                           Duration::from_ms(1)};
    report::Experiment e;
    e.id = "kernel-timing";
    e.title = "Four policies against a kernel of known length, and the kernels inside a library call";
    const bool cupti = gpuchrono::KernelPolicy::available();
    report::Progress progress("bias table", lengths.size() * 4 * static_cast<std::size_t>(repetitions) + 1);

    gpuchrono::DeviceClockPolicy::Options probe;
    probe.regions = {"spin"};
    probe.max_blocks = 1;
    gpuchrono::kernels::launch_spin(Duration::from_us(10), stream);  // loads the module, untimed
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "warming up the spin kernel");

    std::string table;  // one sentence per D for the explanation
    for (Duration d : lengths) {
        const std::string at = " (D = " + str(d) + ")";
        gpuchrono::Series host("host-sync" + at), event("event" + at), kernel("kernel" + at), device("device-clock" + at);
        for (int r = 0; r < repetitions; ++r) {
            {
                gpuchrono::ScopedTimer<gpuchrono::HostSyncPolicy> t(host, stream);
                gpuchrono::kernels::launch_spin(d, stream);
            }
            {
                gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(event, stream);
                gpuchrono::kernels::launch_spin(d, stream);
            }
            if (cupti) {
                gpuchrono::ScopedTimer<gpuchrono::KernelPolicy> t(kernel, stream);
                gpuchrono::kernels::launch_spin(d, stream);
            }
            {
                gpuchrono::ScopedTimer<gpuchrono::DeviceClockPolicy> t(device, stream, probe);
                gpuchrono::kernels::launch_spin(d, stream, 1, 32, t.policy().probe());
                if (const auto& blocks = t.stop().blocks()) ctx.note_device_clock(*blocks);
            }
            for (int i = 0; i < 4; ++i) progress.advance("D = " + str(d));
        }
        std::string sentence = "D = " + str(d) + ":";
        for (const gpuchrono::Series* s : {&host, &event, &kernel, &device}) {
            if (s->size() == 0) continue;
            e.series.push_back(report::make_series(*s));
            const Duration median = e.series.back().stats.median;
            const std::string policy = e.series.back().policy;
            e.metrics.push_back({policy + " bias" + at, (median - d).ns(), "ns", "median " + str(median)});
            sentence += " " + policy + " +" + str(median - d) + ",";
        }
        sentence.back() = '.';
        table += (table.empty() ? "" : " ") + sentence;
    }

    std::string library = "KernelPolicy is unavailable here (" + gpuchrono::KernelPolicy::unavailable_reason() +
                          "), so the bias table has no KernelPolicy column and the library call is not listed.";
    if (cupti) {
        gpuchrono::kernels::CubSum sum(1u << 24);
        sum.launch(stream);  // CUB's kernels load lazily: the first call is not timed
        (void)sum.result(stream);
        gpuchrono::ScopedTimer<gpuchrono::KernelPolicy> t(stream);
        sum.launch(stream);
        const gpuchrono::Measurement& m = t.stop();
        e.activities = m.activities();
        gpuchrono::Findings found = m.findings();
        merge_findings(e.findings, found);
        e.metrics.push_back({"cub::DeviceReduce::Sum, 16M floats: GPU busy", m.duration().ns(), "ns",
                             std::to_string(m.activities().size()) + " kernels, span " + str(m.span().value_or(Duration{}))});
        std::string kernels;
        for (const gpuchrono::KernelActivity& a : m.activities())
            kernels += (kernels.empty() ? "" : "; ") + a.name + " (" + str(Duration::from_ns(static_cast<double>(a.duration_ns()))) +
                       ", grid " + std::to_string(a.grid[0]) + ", block " + std::to_string(a.block[0]) + ")";
        library = "One call of cub::DeviceReduce::Sum over 16M floats launched " + std::to_string(m.activities().size()) +
                  " kernels, which KernelPolicy lists with the GPU's own times: " + kernels +
                  ". Their busy time is " + str(m.duration()) + " and their span " + str(m.span().value_or(Duration{})) +
                  " (the span includes the gap between the kernels). No event pair can split a library call like this.";
    }
    progress.advance("library call");
    progress.finish();

    e.explanation = {
        "The kernel's one block spins on %globaltimer until D has passed, so D is known. Each policy timed it " +
            std::to_string(repetitions) + " times, in turns; the figures are medians above D. " + table,
        "What each interval holds besides the kernel: HostSyncPolicy adds the launch call and the wake-up from the "
        "final synchronisation; EventPolicy the launch latency between the start event and the kernel (docs/pitfalls-catalog.md "
        "#22); KernelPolicy only the kernel's own lifetime on the GPU as CUPTI records it (launch to completion of its "
        "blocks, about 0.85 us above D on an H100); DeviceClockPolicy the time inside the kernel between its probe "
        "reads (tens of ns above D), but only for kernels built with the probe. KernelPolicy needs no change to the "
        "kernel, so it also times kernels you did not write.",
        library,
    };
    return e;
}

}  // namespace gpuchrono_examples
