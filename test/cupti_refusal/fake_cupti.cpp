// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A stand-in for libcupti, loaded through GPUCHRONO_CUPTI by cupti_refused.cpp: it exports the functions the
// library resolves, and reports a CUPTI API version one below the headers gpuchrono was built with
// (both variants), and one of them lacks cuptiGetStreamIdEx (FAKE_CUPTI_MISSING_FUNCTION). Only cuptiGetVersion is called; the others
// only have to exist (the library resolves every one before it asks the version).
#include <cupti_version.h>

#include <cstdint>

extern "C" {
CUptiResult CUPTIAPI cuptiGetVersion(std::uint32_t* version) {
    *version = CUPTI_API_VERSION - 1;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult, const char** text) {
    *text = "fake CUPTI";
    return CUPTI_SUCCESS;
}
#include "fake_cupti_loader_functions.hpp"
}
