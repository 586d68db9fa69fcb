// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The load test at small scale (bench/stress.cpp runs it at full scale): 4 threads, each with its own stream,
// 200 scopes of every policy; every Measurement accounted for and every reading physically possible.
#include <boost/test/unit_test.hpp>

#include <stress_run.hpp>

#include <string>

#include <gpuchrono/gpuchrono.hpp>  // the internals (pools, stream_device) the module does not export

#include <gpuchrono/api.hpp>

BOOST_AUTO_TEST_SUITE(stress_gpu)

BOOST_AUTO_TEST_CASE(four_threads_account_for_every_scope_of_every_policy) {
    const gpuchrono::Reaction saved = gpuchrono::finding_reaction();
    stress::Config config;
    config.threads = 4;
    config.iterations = 200;
    config.warm_iterations = 50;
    const stress::Result r = stress::run(config);
    gpuchrono::set_finding_reaction(saved);
    BOOST_TEST_MESSAGE(config.threads << " threads x " << config.iterations << " scopes of each kind on " << r.devices
                                      << " device(s), " << gpuchrono::to_string(r.wall));
    for (const std::string& e : r.thread_errors) BOOST_ERROR("a stress thread stopped: " << e);
    for (std::size_t k = 0; k < stress::kind_count; ++k) {
        const stress::Tally& t = r.tallies[k];
        if (!r.ran[k]) {  // KernelPolicy without CUPTI (another tool holds it): said, not silently passed
            BOOST_TEST_MESSAGE(stress::kind_names[k] << ": not run: " << r.kernel_unavailable);
            BOOST_TEST(t.ok + t.failed == 0u);
            continue;
        }
        BOOST_TEST_MESSAGE(stress::kind_names[k] << ": ok " << t.ok << ", failed " << t.failed << ", out of range "
                                                 << t.out_of_range);
        for (const auto& [why, n] : t.reasons) BOOST_TEST_MESSAGE("    failed x" << n << ": " << why);
        for (const auto& e : t.out_of_range_examples) BOOST_TEST_MESSAGE("    out of range: " << e);
        BOOST_TEST(t.ok + t.failed == r.expected(k), stress::kind_names[k]);  // none lost, none counted twice
        BOOST_TEST(t.failed == 0u, stress::kind_names[k]);  // a healthy GPU: every scope measures
        BOOST_TEST(t.out_of_range == 0u, stress::kind_names[k]);
    }
}

BOOST_AUTO_TEST_SUITE_END()
