// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Example: per-block timing and loop timing (seed 002, the nvperf README), and the block timeline that
// nvperf lists as a TODO.
//
// nvperf's example is vadd: every thread repeats out[i] = x[i] + y[i]; NVPERF_EVENT_START/END record each
// block's start and end, and the host prints the kernel's span and the min/average/max block time. Its
// "loop timing" accumulates the time of a snippet that runs many times. Here both are gpuchrono probe
// regions: a ProbeRegion around the block's work, and a ProbeLoop whose iterations time the add itself.
//
//     __global__ void vadd(..., gpuchrono::DeviceProbe probe) {
//         gpuchrono::ProbeRegion block(probe, 0);               // the whole block
//         gpuchrono::ProbeLoop add(probe, 1);                   // one record per block: total and count
//         for (unsigned r = 0; r < repeat; ++r) { auto it = add.iteration(); out[i] = x[i] + y[i]; }
//     }
#include <cuda_runtime_api.h>

#include <gpuchrono/core/cuda_error.hpp>  // GPUCHRONO_CUDA_CHECK: a macro, which no module exports

#include <vadd.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
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

using gpuchrono::BlockSample;
using gpuchrono::Duration;
namespace report = gpuchrono::report;

// How many blocks shared the SM with each block, at the middle of its region: one reason block times differ.
std::vector<std::size_t> neighbours_at_midpoint(const std::vector<BlockSample>& samples) {
    std::vector<std::size_t> out;
    for (const BlockSample& s : samples) {
        const std::uint64_t mid = s.start_ns + (s.stop_ns - s.start_ns) / 2;
        std::size_t n = 0;
        for (const BlockSample& o : samples)
            if (&o != &s && o.sm_start == s.sm_start && o.start_ns <= mid && o.stop_ns > mid) ++n;
        out.push_back(n);
    }
    return out;
}

// One launch of vadd under a DeviceClockPolicy; returns its measurement (throws if it cannot be trusted).
gpuchrono::Measurement time_vadd(Context& ctx, const gpuchrono::DeviceClockPolicy::Options& options, const float* x,
                                 const float* y, float* out, unsigned n, unsigned repeat, bool time_loop) {
    gpuchrono::ScopedTimer<gpuchrono::DeviceClockPolicy> timer(ctx.stream(), options);
    gpuchrono::kernels::launch_vadd(x, y, out, n, repeat, time_loop, timer.policy().probe(), {}, ctx.stream());
    gpuchrono::Measurement m = timer.stop();
    (void)m.duration();  // a failed measurement says why here
    ctx.note_device_clock(*m.blocks());
    return m;
}

}  // namespace

report::Experiment block_timing(Context& ctx) {
    const report::DeviceInfo& device = ctx.device_info();
    const unsigned n = 1u << 20;  // elements: 4096 blocks of 256 threads
    const unsigned blocks = (n + gpuchrono::kernels::vadd_threads - 1) / gpuchrono::kernels::vadd_threads;
    const unsigned repeat = 10000;     // nvperf repeats 100000 times; a tenth keeps the tour short
    const unsigned loop_repeat = 1000;  // the loop-timed kernel synchronises the block twice per iteration
    const int repetitions = ctx.repetitions(10);  // 10: the fewest the library accepts for a median

    std::vector<float> host(n);
    for (unsigned i = 0; i < n; ++i) host[i] = static_cast<float>(i % 1000);
    DeviceArray<float> x(n), y(n), out(n);
    GPUCHRONO_CUDA_CHECK(cudaMemcpy(x.get(), host.data(), x.bytes(), cudaMemcpyHostToDevice), "copying x");
    GPUCHRONO_CUDA_CHECK(cudaMemcpy(y.get(), host.data(), y.bytes(), cudaMemcpyHostToDevice), "copying y");

    report::Experiment e;
    e.id = "block-timing";
    e.title = "Per-block and loop timing: nvperf's vadd";
    e.reproduces = "002";
    report::Progress progress("vadd per block and in a loop", 2 * static_cast<std::size_t>(repetitions));

    // ---- nvperf's event timing: one region per block.
    gpuchrono::DeviceClockPolicy::Options per_block;
    per_block.regions = {"gadd"};
    per_block.max_blocks = blocks;
    per_block.resident_blocks_per_sm = gpuchrono::kernels::vadd_resident_blocks_per_sm(false);
    gpuchrono::kernels::launch_vadd(x.get(), y.get(), out.get(), n, 1, false, {}, {}, ctx.stream());  // module load, untimed
    gpuchrono::Series kernel_series("device clock: vadd kernel, " + std::to_string(blocks) + " blocks, repeat " + std::to_string(repeat));
    std::vector<gpuchrono::Measurement> launches;
    for (int r = 0; r < repetitions; ++r) {
        launches.push_back(time_vadd(ctx, per_block, x.get(), y.get(), out.get(), n, repeat, false));
        kernel_series.add(launches.back());
        merge_findings(e.findings, launches.back().findings());
        progress.advance("per-block regions");
    }
    std::sort(launches.begin(), launches.end(),
              [](const gpuchrono::Measurement& a, const gpuchrono::Measurement& b) { return a.duration() < b.duration(); });
    const gpuchrono::Measurement& median_launch = launches[launches.size() / 2];
    const gpuchrono::BlockSamples& vadd = *median_launch.blocks();
    e.series.push_back(report::make_series(kernel_series));
    e.timelines.push_back(report::make_timeline("vadd, " + std::to_string(blocks) + " blocks x 256 threads (region per block)", vadd));

    // nvperf's post-processing, as a range pipeline: per-block durations into one summary.
    const gpuchrono::Stats block_stats = vadd.samples | gpuchrono::views::block_durations | gpuchrono::summarize;
    const Duration span = vadd.samples | gpuchrono::makespan;
    const Duration last_start = (vadd.samples | gpuchrono::views::launch_skew | gpuchrono::summarize).max;
    const gpuchrono::Waves shape = gpuchrono::waves(blocks, static_cast<std::size_t>(device.sm_count),
                                                    static_cast<std::size_t>(per_block.resident_blocks_per_sm));

    // Why blocks differ: the blocks that shared their SM with more others ran longer.
    const std::vector<std::size_t> neighbours = neighbours_at_midpoint(vadd.samples);
    std::map<std::size_t, std::vector<Duration>> by_neighbours;
    for (std::size_t i = 0; i < vadd.samples.size(); ++i)
        by_neighbours[neighbours[i]].push_back(gpuchrono::block_duration(vadd.samples[i]));
    const auto fewest = *by_neighbours.begin();
    const auto most = *by_neighbours.rbegin();
    const Duration fewest_mean = gpuchrono::summarize(fewest.second).mean, most_mean = gpuchrono::summarize(most.second).mean;

    // ---- nvperf's loop timing: the add itself, accumulated over its iterations.
    gpuchrono::DeviceClockPolicy::Options looped;
    looped.regions = {"block", "add"};
    looped.max_blocks = blocks;
    looped.resident_blocks_per_sm = gpuchrono::kernels::vadd_resident_blocks_per_sm(true);
    gpuchrono::kernels::launch_vadd(x.get(), y.get(), out.get(), n, 1, true, {}, {}, ctx.stream());  // module load, untimed
    std::vector<gpuchrono::Measurement> loop_launches;
    for (int r = 0; r < repetitions; ++r) {
        loop_launches.push_back(time_vadd(ctx, looped, x.get(), y.get(), out.get(), n, loop_repeat, true));
        merge_findings(e.findings, loop_launches.back().findings());
        progress.advance("loop region");
    }
    progress.finish();
    std::sort(loop_launches.begin(), loop_launches.end(),
              [](const gpuchrono::Measurement& a, const gpuchrono::Measurement& b) { return a.duration() < b.duration(); });
    const gpuchrono::BlockSamples& loop = *loop_launches[loop_launches.size() / 2].blocks();
    e.timelines.push_back(report::make_timeline(
        "vadd, " + std::to_string(blocks) + " blocks, add timed as a loop of " + std::to_string(loop_repeat), loop));

    // Per iteration of the add: on %globaltimer (ns steps of the timer, summed), and from the cycles at the
    // measured clock with the probe's calibrated cost per iteration taken off (net).
    const std::uint32_t add_id = 1, block_id = 0;
    double net_total = 0, ns_total = 0, iterations = 0, block_total = 0;
    for (const BlockSample& s : loop.samples) {
        if (s.region == add_id) {
            net_total += s.net_ns;
            ns_total += static_cast<double>(s.accumulated_ns);
            iterations += static_cast<double>(s.count);
        } else if (s.region == block_id) {
            block_total += gpuchrono::block_duration(s).ns();
        }
    }
    const Duration net_per_iteration = Duration::from_ns(net_total / iterations);
    const Duration timer_per_iteration = Duration::from_ns(ns_total / iterations);
    const double in_add = ns_total / block_total;

    e.metrics = {
        {"kernel, first block start to last block end", span.ns(), "ns", "nvperf: \"gadd start @ .., end @ ..\""},
        {"block time, mean", block_stats.mean.ns(), "ns",
         "min " + str(block_stats.min) + ", max " + str(block_stats.max) + " (nvperf: \"gadd cost\")"},
        {"last block start after the first", last_start.ns(), "ns", str(shape.waves) + " waves of " +
                                                                         std::to_string(shape.blocks_per_wave) + " blocks"},
        {"block time with " + std::to_string(fewest.first) + " other blocks on its SM", fewest_mean.ns(), "ns",
         std::to_string(fewest.second.size()) + " blocks"},
        {"block time with " + std::to_string(most.first) + " other blocks on its SM", most_mean.ns(), "ns",
         std::to_string(most.second.size()) + " blocks"},
        {"one add (loop region), net", net_per_iteration.ns(), "ns", "cycles at the measured clock, probe cost subtracted"},
        {"one add (loop region), on %globaltimer", timer_per_iteration.ns(), "ns", "probe cost included"},
        {"share of the loop-timed block inside the add region", 100.0 * in_add, "%", ""},
    };

    const double step = vadd.timer_step.ns();
    e.explanation = {
        "nvperf records each block's start and end and prints the kernel's span and the min/average/max block time. The "
        "same figures here: the kernel ran " + str(span) + " from its first block's start to its last block's end; a block took " +
            str(block_stats.mean) + " on average, between " + str(block_stats.min) + " and " + str(block_stats.max) +
            ". The table above and the CSV hold every block's record, the SVG timeline shows where and when each one ran.",
        "nvperf's README sees large differences between blocks and suspects preemption by other work. The records show a "
        "simpler cause: " + std::to_string(blocks) + " blocks are " + str(shape.waves) + " waves of the " +
            std::to_string(shape.blocks_per_wave) + " that fit at once (" + std::to_string(device.sm_count) + " SMs x " +
            std::to_string(per_block.resident_blocks_per_sm) +
            "), and a block's time depends on how many others share its SM: blocks with " + std::to_string(most.first) +
            " neighbours took " + str(most_mean) + " on average, blocks with " + std::to_string(fewest.first) + " took " +
            str(fewest_mean) + ". " +
            (shape.partial_last_wave ? "The last wave is partial (" + std::to_string(shape.blocks_in_last_wave) +
                                           " blocks): its blocks share SMs with fewer others and finish sooner, while most SMs idle. "
                                     : std::string()) +
            "Never infer where a block ran from blockIdx: the timeline shows the scheduler's order (docs/pitfalls-catalog.md row 25).",
        "Loop timing: the add, timed as " + std::to_string(loop_repeat) + " iterations of an accumulating region, costs " +
            str(net_per_iteration) + " per iteration from the cycles at the measured clock with the probe's own cost "
            "subtracted, and " + str(timer_per_iteration) + " per iteration on %globaltimer, which includes the probe. One "
            "iteration is shorter than the timer's step (" + (std::isnan(step) ? std::string("not measured") : str(Duration::from_ns(step))) +
            "), so each iteration's %globaltimer reading is 0 or a step: only the sum over many is meaningful, and the cycle "
            "count is the better measure. Each iteration also synchronises the block twice, so the loop-timed kernel is slower "
            "than the plain one: time a loop this way to find which snippet dominates (here " + str(100.0 * in_add) +
            "% of the block's time is inside the add region), not to measure the kernel's speed.",
    };
    return e;
}

}  // namespace gpuchrono_examples
