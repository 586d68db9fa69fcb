// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Progress of a long run on one terminal line ("[12/40] clock sweep: 528 blocks"), redrawn in place.
// Only when stdout is a terminal: piped or redirected output (logs, CI, the GPU machine's log files) gets
// no control characters at all. Redraws are throttled, so a progress line costs nothing measurable next
// to the kernels it reports on; still, call advance() between measurements, never inside a timed scope.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace gpuchrono::report {

class Progress {
public:
    // Draws on stdout if stdout is a terminal.
    Progress(std::string label, std::size_t total);
    // Draws on `out` if `enabled` (tests use a file).
    Progress(std::string label, std::size_t total, std::FILE* out, bool enabled);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // One step is done; `detail` says which.
    void advance(std::string_view detail = {});

    // Clears the line (the destructor does it too), so the next output starts on a clean line.
    void finish();

    bool enabled() const noexcept { return enabled_; }
    std::size_t done() const noexcept { return done_; }

private:
    void draw(std::string_view detail);

    std::string label_;
    std::size_t total_;
    std::size_t done_ = 0;
    std::FILE* out_;
    bool enabled_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point last_draw_{};
};

// Whether stdout is a terminal.
bool stdout_is_terminal() noexcept;

}  // namespace gpuchrono::report
