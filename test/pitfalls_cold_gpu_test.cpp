// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Cold starts need a process in which no CUDA context exists yet. ctest runs every suite in a process of its
// own, so each of these suites starts cold there; run together with other suites, a context may exist already
// and the suite says so and skips (a precondition, visible in the log).
#include <boost/test/unit_test.hpp>

#include <gpuchrono/core/cuda_error.hpp>  // GPUCHRONO_CUDA_CHECK: macros do not travel through import

#include <cold_spin.hpp>
#include <spin.hpp>

#include <cuda_runtime_api.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

// Internals the module does not export, reached through their headers.
#include <gpuchrono/checks/check_event_interval.hpp>
#include <gpuchrono/gpu/driver_probe.hpp>

#include <gpuchrono/api.hpp>

using gpuchrono::Duration;
using gpuchrono::Finding;
using gpuchrono::Measurement;

namespace {

struct no_context_yet {
    boost::test_tools::assertion_result operator()(boost::unit_test::test_unit_id) const {
        const int contexts = gpuchrono::active_primary_contexts();
        boost::test_tools::assertion_result r(contexts == 0);
        r.message() << "this process already has " << contexts
                    << " active CUDA context(s): run this suite alone (ctest -R " << "pitfalls_cold" << ")";
        return r;
    }
};

void show(const char* what, const Measurement& m) {
    BOOST_TEST_MESSAGE(what << ": " << m.duration() << ", " << m.findings().size() << " finding(s)");
    for (const Finding& f : m.findings()) BOOST_TEST_MESSAGE("    " << gpuchrono::to_string(f));
}

bool has(const Measurement& m, std::string_view code) {
    for (const Finding& f : m.findings())
        if (f.code == code) return true;
    return false;
}

}  // namespace

// docs/pitfalls-catalog.md #3, detected: a host timer around the first CUDA call of the process.
BOOST_AUTO_TEST_SUITE(pitfalls_cold_context, *boost::unit_test::precondition(no_context_yet()))

BOOST_AUTO_TEST_CASE(a_host_timer_around_the_first_cuda_call_reports_the_context) {
    gpuchrono::ScopedFindingReaction collect(gpuchrono::Reaction::collect);
    gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> t;
    GPUCHRONO_CUDA_CHECK(cudaFree(nullptr), "the first CUDA call of the process");
    const Measurement m = t.stop();
    show("host clock around cudaFree(nullptr) in a fresh process", m);
    BOOST_TEST(has(m, gpuchrono::codes::context_created_in_timer));
    BOOST_TEST(gpuchrono::active_primary_contexts() >= 1);
    // Once a context exists the check is off: a second host timer neither asks nor reports.
    gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> again;
    GPUCHRONO_CUDA_CHECK(cudaFree(nullptr), "a later CUDA call");
    BOOST_TEST(again.stop().findings().empty());
}

BOOST_AUTO_TEST_SUITE_END()

// docs/pitfalls-catalog.md #3, prevented: a GPU timer creates the context in its constructor, before its interval.
BOOST_AUTO_TEST_SUITE(pitfalls_cold_event, *boost::unit_test::precondition(no_context_yet()))

BOOST_AUTO_TEST_CASE(the_first_event_timer_of_a_process_excludes_context_creation) {
    gpuchrono::ScopedFindingReaction collect(gpuchrono::Reaction::collect);
    const auto before = std::chrono::steady_clock::now();
    gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(cudaStream_t{});
    const Duration constructor(std::chrono::steady_clock::now() - before);
    // The context exists once the constructor returns, so before the start event: it was created there.
    BOOST_TEST(gpuchrono::active_primary_contexts() >= 1);
    gpuchrono::kernels::launch_spin(Duration::from_us(100), cudaStream_t{});
    const Measurement m = t.stop();
    show("event, 100 us spin, first CUDA use of the process", m);
    BOOST_TEST_MESSAGE("the constructor took " << constructor << " (context creation: 213-323 ms on an H100)");
    BOOST_TEST(m.duration().ns() >= 100e3 - 500.0);
    // Context creation is in the constructor's time, not in the interval: the interval holds the kernel and
    // its first (lazy-loading) launch, both shorter than creating a context, at any speed of the machine.
    BOOST_TEST(m.duration() < constructor, "context creation leaked into the interval: " << m.duration());
}

BOOST_AUTO_TEST_SUITE_END()

// docs/pitfalls-catalog.md #4: a kernel's first launch inside the first EventPolicy scope at a line loads its module
// (lazy loading) inside the interval. Whatever the stream shows at the stop, the finding names the cold start, never
// "pass the timer the stream the work is launched on" (timed-stream-idle), and names the user's line.
BOOST_AUTO_TEST_SUITE(pitfalls_cold_launch, *boost::unit_test::precondition(no_context_yet()))

BOOST_AUTO_TEST_CASE(a_kernels_first_launch_is_a_cold_start_at_the_users_line) {
    gpuchrono::ScopedFindingReaction collect(gpuchrono::Reaction::collect);
    GPUCHRONO_CUDA_CHECK(cudaFree(nullptr), "creating the context before any timer");
    cudaStream_t stream = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating a stream");
    const bool lazy = gpuchrono::module_loading_mode() == gpuchrono::ModuleLoading::lazy;
    BOOST_TEST_MESSAGE("module loading: " << gpuchrono::to_string(gpuchrono::module_loading_mode()));
    int timer_line = 0;
    std::vector<Measurement> taken;
    for (int i = 0; i < 3; ++i) {
        timer_line = __LINE__ + 1;
        gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(stream);
        gpuchrono::kernels::launch_cold_spin(Duration::from_us(2), stream);
        taken.push_back(t.stop());
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "draining between scopes");
    }
    show("event, the first launch of a kernel", taken[0]);
    show("event, its second launch", taken[1]);
    BOOST_TEST(!has(taken[0], gpuchrono::codes::timed_stream_idle), "the work was on the timed stream");
    for (const Finding& f : taken[0].findings())
        BOOST_TEST(f.where == "pitfalls_cold_gpu_test.cpp:" + std::to_string(timer_line), f.where);
    if (lazy && has(taken[0], gpuchrono::codes::cold_first_sample)) {
        for (const Finding& f : taken[0].findings())
            if (f.code == gpuchrono::codes::cold_first_sample)
                BOOST_TEST(f.fix.find("CUDA_MODULE_LOADING=EAGER") != std::string::npos, f.fix);
    }
    // Later scopes at the same line are warm: no cold start is claimed for them.
    for (std::size_t i = 1; i < taken.size(); ++i) BOOST_TEST(!has(taken[i], gpuchrono::codes::cold_first_sample));
    (void)cudaStreamDestroy(stream);
}

BOOST_AUTO_TEST_SUITE_END()

// docs/pitfalls-catalog.md #4 for HostSyncPolicy: its first scope at a line, under lazy loading, spends the module
// load on the host before its stop waits, and says so as a cold start with the user's line.
BOOST_AUTO_TEST_SUITE(pitfalls_cold_host_sync, *boost::unit_test::precondition(no_context_yet()))

BOOST_AUTO_TEST_CASE(a_kernels_first_launch_in_a_host_sync_scope_is_a_cold_start) {
    gpuchrono::ScopedFindingReaction collect(gpuchrono::Reaction::collect);
    GPUCHRONO_CUDA_CHECK(cudaFree(nullptr), "creating the context before any timer");
    cudaStream_t stream = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating a stream");
    const bool lazy = gpuchrono::module_loading_mode() == gpuchrono::ModuleLoading::lazy;
    int timer_line = 0;
    std::vector<Measurement> taken;
    std::vector<Duration> launch_call;  // the host time of each scope's launch, which the scope's own count holds
    for (int i = 0; i < 3; ++i) {
        timer_line = __LINE__ + 1;
        gpuchrono::ScopedTimer<gpuchrono::HostSyncPolicy> t(stream);
        const auto before = std::chrono::steady_clock::now();
        gpuchrono::kernels::launch_cold_spin(Duration::from_us(2), stream);
        launch_call.emplace_back(std::chrono::steady_clock::now() - before);
        taken.push_back(t.stop());
    }
    show("host sync, the first launch of a kernel", taken[0]);
    show("host sync, its second launch", taken[1]);
    const Finding* cold = nullptr;
    for (const Finding& f : taken[0].findings())
        if (f.code == gpuchrono::codes::cold_first_sample) cold = &f;
    // The rule (check_cold_first_synced_scope) must fire where even the launch call alone meets it.
    const Duration reading = taken[0].duration();
    if (lazy && launch_call[0] >= gpuchrono::host_time_floor &&
        launch_call[0].ns() >= gpuchrono::host_share_threshold * reading.ns())
        BOOST_TEST(cold != nullptr, "the launch call took " << launch_call[0] << " of " << reading);
    if (!lazy) BOOST_TEST(cold == nullptr, "no lazy loading, no claim of a module load");
    if (cold) {
        BOOST_TEST(cold->where == "pitfalls_cold_gpu_test.cpp:" + std::to_string(timer_line), cold->where);
        BOOST_TEST(cold->fix.find("CUDA_MODULE_LOADING=EAGER") != std::string::npos, cold->fix);
        BOOST_TEST(cold->evidence_or("host_time_ns", 0) >= launch_call[0].ns());
        BOOST_TEST(cold->evidence_or("reading_ns", -1) == reading.ns());
    }
    for (std::size_t i = 1; i < taken.size(); ++i) BOOST_TEST(!has(taken[i], gpuchrono::codes::cold_first_sample));
    (void)cudaStreamDestroy(stream);
}

BOOST_AUTO_TEST_SUITE_END()
