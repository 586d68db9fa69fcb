#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/gpu/stream_state.hpp>

namespace gpuchrono {

bool stream_is_capturing(cudaStream_t stream) {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    GPUCHRONO_CUDA_CHECK(cudaStreamIsCapturing(stream, &status), "checking whether the timed stream is being captured");
    return status != cudaStreamCaptureStatusNone;
}

bool stream_is_idle(cudaStream_t stream) {
    const cudaError_t e = cudaStreamQuery(stream);
    if (e == cudaErrorNotReady) {
        (void)cudaGetLastError();  // NotReady is an answer, not an error to report later
        return false;
    }
    check(e, "cudaStreamQuery(stream)", "checking whether the timed stream has pending work");
    return true;
}

}  // namespace gpuchrono
