// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A user's host file that imports the module (clang >= 18, Ninja, CMake >= 3.28).
#include <cuda_runtime_api.h>

import gpuchrono;

#include "../common/consumer_main.hpp"

int main() { return consumer_main(GPUCHRONO_CONSUMER_HOW); }
