// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// main() of each standalone example program: the example is chosen at build time (GPUCHRONO_EXAMPLE_ID),
// so every example is its own executable that runs it alone, with --out DIR to write its report files.
#include <cuda_runtime_api.h>

#include <gpuchrono/core/cuda_error.hpp>

#include <string>

// The report model and its renderers' parts are internal (examples build richer reports than write_report).
#include <gpuchrono/report/render/progress.hpp>
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/render/report_files.hpp>
#include <gpuchrono/report/render/text_report.hpp>
#include <gpuchrono/report/render/units.hpp>

#include <gpuchrono/api.hpp>

#include "example.hpp"

int main(int argc, char** argv) { return gpuchrono_examples::example_main(GPUCHRONO_EXAMPLE_ID, argc, argv); }
