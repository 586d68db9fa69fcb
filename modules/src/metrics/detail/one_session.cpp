// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "one_session.hpp"

#include <atomic>
#include <stdexcept>

namespace gpuchrono::metrics::detail {

namespace {
std::atomic<bool> open{false};
}

OneSession::OneSession() {
    if (open.exchange(true))
        throw std::runtime_error("hardware metrics: another MetricsScope (or collect(), or measure() with metrics) is "
                                 "open in this process: CUPTI profiles one session at a time; stop the other first");
}

OneSession::~OneSession() { open = false; }

}  // namespace gpuchrono::metrics::detail
