// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A recorded run as the library's report: written, read back, its table and findings; the names of per-rank
// files; the diff of two runs on synthetic samples (a 3% slower kernel among 200 found, A/A quiet).
#include <boost/test/unit_test.hpp>

#include "run/aggregate.hpp"
#include "run/run_diff.hpp"
#include "run/run_report.hpp"

#include <gpuchrono/report/json/report_json.hpp>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>

#include <gpuchrono/api.hpp>

using namespace gpuchrono;
using namespace gpuchrono::run;

namespace {

bool has_finding(const report::Report& r, const std::string& code) {
    for (const auto& e : r.experiments) {
        for (const auto& f : e.findings)
            if (f.code == code) return true;
        for (const auto& s : e.series)
            for (const auto& f : s.findings)
                if (f.code == code) return true;
    }
    return false;
}

// A run of `kernels` kernels, `calls` calls each, lognormal noise of 2% around k us; kernel `slow` scaled.
// `kernels` kernels called `calls` times each, kernel `slow` `factor` times longer, then `called_once` more
// kernels launched once (as initialization kernels are).
report::Report synthetic_run(std::uint32_t seed, int kernels, int calls, int slow = -1, double factor = 1.0,
                             int called_once = 0) {
    Aggregate a({4096, false});
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, 0.02);
    std::uint64_t t = 0;
    std::vector<std::string> names;
    for (int k = 0; k < kernels; ++k) names.push_back("kernel_" + std::to_string(k));
    // KernelLaunch holds a view of its name: every name lives here until the report is built.
    for (int k = 0; k < called_once; ++k) names.push_back("init_" + std::to_string(k));
    for (int i = 0; i < calls; ++i) {
        for (int k = 0; k < kernels; ++k) {
            const double base = 2000.0 + 100.0 * k;
            const double ns = base * std::exp(noise(rng)) * (k == slow ? factor : 1.0);
            KernelLaunch l;
            l.name = names[static_cast<std::size_t>(k)];
            l.start_ns = t;
            l.end_ns = t + static_cast<std::uint64_t>(ns);
            t = l.end_ns + 100;
            a.add_kernel(l);
        }
    }
    for (int k = 0; k < called_once; ++k) {
        KernelLaunch l;
        l.name = names[static_cast<std::size_t>(kernels + k)];
        l.start_ns = t;
        l.end_ns = t + 5000;
        t = l.end_ns + 100;
        a.add_kernel(l);
    }
    RunInfo info;
    info.complete = true;
    return build_report(a, info);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(run_report)

BOOST_AUTO_TEST_CASE(round_trip_table_and_findings) {
    Aggregate a({64, false});
    KernelLaunch k;
    k.name = "void spin<int>(unsigned long)";
    k.start_ns = 0;
    k.end_ns = 900000;  // the first call, cold
    a.add_kernel(k);
    for (int i = 0; i < 99; ++i) {
        k.start_ns = 1'000'000 + static_cast<std::uint64_t>(i) * 20000;
        k.end_ns = k.start_ns + 10000 + static_cast<std::uint64_t>(i % 3);
        k.range = i < 50 ? "forward" : "";
        a.add_kernel(k);
    }
    KernelLaunch tiny;
    tiny.name = "empty";
    tiny.start_ns = 5'000'000;
    tiny.end_ns = 5'000'600;
    a.add_kernel(tiny);
    a.add_transfer("HtoD", 0, 1 << 20, 10, 110);
    a.add_dropped("activity records (CUPTI buffers full)", 3);
    a.add_overhead("module loading", 0, 1000);
    RunInfo info;
    info.complete = true;
    info.command = "./prog --size 4";
    const report::Report r = build_report(a, info);
    const auto file = std::filesystem::temp_directory_path() / ("gpuchrono-run-test-" + std::to_string(::getpid()) + ".json");
    report::save_report(r, file);
    const report::Report back = report::load_report(file);
    std::filesystem::remove(file);
    BOOST_TEST(run_complete(back));
    const auto rows = table_rows(back, kernels_experiment);
    BOOST_REQUIRE(rows.size() == 2u);
    BOOST_TEST(rows[0].name == "void spin<int>(unsigned long)");
    BOOST_TEST(rows[0].calls == 100u);
    BOOST_TEST(rows[0].min_ns == 10000.0);
    BOOST_TEST(rows[0].max_ns == 900000.0);
    BOOST_TEST(rows[0].samples == 64u);
    BOOST_TEST(rows[0].ci_low_ns <= rows[0].median_ns);
    BOOST_TEST(rows[0].ci_high_ns >= rows[0].median_ns);
    BOOST_TEST(rows[0].share > 99.0);
    BOOST_TEST(table_rows(back, ranges_experiment).size() == 1u);
    BOOST_TEST(table_rows(back, ranges_experiment)[0].calls == 50u);
    BOOST_TEST(has_finding(back, "kernel-records-dropped"));
    BOOST_TEST(has_finding(back, "run-cupti-overhead"));
    BOOST_TEST(has_finding(back, "cold-first-sample"));
    BOOST_TEST(has_finding(back, "run-kernel-below-floor"));
    bool busy_curve = false;
    for (const auto& e : back.experiments)
        for (const auto& sweep : e.sweeps) busy_curve = busy_curve || (sweep.name == "busy-over-time" && !sweep.curves.empty());
    BOOST_TEST(busy_curve);
    const std::string top = render_top(back, 5);
    BOOST_TEST(top.find("spin<int>") != std::string::npos);
    BOOST_TEST(top.find("kernel-records-dropped") != std::string::npos);
    BOOST_TEST(rows_csv(rows).find("\"void spin<int>(unsigned long)\",100,") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(incomplete_and_no_cuda_runs_say_so) {
    Aggregate a;
    RunInfo info;
    info.complete = false;
    info.status_note = "the program had not ended at the last periodic flush";
    const report::Report r = build_report(a, info);
    BOOST_TEST(!run_complete(r));
    BOOST_TEST(render_top(r, 10).find("incomplete") != std::string::npos);
    const report::Report none = no_cuda_report("python train.py", "the program never started CUDA");
    BOOST_TEST(has_finding(none, "run-no-cuda-work"));
}

BOOST_AUTO_TEST_CASE(file_names_per_rank_and_child) {
    distributed::RankIdentity id;
    id.pid = 77;
    id.launcher = "none";
    BOOST_TEST(report_file_name(id, true) == "report.json");
    BOOST_TEST(report_file_name(id, false) == "report-pid77.json");
    id.launcher = "torchrun";
    id.world_size = 8;
    id.rank = 3;
    BOOST_TEST(report_file_name(id, true) == "report-rank3.json");
}

BOOST_AUTO_TEST_CASE(diff_finds_the_slower_kernel_among_200) {
    const report::Report a = synthetic_run(1, 200, 200);
    const report::Report b = synthetic_run(2, 200, 200, 17, 1.03);
    DiffOptions o;
    const RunDiff d = diff_runs(a, b, o);
    BOOST_TEST(d.compared == 200u);
    BOOST_TEST(d.per_comparison_confidence == 1 - 0.05 / 200, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(d.slower() == 1u);
    BOOST_TEST(d.faster() == 0u);
    for (const DiffRow& r : d.rows)
        if (r.comparison.verdict == Verdict::slower) BOOST_TEST(r.name == "kernel_17");
    BOOST_TEST(diff_exit_code(d) == 1);
    BOOST_TEST(render_diff(d, o).find("Bonferroni") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(diff_of_two_like_runs_is_quiet_in_19_of_20) {
    int quiet = 0;
    for (std::uint32_t pair = 0; pair < 20; ++pair) {
        const RunDiff d = diff_runs(synthetic_run(100 + 2 * pair, 200, 100), synthetic_run(101 + 2 * pair, 200, 100));
        quiet += d.slower() == 0 && d.faster() == 0 ? 1 : 0;
    }
    BOOST_TEST(quiet >= 19);
}

BOOST_AUTO_TEST_CASE(diff_kernels_called_once_do_not_fail_the_gate_unless_strict) {
    const report::Report a = synthetic_run(1, 2, 50, -1, 1.0, 3);
    const report::Report b = synthetic_run(2, 2, 50, -1, 1.0, 3);
    const RunDiff d = diff_runs(a, b);
    BOOST_TEST(d.compared == 2u);
    BOOST_TEST(d.not_compared.size() == 3u);
    BOOST_TEST(diff_exit_code(d) == 0);
    BOOST_TEST(nothing_compared_reason(d).empty());
    DiffOptions strict;
    strict.strict = true;
    BOOST_TEST(diff_exit_code(diff_runs(a, b, strict)) == 3);
}

// A gate never passes on a comparison it did not make: with every kernel called once, or no kernel at all,
// nothing was compared and the exit status is 2, with the reason.
BOOST_AUTO_TEST_CASE(diff_with_nothing_compared_fails_with_the_reason) {
    const RunDiff once = diff_runs(synthetic_run(1, 3, 1), synthetic_run(2, 3, 1));
    BOOST_TEST(once.compared == 0u);
    BOOST_TEST(diff_exit_code(once) == 2);
    BOOST_TEST(nothing_compared_reason(once).find("3 name(s) are in both runs but were called too rarely") != std::string::npos);
    const RunDiff empty = diff_runs(synthetic_run(1, 0, 0), synthetic_run(2, 0, 0));
    BOOST_TEST(diff_exit_code(empty) == 2);
    BOOST_TEST(nothing_compared_reason(empty).find("neither run recorded a kernel") != std::string::npos);
    const RunDiff disjoint = diff_runs(synthetic_run(1, 0, 0, -1, 1.0, 2), synthetic_run(2, 2, 20));
    BOOST_TEST(diff_exit_code(disjoint) == 2);
    BOOST_TEST(nothing_compared_reason(disjoint).find("no kernel or NVTX range in common") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(diff_lists_added_and_removed) {
    const report::Report a = synthetic_run(1, 3, 50);
    const report::Report b = synthetic_run(2, 4, 50);
    const RunDiff d = diff_runs(b, a);
    BOOST_TEST(d.removed.size() == 1u);
    BOOST_TEST(d.removed[0] == "kernel_3");
    BOOST_TEST(diff_exit_code(d) == 3);
    BOOST_TEST(diff_runs(a, b).added.size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
