// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What a failed CUPTI profiler call means for the person running the program: the result code's name, the call,
// and for the failures a user can act on (no permission, another profiler attached, an unsupported device)
// what to do. Messages only; the collector throws them.
#pragma once

#include <cupti_result.h>

#include <string>
#include <string_view>

namespace gpuchrono::metrics::detail {

// "<call> failed: CUPTI_ERROR_...: <CUPTI's text>. <advice>". `cupti_text` is CUPTI's own description (may be
// empty when CUPTI could not be asked).
std::string explain_cupti_failure(CUptiResult code, std::string_view call, std::string_view cupti_text);

// The advice alone ("" when there is none for that code): device-free, for the tests.
std::string advice_for(CUptiResult code);

// CUPTI's own description of `code` from the loaded library ("" when it has none).
std::string cupti_result_text(CUptiResult code);

// Returns on CUPTI_SUCCESS; otherwise throws std::runtime_error "hardware metrics: " + explain_cupti_failure(),
// with CUPTI's own description of the code from the loaded library.
void require_cupti_success(CUptiResult code, std::string_view call);

}  // namespace gpuchrono::metrics::detail
