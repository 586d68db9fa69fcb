// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Method::kernel: each call's time is the GPU's own lifetime of the kernels (copies, sets) it enqueued on the
// stream, from CUPTI activity records, launch overhead excluded: a D-us spin reads D + 0.93..0.95 us on an H100, as
// a raw CUPTI record does (bench_kernel_policy).
//
// A batch's calls are read with one IterationBatch in stream mode, as the Google Benchmark bridge reads its
// iterations: one store window and one launch log per batch, one wait and one CUPTI flush at its end, and per call
// only end_iteration(). A KernelPolicy scope per call cost the host ~50 us each (two marks, a window, its own
// reading), far above a launch; the batch tells the calls apart by the correlation ids of their launch calls, so a
// short kernel that ends as the next call is launched is still its own call's (iteration_split.hpp). Queued behind
// untimed work (lead_spin.hpp), launched before the batch begins and so in no call's range. The L2 flush of a
// cold-cache sample is launched before each call and closed as an untimed iteration of its own: its records stay out
// of the call's range. Where CUPTI's launch callbacks cannot be turned on (which a batch needs and a stream-mode
// scope does not), each call keeps a lazy KernelPolicy scope of its own.
//
// The method holds CUPTI for its lifetime (a CuptiHold): every batch shares one set-up, and CUPTI is given back
// when measure() returns.
#include "sample_method.hpp"

#include "gpu/lead_spin.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/policies/kernel/iteration_batch.hpp>
#include <gpuchrono/policies/kernel/kernel_policy.hpp>

#include <optional>
#include <stdexcept>
#include <string>

namespace gpuchrono::detail {

namespace {

// The calls of a first batch the method is ready for; a larger batch makes a larger IterationBatch.
constexpr std::size_t first_capacity = 64;

class KernelMethod final : public SampleMethod {
public:
    explicit KernelMethod(const MethodSetup& s) : setup_(s), caller_("gpuchrono::measure(\"" + std::string(s.name) + "\")") {
        if (!hold_ || !KernelPolicy::available())
            throw std::invalid_argument(caller_ + ": Method::kernel cannot be used: " +
                                        (hold_ ? KernelPolicy::unavailable_reason() : hold_.why_not()) +
                                        "; choose Method::graph or Method::event");
        // A batch needs CUPTI's launch callbacks, which a stream-mode scope does not: where they cannot be turned
        // on, the scopes still time the calls.
        try {
            make_batch(first_capacity);
        } catch (const TimerError& e) {
            no_batch_ = e.what();
        }
    }

    Method method() const noexcept override { return Method::kernel; }

    std::string note() const override {
        return batch_ ? "CUPTI activity records per call, read in batches"
                      : "KernelPolicy (CUPTI activity records) per call, a scope each (" + no_batch_ + ")";
    }

    void take(std::size_t count, std::vector<Duration>& out) override {
        if (count == 0) return;
        if (batch_)
            take_in_batch(count, out);
        else
            take_by_scopes(count, out);
    }

private:
    void make_batch(std::size_t calls) {
        // A cold-cache call is two iterations: the flush's (untimed) and its own.
        const std::size_t iterations = setup_.flush ? 2 * calls : calls;
        batch_.reset();  // one batch's launch log open at a time
        // measure() reads the GPU's state itself (other processes included) after its batches.
        batch_.emplace(setup_.stream, KernelPolicy::Count::stream, iterations, caller_, false);
        capacity_ = calls;
    }

    void take_in_batch(std::size_t count, std::vector<Duration>& out) {
        const cudaStream_t stream = setup_.stream;
        if (count > capacity_) make_batch(count);
        // Untimed: the timed calls queue behind it (lead_spin.hpp).
        if (!setup_.flush) queue_lead(stream, setup_.device, setup_.per_call, [&] { setup_.launch(stream); });
        batch_->begin();
        for (std::size_t i = 0; i < count; ++i) {
            if (setup_.flush) {
                setup_.flush->enqueue(stream);
                batch_->end_untimed();
            }
            setup_.launch(stream);
            batch_->end_iteration();
        }
        GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the measured callable");
        const IterationBatch::Times& t = batch_->read();
        if (t.ns.size() != count)
            throw TimerError(caller_ + ": the kernel method noted " + std::to_string(t.ns.size()) + " of the batch's " +
                             std::to_string(count) + " calls (out of memory)");
        // A call that counted no work and lost no record launched nothing on the timed stream (or launched on
        // another one): a series of zeros would pass for a measurement, so measure() refuses, as it did with a
        // scope per call. One that counted nothing because its records were dropped or late is no such proof.
        std::size_t launched_nothing = 0;
        for (std::size_t i = 0; i < count; ++i) launched_nothing += t.counted[i] == 0 && t.unrecorded[i] == 0 ? 1 : 0;
        if (launched_nothing > 0)
            for (const Finding& f : t.findings)
                if (f.code == codes::kernel_no_activity)
                    throw no_work("it counted no GPU work enqueued on the timed stream in " + std::to_string(launched_nothing) +
                                      " of the batch's " + std::to_string(count) + " calls (" + f.message + ")",
                                  f);
        // Records dropped or late: a call whose own launch calls all have their records reads its full time and is
        // kept (as a scope with late records still yielded its duration, and drops the store counts may be others'
        // records); a call missing one of its records would read short, so its sample is left out and the next
        // batch takes the samples still missing. A batch that lost a record of every call is refused.
        const std::size_t before = out.size();
        for (std::size_t i = 0; i < count; ++i)
            if (t.counted[i] > 0 && t.unrecorded[i] == 0) out.push_back(Duration::from_ns(t.ns[i]));
        if (out.size() == before) {
            std::string lost;
            for (const Finding& f : t.findings)
                if (f.code == codes::kernel_records_dropped || f.code == codes::kernel_records_late)
                    lost += (lost.empty() ? "" : "; ") + f.message;
            throw TimerError(caller_ + ": the kernel method lost the activity records of every call of a batch of " +
                             std::to_string(count) + " (" + (lost.empty() ? "no record came" : lost) +
                             "); another CUPTI client or a full activity buffer can cause it: choose Method::graph "
                             "or Method::event");
        }
    }

    void take_by_scopes(std::size_t count, std::vector<Duration>& out) {
        const cudaStream_t stream = setup_.stream;
        pending_.clear();
        pending_.reserve(count);
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
                throw TimerError(caller_ + ": a kernel-method sample failed: " + m.error());
            for (const Finding& f : m.findings())
                if (f.code == codes::kernel_no_activity) throw no_work(f.message, f);
            out.push_back(m.duration());
        }
    }

    // Both ways say "counted no GPU work enqueued on the timed stream", as a scope's kernel-no-activity message
    // does: callers and the pytest fixture's users match on it.
    TimerError no_work(const std::string& what, const Finding& f) const {
        return TimerError(caller_ + ": the kernel method timed no GPU work of the callable: " + what + "; fix: " + f.fix);
    }

    CuptiHold hold_;  // first: it outlives the pending scopes and the batch, whose records the last hold's end delivers
    MethodSetup setup_;
    std::string caller_;
    std::optional<IterationBatch> batch_;
    std::size_t capacity_ = 0;  // calls the batch is ready for
    std::string no_batch_;      // why the calls are timed by scopes instead
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
