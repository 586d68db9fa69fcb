// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// KernelPolicy on a GPU, against spins of known length D: what it counts (names, kinds, streams, graph nodes,
// library kernels), what it leaves out (other streams, other threads), and what it reports. Only semantics that
// hold under any slowdown are asserted: a spin lasts at least D, so its busy time is >= D.
#include <boost/test/unit_test.hpp>

#include "cupti_precondition.hpp"
#include "gpu_fixture.hpp"

#include <cub_sum.hpp>
#include <spin.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <gpuchrono/core/device.hpp>
#include <gpuchrono/gpu/stream.hpp>
#include "cupti/refuse_buffers.hpp"
#include "checks/check_idle_gap.hpp"

#include <gpuchrono/api.hpp>

using gpuchrono::Duration;
using gpuchrono::KernelActivity;
using gpuchrono::KernelPolicy;
using gpuchrono::Measurement;
using gpuchrono::ScopedTimer;
namespace kernels = gpuchrono::kernels;

namespace {

// Needs CUPTI: its absence on a GPU machine is a failure with the reason, not a skip.
struct CuptiStream : GpuStream {
    gpuchrono::ScopedFindingReaction quiet{gpuchrono::Reaction::collect};  // the tests read the findings themselves
    CuptiStream() {
        BOOST_REQUIRE_MESSAGE(KernelPolicy::available(), "KernelPolicy unavailable: " << KernelPolicy::unavailable_reason());
    }
};

bool has_finding(const Measurement& m, std::string_view code) {
    return std::any_of(m.findings().begin(), m.findings().end(), [&](const gpuchrono::Finding& f) { return f.code == code; });
}

const gpuchrono::Finding* find_finding(const Measurement& m, std::string_view code) {
    for (const gpuchrono::Finding& f : m.findings())
        if (f.code == code) return &f;
    return nullptr;
}

std::string names(const std::vector<KernelActivity>& a) {
    std::string out;
    for (const KernelActivity& k : a)
        out += "\n  " + std::string(gpuchrono::to_string(k.kind)) + " " + k.name + " stream " + std::to_string(k.stream) +
               " graph " + std::to_string(k.graph_id) + " corr " + std::to_string(k.correlation_id) + " " +
               std::to_string(k.duration_ns()) + " ns";
    return out;
}

cudaStream_t new_stream() {
    cudaStream_t s = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "creating a second stream");
    return s;
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(kernel_policy_gpu, CuptiStream, *boost::unit_test::precondition(cupti_not_held_by_a_tool))

BOOST_AUTO_TEST_CASE(a_spin_reads_at_least_its_length_with_one_named_activity_on_the_timed_stream) {
    for (Duration known : {Duration::from_us(1), Duration::from_us(10), Duration::from_us(100), Duration::from_ms(1)}) {
        ScopedTimer<KernelPolicy> t(stream);
        kernels::launch_spin(known, stream);
        const Measurement& m = t.stop();
        BOOST_REQUIRE((m.state() == Measurement::State::ok));
        BOOST_TEST_MESSAGE("kernel policy: known " << known << ", busy " << m.duration() << ", bias "
                                                   << (m.duration() - known) << names(m.activities()));
        BOOST_TEST(m.policy() == "kernel");
        BOOST_TEST(m.duration().ns() >= known.ns());
        BOOST_TEST(m.duration().ns() < 2 * known.ns() + 1e6);
        BOOST_REQUIRE(m.activities().size() == 1u);
        const KernelActivity& a = m.activities()[0];
        BOOST_TEST((a.kind == gpuchrono::ActivityKind::kernel));
        BOOST_TEST(a.name.find("spin_kernel") != std::string::npos, a.name);
        BOOST_TEST(a.stream == t.policy().stream_id());
        BOOST_TEST(a.device == gpuchrono::stream_device(stream));
        BOOST_TEST(a.grid[0] == 1u);
        BOOST_TEST(a.block[0] == 32u);
        BOOST_TEST(a.graph_id == 0u);
        BOOST_TEST(m.span().has_value());
        BOOST_TEST(m.span()->ns() == m.duration().ns());
        BOOST_TEST(!has_finding(m, gpuchrono::codes::kernel_no_activity));
    }
}

// The legacy default stream (a stream 0, what Python code passes by default): CUPTI cannot name it before it has
// run something (cuptiGetStreamIdEx: CUPTI_ERROR_INVALID_STREAM, seen on the H100), so the scope learns its id from
// its own start mark.
BOOST_AUTO_TEST_CASE(the_legacy_default_stream_is_timed_by_its_marks) {
    const cudaStream_t legacy = nullptr;
    kernels::launch_spin(Duration::from_us(1), legacy);  // loaded before the scope
    GPUCHRONO_CUDA_CHECK(cudaDeviceSynchronize(), "waiting for the warm-up spin");
    for (int i = 0; i < 3; ++i) {
        ScopedTimer<KernelPolicy> t(legacy);
        kernels::launch_spin(Duration::from_us(10), legacy);
        const Measurement& m = t.stop();
        BOOST_REQUIRE((m.state() == Measurement::State::ok));
        BOOST_REQUIRE_MESSAGE(m.activities().size() == 1u, names(m.activities()));
        BOOST_TEST(m.activities()[0].name.find("spin_kernel") != std::string::npos, m.activities()[0].name);
        BOOST_TEST(m.duration().ns() >= 10'000.0);
        BOOST_TEST(m.duration().ns() < 1e6);
    }
}

BOOST_AUTO_TEST_CASE(busy_time_excludes_the_gaps_that_the_span_includes) {
    const Duration known = Duration::from_us(100);
    ScopedTimer<KernelPolicy> t(stream);
    kernels::launch_spin(known, stream);
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "a host pause between the launches");
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    kernels::launch_spin(known, stream);
    kernels::launch_spin(known, stream);
    const Measurement& m = t.stop();
    BOOST_REQUIRE(m.activities().size() == 3u);
    BOOST_TEST(m.duration().ns() >= 3 * known.ns());
    BOOST_TEST(m.span()->ns() >= m.duration().ns() + 2e6);  // the 2 ms pause is in the span only
    BOOST_TEST(std::is_sorted(m.activities().begin(), m.activities().end(),
                              [](const KernelActivity& a, const KernelActivity& b) { return a.start_ns < b.start_ns; }));
}

BOOST_AUTO_TEST_CASE(a_graph_launch_of_three_spins_gives_three_activities) {
    const Duration known = Duration::from_us(50);
    cudaStream_t capture = new_stream();
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamBeginCapture(capture, cudaStreamCaptureModeThreadLocal), "beginning the capture");
    for (int i = 0; i < 3; ++i) kernels::launch_spin(known, capture);
    GPUCHRONO_CUDA_CHECK(cudaStreamEndCapture(capture, &graph), "ending the capture");
    GPUCHRONO_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0), "instantiating the graph");
    GPUCHRONO_CUDA_CHECK(cudaGraphLaunch(exec, stream), "warming the graph up");
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "warming the graph up");
    for (KernelPolicy::Count count : {KernelPolicy::Count::stream, KernelPolicy::Count::thread}) {
        ScopedTimer<KernelPolicy> t(stream, KernelPolicy::Options{.count = count});
        GPUCHRONO_CUDA_CHECK(cudaGraphLaunch(exec, stream), "launching the graph");
        const Measurement& m = t.stop();
        BOOST_TEST_MESSAGE("graph, count " << (count == KernelPolicy::Count::stream ? "stream" : "thread") << ": busy "
                                           << m.duration() << ", timed stream " << t.policy().stream_id()
                                           << names(m.activities()));
        BOOST_REQUIRE(m.activities().size() == 3u);
        for (const KernelActivity& a : m.activities()) {
            BOOST_TEST(a.name.find("spin_kernel") != std::string::npos);
            BOOST_TEST(a.graph_id != 0u);
            BOOST_TEST(a.correlation_id == m.activities()[0].correlation_id);  // all from the one cudaGraphLaunch
        }
        BOOST_TEST(m.duration().ns() >= 3 * known.ns());
    }
    (void)cudaGraphExecDestroy(exec);
    (void)cudaGraphDestroy(graph);
    (void)cudaStreamDestroy(capture);
}

// Building a graph inside a thread-mode scope (nodes of copies and sets, added and edited) enqueues nothing: the
// scope must not wait for records of those calls (none ever come) nor report them late.
BOOST_AUTO_TEST_CASE(a_graph_built_inside_a_thread_mode_scope_is_not_waited_for) {
    void* buffer = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaMalloc(&buffer, 1 << 20), "allocating the buffer the graph's nodes set and copy");
    ScopedTimer<KernelPolicy> t(stream, KernelPolicy::Options{.count = KernelPolicy::Count::thread});
    kernels::launch_spin(Duration::from_us(20), stream);
    cudaGraph_t graph = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaGraphCreate(&graph, 0), "creating a graph");
    cudaMemsetParams set{};
    set.dst = buffer;
    set.value = 0;
    set.elementSize = 1;
    set.width = 1 << 20;
    set.height = 1;
    cudaGraphNode_t set_node = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaGraphAddMemsetNode(&set_node, graph, nullptr, 0, &set), "adding a memset node");
    cudaGraphNode_t copy_node = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaGraphAddMemcpyNode1D(&copy_node, graph, &set_node, 1, static_cast<char*>(buffer) + (1 << 19),
                                                  buffer, 1 << 19, cudaMemcpyDeviceToDevice),
                         "adding a memcpy node");
    set.value = 1;
    GPUCHRONO_CUDA_CHECK(cudaGraphMemsetNodeSetParams(set_node, &set), "editing the memset node");
    const Measurement& m = t.stop();
    (void)cudaGraphDestroy(graph);
    (void)cudaFree(buffer);
    BOOST_TEST_MESSAGE("thread mode, a spin and a graph built: " << m.duration() << names(m.activities()));
    BOOST_TEST(!has_finding(m, gpuchrono::codes::kernel_records_late), "a graph's construction was waited for as work");
    BOOST_REQUIRE(m.activities().size() == 1u);
    BOOST_TEST(m.activities()[0].name.find("spin_kernel") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_library_call_shows_its_internal_kernels_by_name) {
    kernels::CubSum sum(1 << 24);
    sum.launch(stream);  // warm: CUB's kernels are loaded lazily
    BOOST_REQUIRE(sum.result(stream) == double(1 << 24));
    ScopedTimer<KernelPolicy> t(stream);
    sum.launch(stream);
    const Measurement& m = t.stop();
    BOOST_TEST_MESSAGE("cub::DeviceReduce::Sum over 16M floats: busy " << m.duration() << names(m.activities()));
    BOOST_REQUIRE(!m.activities().empty());
    for (const KernelActivity& a : m.activities()) {
        BOOST_TEST((a.kind == gpuchrono::ActivityKind::kernel));
        BOOST_TEST(a.name.find("cub") != std::string::npos, a.name);
        BOOST_TEST(a.name.find("Reduce") != std::string::npos, a.name);
    }
    BOOST_TEST(m.duration().ns() > 0.0);
}

BOOST_AUTO_TEST_CASE(copies_and_sets_are_counted_with_their_kinds) {
    void* a = nullptr;
    void* b = nullptr;
    const std::size_t bytes = 8u << 20;
    GPUCHRONO_CUDA_CHECK(cudaMalloc(&a, bytes), "allocating a");
    GPUCHRONO_CUDA_CHECK(cudaMalloc(&b, bytes), "allocating b");
    ScopedTimer<KernelPolicy> t(stream);
    GPUCHRONO_CUDA_CHECK(cudaMemsetAsync(a, 1, bytes, stream), "memset");
    GPUCHRONO_CUDA_CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream), "memcpy");
    const Measurement& m = t.stop();
    BOOST_TEST_MESSAGE("memset + memcpy of 8 MiB:" << names(m.activities()));
    BOOST_REQUIRE(m.activities().size() == 2u);
    BOOST_TEST((m.activities()[0].kind == gpuchrono::ActivityKind::memset));
    BOOST_TEST((m.activities()[1].kind == gpuchrono::ActivityKind::memcpy));
    BOOST_TEST(m.activities()[1].name == "memcpy DtoD");
    BOOST_TEST(m.activities()[1].bytes == bytes);
    (void)cudaFree(a);
    (void)cudaFree(b);
}

BOOST_AUTO_TEST_CASE(work_on_another_stream_is_reported_not_counted_unless_the_thread_is_counted) {
    cudaStream_t other = new_stream();
    const Duration known = Duration::from_us(100);
    {
        ScopedTimer<KernelPolicy> t(stream);
        kernels::launch_spin(known, other);
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(other), "waiting for the other stream");
        const Measurement& m = t.stop();
        BOOST_TEST(m.activities().empty());
        BOOST_TEST(m.duration().ns() == 0.0);
        BOOST_TEST(has_finding(m, gpuchrono::codes::kernel_no_activity));
    }
    {
        ScopedTimer<KernelPolicy> t(stream);
        kernels::launch_spin(known, stream);
        kernels::launch_spin(known, other);
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(other), "waiting for the other stream");
        const Measurement& m = t.stop();
        BOOST_TEST(m.activities().size() == 1u);
        BOOST_TEST(has_finding(m, gpuchrono::codes::kernel_activity_elsewhere));
    }
    {
        ScopedTimer<KernelPolicy> t(stream, KernelPolicy::Options{.count = KernelPolicy::Count::thread});
        kernels::launch_spin(known, other);
        const Measurement& m = t.stop();  // thread mode waits for the device
        BOOST_REQUIRE(m.activities().size() == 1u);
        BOOST_TEST(m.duration().ns() >= known.ns());
        BOOST_TEST(!has_finding(m, gpuchrono::codes::kernel_no_activity));
    }
    (void)cudaStreamDestroy(other);
}

BOOST_AUTO_TEST_CASE(kernels_of_other_streams_overlapping_the_scope_are_reported_by_name) {
    cudaStream_t other = new_stream();
    int sms = 0;
    GPUCHRONO_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "reading the SM count");
    // Launched before the scope, on another stream: not the scope's, but running beside its kernel. Shorter than
    // the scope's kernel, so it has finished (and its record is delivered) when the scope flushes. One block each:
    // both fit on SMs of their own, so the overlap is said (info). Two blocks per SM beside a one-block scope:
    // they share its SM, which a narrow kernel may or may not feel, so it is said too (info). Two blocks per SM
    // on both sides: the scope's wide work shares the SMs, a warning.
    struct Case {
        unsigned other_blocks, scope_blocks;
        std::string_view expected, not_expected, says;
    };
    const unsigned full = 2u * static_cast<unsigned>(sms);
    for (const Case& c : {Case{1u, 1u, gpuchrono::codes::concurrent_work_beside, gpuchrono::codes::concurrent_work_overlapped, "separate SMs"},
                          Case{full, 1u, gpuchrono::codes::concurrent_work_beside, gpuchrono::codes::concurrent_work_overlapped, "narrow kernels"},
                          Case{full, full, gpuchrono::codes::concurrent_work_overlapped, gpuchrono::codes::concurrent_work_beside, "wide work"}}) {
        kernels::launch_spin(Duration::from_us(300), other, c.other_blocks);
        ScopedTimer<KernelPolicy> t(stream);
        kernels::launch_spin(Duration::from_ms(2), stream, c.scope_blocks);
        const Measurement& m = t.stop();
        BOOST_REQUIRE(m.activities().size() == 1u);
        BOOST_TEST_CONTEXT("other stream's spin of " << c.other_blocks << " blocks beside the scope's " << c.scope_blocks
                                                     << " on " << sms << " SMs") {
            BOOST_REQUIRE(has_finding(m, c.expected));
            BOOST_TEST(!has_finding(m, c.not_expected));
            for (const gpuchrono::Finding& f : m.findings())
                if (f.code == c.expected) {
                    BOOST_TEST_MESSAGE(gpuchrono::to_string(f));
                    BOOST_TEST(f.message.find("spin_kernel") != std::string::npos);
                    BOOST_TEST(f.message.find(c.says) != std::string::npos, f.message);
                    BOOST_TEST(f.evidence_or("largest_overlap_ns", 0) > 0);
                }
        }
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(other), "draining the other stream");
    }
    (void)cudaStreamDestroy(other);
}

BOOST_AUTO_TEST_CASE(lazy_scopes_stay_pending_and_resolve_with_one_flush) {
    const Duration known = Duration::from_us(50);
    gpuchrono::Series series("kernel lazy");
    for (int i = 0; i < 20; ++i) {
        ScopedTimer<KernelPolicy> t(series, stream, KernelPolicy::Options{.wait_at_stop = false});
        kernels::launch_spin(known, stream);
    }
    BOOST_REQUIRE(series.size() == 20u);
    BOOST_TEST(series.measurements().back().pending());
    const auto durations = series.durations();
    BOOST_TEST(series.failed_count() == 0u);
    for (Duration d : durations) BOOST_TEST(d.ns() >= known.ns());
    for (const Measurement& m : series.measurements()) BOOST_TEST(m.activities().size() == 1u);
}

BOOST_AUTO_TEST_CASE(nested_scopes_both_count_the_inner_work) {
    const Duration known = Duration::from_us(100);
    ScopedTimer<KernelPolicy> outer(stream);
    kernels::launch_spin(known, stream);
    {
        ScopedTimer<KernelPolicy> inner(stream);
        kernels::launch_spin(known, stream);
        BOOST_TEST(inner.stop().activities().size() == 1u);
    }
    const Measurement& m = outer.stop();
    BOOST_TEST(m.activities().size() == 2u);
    BOOST_TEST(m.duration().ns() >= 2 * known.ns());
}

BOOST_AUTO_TEST_CASE(two_threads_each_count_only_their_own_launches) {
    const Duration known = Duration::from_us(200);
    std::vector<std::size_t> counted(2);
    std::vector<std::string> first_name(2);
    auto work = [&](int id) {
        cudaStream_t s = new_stream();
        {
            ScopedTimer<KernelPolicy> t(s, KernelPolicy::Options{.count = KernelPolicy::Count::thread});
            for (int i = 0; i <= id; ++i) kernels::launch_spin(known, s);  // thread 0: one spin, thread 1: two
            counted[id] = t.stop().activities().size();
        }
        (void)cudaStreamDestroy(s);
    };
    std::thread a(work, 0), b(work, 1);
    a.join();
    b.join();
    BOOST_TEST(counted[0] == 1u);
    BOOST_TEST(counted[1] == 2u);
}

// Stream mode (the default) attributes by two marks the scope places on its stream, with no launch callback.
BOOST_AUTO_TEST_CASE(stream_mode_scopes_interleaved_on_one_stream_each_count_the_work_between_their_marks) {
    const Duration known = Duration::from_us(50);
    KernelPolicy a(stream), b(stream);
    a.start();
    kernels::launch_spin(known, stream);  // a's only
    b.start();
    kernels::launch_spin(known, stream);  // both
    kernels::launch_spin(known, stream);  // both
    const Measurement ma = a.stop();
    kernels::launch_spin(known, stream);  // b's only
    const Measurement mb = b.stop();
    BOOST_TEST(ma.activities().size() == 3u, names(ma.activities()));
    BOOST_TEST(mb.activities().size() == 3u, names(mb.activities()));
    BOOST_TEST(ma.duration().ns() >= 3 * known.ns());
    BOOST_TEST(mb.duration().ns() >= 3 * known.ns());
    for (const Measurement* m : {&ma, &mb}) {
        // Other processes on the GPU (a parallel test run) are the machine's, not the program's: not counted.
        std::string found;
        // Nor is an idle GPU before the scope (gpu-idle-before: how long the test waited before it).
        for (const gpuchrono::Finding& f : m->findings())
            if (f.code != gpuchrono::codes::other_processes_on_device && f.code != gpuchrono::codes::gpu_idle_before)
                found += " " + gpuchrono::to_string(f);
        BOOST_TEST(found.empty(), found);
        for (const KernelActivity& k : m->activities()) BOOST_TEST(k.name.find("spin_kernel") != std::string::npos, k.name);
    }
    // a's last two are b's first two: the same records.
    BOOST_REQUIRE(ma.activities().size() == 3u);
    BOOST_REQUIRE(mb.activities().size() == 3u);
    BOOST_TEST(ma.activities()[1].correlation_id == mb.activities()[0].correlation_id);
    BOOST_TEST(ma.activities()[2].correlation_id == mb.activities()[1].correlation_id);
}

BOOST_AUTO_TEST_CASE(stream_mode_scopes_on_several_streams_of_one_thread_count_their_own_stream) {
    const Duration known = Duration::from_us(100);
    cudaStream_t second = new_stream();
    KernelPolicy a(stream), b(second);
    a.start();
    b.start();
    kernels::launch_spin(known, stream);
    kernels::launch_spin(known, second);
    kernels::launch_spin(known, second);
    const Measurement mb = b.stop();
    const Measurement ma = a.stop();
    BOOST_TEST(ma.activities().size() == 1u, names(ma.activities()));
    BOOST_TEST(mb.activities().size() == 2u, names(mb.activities()));
    for (const KernelActivity& k : ma.activities()) BOOST_TEST(k.stream == a.stream_id());
    for (const KernelActivity& k : mb.activities()) BOOST_TEST(k.stream == b.stream_id());
    // The other stream's launches came between each scope's marks, but that stream is another scope's: not
    // reported as work sent to the wrong stream.
    BOOST_TEST(!has_finding(ma, gpuchrono::codes::kernel_activity_elsewhere));
    BOOST_TEST(!has_finding(mb, gpuchrono::codes::kernel_activity_elsewhere));
    // A stream no scope times is reported.
    cudaStream_t untimed = new_stream();
    a.start();
    kernels::launch_spin(known, stream);
    kernels::launch_spin(known, untimed);
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(untimed), "letting the untimed stream's work finish (its record then arrives)");
    const Measurement again = a.stop();
    BOOST_TEST(again.activities().size() == 1u, names(again.activities()));
    BOOST_TEST(has_finding(again, gpuchrono::codes::kernel_activity_elsewhere));
    (void)cudaStreamDestroy(untimed);
    (void)cudaStreamDestroy(second);
}

BOOST_AUTO_TEST_CASE(stream_mode_threads_on_their_own_streams_count_their_own_work) {
    const Duration known = Duration::from_us(200);
    std::vector<std::size_t> counted(4);
    std::vector<std::string> activities(4);
    auto work = [&](int id) {
        cudaStream_t s = new_stream();
        {
            ScopedTimer<KernelPolicy> t(s);
            for (int i = 0; i <= id; ++i) kernels::launch_spin(known, s);  // thread i: i + 1 spins
            const Measurement& m = t.stop();
            counted[id] = m.activities().size();
            activities[id] = names(m.activities());
        }
        (void)cudaStreamDestroy(s);
    };
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i) threads.emplace_back(work, i);
    for (std::thread& t : threads) t.join();
    for (std::size_t i = 0; i < 4; ++i) BOOST_TEST(counted[i] == i + 1, "thread " << i << activities[i]);
}

BOOST_AUTO_TEST_CASE(stream_mode_counts_another_threads_work_on_the_timed_stream) {
    const Duration known = Duration::from_us(100);
    ScopedTimer<KernelPolicy> t(stream);
    std::thread helper([&] { kernels::launch_spin(known, stream); });
    helper.join();
    const Measurement& m = t.stop();
    BOOST_TEST(m.activities().size() == 1u, names(m.activities()));
    BOOST_TEST(m.duration().ns() >= known.ns());
}

BOOST_AUTO_TEST_CASE(stream_mode_counts_a_forked_graph_whose_branches_run_on_streams_of_its_own) {
    const Duration known = Duration::from_us(50);
    cudaStream_t capture = new_stream(), branch = new_stream();
    cudaEvent_t fork = nullptr, join = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming), "creating the fork event");
    GPUCHRONO_CUDA_CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming), "creating the join event");
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamBeginCapture(capture, cudaStreamCaptureModeThreadLocal), "beginning the capture");
    kernels::launch_spin(known, capture);
    GPUCHRONO_CUDA_CHECK(cudaEventRecord(fork, capture), "forking");
    GPUCHRONO_CUDA_CHECK(cudaStreamWaitEvent(branch, fork, 0), "forking");
    kernels::launch_spin(known, capture);
    kernels::launch_spin(known, branch);
    kernels::launch_spin(known, branch);
    GPUCHRONO_CUDA_CHECK(cudaEventRecord(join, branch), "joining");
    GPUCHRONO_CUDA_CHECK(cudaStreamWaitEvent(capture, join, 0), "joining");
    kernels::launch_spin(known, capture);
    GPUCHRONO_CUDA_CHECK(cudaStreamEndCapture(capture, &graph), "ending the capture");
    GPUCHRONO_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0), "instantiating the graph");
    GPUCHRONO_CUDA_CHECK(cudaGraphLaunch(exec, stream), "warming the graph up");
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "warming the graph up");
    for (bool lazy : {false, true}) {
        ScopedTimer<KernelPolicy> t(stream, KernelPolicy::Options{.wait_at_stop = !lazy});
        kernels::launch_spin(known, stream);
        GPUCHRONO_CUDA_CHECK(cudaGraphLaunch(exec, stream), "launching the graph");
        kernels::launch_spin(known, stream);
        Measurement m = t.stop();
        (void)m.duration();  // resolves a lazy one
        BOOST_TEST_MESSAGE("forked graph, " << (lazy ? "lazy" : "eager") << ": busy " << m.duration() << ", timed stream "
                                            << t.policy().stream_id() << names(m.activities()));
        BOOST_TEST(m.activities().size() == 7u, names(m.activities()));
        std::size_t in_graph = 0;
        for (const KernelActivity& a : m.activities()) in_graph += a.graph_id != 0;
        BOOST_TEST(in_graph == 5u);
        BOOST_TEST(m.duration().ns() >= 6 * known.ns());  // two of the graph's spins may run side by side
        BOOST_TEST(!has_finding(m, gpuchrono::codes::kernel_activity_elsewhere));
    }
    (void)cudaGraphExecDestroy(exec);
    (void)cudaGraphDestroy(graph);
    (void)cudaEventDestroy(fork);
    (void)cudaEventDestroy(join);
    (void)cudaStreamDestroy(branch);
    (void)cudaStreamDestroy(capture);
}

BOOST_AUTO_TEST_CASE(stream_mode_refuses_a_capture_begun_between_start_and_stop) {
    cudaStream_t capture = new_stream();
    KernelPolicy p(capture);
    p.start();
    GPUCHRONO_CUDA_CHECK(cudaStreamBeginCapture(capture, cudaStreamCaptureModeThreadLocal), "beginning the capture");
    BOOST_CHECK_THROW((void)p.stop(), gpuchrono::TimerError);  // its stop mark would have become a graph node
    cudaGraph_t graph = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamEndCapture(capture, &graph), "ending the capture");
    std::size_t nodes = 99;
    GPUCHRONO_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nodes), "counting the graph's nodes");
    BOOST_TEST(nodes == 0u);
    (void)cudaGraphDestroy(graph);
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(capture), "draining the start mark");
    (void)cudaStreamDestroy(capture);
}

// gpu-idle-before: the first kernel after the device ran none of the process's work for a while
// runs longer on an H100; a scope whose first activity starts after such a gap says so, in both modes. Only this
// process's records count, so other processes sharing the GPU (a parallel test run) cannot hide the gap: the
// host's sleep is in it whatever they do.
BOOST_AUTO_TEST_CASE(a_scope_whose_kernel_ran_after_the_device_idled_carries_gpu_idle_before) {
    constexpr auto idle = std::chrono::milliseconds(5);
    // CUPTI held across the sleep: a device's idle time is known only from records taken while gpuchrono holds
    // CUPTI (a scope that sets it up afresh knows nothing before its own set-up).
    gpuchrono::CuptiHold hold;
    for (const KernelPolicy::Count count : {KernelPolicy::Count::stream, KernelPolicy::Count::thread}) {
        const bool by_marks = count == KernelPolicy::Count::stream;
        kernels::launch_spin(Duration::from_us(10), stream);
        GPUCHRONO_CUDA_CHECK(cudaDeviceSynchronize(), "draining the device before the idle time");
        std::this_thread::sleep_for(idle);
        ScopedTimer<KernelPolicy> t(stream, KernelPolicy::Options{.count = count});
        kernels::launch_spin(Duration::from_us(10), stream);
        const Measurement m = t.stop();
        BOOST_REQUIRE_MESSAGE(m.activities().size() == 1u, names(m.activities()));
        const gpuchrono::Finding* f = find_finding(m, gpuchrono::codes::gpu_idle_before);
        BOOST_REQUIRE_MESSAGE(f != nullptr, (by_marks ? "stream" : "thread") << " mode: no gpu-idle-before after a "
                                            "5 ms host sleep on a drained device");
        BOOST_TEST_MESSAGE(gpuchrono::to_string(*f));
        BOOST_TEST((f->severity == gpuchrono::Severity::info));
        // The last work ended before cudaDeviceSynchronize returned, the kernel began after the sleep: the gap holds
        // the sleep (1 ms is left for the CUPTI clock against the host's), whether or not the earlier record was
        // seen (without it the gap counts from the start of CUPTI's records, earlier still).
        BOOST_TEST(f->evidence_or("idle_gap_ns", 0) >= 4e6);
        BOOST_TEST(f->evidence_or("idle_gap_ns", 0) >= static_cast<double>(gpuchrono::idle_gap::idle_gap_threshold_ns));
        BOOST_TEST(f->evidence_or("device", -1) == static_cast<double>(gpuchrono::stream_device(stream)));
        BOOST_TEST(f->evidence_or("stream", -1) == static_cast<double>(m.activities()[0].stream));
        BOOST_TEST(f->message.find("spin_kernel") != std::string::npos, f->message);
        BOOST_TEST(f->message.find("Only this process's work is seen") != std::string::npos, f->message);
        BOOST_TEST(f->fix.find("warm the GPU / keep work queued") == 0u, f->fix);
        if (by_marks) {
            // The scope's own start mark ran after the sleep, just before its kernel: reported, and not taken for work.
            BOOST_TEST(f->evidence_or("mark_gap_ns", -1) >= 0.0);
            BOOST_TEST(f->evidence_or("mark_gap_ns", 1e18) < f->evidence_or("idle_gap_ns", 0));
        }
    }
}

// The same kernel queued right behind a long kernel of the device: the device was busy up to the scope's start mark,
// so no gap. Decided from the records themselves: an outer scope holds both kernels, and the inner scope carries
// the finding exactly when the first kernel began at least the threshold after the long one ended. That is never
// the case when the scope's kernel was launched while the long one still ran (checked with an event) and no other
// process had a context on the GPU: only a time slice of another process's context between the two, which this
// process's records cannot see, could open such a gap.
BOOST_AUTO_TEST_CASE(a_scope_queued_right_behind_a_long_kernel_does_not_carry_gpu_idle_before) {
    cudaEvent_t long_done = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaEventCreateWithFlags(&long_done, cudaEventDisableTiming), "creating an event");
    for (const KernelPolicy::Count count : {KernelPolicy::Count::stream, KernelPolicy::Count::thread}) {
        KernelPolicy outer(stream);
        outer.start();
        kernels::launch_spin(Duration::from_ms(50), stream);
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(long_done, stream), "recording the end of the long kernel");
        KernelPolicy inner(stream, KernelPolicy::Options{.count = count});
        inner.start();
        kernels::launch_spin(Duration::from_us(10), stream);
        const cudaError_t q = cudaEventQuery(long_done);
        BOOST_REQUIRE_MESSAGE(q == cudaSuccess || q == cudaErrorNotReady, "cudaEventQuery: " << cudaGetErrorString(q));
        const bool queued = q == cudaErrorNotReady;  // the scope's kernel was launched while the long one ran
        const Measurement mi = inner.stop();
        const Measurement mo = outer.stop();
        BOOST_REQUIRE_MESSAGE(mi.activities().size() == 1u, names(mi.activities()));
        BOOST_REQUIRE_MESSAGE(mo.activities().size() == 2u, names(mo.activities()));
        const KernelActivity& long_kernel = mo.activities()[0];
        const KernelActivity& scoped = mo.activities()[1];
        BOOST_TEST(scoped.correlation_id == mi.activities()[0].correlation_id);
        const std::uint64_t gap = scoped.start_ns > long_kernel.end_ns ? scoped.start_ns - long_kernel.end_ns : 0;
        const gpuchrono::Finding* f = find_finding(mi, gpuchrono::codes::gpu_idle_before);
        BOOST_TEST_MESSAGE((count == KernelPolicy::Count::stream ? "stream" : "thread")
                           << " mode: the scope's kernel began " << gap << " ns after the long one ended; launched while "
                           << "it ran: " << queued << "; " << (f ? gpuchrono::to_string(*f) : std::string("no gpu-idle-before")));
        // One stream and nothing else of the process: the gap is the device's and the stream's, and the lower of
        // the two thresholds decides.
        const std::uint64_t threshold =
            std::min(gpuchrono::idle_gap::idle_gap_threshold_ns, gpuchrono::idle_gap::stream_idle_threshold_ns);
        BOOST_TEST((f != nullptr) == (gap >= threshold), "gap " << gap << " ns");
        if (f) BOOST_TEST(f->evidence_or("idle_gap_ns", -1) == static_cast<double>(gap));
        if (f) BOOST_TEST(f->evidence_or("stream_idle_gap_ns", -1) == static_cast<double>(gap));
        if (queued && !has_finding(mi, gpuchrono::codes::other_processes_on_device)) {
            BOOST_TEST(f == nullptr);
            BOOST_TEST(gap < threshold);
        }
    }
    (void)cudaEventDestroy(long_done);
}

BOOST_AUTO_TEST_CASE(a_capturing_stream_is_refused) {
    cudaStream_t capture = new_stream();
    GPUCHRONO_CUDA_CHECK(cudaStreamBeginCapture(capture, cudaStreamCaptureModeThreadLocal), "beginning the capture");
    BOOST_CHECK_THROW(ScopedTimer<KernelPolicy> t(capture), gpuchrono::TimerError);
    cudaGraph_t graph = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamEndCapture(capture, &graph), "ending the capture");
    (void)cudaGraphDestroy(graph);
    (void)cudaStreamDestroy(capture);
}

BOOST_AUTO_TEST_SUITE_END()

// CUPTI with nowhere to write its records (refuse_buffers.hpp): the loss must be reported by the scope that lost
// them, with its count, and the scopes after must be whole again and carry no loss of their own. A suite of its
// own (a process of its own in gpu-run and ctest): it leaves CUPTI's buffers in a state no other test expects.
BOOST_FIXTURE_TEST_SUITE(kernel_records_dropped, CuptiStream, *boost::unit_test::precondition(cupti_not_held_by_a_tool))

BOOST_AUTO_TEST_CASE(records_cupti_could_not_write_are_reported_by_their_scope_and_no_later_one) {
    const Duration known = Duration::from_us(20);
    constexpr std::size_t launches = 20;
    auto scope = [&] {
        ScopedTimer<KernelPolicy> t(stream);
        for (std::size_t i = 0; i < launches; ++i) kernels::launch_spin(known, stream);
        return t.stop();
    };
    auto loss = [](const Measurement& m) {
        std::string out;
        for (const gpuchrono::Finding& f : m.findings())
            if (f.code == gpuchrono::codes::kernel_records_dropped || f.code == gpuchrono::codes::kernel_records_late)
                out += " [" + f.code + "] " + f.message;
        return out;
    };
    const Measurement before = scope();  // CUPTI set up; its stop flushed, so CUPTI asks for a buffer next
    BOOST_TEST_REQUIRE(before.activities().size() == launches, names(before.activities()));
    BOOST_TEST(loss(before).empty(), loss(before));

    gpuchrono::cupti::refuse_activity_buffers(true);
    Measurement starved;
    try {
        starved = scope();
    } catch (...) {
        gpuchrono::cupti::refuse_activity_buffers(false);
        throw;
    }
    gpuchrono::cupti::refuse_activity_buffers(false);
    BOOST_TEST_MESSAGE("with no buffer: " << starved.activities().size() << " of " << launches << " activities;"
                                          << loss(starved));
    // Never a silently short list: every launch is either in the list or in a finding that says so.
    BOOST_TEST(starved.activities().size() < launches, "CUPTI wrote records without a buffer?" << names(starved.activities()));
    BOOST_TEST(!loss(starved).empty(), "the lost records were not reported");
    BOOST_TEST(has_finding(starved, gpuchrono::codes::kernel_records_dropped), "CUPTI's drop count missed:" << loss(starved));
    BOOST_TEST(starved.duration() < known * static_cast<double>(launches));  // the busy time misses the lost work

    const Measurement after = scope();
    BOOST_TEST(after.activities().size() == launches, names(after.activities()));
    BOOST_TEST(loss(after).empty(), "a later scope reported the earlier loss:" << loss(after));
}

BOOST_AUTO_TEST_SUITE_END()
