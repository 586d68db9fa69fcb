// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono's hold of CUPTI on a GPU, beside a stand-in for another CUPTI tool: the tool calls cuptiSubscribe on
// the same libcupti, as torch.profiler (Kineto) or any tool of the user's does. Checks: after gpuchrono's last
// scope ended the tool subscribes and receives its callbacks; while it holds CUPTI KernelPolicy refuses with the
// documented reason and measure()'s automatic choice falls back and says why; after it unsubscribes gpuchrono's
// readings agree with those before (medians of the same spin within 5%); a lazy scope read after CUPTI was given
// back reads its kernel; a loop of scopes under a CuptiHold sets CUPTI up once. Its own ctest process (a suite
// of gpu_tests): CUPTI's subscriber slot is the process's.
#include <boost/test/unit_test.hpp>

#include "cupti_precondition.hpp"
#include "gpu_fixture.hpp"

#include <spin.hpp>

#include <cupti.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "cupti/hold_counts.hpp"

#include <gpuchrono/api.hpp>

using gpuchrono::CuptiHold;
using gpuchrono::Duration;
using gpuchrono::KernelPolicy;
using gpuchrono::Measurement;
using gpuchrono::ScopedTimer;
namespace kernels = gpuchrono::kernels;

namespace {

constexpr Duration spin_length = Duration::from_us(20);

// The other tool: the libcupti gpuchrono loaded (the soname of the toolkit built with), asked directly.
class StandInTool {
public:
    StandInTool() {
        handle_ = dlopen(CUDA_VERSION >= 13000 ? "libcupti.so.13" : "libcupti.so.12", RTLD_NOW | RTLD_NOLOAD);
        if (!handle_) return;
        subscribe_ = reinterpret_cast<decltype(subscribe_)>(dlsym(handle_, "cuptiSubscribe"));
        unsubscribe_ = reinterpret_cast<decltype(unsubscribe_)>(dlsym(handle_, "cuptiUnsubscribe"));
        enable_domain_ = reinterpret_cast<decltype(enable_domain_)>(dlsym(handle_, "cuptiEnableDomain"));
    }
    bool loaded() const { return subscribe_ && unsubscribe_ && enable_domain_; }

    CUptiResult subscribe() {
        const CUptiResult r = subscribe_(&subscriber_, on_call, &calls_);
        if (r == CUPTI_SUCCESS) {
            subscribed_ = true;
            (void)enable_domain_(1, subscriber_, CUPTI_CB_DOMAIN_RUNTIME_API);
        }
        return r;
    }
    void unsubscribe() {
        if (subscribed_) (void)unsubscribe_(subscriber_);
        subscribed_ = false;
    }
    int calls() const { return calls_.load(); }
    ~StandInTool() { unsubscribe(); }

private:
    static void CUPTIAPI on_call(void* user, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {
        static_cast<std::atomic<int>*>(user)->fetch_add(1);
    }
    void* handle_ = nullptr;
    CUptiResult (*subscribe_)(CUpti_SubscriberHandle*, CUpti_CallbackFunc, void*) = nullptr;
    CUptiResult (*unsubscribe_)(CUpti_SubscriberHandle) = nullptr;
    CUptiResult (*enable_domain_)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain) = nullptr;
    CUpti_SubscriberHandle subscriber_ = nullptr;
    bool subscribed_ = false;
    std::atomic<int> calls_{0};
};

// Needs CUPTI: absent on a GPU machine it is a failure with the reason.
struct Fixture : GpuStream {
    gpuchrono::ScopedFindingReaction quiet{gpuchrono::Reaction::collect};
    Fixture() {
        BOOST_REQUIRE_MESSAGE(KernelPolicy::available(), "KernelPolicy unavailable: " << KernelPolicy::unavailable_reason());
    }
};

// The median of n scopes of one spin, each a ScopedTimer<KernelPolicy> of its own.
double median_spin_ns(cudaStream_t stream, int n = 31) {
    std::vector<double> ns;
    for (int i = 0; i < n; ++i) {
        ScopedTimer<KernelPolicy> t(stream);
        kernels::launch_spin(spin_length, stream);
        const Measurement& m = t.stop();
        BOOST_REQUIRE_MESSAGE(!m.failed(), m.error());
        ns.push_back(m.duration().ns());
    }
    std::nth_element(ns.begin(), ns.begin() + n / 2, ns.end());
    return ns[n / 2];
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(cupti_hold_gpu, Fixture, *boost::unit_test::precondition(cupti_not_held_by_a_tool))

BOOST_AUTO_TEST_CASE(a_tool_subscribes_after_the_last_scope_and_gpuchrono_reads_alike_after_it) {
    const double before_ns = median_spin_ns(stream);
    BOOST_TEST(gpuchrono::cupti::cupti_holders() == 0u);  // every scope ended: CUPTI given back after the linger

    StandInTool tool;
    BOOST_REQUIRE_MESSAGE(tool.loaded(), "libcupti is not loaded in this process, or lacks cuptiSubscribe");
    // No release_cupti(): the give-back after the 50 ms linger must come by itself. Polled for up to 10 s, so a
    // slow machine (a sanitizer) does not fail it; on a quiet GPU it comes within about 50 ms.
    CUptiResult r = tool.subscribe();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (r != CUPTI_SUCCESS && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        r = tool.subscribe();
    }
    BOOST_REQUIRE_MESSAGE(r == CUPTI_SUCCESS, "the tool's cuptiSubscribe after gpuchrono's last scope failed: " << r);
    kernels::launch_spin(spin_length, stream);
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "the tool's launch");
    BOOST_TEST(tool.calls() > 0, "the tool received " << tool.calls() << " runtime API callbacks");
    tool.unsubscribe();

    const double after_ns = median_spin_ns(stream);
    BOOST_TEST_MESSAGE("median of a 20 us spin: " << before_ns << " ns before the tool, " << after_ns << " ns after");
    BOOST_TEST(std::abs(after_ns - before_ns) <= 0.05 * before_ns,
               "medians before and after the tool: " << before_ns << " vs " << after_ns << " ns");
}

BOOST_AUTO_TEST_CASE(a_tool_that_subscribed_first_makes_kernel_policy_refuse_and_auto_fall_back) {
    StandInTool tool;
    (void)KernelPolicy::available();  // loads libcupti so the tool finds it
    BOOST_TEST(gpuchrono::release_cupti());  // and gives it back now, not after the linger
    BOOST_REQUIRE(tool.loaded());
    BOOST_REQUIRE(tool.subscribe() == CUPTI_SUCCESS);

    BOOST_TEST(!KernelPolicy::available());
    const std::string why = KernelPolicy::unavailable_reason();
    BOOST_TEST(why.find("CUPTI is taken by another tool") != std::string::npos, why);
    try {
        KernelPolicy refused(stream);
        BOOST_ERROR("KernelPolicy was constructed while another tool held CUPTI");
    } catch (const gpuchrono::TimerError& e) {
        BOOST_TEST(std::string(e.what()).find("taken by another tool") != std::string::npos, e.what());
    }
    {
        KernelPolicy::Options fail;
        fail.if_unavailable = KernelPolicy::IfUnavailable::fail_measurement;
        KernelPolicy p(stream, fail);
        p.start();
        kernels::launch_spin(spin_length, stream);
        const Measurement m = p.stop();
        BOOST_TEST(m.failed());
        BOOST_TEST(std::any_of(m.findings().begin(), m.findings().end(),
                               [](const gpuchrono::Finding& f) { return f.code == "cupti-unavailable"; }));
    }
    const gpuchrono::Series s =
        gpuchrono::measure("spin", stream, [](cudaStream_t st) { kernels::launch_spin(spin_length, st); });
    const gpuchrono::MeasureRecord& record = *s.measure_record();
    BOOST_TEST((record.method != gpuchrono::Method::kernel), record.method_note);
    BOOST_TEST(record.method_note.find("CUPTI is taken by another tool") != std::string::npos, record.method_note);
    BOOST_TEST(gpuchrono::cupti::cupti_holders() == 0u);
    tool.unsubscribe();
    BOOST_TEST(KernelPolicy::available(), KernelPolicy::unavailable_reason());
}

BOOST_AUTO_TEST_CASE(a_lazy_scope_reads_its_kernel_after_cupti_was_given_back) {
    std::vector<Measurement> pending;
    {
        KernelPolicy::Options lazy;
        lazy.wait_at_stop = false;
        KernelPolicy p(stream, lazy);
        for (int i = 0; i < 4; ++i) {
            p.start();
            kernels::launch_spin(spin_length, stream);
            pending.push_back(p.stop());
        }
    }  // the last hold
    BOOST_TEST(gpuchrono::cupti::cupti_holders() == 0u);
    BOOST_TEST(gpuchrono::release_cupti());  // the scopes' records are delivered, and CUPTI is given back
    StandInTool tool;  // another tool now holds CUPTI: the lazy readings must not need it
    BOOST_REQUIRE(tool.loaded());
    BOOST_REQUIRE(tool.subscribe() == CUPTI_SUCCESS);
    for (const Measurement& m : pending) {
        BOOST_TEST((m.resolve() == Measurement::State::ok), m.error());
        BOOST_TEST(m.duration().ns() >= spin_length.ns(), m.duration().ns());
        BOOST_TEST(m.duration().ns() < spin_length.ns() + 10'000.0, m.duration().ns());
        BOOST_TEST(m.activities().size() == 1u);
    }
}

BOOST_AUTO_TEST_CASE(scopes_under_a_hold_set_cupti_up_once) {
    BOOST_TEST(gpuchrono::release_cupti());  // what earlier cases left set up
    const std::size_t before = gpuchrono::cupti::cupti_acquisitions();
    {
        CuptiHold hold;
        BOOST_REQUIRE_MESSAGE(hold.held(), hold.why_not());
        for (int i = 0; i < 100; ++i) {
            ScopedTimer<KernelPolicy> t(stream);
            kernels::launch_spin(Duration::from_us(2), stream);
            BOOST_TEST(!t.stop().failed());
        }
        BOOST_TEST(gpuchrono::cupti::cupti_holders() == 1u);
    }
    BOOST_TEST(gpuchrono::cupti::cupti_acquisitions() == before + 1);
    // Without a hold, scopes that follow each other within the linger share one set-up too ...
    for (int i = 0; i < 3; ++i) {
        ScopedTimer<KernelPolicy> t(stream);
        kernels::launch_spin(Duration::from_us(2), stream);
        BOOST_TEST(!t.stop().failed());
    }
    BOOST_TEST_MESSAGE("three scopes without a hold: " << gpuchrono::cupti::cupti_acquisitions() - before - 1
                                                        << " set-ups (0 when they follow within the linger)");
    // ... and one after a give-back sets it up again.
    BOOST_TEST(gpuchrono::release_cupti());
    const std::size_t given_back = gpuchrono::cupti::cupti_acquisitions();
    {
        ScopedTimer<KernelPolicy> t(stream);
        kernels::launch_spin(Duration::from_us(2), stream);
        BOOST_TEST(!t.stop().failed());
    }
    BOOST_TEST(gpuchrono::cupti::cupti_acquisitions() == given_back + 1);
    // A loop on four threads without a hold: the pattern that crashed when each scope set CUPTI up and gave it
    // back; every reading must be the spin's.
    std::vector<std::thread> threads;
    std::atomic<int> bad{0};
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            cudaStream_t s = nullptr;
            if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) {
                ++bad;
                return;
            }
            for (int i = 0; i < 200; ++i) {
                ScopedTimer<KernelPolicy> timer(s);
                kernels::launch_spin(Duration::from_us(2), s);
                const Measurement& m = timer.stop();
                if (m.failed() || m.duration().ns() < 2000.0) ++bad;
            }
            (void)cudaStreamDestroy(s);
        });
    for (std::thread& t : threads) t.join();
    BOOST_TEST(bad.load() == 0);
}

BOOST_AUTO_TEST_SUITE_END()
