// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/gpu/stream_state.hpp>

namespace gpuchrono {

namespace {

// NotReady is an answer, not an error to report later.
bool completed(cudaError_t e, const char* call, const char* doing) {
    if (e == cudaErrorNotReady) {
        (void)cudaGetLastError();
        return false;
    }
    check(e, call, doing);
    return true;
}

}  // namespace

bool stream_is_idle(cudaStream_t stream) {
    return completed(cudaStreamQuery(stream), "cudaStreamQuery(stream)", "checking whether the timed stream has pending work");
}

bool event_is_complete(cudaEvent_t event) {
    return completed(cudaEventQuery(event), "cudaEventQuery(event)", "checking whether a timer's event has completed");
}

}  // namespace gpuchrono
