// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Method::kernel: each call timed by a KernelPolicy scope: the GPU's own lifetime of the kernels (copies,
// sets) the call launched on the stream, from CUPTI activity records, launch overhead excluded: a D-us spin
// reads D + 0.93..0.95 us on an H100, as a raw CUPTI record does (bench_kernel_policy). The scopes of a batch
// stop without waiting (wait_at_stop = false); reading the first waits for the work and flushes CUPTI's
// buffers once for the whole batch. Queued behind untimed work (lead_spin.hpp) or the L2 flush (which is launched before
// the scope starts and so is not one of its activities). The method holds CUPTI for its lifetime (a CuptiHold):
// the scopes of every batch share one set-up, and CUPTI is given back when measure() returns.
#include "sample_method.hpp"

#include "gpu/lead_spin.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/policies/kernel/kernel_policy.hpp>

#include <stdexcept>
#include <string>

namespace gpuchrono::detail {

namespace {

class KernelMethod final : public SampleMethod {
public:
    explicit KernelMethod(const MethodSetup& s) : setup_(s) {
        if (!hold_ || !KernelPolicy::available())
            throw std::invalid_argument("gpuchrono::measure(\"" + std::string(s.name) +
                                        "\"): Method::kernel cannot be used: " +
                                        (hold_ ? KernelPolicy::unavailable_reason() : hold_.why_not()) +
                                        "; choose Method::graph or Method::event");
    }

    Method method() const noexcept override { return Method::kernel; }

    std::string note() const override { return "KernelPolicy (CUPTI activity records) per call"; }

    void take(std::size_t count, std::vector<Duration>& out) override {
        const cudaStream_t stream = setup_.stream;
        pending_.clear();
        pending_.reserve(count);
        // Untimed: the timed calls queue behind it (lead_spin.hpp).
        if (!setup_.flush) queue_lead(stream, setup_.device, setup_.per_call, [&] { setup_.launch(stream); });
        for (std::size_t i = 0; i < count; ++i) {
            if (setup_.flush) setup_.flush->enqueue(stream);
            KernelPolicy::Options lazy;
            lazy.wait_at_stop = false;  // read after the batch: one wait and one CUPTI flush for all of it
            KernelPolicy scope(stream, lazy);
            scope.start();
            setup_.launch(stream);
            pending_.push_back(scope.stop(setup_.where));
        }
        GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the measured callable");
        for (const Measurement& m : pending_) {
            if (m.resolve() == Measurement::State::failed)
                throw TimerError("gpuchrono::measure(\"" + std::string(setup_.name) + "\"): a kernel-method sample failed: " +
                                 m.error());
            // A sample that counted no GPU work on the timed stream reads 0: no timing of the callable at all
            // (it launched nothing, or launched on another stream). A series of such zeros would pass for a
            // measurement, so measure() refuses with the scope's own sentence.
            for (const Finding& f : m.findings())
                if (f.code == codes::kernel_no_activity)
                    throw TimerError("gpuchrono::measure(\"" + std::string(setup_.name) +
                                     "\"): the kernel method timed no GPU work of the callable: " + f.message +
                                     "; fix: " + f.fix);
            out.push_back(m.duration());
        }
    }

private:
    CuptiHold hold_;  // first: it outlives the pending scopes, whose records the last hold's end delivers
    MethodSetup setup_;
    std::vector<Measurement> pending_;
};

}  // namespace

std::unique_ptr<SampleMethod> make_kernel_method(const MethodSetup& setup) { return std::make_unique<KernelMethod>(setup); }

bool kernel_policy_available(std::string* why_not) {
    if (KernelPolicy::available()) return true;
    if (why_not) *why_not = KernelPolicy::unavailable_reason();
    return false;
}

}  // namespace gpuchrono::detail
