// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A Report holding one of everything the renderers must handle: NaN figures, 64-bit timestamps beyond
// 2^53, names with quotes, commas, markup and non-ASCII text, overlapping blocks on one SM, nested regions,
// a loop region, a block that changed SM, dropped records, a sweep with bands and markers, and findings
// with evidence. Include after `import gpuchrono;` (it uses the module's names).
#pragma once

inline gpuchrono::report::Report sample_report() {
    using namespace gpuchrono;
    using namespace gpuchrono::report;
    Report r;
    r.generator = "gpuchrono test";
    r.created_utc = "2025-11-22T04:10:00Z";
    r.host = "test-host";
    r.device.index = 0;
    r.device.name = "NVIDIA H100 80GB HBM3";
    r.device.compute_major = 9;
    r.device.compute_minor = 0;
    r.device.sm_count = 132;
    r.device.sm_clock_nominal_mhz = 1980;
    r.device.sm_clock_measured_mhz = 1755.5;
    r.device.memory_clock_mhz = 2619;
    r.device.memory_bus_bits = 5120;
    r.device.global_memory_bytes = 85'029'158'912ull;
    r.device.l2_bytes = 52'428'800;
    r.device.shared_memory_per_sm_bytes = 233'472;
    r.device.max_threads_per_sm = 2048;
    r.device.max_blocks_per_sm = 32;
    r.device.globaltimer_step_ns = 32;
    r.device.driver_version = 13000;
    r.device.runtime_version = 13000;
    r.notes = {"NVML not available: GPU-state checks are off"};

    Experiment a;
    a.id = "policies";
    a.title = "Three policies, \"one\" kernel <b>&</b>, commas";
    a.reproduces = "003";
    a.explanation = {"First paragraph, long enough to be wrapped by the text renderer when it exceeds the width of the "
                     "terminal report, which is one hundred columns wide.",
                     "Second paragraph: µs and × survive."};
    a.metrics = {{"launch overhead", 6800.0, "ns", "event - device clock"},
                 {"speed-up", 7.26, "x", ""},
                 {"bandwidth", 2710.4, "GB/s", "read, \"coalesced\""},
                 {"unmeasured", not_measured, "GB/s", ""}};
    Finding pending{"host-stop-with-pending-work", Severity::warning,
                    "stream had pending work when the host timer stopped: the 68.8 us measured exclude it",
                    "synchronize the stream or use EventPolicy"};
    pending.where = "example.cpp:42";
    pending.evidence = {{"measured_ns", 68800.0}, {"pending_ns", not_measured}};
    a.series.push_back(make_series("event, 200 us spin", "event",
                                   {Duration::from_us(206.9), Duration::from_us(207.2), Duration::from_us(206.8)}));
    a.series.push_back(make_series("host clock, no sync", "host-clock", {Duration::from_us(5.1)}, {pending}));
    a.series.push_back(make_series("empty, all failed", "host-sync", {}));
    a.series.back().failed = 2;
    a.series.back().first_error = "cudaErrorLaunchFailure: unspecified launch failure";
    a.findings = {Finding{"cold-start", Severity::info, "first sample 3.1x the median", "warm up"}};

    Timeline t;
    t.name = "vadd, 6 blocks x 256 threads";
    t.device = 0;
    t.regions = {"block", "add, \"inner\"", "loop <body>"};
    t.blocks_launched = 8;
    t.threads_per_block = 256;
    t.sm_count = 132;
    t.resident_blocks_per_sm = 8;
    t.dropped = 2;
    t.globaltimer_step_ns = 32;
    t.sm_clock_mhz = 1755.5;
    t.sm_clock_source = "kernel-samples";
    t.overhead_region_cycles = 62;
    t.overhead_iteration_cycles = 40;
    t.overhead_subtracted = true;
    const std::uint64_t base = 1'763'784'600'123'456'789ull;  // a real %globaltimer reading: far above 2^53
    auto add = [&](std::uint32_t block, std::uint32_t region, std::uint32_t sm, std::uint64_t start, std::uint64_t stop,
                   std::uint32_t sm_stop) {
        BlockSample s;
        s.block = block;
        s.region = region;
        s.sm_start = sm;
        s.sm_stop = sm_stop;
        s.start_ns = base + start;
        s.stop_ns = base + stop;
        s.start_cycles = 9'000'000'000'000'000'001ull + start * 2;
        s.stop_cycles = s.start_cycles + (stop - start) * 2;
        s.accumulated_ns = stop - start;
        s.accumulated_cycles = sm == sm_stop ? (stop - start) * 2 : 0;
        s.cycles_valid = sm == sm_stop;
        s.net_ns = static_cast<double>(stop - start) - 35.5;
        t.samples.push_back(s);
    };
    // SM 3 runs blocks 0 and 1 at the same time (two lanes); block 2 follows block 0 there.
    add(0, 0, 3, 0, 4000, 3);
    add(0, 1, 3, 1000, 3000, 3);  // nested inside block 0's region 0
    add(1, 0, 3, 500, 4200, 3);
    add(2, 0, 3, 4100, 8000, 3);
    add(3, 0, 7, 64, 3900, 9);  // changed SM
    add(4, 0, 0, 32, 4032, 0);
    add(5, 2, 1, 100, 7100, 1);  // loop region
    t.samples.back().count = 1000;
    t.samples.back().accumulating = true;
    t.samples.back().accumulated_ns = 5000;
    t.samples.back().accumulated_cycles = 10000;
    a.timelines.push_back(t);

    Experiment b;
    b.id = "clock-sweep";
    b.title = "Block-count sweep";
    b.reproduces = "000, 001";
    Sweep s;
    s.name = "time per block";
    s.title = "timedReduction: time against block count";
    s.x_label = "blocks";
    s.y_label = "time";
    s.y_unit = "ns";
    s.x_scale = "log";
    SweepCurve makespan{"makespan", {}};
    SweepCurve block{"block mean", {}};
    for (double x : {1.0, 8.0, 16.0, 132.0, 133.0, 264.0, 1056.0}) {
        makespan.points.push_back({x, 3000 + (x > 132 ? x * 20 : 0), not_measured, not_measured});
        block.points.push_back({x, 2500 + x, 2400 + x, 2700 + x * 2});
    }
    block.points.push_back({2112, not_measured, not_measured, not_measured});  // a point that failed
    s.curves = {makespan, block};
    s.markers = {{132, "132 SMs"}, {1056, "132 SMs x 8 resident"}};
    b.sweeps.push_back(s);
    Sweep cycles = s;
    cycles.name = "cycles";
    cycles.y_unit = "cycles";
    cycles.x_scale = "linear";
    b.sweeps.push_back(cycles);
    b.metrics = {{"knee", 132, "blocks", ""}};

    r.experiments = {a, b};
    return r;
}
