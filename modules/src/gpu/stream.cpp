// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/gpu/stream.hpp>

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

bool stream_is_capturing(cudaStream_t stream) {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    GPUCHRONO_CUDA_CHECK(cudaStreamIsCapturing(stream, &status), "checking whether the timed stream is being captured");
    return status != cudaStreamCaptureStatusNone;
}

int stream_device(cudaStream_t stream) {
    // CUDA 13.0 refuses cudaStreamGetDevice on a stream that is being captured, in every capture mode, relaxed
    // included (seen on an H100, driver 580: cudaErrorStreamCaptureUnsupported, and the refusal invalidated the
    // capture). cudaStreamIsCapturing is allowed, so ask that first and never send the refused call into a
    // capture. A capture records into its stream's context, which is the current device's in every ordinary
    // program; if it is not, the first event recorded into the capture fails with a CudaError that says so,
    // so this can make a timer fail loudly but never time the wrong device.
    if (stream_is_capturing(stream)) return current_device();
    int device = -1;
    GPUCHRONO_CUDA_CHECK(cudaStreamGetDevice(stream, &device), "finding the device of the timed stream");
    return device;
}

bool stream_is_idle(cudaStream_t stream) {
    return completed(cudaStreamQuery(stream), "cudaStreamQuery(stream)", "checking whether the timed stream has pending work");
}

bool event_is_complete(cudaEvent_t event) {
    return completed(cudaEventQuery(event), "cudaEventQuery(event)", "checking whether a timer's event has completed");
}

}  // namespace gpuchrono
