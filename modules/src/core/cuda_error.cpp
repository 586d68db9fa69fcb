#include <gpuchrono/core/cuda_error.hpp>

namespace gpuchrono {

namespace {
std::string describe(cudaError_t code, std::string_view call, std::string_view context, std::source_location where) {
    std::string file = where.file_name();
    if (auto slash = file.find_last_of('/'); slash != std::string::npos) file.erase(0, slash + 1);
    std::string msg = "gpuchrono: ";
    msg.append(call).append(" failed with ").append(cudaGetErrorName(code)).append(" (");
    msg.append(cudaGetErrorString(code)).append(")");
    if (!context.empty()) msg.append(" while ").append(context);
    msg.append(" [").append(file).append(":").append(std::to_string(where.line())).append("]");
    return msg;
}
}  // namespace

CudaError::CudaError(cudaError_t code, std::string_view call, std::string_view context, std::source_location where)
    : std::runtime_error(describe(code, call, context, where)), code_(code), call_(call), context_(context) {}

const char* CudaError::name() const noexcept { return cudaGetErrorName(code_); }

void check(cudaError_t code, std::string_view call, std::string_view context, std::source_location where) {
    if (code == cudaSuccess) return;
    (void)cudaGetLastError();
    throw CudaError(code, call, context, where);
}

}  // namespace gpuchrono
