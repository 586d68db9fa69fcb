// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The Google Benchmark bridge's iterations told apart by correlation ids (iteration_split.hpp), on made-up records:
// no CUPTI, no GPU. Part of the kernel_policy suite.
#include <boost/test/unit_test.hpp>

#include "checks/check_kernel_records.hpp"
#include "policies/kernel/iteration_split.hpp"

#include <gpuchrono/core/finding_catalog.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "made_up_records.hpp"

using gpuchrono::KernelActivity;
namespace split = gpuchrono::iteration_split;

namespace {

constexpr std::uint32_t timed = 7, other = 9, graph_stream = 11;
constexpr split::TimedStream on_timed{0, timed};

KernelActivity work(std::uint64_t start, std::uint64_t end, std::uint32_t correlation, std::uint32_t stream = timed,
                    std::uint32_t graph = 0) {
    return gpuchrono::test::made_up_kernel("spin", start, end, correlation, stream, graph);
}

KernelActivity mark(std::uint64_t start, std::uint32_t correlation) {
    KernelActivity a = gpuchrono::test::made_up_kernel("gpuchrono_stream_marker", start, start + 1'000, correlation, timed);
    a.block[0] = 3;
    a.block[1] = 1;
    a.block[2] = 1;
    return a;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(kernel_policy)

// The H100 case that stream mode refused: 2 us spins enqueued back to back, one per iteration, each launch call
// logged as the runtime call and the driver call inside it (the record carries the runtime call's id). The stamps of
// one spin's end and the next one's start meet, and the next one may even be stamped first: a bound by time between
// boundaries would lose iterations; the calls' order loses none.
BOOST_AUTO_TEST_CASE(iterations_of_2us_kernels_whose_stamps_meet_are_each_read) {
    constexpr std::size_t n = 100'000;
    std::vector<std::uint32_t> calls;
    std::vector<std::size_t> ends;
    std::vector<KernelActivity> records;
    std::uint64_t t = 1'000'000;
    std::uint32_t id = 500;
    for (std::size_t i = 0; i < n; ++i) {
        calls.push_back(id);      // cudaLaunchKernel
        calls.push_back(id + 1);  // cuLaunchKernel inside it
        ends.push_back(calls.size());
        records.push_back(work(t, t + 2'944, id));
        t += i % 2 == 0 ? 2'944 : 2'912;  // every other spin starts 32 ns before the previous one's end stamp
        id += 2;
    }
    const split::Split s = split::split_iterations(records, calls, ends, on_timed);
    BOOST_REQUIRE_EQUAL(s.busy_ns.size(), n);
    std::size_t read = 0;
    for (std::size_t i = 0; i < n; ++i) read += s.counted[i] == 1 && s.busy_ns[i] == 2'944 ? 1 : 0;
    BOOST_TEST(read == n);
}

BOOST_AUTO_TEST_CASE(stream_mode_counts_the_stream_work_within_each_iterations_calls) {
    // Iteration 0: calls 10, 11; iteration 1: none; iteration 2: call 20. Another thread enqueued 12 on the timed
    // stream during iteration 2 (its id falls in 12..20) and 5 before the batch; a mark (15) is never work.
    const std::vector<std::uint32_t> calls{10, 11, 20};
    const std::vector<std::size_t> ends{2, 2, 3};
    const std::vector<KernelActivity> records{work(100, 200, 10), work(300, 350, 11), work(400, 500, 12),
                                              mark(510, 15), work(600, 700, 20), work(50, 60, 5)};
    const split::Split s = split::split_iterations(records, calls, ends, on_timed);
    BOOST_TEST(s.counted == (std::vector<std::size_t>{2, 0, 2}), boost::test_tools::per_element());
    BOOST_TEST(s.busy_ns == (std::vector<std::uint64_t>{150, 0, 200}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(stream_mode_reports_an_iterations_own_work_on_another_stream_and_counts_its_graphs) {
    // Iteration 0 launched on another stream (10); iteration 1 launched a graph (20) whose kernels ran on a stream
    // of the graph's own, and a kernel on another stream (21).
    const std::vector<std::uint32_t> calls{10, 20, 21};
    const std::vector<std::size_t> ends{1, 3};
    const std::vector<KernelActivity> records{work(100, 200, 10, other), work(300, 400, 20, graph_stream, 4),
                                              work(400, 450, 20, graph_stream, 4), work(500, 600, 21, other)};
    const split::Split s = split::split_iterations(records, calls, ends, on_timed);
    BOOST_TEST(s.counted == (std::vector<std::size_t>{0, 2}), boost::test_tools::per_element());
    BOOST_TEST(s.busy_ns[1] == 150u);
    BOOST_TEST(s.elsewhere[0].size() == 1u);
    BOOST_TEST(s.elsewhere[1].size() == 1u);
}

BOOST_AUTO_TEST_CASE(thread_mode_counts_the_iterations_own_calls_on_any_stream_and_nothing_else) {
    const std::vector<std::uint32_t> calls{10, 11, 20};
    const std::vector<std::size_t> ends{2, 3};
    const std::vector<KernelActivity> records{work(100, 200, 10, other), work(250, 300, 11), work(300, 400, 12),
                                              work(500, 600, 20, graph_stream, 4)};
    const split::Split s = split::split_iterations(records, calls, ends, std::nullopt);
    BOOST_TEST(s.counted == (std::vector<std::size_t>{2, 1}), boost::test_tools::per_element());
    BOOST_TEST(s.busy_ns == (std::vector<std::uint64_t>{150, 100}), boost::test_tools::per_element());
}

// measure()'s cold-cache calls: before each call the L2 flush (a memset, 30, and a kernel, 31, each logged as the
// runtime call and the driver call inside it) closed as an untimed iteration, then the call (a 2 us spin, 34). The
// flush's records keep to its own iteration; the timed iterations are the calls alone, their busy time the spin's.
BOOST_AUTO_TEST_CASE(flush_iterations_closed_untimed_keep_their_records_out_of_the_calls) {
    std::vector<std::uint32_t> calls;
    std::vector<std::size_t> ends;
    std::vector<std::uint8_t> untimed;
    std::vector<KernelActivity> records;
    std::uint64_t t = 1'000;
    for (std::uint32_t id = 30; id < 30 + 3 * 10; id += 10) {
        for (const std::uint32_t c : {id, id + 1, id + 2, id + 3}) calls.push_back(c);
        ends.push_back(calls.size());
        untimed.push_back(1);
        records.push_back(work(t, t + 40'000, id));            // the memset
        records.push_back(work(t + 40'000, t + 90'000, id + 2));  // the read-back kernel
        calls.push_back(id + 4);
        calls.push_back(id + 5);
        ends.push_back(calls.size());
        untimed.push_back(0);
        records.push_back(work(t + 90'000, t + 92'944, id + 4));  // the spin starts as the flush ends
        t += 100'000;
    }
    const split::Split all = split::split_iterations(records, calls, ends, on_timed);
    BOOST_TEST(all.busy_ns == (std::vector<std::uint64_t>{90'000, 2'944, 90'000, 2'944, 90'000, 2'944}),
               boost::test_tools::per_element());
    const split::Split timed_calls = split::timed_only(all, untimed);
    BOOST_TEST(timed_calls.busy_ns == (std::vector<std::uint64_t>{2'944, 2'944, 2'944}), boost::test_tools::per_element());
    BOOST_TEST(timed_calls.counted == (std::vector<std::size_t>{1, 1, 1}), boost::test_tools::per_element());
    BOOST_TEST(timed_calls.elsewhere.size() == 3u);
    BOOST_TEST(timed_calls.unrecorded == (std::vector<std::size_t>{0, 0, 0}), boost::test_tools::per_element());
}

// Without its flush closed as an iteration of its own, the call would count the flush: the reason for end_untimed().
BOOST_AUTO_TEST_CASE(a_flush_in_the_calls_own_range_would_be_counted) {
    const std::vector<std::uint32_t> calls{30, 32, 34};
    const std::vector<std::size_t> ends{3};
    const std::vector<KernelActivity> records{work(0, 40'000, 30), work(40'000, 90'000, 32), work(90'000, 92'944, 34)};
    const split::Split s = split::split_iterations(records, calls, ends, on_timed);
    BOOST_TEST(s.busy_ns[0] == 92'944u);
}

BOOST_AUTO_TEST_CASE(launch_calls_without_a_record_are_counted_in_their_own_iteration) {
    // Iterations: calls {10, 11}, {20}, {30, 31}; 11 and 31 are driver calls inside a runtime call (no record of
    // their own: not expected). The record of 20 never came, nor that of 40, a call of no iteration's.
    const std::vector<std::uint32_t> calls{10, 11, 20, 30, 31};
    const std::vector<std::size_t> ends{2, 3, 5};
    const std::vector<std::uint32_t> expected{10, 20, 30, 40};
    const std::unordered_set<std::uint32_t> recorded{10, 30};
    split::Split s = split::split_iterations({}, calls, ends, on_timed);
    split::note_unrecorded(s, calls, ends, expected, recorded);
    BOOST_TEST(s.unrecorded == (std::vector<std::size_t>{0, 1, 0}), boost::test_tools::per_element());
    const std::vector<std::uint8_t> untimed{0, 1, 0};
    BOOST_TEST(split::timed_only(s, untimed).unrecorded == (std::vector<std::size_t>{0, 0}),
               boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_batch_with_empty_iterations_is_reported_as_kernel_no_activity_with_the_count) {
    const std::vector<KernelActivity> ran_elsewhere{work(100, 200, 10, other)};
    gpuchrono::IterationRecordsSeen seen;
    seen.where = "enqueued on the timed stream (CUPTI stream 7, device 0)";
    seen.iterations = 256;
    seen.empty = 3;
    seen.with_elsewhere = 3;
    seen.elsewhere = ran_elsewhere;
    const gpuchrono::Findings found = gpuchrono::check_iteration_records(seen);
    BOOST_REQUIRE_EQUAL(found.size(), 1u);
    BOOST_TEST(found[0].code == gpuchrono::codes::kernel_no_activity);
    BOOST_TEST(found[0].message.find("counted in 3 of the batch's 256 iterations") != std::string::npos, found[0].message);
    BOOST_TEST(found[0].message.find("other streams or devices") != std::string::npos, found[0].message);
}

BOOST_AUTO_TEST_SUITE_END()
