// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/cupti/cupti_hold.hpp>
#include "cupti/hold_counts.hpp"

#include "cupti_session.hpp"

#include <utility>

namespace gpuchrono {

CuptiHold::CuptiHold() noexcept {
    try {
        std::string why;
        held_ = cupti::CuptiSession::acquire(why) != nullptr;
        if (!held_) why_not_ = std::move(why);
    } catch (...) {
        held_ = false;  // out of memory for the reason's text: not held, with no reason
    }
}

CuptiHold::~CuptiHold() { release(); }

CuptiHold::CuptiHold(CuptiHold&& other) noexcept
    : held_(std::exchange(other.held_, false)), why_not_(std::move(other.why_not_)) {}

CuptiHold& CuptiHold::operator=(CuptiHold&& other) noexcept {
    if (this != &other) {
        release();
        held_ = std::exchange(other.held_, false);
        why_not_ = std::move(other.why_not_);
    }
    return *this;
}

void CuptiHold::release() noexcept {
    if (!std::exchange(held_, false)) return;
    cupti::CuptiSession::release();
}

bool release_cupti() noexcept { return cupti::CuptiSession::give_back_now(); }

namespace cupti {

std::size_t cupti_holders() noexcept { return CuptiSession::holders(); }
std::size_t cupti_acquisitions() noexcept { return CuptiSession::acquisitions(); }
bool cupti_shared_with_run() noexcept { return activity_session_shared(); }
void set_cupti_taken_by(std::string tool) { CuptiSession::set_taken_by(std::move(tool)); }

}  // namespace cupti

}  // namespace gpuchrono
