// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/report/render/progress.hpp>

#include <unistd.h>

namespace gpuchrono::report {

bool stdout_is_terminal() noexcept { return isatty(STDOUT_FILENO) == 1; }

Progress::Progress(std::string label, std::size_t total) : Progress(std::move(label), total, stdout, stdout_is_terminal()) {}

Progress::Progress(std::string label, std::size_t total, std::FILE* out, bool enabled)
    : label_(std::move(label)), total_(total), out_(out), enabled_(enabled && out != nullptr) {}

Progress::~Progress() { finish(); }

void Progress::advance(std::string_view detail) {
    ++done_;
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    // ~20 redraws a second at most; the last step is always drawn.
    if (done_ < total_ && drawn_ && now - last_draw_ < std::chrono::milliseconds(50)) return;
    last_draw_ = now;
    draw(detail);
}

void Progress::draw(std::string_view detail) {
    std::fprintf(out_, "\r\033[K  [%zu/%zu] %s%s%.*s", done_, total_, label_.c_str(), detail.empty() ? "" : ": ",
                 static_cast<int>(detail.size()), detail.data());
    std::fflush(out_);
    drawn_ = true;
}

void Progress::finish() {
    if (!enabled_ || !drawn_) return;
    std::fputs("\r\033[K", out_);
    std::fflush(out_);
    drawn_ = false;
}

}  // namespace gpuchrono::report
