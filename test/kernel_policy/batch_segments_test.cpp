// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// compare(fn_a, fn_b)'s kernel-method batches (batch_segments.hpp): a batch's samples split by its boundary
// marks, on made-up records: no CUPTI, no GPU. Part of the kernel_policy suite.
#include <boost/test/unit_test.hpp>

#include "policies/kernel/batch_segments.hpp"
#include "policies/kernel/stream_bounds.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gpuchrono/api.hpp>

#include "made_up_records.hpp"

using gpuchrono::KernelActivity;
namespace stream_mode = gpuchrono::stream_mode;

namespace {

constexpr std::uint32_t timed = 7, other = 9, graph_stream = 11, token = 42;

KernelActivity work(std::string name, std::uint64_t start, std::uint64_t end, std::uint32_t correlation,
                    std::uint32_t stream = timed, std::uint32_t graph = 0) {
    return gpuchrono::test::made_up_kernel(std::move(name), start, end, correlation, stream, graph);
}

// A batch mark: block (token, 1, 2), 1 us long.
KernelActivity mark(std::uint64_t start, std::uint32_t correlation, std::uint32_t stream = timed,
                    std::uint32_t with_token = token) {
    KernelActivity a = work("gpuchrono_stream_marker", start, start + 1000, correlation, stream);
    a.block[0] = with_token;
    a.block[1] = 1;
    a.block[2] = stream_mode::batch_mark_z;
    return a;
}

stream_mode::BatchSamples split(const std::vector<KernelActivity>& held, std::size_t placed,
                                const std::vector<std::uint32_t>& opens, std::uint32_t stream = timed) {
    return stream_mode::split_batch(held, token, 0, stream, 0, placed, opens);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(kernel_policy)

BOOST_AUTO_TEST_CASE(batch_samples_are_the_stream_work_between_consecutive_marks) {
    // Warm cache: mark call mark call mark call mark; the records arrive in any order.
    const std::vector<KernelActivity> held = {
        mark(9100, 5), mark(0, 1), work("c2", 10200, 12000, 6), work("c0", 1500, 3500, 2), mark(3600, 3),
        work("c1", 4700, 5900, 104), mark(12200, 7),
    };
    // c1's launch call came after the batch's (another thread enqueued it): its place on the stream decides.
    const stream_mode::BatchSamples s = split(held, 4, {0, 1, 2});
    BOOST_TEST(s.problem.empty());
    BOOST_TEST(s.busy_ns == (std::vector<std::uint64_t>{2000, 1200, 1800}), boost::test_tools::per_element());
    BOOST_TEST(s.records == (std::vector<std::size_t>{1, 1, 1}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(batch_sample_of_two_kernels_reads_their_union) {
    const std::vector<KernelActivity> held = {
        mark(0, 1), work("first", 1100, 2000, 2), work("second", 1800, 2600, 3), work("third", 3000, 3500, 4),
        mark(3600, 5), work("next", 4700, 5000, 6), mark(5100, 7),
    };
    // 1100..2600 and 3000..3500: 2000 ns; the gap between them is not busy time.
    const stream_mode::BatchSamples s = split(held, 3, {0, 1});
    BOOST_TEST(s.problem.empty());
    BOOST_TEST(s.busy_ns == (std::vector<std::uint64_t>{2000, 300}), boost::test_tools::per_element());
    BOOST_TEST(s.records == (std::vector<std::size_t>{3, 1}), boost::test_tools::per_element());
}

// A 2 us kernel still ending as the next mark is enqueued: the mark's start stamp came 32 ns before the kernel's
// end stamp. Its call came between the two marks' calls, so it is that sample's.
BOOST_AUTO_TEST_CASE(batch_counts_a_kernel_whose_end_stamp_passes_the_next_marks_start) {
    const std::vector<KernelActivity> held = {mark(0, 1), work("spin", 3000, 5944, 2), mark(5912, 3),
                                              work("spin", 9000, 11944, 4), mark(11950, 5)};
    const stream_mode::BatchSamples s = split(held, 3, {0, 1});
    BOOST_TEST(s.problem.empty());
    BOOST_TEST(s.busy_ns == (std::vector<std::uint64_t>{2944, 2944}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(batch_counts_a_graph_whose_nodes_ran_on_streams_of_its_own) {
    // Sample 0 launches a graph (call 2) whose two nodes ran on the graph's own stream between the marks; sample
    // 1 a graph (call 4) with one node on the timed stream and one on the graph's stream.
    const std::vector<KernelActivity> held = {
        mark(0, 1),
        work("g0a", 1500, 2500, 2, graph_stream, 70),
        work("g0b", 2000, 3000, 2, graph_stream, 70),
        mark(3100, 3),
        work("g1a", 4200, 5000, 4, timed, 71),
        work("g1b", 4500, 6000, 4, graph_stream, 71),
        mark(6100, 5),
    };
    const stream_mode::BatchSamples s = split(held, 3, {0, 1});
    BOOST_TEST(s.problem.empty());
    BOOST_TEST(s.busy_ns == (std::vector<std::uint64_t>{1500, 1800}), boost::test_tools::per_element());
    BOOST_TEST(s.records == (std::vector<std::size_t>{2, 2}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(batch_does_not_count_other_streams_work_in_between) {
    const std::vector<KernelActivity> held = {
        mark(0, 1),
        work("mine", 1500, 2500, 3),
        work("beside", 1200, 2800, 2, other),   // launched meanwhile on another stream, overlapping
        work("later beside", 2600, 5000, 5, other),
        mark(2600, 4),
        work("mine too", 3700, 4000, 6),
        mark(4100, 7),
        work("after", 5200, 6000, 8),           // the stream's work after the batch
    };
    const stream_mode::BatchSamples s = split(held, 3, {0, 1});
    BOOST_TEST(s.problem.empty());
    BOOST_TEST(s.busy_ns == (std::vector<std::uint64_t>{1000, 300}), boost::test_tools::per_element());
    BOOST_TEST(s.records == (std::vector<std::size_t>{1, 1}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(batch_keeps_the_cold_cache_flush_between_samples) {
    // Cold cache: [flush] mark call mark, [flush] mark call mark: each sample opens at a mark of its own, so the
    // flush runs in a segment that is no sample's.
    const std::vector<KernelActivity> held = {
        work("flush", 0, 900, 1),
        mark(1000, 2), work("call", 2100, 3000, 3), mark(3100, 4),
        work("flush", 4200, 9000, 5),
        mark(9100, 6), work("call", 10200, 11000, 7), mark(11100, 8),
    };
    const stream_mode::BatchSamples s = split(held, 4, {0, 2});
    BOOST_TEST(s.problem.empty());
    BOOST_TEST(s.busy_ns == (std::vector<std::uint64_t>{900, 800}), boost::test_tools::per_element());
    BOOST_TEST(s.records == (std::vector<std::size_t>{1, 1}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(batch_with_a_missing_boundary_mark_says_so) {
    const std::vector<KernelActivity> held = {
        mark(0, 1), work("c0", 1500, 2500, 2), /* mark 2 lost */ work("c1", 3700, 4000, 4), mark(4100, 5),
    };
    const stream_mode::BatchSamples s = split(held, 3, {0, 1});
    BOOST_TEST(!s.problem.empty());
    BOOST_TEST(s.problem.find("1 of the 3 marks") != std::string::npos, s.problem);
}

BOOST_AUTO_TEST_CASE(batch_sample_with_no_record_reads_zero) {
    const std::vector<KernelActivity> held = {
        mark(0, 1), work("c0", 1500, 2500, 2), mark(2600, 3), /* nothing on the stream */ mark(3700, 5),
        work("elsewhere", 2700, 3500, 4, other),
    };
    const stream_mode::BatchSamples s = split(held, 3, {0, 1});
    BOOST_TEST(s.problem.empty());
    BOOST_TEST(s.busy_ns == (std::vector<std::uint64_t>{1000, 0}), boost::test_tools::per_element());
    BOOST_TEST(s.records == (std::vector<std::size_t>{1, 0}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(batch_tells_its_marks_from_scopes_and_other_batches) {
    KernelActivity scope_start = mark(1200, 3);  // a KernelPolicy scope's start mark with the same token: z = 1
    scope_start.block[2] = 1;
    const std::vector<KernelActivity> held = {
        mark(0, 1),          scope_start,           work("c0", 2300, 2500, 4),
        mark(2600, 5, timed, token + 1),  // another batch's mark on the stream: work of no sample of this one
        mark(3700, 6),       work("c1", 4800, 5000, 7), mark(5100, 8),
        mark(5000, 9, other),  // this token on another stream
    };
    const stream_mode::BatchSamples s = split(held, 3, {0, 1});
    BOOST_TEST(s.problem.empty(), s.problem);
    BOOST_TEST(s.busy_ns == (std::vector<std::uint64_t>{200, 200}), boost::test_tools::per_element());
    // The scope's find_mark does not take a batch's mark for its own.
    const std::optional<KernelActivity> found = stream_mode::find_mark(held, 0, timed, token, false, 0);
    BOOST_TEST(found.has_value());
    if (found) BOOST_TEST(found->start_ns == 1200u);
}

BOOST_AUTO_TEST_CASE(batch_on_the_legacy_stream_learns_its_id_from_the_first_mark) {
    const std::vector<KernelActivity> held = {
        mark(0, 1), work("c0", 1500, 2500, 2), work("beside", 1500, 2500, 3, other), mark(2600, 4),
    };
    const stream_mode::BatchSamples s = split(held, 2, {0}, stream_mode::stream_from_mark);
    BOOST_TEST(s.problem.empty());
    BOOST_TEST(s.busy_ns == (std::vector<std::uint64_t>{1000}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
