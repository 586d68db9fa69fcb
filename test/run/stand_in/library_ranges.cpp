// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A stand-in for an NVIDIA library that carries NVTX (libcublas_stand_in.so: its file name is a cuBLAS one): each
// call pushes a range in a domain of its own, whose name is a literal of this library, around its kernel, as
// cuBLAS and cuDNN do. stand_in_program's library-ranges mode calls it.
#include <cstdint>

extern "C" __attribute__((visibility("default"))) void stand_in_library_call(void (*domain_push)(const char*, const char*),
                                                                           void (*domain_pop)(),
                                                                           void (*launch)(const char*, std::uint64_t)) {
    domain_push("cuBLAS stand-in", "cublas_gemm");
    launch("lib_gemm", 1000);
    domain_pop();
}
