// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>

namespace gpuchrono {

namespace {
bool means_no_device(cudaError_t e) {
    return e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || e == cudaErrorNotSupported ||
           e == cudaErrorInvalidDevice;
}
}  // namespace

int device_count() {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (means_no_device(e)) {
        (void)cudaGetLastError();
        return 0;
    }
    check(e, "cudaGetDeviceCount(&n)", "counting CUDA devices");
    return n;
}

std::optional<std::string> no_device_reason() {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
    }
    if (n == 0) return std::string("cudaGetDeviceCount reported 0 devices");
    return std::nullopt;
}

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

int current_device() {
    int device = -1;
    GPUCHRONO_CUDA_CHECK(cudaGetDevice(&device), "reading the current device");
    return device;
}

DeviceGuard::DeviceGuard(int device) : previous_(current_device()), switched_(previous_ != device) {
    if (switched_) GPUCHRONO_CUDA_CHECK(cudaSetDevice(device), "making the stream's device current");
}

DeviceGuard::~DeviceGuard() {
    // A destructor cannot report; restoring can only fail if the context is already broken, and the next
    // checked call on this thread reports that.
    if (switched_) (void)cudaSetDevice(previous_);
}

}  // namespace gpuchrono
