// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Stream-mode attribution by the scope's two marks (stream_bounds.hpp), on made-up records: no CUPTI, no GPU.
// Part of the kernel_policy suite.
#include <boost/test/unit_test.hpp>

#include "policies/kernel/stream_bounds.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include <gpuchrono/api.hpp>

#include "made_up_records.hpp"

using gpuchrono::ActivityKind;
using gpuchrono::KernelActivity;
namespace stream_mode = gpuchrono::stream_mode;

namespace {

constexpr std::uint32_t timed = 7, other = 9;

KernelActivity work(std::string name, std::uint64_t start, std::uint64_t end, std::uint32_t correlation,
                    std::uint32_t stream = timed, std::uint32_t graph = 0) {
    return gpuchrono::test::made_up_kernel(std::move(name), start, end, correlation, stream, graph);
}

KernelActivity mark(std::uint32_t token, bool stop, std::uint64_t start, std::uint32_t correlation,
                    std::uint32_t stream = timed) {
    KernelActivity a = work("gpuchrono_stream_marker", start, start + 1000, correlation, stream);
    a.block[0] = token;
    a.block[1] = stop ? 2 : 1;
    a.block[2] = 1;
    return a;
}

std::vector<std::string> names(const std::vector<KernelActivity>& v) {
    std::vector<std::string> out;
    for (const KernelActivity& a : v) out.push_back(a.name);
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(kernel_policy)

BOOST_AUTO_TEST_CASE(stream_mode_counts_the_timed_streams_work_between_its_marks_only) {
    const std::vector<KernelActivity> held = {
        work("before", 0, 900, 1),                 // the stream's work before the start mark
        mark(5, false, 1000, 2),                   // start mark: 1000..2000
        work("a", 2100, 3000, 3),
        work("beside", 2500, 4000, 4, other),      // launched meanwhile on another stream
        work("b", 3100, 5000, 6),
        mark(5, true, 5100, 7),                    // stop mark
        work("after", 6200, 7000, 8),
        work("late other", 6500, 7000, 9, other),  // launched after the stop mark: not reported as elsewhere
    };
    auto first = stream_mode::find_mark(held, 0, timed, 5, false, 0);
    auto last = stream_mode::find_mark(held, 0, timed, 5, true, 0);
    BOOST_REQUIRE(first.has_value());
    BOOST_REQUIRE(last.has_value());
    const stream_mode::BoundedWork w = stream_mode::split_by_marks(held, *first, *last);
    BOOST_TEST(names(w.counted) == (std::vector<std::string>{"a", "b"}), boost::test_tools::per_element());
    BOOST_TEST(names(w.elsewhere) == (std::vector<std::string>{"beside"}), boost::test_tools::per_element());
    BOOST_TEST(names(w.others) == (std::vector<std::string>{"before", "after", "late other"}),
               boost::test_tools::per_element());
}

// A 2 us kernel still ending as the stop mark is enqueued: the mark's start stamp came 32 ns before the kernel's end
// stamp. The kernel's call came between the marks' calls, so the stream ran it between them: it is the scope's.
BOOST_AUTO_TEST_CASE(stream_mode_counts_a_kernel_whose_end_stamp_passes_the_stop_marks_start) {
    const std::vector<KernelActivity> held = {
        mark(5, false, 1000, 2),          // start mark: 1000..2000
        work("spin", 4000, 6944, 3),      // 2.9 us
        mark(5, true, 6912, 4),           // stop mark, stamped as starting 32 ns before the spin's end
    };
    const stream_mode::BoundedWork w = stream_mode::split_by_marks(held, *stream_mode::find_mark(held, 0, timed, 5, false, 0),
                                                                   *stream_mode::find_mark(held, 0, timed, 5, true, 0));
    BOOST_TEST(names(w.counted) == (std::vector<std::string>{"spin"}), boost::test_tools::per_element());
    BOOST_TEST(w.elsewhere.empty());
}

BOOST_AUTO_TEST_CASE(stream_mode_marks_of_nested_and_interleaved_scopes_are_told_apart_by_token) {
    // Scope 1 starts, scope 2 starts, scope 1 stops, scope 2 stops, all on one stream.
    const std::vector<KernelActivity> held = {
        mark(1, false, 1000, 1), work("x", 2100, 2900, 2),  mark(2, false, 3000, 3), work("y", 4100, 4900, 4),
        mark(1, true, 5000, 5),  work("z", 6100, 6900, 6),  mark(2, true, 7000, 7),
    };
    for (auto [token, expected] : {std::pair{1u, std::vector<std::string>{"x", "y"}},
                                   std::pair{2u, std::vector<std::string>{"y", "z"}}}) {
        auto first = stream_mode::find_mark(held, 0, timed, token, false, 0);
        auto last = stream_mode::find_mark(held, 0, timed, token, true, 0);
        BOOST_REQUIRE(first.has_value());
        BOOST_REQUIRE(last.has_value());
        const stream_mode::BoundedWork w = stream_mode::split_by_marks(held, *first, *last);
        BOOST_TEST(names(w.counted) == expected, boost::test_tools::per_element());  // marks are never counted
        BOOST_TEST(w.elsewhere.empty());
        for (const KernelActivity& a : w.others) BOOST_TEST(!stream_mode::is_stream_mark(a));
    }
    // A mark of the same token that started before the scope's own (an old scope's): skipped by its time.
    BOOST_TEST(stream_mode::find_mark(held, 0, timed, 1, false, 1500).has_value() == false);
    BOOST_TEST(!stream_mode::find_mark(held, 0, other, 1, false, 0).has_value());  // another stream's marks
}

BOOST_AUTO_TEST_CASE(stream_mode_counts_a_graph_whose_nodes_ran_on_streams_of_its_own) {
    const std::vector<KernelActivity> held = {
        mark(3, false, 1000, 10),
        // cudaGraphLaunch with correlation 11: one node on the timed stream, two on the graph's own streams.
        work("n1", 2100, 3000, 11, timed, 4), work("n2", 3100, 4000, 11, 40, 4), work("n3", 3200, 4500, 11, 41, 4),
        // cudaGraphLaunch 12: every node on the graph's own streams, all between the marks.
        work("m1", 4600, 5000, 12, 42, 5), work("m2", 4600, 5100, 12, 43, 5),
        // a graph launched between the calls on another stream whose node ran after the stop mark: elsewhere.
        work("g", 9000, 9500, 13, 44, 6),
        mark(3, true, 6000, 14),
    };
    const stream_mode::BoundedWork w = stream_mode::split_by_marks(held, *stream_mode::find_mark(held, 0, timed, 3, false, 0),
                                                                   *stream_mode::find_mark(held, 0, timed, 3, true, 0));
    BOOST_TEST(names(w.counted) == (std::vector<std::string>{"n1", "n2", "n3", "m1", "m2"}), boost::test_tools::per_element());
    BOOST_TEST(names(w.elsewhere) == (std::vector<std::string>{"g"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
