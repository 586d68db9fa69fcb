// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once

// Implemented in probe_kernel.cu, so the CUDA compiler's output is linked into the probe.
const void* probe_kernel_address();
const char* cuda_compiler_description();
