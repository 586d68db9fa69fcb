// Errors gpuchrono reports. Every CUDA call the library makes goes through check(): a failure becomes a
// CudaError naming the error (cudaErrorNoDevice, ...), the call as written, what the library was doing, and
// where; nothing is swallowed. Misuse of a timer (stop on a moved-from timer, reading a failed measurement)
// is a TimerError: a logic error of the caller, not of the GPU.
#pragma once

#include <cuda_runtime_api.h>

#include <source_location>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gpuchrono {

class CudaError : public std::runtime_error {
public:
    CudaError(cudaError_t code, std::string_view call, std::string_view context,
              std::source_location where = std::source_location::current());

    cudaError_t code() const noexcept { return code_; }
    const char* name() const noexcept;  // "cudaErrorNoDevice"
    const std::string& call() const noexcept { return call_; }
    const std::string& context() const noexcept { return context_; }

private:
    cudaError_t code_;
    std::string call_;
    std::string context_;
};

class TimerError : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

// Throws CudaError unless `code` is cudaSuccess. The runtime also keeps a failed call's code as the thread's
// "last error"; check() clears that copy so a later, unrelated cudaGetLastError() does not report it again.
// Sticky errors (a kernel fault) stay: the context is unusable and every later call says so itself.
void check(cudaError_t code, std::string_view call, std::string_view context,
           std::source_location where = std::source_location::current());

}  // namespace gpuchrono

// The call's own text goes into the message, so the report says which call failed, not just that one did.
// `context` is evaluated only when the call failed: the timers' contexts name the device and build a string,
// which on the success path cost a heap allocation per check (two per EventPolicy scope).
#define GPUCHRONO_CUDA_CHECK(call, context)                                                        \
    do {                                                                                           \
        if (const cudaError_t gpuchrono_check_result_ = (call); gpuchrono_check_result_ != cudaSuccess) \
            ::gpuchrono::check(gpuchrono_check_result_, #call, (context));                         \
    } while (false)
