// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The tables `gpuchrono run` keeps while a program runs, fed with made-up records: exact counts and extremes,
// a bounded and uniform sample, per-device busy and idle time, dropped records counted.
#include <boost/test/unit_test.hpp>

#include "cupti/library_kernels.hpp"
#include "run/aggregate.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>
#include <regex>
#include <string>
#include <vector>

#include <gpuchrono/api.hpp>

using namespace gpuchrono::run;

namespace {

KernelLaunch launch(const char* name, std::uint64_t start, std::uint64_t ns, int device = 0, const char* range = "") {
    KernelLaunch k;
    k.name = name;
    k.start_ns = start;
    k.end_ns = start + ns;
    k.device = device;
    k.range = range;
    return k;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(run_aggregate)

BOOST_AUTO_TEST_CASE(every_call_counted_extremes_exact) {
    Aggregate a({16, false});
    std::uint64_t t = 0;
    double total = 0;
    for (int i = 1; i <= 1000; ++i) {
        const std::uint64_t ns = 1000 + static_cast<std::uint64_t>(i % 97);
        a.add_kernel(launch("k", t, ns));
        total += static_cast<double>(ns);
        t += ns;
    }
    BOOST_REQUIRE(a.kernels().size() == 1u);
    const DurationTable& k = a.kernels()[0];
    BOOST_TEST(k.calls == 1000u);
    BOOST_TEST(k.total_ns == total);
    BOOST_TEST(k.min_ns == 1000.0);
    BOOST_TEST(k.max_ns == 1096.0);
    BOOST_TEST(k.first_ns == 1001.0);
    BOOST_TEST(k.sample.values().size() == 16u);
    BOOST_TEST(!k.sample.complete());
    BOOST_TEST(a.kernel_calls() == 1000u);
}

BOOST_AUTO_TEST_CASE(reservoir_memory_is_bounded_and_sample_uniform) {
    Reservoir r(1000);
    for (int i = 0; i < 1'000'000; ++i) r.add(static_cast<double>(i));
    BOOST_TEST(r.values().size() == 1000u);
    BOOST_TEST(r.seen() == 1'000'000u);
    // A uniform sample of 0..999999: its mean near 500000 (sd of the mean about 9000), both halves represented.
    const double mean = std::accumulate(r.values().begin(), r.values().end(), 0.0) / 1000.0;
    BOOST_TEST(mean > 460000.0);
    BOOST_TEST(mean < 540000.0);
    const auto late = std::count_if(r.values().begin(), r.values().end(), [](double v) { return v >= 500000; });
    BOOST_TEST(late > 400);
    BOOST_TEST(late < 600);
}

BOOST_AUTO_TEST_CASE(names_split_by_shape_and_ranges_kept_apart) {
    Aggregate a({64, true});
    KernelLaunch k = launch("gemm", 0, 100, 0, "forward");
    k.grid[0] = 8;
    a.add_kernel(k);
    k.grid[0] = 16;
    k.start_ns = 200, k.end_ns = 300;
    a.add_kernel(k);
    a.add_kernel(launch("gemm", 400, 100, 0, "backward"));
    BOOST_TEST(a.kernels().size() == 3u);
    BOOST_TEST(a.key_of(k) == "gemm <<<(16,1,1), (1,1,1)>>>");
    BOOST_TEST(a.ranges().size() == 2u);
    BOOST_TEST(a.ranges()[0].name == "forward");
    BOOST_TEST(a.ranges()[0].calls == 2u);
}

BOOST_AUTO_TEST_CASE(device_busy_idle_and_largest_gap) {
    Aggregate a;
    a.add_kernel(launch("a", 0, 100));
    a.add_kernel(launch("b", 50, 100));     // overlaps: busy to 150
    a.add_kernel(launch("c", 1150, 50));    // gap of 1000
    a.add_transfer("HtoD", 0, 4000, 1300, 1400);  // gap of 100
    a.add_kernel(launch("d", 0, 10, 1));
    const DeviceTime& d0 = a.devices().at(0);
    BOOST_TEST(d0.busy_ns == 300.0);
    BOOST_TEST(d0.idle_ns == 1100.0);
    BOOST_TEST(d0.largest_gap_ns == 1000.0);
    BOOST_TEST(d0.largest_gap_start == 150u);
    BOOST_TEST(d0.span_ns() == 1400.0);
    BOOST_TEST(a.devices().at(1).busy_ns == 10.0);
    BOOST_TEST(a.transfers().at("HtoD").bytes == 4000u);
    BOOST_TEST(a.transfers().at("HtoD").gigabytes_per_second() == 40.0);
}

BOOST_AUTO_TEST_CASE(busy_over_time_stays_bounded) {
    Aggregate a;
    // 100 s of a device busy half of every 10 ms: buckets merge to at most 512, each about half busy.
    const std::uint64_t ms = 1'000'000;
    for (std::uint64_t t = 0; t < 100'000 * ms; t += 10 * ms) a.add_kernel(launch("k", t, 5 * ms));
    const DeviceTime& d = a.devices().at(0);
    BOOST_TEST(d.busy_per_bucket.size() <= DeviceTime::max_buckets);
    BOOST_TEST(d.bucket_ns >= 100'000 * ms / DeviceTime::max_buckets);
    double sum = 0;
    for (double b : d.busy_per_bucket) sum += b;
    BOOST_TEST(sum == d.busy_ns);
    BOOST_TEST(d.busy_per_bucket[3] / static_cast<double>(d.bucket_ns) == 0.5, boost::test_tools::tolerance(0.01));
    // Overlapping work: the sum of durations exceeds the busy time.
    Aggregate o;
    o.add_kernel(launch("a", 0, 100));
    o.add_kernel(launch("b", 0, 100));
    BOOST_TEST(o.devices().at(0).activity_ns == 200.0);
    BOOST_TEST(o.devices().at(0).busy_ns == 100.0);
}

BOOST_AUTO_TEST_CASE(dropped_records_counted_by_where) {
    Aggregate a;
    a.add_dropped("activity records", 5);
    a.add_dropped("activity records", 7);
    a.add_dropped("other", 0);
    BOOST_TEST(a.dropped_total() == 12u);
    BOOST_TEST(a.dropped().size() == 1u);
    a.add_overhead("JIT compilation", 10, 5010);
    BOOST_TEST(a.overhead().at("JIT compilation").total_ns == 5000.0);
}

BOOST_AUTO_TEST_CASE(ten_million_launches_in_bounded_memory) {
    // 10 million records of 8 names: the tables hold 8 reservoirs, whatever the count.
    Aggregate a({4096, false});
    const char* names[] = {"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"};
    for (std::uint64_t i = 0; i < 10'000'000; ++i) a.add_kernel(launch(names[i % 8], i * 10, 5));
    BOOST_TEST(a.kernel_calls() == 10'000'000u);
    std::size_t held = 0;
    for (const DurationTable& k : a.kernels()) held += k.sample.values().capacity();
    BOOST_TEST(held <= 8u * 8192u);
}

BOOST_AUTO_TEST_CASE(the_librarys_own_kernels_are_known_by_name) {
    using gpuchrono::cupti::is_library_kernel;
    BOOST_TEST(is_library_kernel("gpuchrono::detail::(anonymous namespace)::warmup_kernel()"));
    BOOST_TEST(is_library_kernel("gpuchrono::detail::(anonymous namespace)::lead_spin_kernel(unsigned long)"));
    // The project's example kernels live in gpuchrono::kernels and are a program's own; so is a longer name.
    BOOST_TEST(!is_library_kernel("gpuchrono::kernels::(anonymous namespace)::spin_kernel(unsigned long)"));
    BOOST_TEST(!is_library_kernel("gpuchrono::detail::(anonymous namespace)::warmup_kernel_of_mine()"));
    BOOST_TEST(!is_library_kernel("warmup_kernel()"));
    // Every __global__ function the library's sources define is in the list (the stream marker has its own name).
    std::vector<std::string> defined;
    const std::regex global(R"(__global__\s+void\s+(\w+)\s*\()");
    for (const auto& entry : std::filesystem::recursive_directory_iterator(GPUCHRONO_TEST_LIBRARY_SOURCES)) {
        if (entry.path().extension() != ".cu") continue;
        std::ifstream in(entry.path());
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (std::sregex_iterator it(text.begin(), text.end(), global), end; it != end; ++it) defined.push_back((*it)[1]);
    }
    BOOST_TEST(defined.size() >= 7u, defined.size() << " kernels found under " << GPUCHRONO_TEST_LIBRARY_SOURCES);
    for (const std::string& name : defined) {
        if (name == "gpuchrono_stream_marker") continue;
        const bool listed = std::any_of(std::begin(gpuchrono::cupti::library_kernel_names),
                                        std::end(gpuchrono::cupti::library_kernel_names),
                                        [&](std::string_view n) { return n.ends_with("::" + name); });
        BOOST_TEST(listed, name << " is a kernel of the library's missing from cupti/library_kernels.hpp");
    }
}

BOOST_AUTO_TEST_SUITE_END()
