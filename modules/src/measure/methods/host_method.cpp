// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Method::host: what a caller waits for each call: the host's steady clock from just before the call to the
// return of the stream's synchronisation after it (launch and wake-up latency included: D + 9..17 us for a
// D-us kernel on an H100). The stream is drained, and any L2 flush done, before the clock starts.
#include "sample_method.hpp"

#include <gpuchrono/core/cuda_error.hpp>

#include <chrono>

namespace gpuchrono::detail {

namespace {

class HostMethod final : public SampleMethod {
public:
    explicit HostMethod(const MethodSetup& s) : setup_(s) {}

    Method method() const noexcept override { return Method::host; }

    void take(std::size_t count, std::vector<Duration>& out) override {
        const cudaStream_t stream = setup_.stream;
        for (std::size_t i = 0; i < count; ++i) {
            if (setup_.flush) setup_.flush->enqueue(stream);
            GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "draining the stream before a host-timed sample");
            const auto start = std::chrono::steady_clock::now();
            setup_.launch(stream);
            const cudaError_t waited = cudaStreamSynchronize(stream);
            const auto stop = std::chrono::steady_clock::now();
            GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the measured callable");
            check(waited, "cudaStreamSynchronize(stream)", "waiting for a host-timed sample");
            out.push_back(Duration(stop - start));
        }
    }

private:
    MethodSetup setup_;
};

}  // namespace

std::unique_ptr<SampleMethod> make_host_method(const MethodSetup& setup) { return std::make_unique<HostMethod>(setup); }

}  // namespace gpuchrono::detail
