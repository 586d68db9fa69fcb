// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Method::kernel: each call timed as a stream-mode KernelPolicy scope around it would time it: the GPU's own
// lifetime of the kernels (copies, sets) the call enqueued on the stream, from CUPTI activity records, launch
// overhead excluded: a D-us spin reads D + 0.93..0.95 us on an H100, as a raw CUPTI record does
// (bench/kernel_policy). A batch of samples shares one KernelBatch (policies/kernel/kernel_batch.hpp): one mark on
// the stream between consecutive calls, one wait and one CUPTI flush for the whole batch, its records split into
// samples in one pass, so a sample costs the host the user's launch and one mark's. A KernelPolicy scope per sample
// cost about 20 times that (a window, two marks, an event, a pending measurement and its read), 376 us a sample on a
// 1 us kernel on the H100.
// The first sample of a measure() is a lazy KernelPolicy scope of its own, read with its batch: its findings (work of
// other streams beside the call, the idle gap before it) are reported as a scope's are, once per measure().
// Queued behind untimed work (lead_spin.hpp); with a cold cache the L2 flush before each sample runs between two
// marks that no sample spans. The method holds CUPTI for its lifetime (a CuptiHold): every batch shares one set-up,
// and CUPTI is given back when measure() returns.
#include "sample_method.hpp"

#include "gpu/lead_spin.hpp"

#include "policies/kernel/kernel_batch.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/policies/kernel/kernel_policy.hpp>

#include <optional>
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

    std::string note() const override {
        return "CUPTI activity records per call, split at one mark per call on the stream (the first call in a "
               "KernelPolicy scope)";
    }

    void take(std::size_t count, std::vector<Duration>& out) override {
        if (count == 0) return;
        const cudaStream_t stream = setup_.stream;
        // Untimed: the timed calls queue behind it (lead_spin.hpp).
        if (!setup_.flush) queue_lead(stream, setup_.device, setup_.per_call, [&] { setup_.launch(stream); });
        std::optional<Measurement> probe;
        if (!probed_) {
            probed_ = true;
            if (setup_.flush) setup_.flush->enqueue(stream);
            KernelPolicy::Options lazy;
            lazy.wait_at_stop = false;  // read with the batch: one wait and one CUPTI flush for both
            KernelPolicy scope(stream, lazy);
            scope.start();
            setup_.launch(stream);
            probe.emplace(scope.stop(setup_.where));
            --count;
        }
        std::optional<KernelBatch> batch;
        try {
            batch.emplace(stream);
        } catch (const TimerError& e) {
            throw failed(e.what());
        }
        for (std::size_t i = 0; i < count; ++i) {
            if (setup_.flush) setup_.flush->enqueue(stream);
            batch->begin_sample(setup_.flush != nullptr);
            setup_.launch(stream);
            batch->end_sample();
        }
        GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the measured callable");
        const std::vector<Duration>* read = nullptr;
        try {
            read = &batch->read();  // waits for the probe's work too: it was queued first
        } catch (const TimerError& e) {
            throw failed(e.what());
        }
        if (probe) {
            if (probe->resolve() == Measurement::State::failed) throw failed(probe->error());
            for (const Finding& f : probe->findings())
                if (f.code == codes::kernel_no_activity) throw no_work(f);
            out.push_back(probe->duration());
        }
        // A sample that counted no GPU work on the timed stream reads 0: no timing of the callable at all (it
        // launched nothing, or launched on another stream). A series of such zeros would pass for a measurement,
        // so measure() refuses with the batch's own sentence.
        if (const std::optional<Finding> f = batch->no_activity_finding()) throw no_work(*f);
        out.insert(out.end(), read->begin(), read->end());
    }

private:
    TimerError failed(const std::string& why) const {
        return TimerError("gpuchrono::measure(\"" + std::string(setup_.name) + "\"): a kernel-method sample failed: " + why);
    }
    TimerError no_work(const Finding& f) const {
        return TimerError("gpuchrono::measure(\"" + std::string(setup_.name) +
                          "\"): the kernel method timed no GPU work of the callable: " + f.message + "; fix: " + f.fix);
    }

    CuptiHold hold_;  // first: it outlives the batches and the probe scope, whose marks need CUPTI set up
    MethodSetup setup_;
    bool probed_ = false;
};

}  // namespace

std::unique_ptr<SampleMethod> make_kernel_method(const MethodSetup& setup) { return std::make_unique<KernelMethod>(setup); }

bool kernel_policy_available(std::string* why_not) {
    if (KernelPolicy::available()) return true;
    if (why_not) *why_not = KernelPolicy::unavailable_reason();
    return false;
}

}  // namespace gpuchrono::detail
