// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/cuda_error.hpp>

namespace gpuchrono {

namespace {

std::string file_and_line(const std::source_location& at) {
    std::string file = at.file_name();
    if (auto slash = file.find_last_of('/'); slash != std::string::npos) file.erase(0, slash + 1);
    return file + ":" + std::to_string(at.line());
}

bool means_no_usable_device(cudaError_t code) {
    switch (code) {
        case cudaErrorNoDevice:
        case cudaErrorInsufficientDriver:
        case cudaErrorStubLibrary:
        case cudaErrorSystemDriverMismatch:
        case cudaErrorCompatNotSupportedOnDevice:
        case cudaErrorDevicesUnavailable:
        case cudaErrorCallRequiresNewerDriver:
            return true;
        default:
            return false;
    }
}

// With an entry point: "gpuchrono: no usable CUDA device (cudaErrorInsufficientDriver: ...) in
// ScopedTimer<EventPolicy> at user.cpp:12; the library's call cudaStreamIsCapturing(...) failed while ...", or for
// other errors "gpuchrono: cudaX(...) failed with NAME (...) while ... in measure() at user.cpp:12". The library's
// own file and line appear only where no entry point named itself (an internal call the user made directly).
std::string describe(cudaError_t code, std::string_view call, std::string_view context, std::string_view entry_point,
                     const std::source_location* caller, const std::source_location& where) {
    std::string in_call;
    if (!entry_point.empty()) {
        in_call.append(" in ").append(entry_point);
        if (caller) in_call.append(" at ").append(file_and_line(*caller));
    }
    std::string msg = "gpuchrono: ";
    if (!entry_point.empty() && means_no_usable_device(code)) {
        msg.append("no usable CUDA device (").append(cudaGetErrorName(code)).append(": ");
        msg.append(cudaGetErrorString(code)).append(")").append(in_call);
        msg.append("; the library's call ").append(call).append(" failed");
        if (!context.empty()) msg.append(" while ").append(context);
        return msg;
    }
    msg.append(call).append(" failed with ").append(cudaGetErrorName(code)).append(" (");
    msg.append(cudaGetErrorString(code)).append(")");
    if (!context.empty()) msg.append(" while ").append(context);
    if (entry_point.empty())
        msg.append(" [").append(file_and_line(where)).append("]");
    else
        msg.append(in_call);
    return msg;
}

}  // namespace

CudaError::CudaError(cudaError_t code, std::string_view call, std::string_view context, std::source_location where)
    : std::runtime_error(describe(code, call, context, {}, nullptr, where)), code_(code), call_(call), context_(context) {}

CudaError::CudaError(cudaError_t code, std::string call, std::string context, std::string entry_point,
                     const std::source_location* caller, std::source_location where)
    : std::runtime_error(describe(code, call, context, entry_point, caller, where)),
      code_(code),
      call_(std::move(call)),
      context_(std::move(context)),
      entry_point_(std::move(entry_point)) {}

const char* CudaError::name() const noexcept { return cudaGetErrorName(code_); }

bool CudaError::no_usable_device() const noexcept { return means_no_usable_device(code_); }

CudaError CudaError::in(std::string_view entry_point, const std::source_location* caller) const {
    // An error passes inner entry points first (measure() runs timers of its own): each names itself over the
    // last, so the outermost, the call the user wrote, is the one the message ends with.
    return CudaError(code_, call_, context_, std::string(entry_point), caller, std::source_location::current());
}

void check(cudaError_t code, std::string_view call, std::string_view context, std::source_location where) {
    if (code == cudaSuccess) return;
    (void)cudaGetLastError();
    throw CudaError(code, call, context, where);
}

}  // namespace gpuchrono
