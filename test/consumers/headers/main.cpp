// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A user's host file on the default toolchain: the headers, no module (g++ or clang, any generator).
#include <cuda_runtime_api.h>

#include <gpuchrono/api.hpp>  // import gpuchrono; where the target links gpuchrono::module, the headers here

#include "../common/consumer_main.hpp"

int main() { return consumer_main(GPUCHRONO_CONSUMER_HOW); }
