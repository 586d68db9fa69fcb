// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Errors gpuchrono reports. Every CUDA call the library makes goes through check(): a failure becomes a
// CudaError naming the error (cudaErrorNoDevice, ...), the call as written, what the library was doing, and
// where; nothing is swallowed. The user-facing entry points (ScopedTimer, measure(), prepare()) re-throw it
// naming themselves and, where they take a std::source_location, the caller's file:line, so the message points
// at the user's call rather than at the library file that made the CUDA call. Misuse of a timer (stop on a moved-from timer, reading a failed measurement)
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
    // The user's call the error surfaced in ("ScopedTimer<EventPolicy>", "measure()"); empty until an entry
    // point names itself (in_entry_point below).
    const std::string& entry_point() const noexcept { return entry_point_; }

    // True for the errors that mean no CUDA device can be used at all (no device, no driver or one too old, a
    // stub library): the message then says so first, since no call of the user's could have succeeded.
    bool no_usable_device() const noexcept;

    // The same error, its message naming `entry_point` and, if given, the caller's location.
    CudaError in(std::string_view entry_point, const std::source_location* caller) const;

private:
    CudaError(cudaError_t code, std::string call, std::string context, std::string entry_point,
              const std::source_location* caller, std::source_location where);

    cudaError_t code_;
    std::string call_;
    std::string context_;
    std::string entry_point_;
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

// Runs `body` as the user's call `entry_point`: a CudaError from inside is re-thrown naming it (and `caller`,
// when the entry point takes a std::source_location). Where one entry point runs another (measure() starts
// timers of its own), the outer one renames the error last: the message names the call the user wrote.
// Nothing is added on the success path: a try block costs nothing until something throws.
template <class Body>
decltype(auto) in_entry_point(std::string_view entry_point, const std::source_location* caller, Body&& body) {
    try {
        return static_cast<Body&&>(body)();
    } catch (const CudaError& e) {
        throw e.in(entry_point, caller);
    }
}

}  // namespace gpuchrono

// The call's own text goes into the message, so the report says which call failed, not just that one did.
// `context` is evaluated only when the call failed: the timers' contexts name the device and build a string,
// which on the success path cost a heap allocation per check (two per EventPolicy scope).
#define GPUCHRONO_CUDA_CHECK(call, context)                                                        \
    do {                                                                                           \
        if (const cudaError_t gpuchrono_check_result_ = (call); gpuchrono_check_result_ != cudaSuccess) \
            ::gpuchrono::check(gpuchrono_check_result_, #call, (context));                         \
    } while (false)
