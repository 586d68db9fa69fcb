// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Synthetic rank reports with a known truth, for the merge tests and the merge benchmark: every rank runs
// `steps` passes of "step" on one true timeline; rank r's steady clock reads true + offset + drift x elapsed,
// and its reference offsets (what a ping-pong would measure) are exact to within `offset_error_ns`.
#pragma once

#include <gpuchrono/distributed/rank_section.hpp>
#include <gpuchrono/report/model/report.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace synthetic {

struct RankClock {
    std::int64_t offset_ns = 0;  // local - true at t0
    double drift = 0;            // local advances (1 + drift) ns per true ns
};

struct JobShape {
    int world_size = 4;
    int steps = 10;
    std::int64_t t0 = 1'000'000'000'000;  // true time of the run's start (ns)
    std::int64_t step_period_ns = 10'000'000;
    std::int64_t step_work_ns = 6'000'000;
    int late_rank = -1;                   // this rank's "step" lasts delay_ns longer on late_steps
    std::vector<int> late_steps;
    std::int64_t delay_ns = 0;
    std::int64_t offset_error_ns = 0;     // error put into the reference offsets (within their bound)
    std::size_t activities_per_rank = 0;  // kernels with CUPTI times (CUPTI clock = local steady + 5 s)
    bool kernel_per_step = false;         // also one kernel inside each step, 100 us from either end
    std::string job_id = "synthetic-1";
};

inline std::int64_t local_time(const RankClock& c, std::int64_t t0, std::int64_t truth) {
    return truth + c.offset_ns + static_cast<std::int64_t>(c.drift * static_cast<double>(truth - t0));
}

// True start and end of rank r's step k.
inline std::int64_t true_start(const JobShape& j, int, int k) { return j.t0 + 1'000'000 + k * j.step_period_ns; }
inline std::int64_t true_end(const JobShape& j, int r, int k) {
    bool late = false;
    for (const int s : j.late_steps) late |= s == k;
    return true_start(j, r, k) + j.step_work_ns + (r == j.late_rank && late ? j.delay_ns : 0);
}
inline std::int64_t true_finish(const JobShape& j) { return j.t0 + 2'000'000 + j.steps * j.step_period_ns; }

inline gpuchrono::report::Report rank_report(const JobShape& j, int r, const RankClock& c) {
    using namespace gpuchrono::distributed;
    gpuchrono::report::Report report;
    report.generator = "synthetic";
    report.host = "node" + std::to_string(r % 2);
    RankSection s;
    s.identity = {report.host, 1000 + r, r, r % 2, j.world_size, j.job_id, "manual"};
    const std::int64_t cupti_shift = 5'000'000'000;
    for (const std::int64_t truth : {j.t0, true_finish(j)}) {
        ClockAnchor a;
        a.steady_ns = local_time(c, j.t0, truth);
        a.system_ns = truth + 123;  // a system clock that agrees with the truth (one host's NTP) for the fallback path
        a.read_width_ns = 100;
        a.cupti_ns = a.steady_ns + cupti_shift;
        s.anchors.push_back(a);
        // The offset to rank 0, whose clock is taken as the truth here (rank 0 has offset 0 and no drift).
        ReferenceOffset o;
        o.at_steady_ns = a.steady_ns;
        o.offset_ns = truth - a.steady_ns + (r == 0 ? 0 : j.offset_error_ns);
        o.error_ns = r == 0 ? 0 : 5'000;
        s.reference_offsets.push_back(o);
    }
    for (int k = 0; k < j.steps; ++k)
        s.scopes.push_back({"step", local_time(c, j.t0, true_start(j, r, k)), local_time(c, j.t0, true_end(j, r, k)), -1, 0});
    gpuchrono::report::Experiment e;
    e.id = "synthetic";
    for (std::size_t i = 0; i < j.activities_per_rank; ++i) {
        gpuchrono::KernelActivity a;
        a.name = i % 10 == 9 ? "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)" : "void compute_kernel<float>(float*, int)";
        a.device = 0;
        a.stream = 7 + static_cast<std::uint32_t>(i % 2);
        const std::int64_t truth = j.t0 + 1'000'000 + static_cast<std::int64_t>(i) * 1'000;
        a.start_ns = static_cast<std::uint64_t>(local_time(c, j.t0, truth) + cupti_shift);
        a.end_ns = a.start_ns + 800;
        a.correlation_id = static_cast<std::uint32_t>(i);
        e.activities.push_back(std::move(a));
    }
    if (j.kernel_per_step)
        for (int k = 0; k < j.steps; ++k) {
            gpuchrono::KernelActivity a;
            a.name = "void step_kernel()";
            a.device = 0;
            a.stream = 7;
            a.start_ns = static_cast<std::uint64_t>(local_time(c, j.t0, true_start(j, r, k) + 100'000) + cupti_shift);
            a.end_ns = static_cast<std::uint64_t>(local_time(c, j.t0, true_end(j, r, k) - 100'000) + cupti_shift);
            e.activities.push_back(std::move(a));
        }
    report.experiments.push_back(std::move(e));
    report.distributed = std::move(s);
    return report;
}

}  // namespace synthetic
