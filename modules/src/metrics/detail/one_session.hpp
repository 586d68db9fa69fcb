// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CUPTI's range profiler runs one session per context; gpuchrono allows one per process (a MetricsScope, a
// collect() or measure() with metrics), so that a second gets this message instead of CUPTI's less clear one.
#pragma once

namespace gpuchrono::metrics::detail {

class OneSession {
public:
    OneSession();  // throws std::runtime_error while another session is open
    ~OneSession();
    OneSession(const OneSession&) = delete;
    OneSession& operator=(const OneSession&) = delete;
};

}  // namespace gpuchrono::metrics::detail
