// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "sample_method.hpp"

#include <gpuchrono/core/cuda_error.hpp>

namespace gpuchrono::detail {

EventPairs::~EventPairs() {
    for (cudaEvent_t e : events_) (void)cudaEventDestroy(e);
}

void EventPairs::reserve(std::size_t pairs) {
    events_.reserve(2 * pairs);
    while (events_.size() < 2 * pairs) {
        cudaEvent_t e = nullptr;
        GPUCHRONO_CUDA_CHECK(cudaEventCreate(&e), "creating measure()'s timing events");
        events_.push_back(e);
    }
}

void EventPairs::read(std::size_t count, double calls, std::vector<Duration>& out) const {
    if (count == 0) return;
    GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(stop(count - 1)), "waiting for measure()'s batch of samples");
    for (std::size_t i = 0; i < count; ++i) {
        float ms = 0;
        GPUCHRONO_CUDA_CHECK(cudaEventElapsedTime(&ms, start(i), stop(i)), "reading a sample's event interval");
        out.push_back(Duration::from_ms(ms) / calls);
    }
}

}  // namespace gpuchrono::detail
