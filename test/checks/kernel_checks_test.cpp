// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The checks KernelPolicy, the kernel method's batches and measure() call with what they observed: which finding
// each case raises, with which numbers, and the cases that stay silent. No CUPTI, no GPU: the records are made up.
#include <boost/test/unit_test.hpp>

#include "checks/check_convergence.hpp"
#include "checks/check_kernel_records.hpp"
#include "checks/check_work_beside.hpp"

#include <gpuchrono/core/finding_catalog.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

using gpuchrono::Finding;
using gpuchrono::Findings;
using gpuchrono::KernelActivity;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

KernelActivity kernel(std::string name, std::uint32_t stream) {
    KernelActivity a;
    a.name = std::move(name);
    a.device = 0;
    a.stream = stream;
    a.start_ns = 1000;
    a.end_ns = 2000;
    return a;
}

gpuchrono::KernelRecordsSeen thread_scope() {
    gpuchrono::KernelRecordsSeen seen;
    seen.where = "launched by the scope's thread";
    seen.launch_calls = 3;
    seen.expected_records = 3;
    seen.counted = 3;
    seen.record_wait = std::chrono::milliseconds(200);
    return seen;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(kernel_checks)

BOOST_AUTO_TEST_CASE(counted_work_with_every_record_raises_nothing) {
    BOOST_TEST(gpuchrono::check_kernel_records(thread_scope()).empty());
}

BOOST_AUTO_TEST_CASE(no_counted_work_is_no_activity_naming_the_launches_and_the_work_elsewhere) {
    gpuchrono::KernelRecordsSeen seen = thread_scope();
    seen.counted = 0;
    const std::vector<KernelActivity> elsewhere = {kernel("axpy", 7), kernel("axpy", 7)};
    seen.elsewhere = elsewhere;
    const Findings found = gpuchrono::check_kernel_records(seen);
    BOOST_REQUIRE_EQUAL(found.size(), 1u);
    BOOST_TEST(found[0].code == gpuchrono::codes::kernel_no_activity);
    BOOST_TEST(contains(found[0].message, "KernelPolicy counted no GPU work launched by the scope's thread between "
                                          "start and stop (3 launch calls seen); the scope's thread launched on other "
                                          "streams: axpy"),
               found[0].message);
    BOOST_TEST(contains(found[0].message, ": the duration is 0"));
    BOOST_TEST(found[0].evidence_or("elsewhere", -1) == 2.0);

    seen.by_marks = true;  // stream mode counts no launch calls, so the message names none
    const Findings by_marks = gpuchrono::check_kernel_records(seen);
    BOOST_REQUIRE_EQUAL(by_marks.size(), 1u);
    BOOST_TEST(!contains(by_marks[0].message, "launch calls seen"), by_marks[0].message);
    BOOST_TEST(contains(by_marks[0].message, "work launched in the process meanwhile ran on other streams"));
}

BOOST_AUTO_TEST_CASE(counted_work_beside_work_elsewhere_is_activity_elsewhere) {
    gpuchrono::KernelRecordsSeen seen = thread_scope();
    const std::vector<KernelActivity> elsewhere = {kernel("scale", 9)};
    seen.elsewhere = elsewhere;
    const Findings found = gpuchrono::check_kernel_records(seen);
    BOOST_REQUIRE_EQUAL(found.size(), 1u);
    BOOST_TEST(found[0].code == gpuchrono::codes::kernel_activity_elsewhere);
    BOOST_TEST(found[0].evidence_or("activities", -1) == 1.0);
}

BOOST_AUTO_TEST_CASE(dropped_and_missing_records_are_reported_in_that_order) {
    gpuchrono::KernelRecordsSeen seen = thread_scope();
    seen.expected_records = 5;
    seen.dropped = 4;
    seen.missing = 2;
    const Findings found = gpuchrono::check_kernel_records(seen);
    BOOST_REQUIRE_EQUAL(found.size(), 2u);
    BOOST_TEST(found[0].code == gpuchrono::codes::kernel_records_dropped);
    BOOST_TEST(contains(found[0].message, "CUPTI dropped 4 activity records"), found[0].message);
    BOOST_TEST(found[1].code == gpuchrono::codes::kernel_records_late);
    BOOST_TEST(contains(found[1].message, "2 of the scope's 5 launch calls had no activity record 200 ms after"),
               found[1].message);
    BOOST_TEST(found[1].evidence_or("missing_records", -1) == 2.0);
}

BOOST_AUTO_TEST_CASE(a_missing_scope_mark_is_records_late_naming_which) {
    const auto wait = std::chrono::milliseconds(200);
    BOOST_TEST(!gpuchrono::check_scope_marks_found(true, true, 0, wait).has_value());
    const std::optional<Finding> start = gpuchrono::check_scope_marks_found(false, true, 0, wait);
    BOOST_REQUIRE(start.has_value());
    BOOST_TEST(start->code == gpuchrono::codes::kernel_records_late);
    BOOST_TEST(contains(start->message, "the scope's start mark on the timed stream had no activity record 200 ms"),
               start->message);
    BOOST_TEST(!contains(start->message, "CUPTI dropped"));
    BOOST_TEST(start->evidence_or("missing_records", -1) == 1.0);
    const std::optional<Finding> both = gpuchrono::check_scope_marks_found(false, false, 3, wait);
    BOOST_REQUIRE(both.has_value());
    BOOST_TEST(contains(both->message, "start and stop marks"), both->message);
    BOOST_TEST(contains(both->message, "(CUPTI dropped 3 records)"), both->message);
    BOOST_TEST(both->evidence_or("missing_records", -1) == 2.0);
}

BOOST_AUTO_TEST_CASE(a_batch_with_empty_samples_is_no_activity) {
    BOOST_TEST(!gpuchrono::check_batch_samples_counted(0, 0, 10).has_value());
    const std::optional<Finding> f = gpuchrono::check_batch_samples_counted(1, 2, 10);
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == gpuchrono::codes::kernel_no_activity);
    BOOST_TEST(contains(f->message, "(device 1) in 2 of its 10 samples: their duration is 0"), f->message);
}

BOOST_AUTO_TEST_CASE(cupti_unavailable_carries_the_reason) {
    const Finding f = gpuchrono::cupti_unavailable_finding("another tool holds CUPTI");
    BOOST_TEST(f.code == gpuchrono::codes::cupti_unavailable);
    BOOST_TEST(f.message == "KernelPolicy measured nothing: another tool holds CUPTI");
}

BOOST_AUTO_TEST_CASE(work_beside_is_overlapped_when_it_may_stretch_the_reading_else_beside) {
    BOOST_TEST(!gpuchrono::check_work_beside(gpuchrono::cupti::WorkBeside{}, 132).has_value());
    gpuchrono::cupti::WorkBeside beside;
    for (int i = 0; i < 6; ++i) {
        gpuchrono::cupti::Overlap o;
        o.name = "other" + std::to_string(i);
        o.stream = 20 + static_cast<std::uint32_t>(i);
        o.overlap_ns = 60'000 - 1000 * static_cast<std::uint64_t>(i);
        beside.overlaps.push_back(o);
    }
    beside.overlapped_ns = 60'000;
    beside.busy_ns = 100'000;
    beside.fits = false;
    beside.scope_wide = true;
    BOOST_REQUIRE(beside.stretches());
    const std::optional<Finding> overlapped = gpuchrono::check_work_beside(beside, 132);
    BOOST_REQUIRE(overlapped.has_value());
    BOOST_TEST(overlapped->code == gpuchrono::codes::concurrent_work_overlapped);
    BOOST_TEST(contains(overlapped->message, "other0 (stream 20, "), overlapped->message);
    BOOST_TEST(contains(overlapped->message, " and 2 more"), overlapped->message);  // four named, the rest counted
    BOOST_TEST(!contains(overlapped->message, "other4"));
    BOOST_TEST(overlapped->evidence_or("overlapping_activities", -1) == 6.0);
    BOOST_TEST(overlapped->evidence_or("sm_count", -1) == 132.0);

    // The same sharing with a narrow scope: whether its kernel was slowed is not in the records.
    beside.scope_wide = false;
    BOOST_REQUIRE(beside.may_stretch());
    const std::optional<Finding> narrow = gpuchrono::check_work_beside(beside, 132);
    BOOST_REQUIRE(narrow.has_value());
    BOOST_TEST(narrow->code == gpuchrono::codes::concurrent_work_beside);
    BOOST_TEST(contains(narrow->message, "narrow kernels"), narrow->message);

    beside.fits = true;
    beside.scope_wide = true;
    BOOST_REQUIRE(!beside.may_stretch());
    const std::optional<Finding> alongside = gpuchrono::check_work_beside(beside, 132);
    BOOST_REQUIRE(alongside.has_value());
    BOOST_TEST(alongside->code == gpuchrono::codes::concurrent_work_beside);
    BOOST_TEST(contains(alongside->message, "fitting on separate SMs (132)"), alongside->message);
}

BOOST_AUTO_TEST_CASE(sampling_that_did_not_converge_says_where_it_stopped) {
    gpuchrono::SamplingEnd end;
    end.name = "axpy";
    end.converged = true;
    BOOST_TEST(!gpuchrono::check_convergence(end).has_value());
    end.converged = false;
    end.reason = "max-time";
    end.budget = "2 s";
    end.confidence = 0.95;
    end.relative_width = 0.0234;
    end.target_relative_width = 0.01;
    end.samples = 812;
    const std::optional<Finding> f = gpuchrono::check_convergence(end);
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == gpuchrono::codes::did_not_converge);
    BOOST_TEST(f->message == "measure(\"axpy\") stopped at max-time (2 s) with the 95% CI of the median 2.34% wide, "
                             "above the 1% target, after 812 samples");
    BOOST_TEST(f->evidence_or("samples", -1) == 812.0);
}

BOOST_AUTO_TEST_SUITE_END()
