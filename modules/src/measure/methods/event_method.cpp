// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Method::event: an event pair around each call. The batch's calls are queued back to back behind untimed
// work (lead_spin.hpp) or the L2 flush, so once the host is ahead of the GPU a pair holds the call's GPU time plus the
// stream's gap between commands, not the host's launch latency (a naive pair on an idle stream holds that:
// D + 5.7..6.8 us on an H100, docs/pitfalls-catalog.md #22). For calls shorter than a launch the host cannot get ahead,
// and the pair includes the launch: use the graph or kernel method there.
#include "sample_method.hpp"

#include "gpu/lead_spin.hpp"

#include <gpuchrono/core/cuda_error.hpp>

namespace gpuchrono::detail {

namespace {

class EventMethod final : public SampleMethod {
public:
    explicit EventMethod(const MethodSetup& s) : setup_(s) {}

    Method method() const noexcept override { return Method::event; }

    void take(std::size_t count, std::vector<Duration>& out) override {
        pairs_.reserve(count);
        const cudaStream_t stream = setup_.stream;
        // Untimed: the timed calls queue behind it (lead_spin.hpp).
        if (!setup_.flush) queue_lead(stream, setup_.device, setup_.per_call, [&] { setup_.launch(stream); });
        for (std::size_t i = 0; i < count; ++i) {
            if (setup_.flush) setup_.flush->enqueue(stream);
            GPUCHRONO_CUDA_CHECK(cudaEventRecord(pairs_.start(i), stream), "recording a sample's start event");
            setup_.launch(stream);
            GPUCHRONO_CUDA_CHECK(cudaEventRecord(pairs_.stop(i), stream), "recording a sample's stop event");
        }
        GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the measured callable");
        pairs_.read(count, 1.0, out);
    }

private:
    MethodSetup setup_;
    EventPairs pairs_;
};

}  // namespace

std::unique_ptr<SampleMethod> make_event_method(const MethodSetup& setup) { return std::make_unique<EventMethod>(setup); }

}  // namespace gpuchrono::detail
