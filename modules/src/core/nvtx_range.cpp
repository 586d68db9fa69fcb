// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "core/switch_setting.hpp"
#include <gpuchrono/core/nvtx_range.hpp>

#include <nvtx3/nvtx3.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace gpuchrono {

namespace {

struct gpuchrono_domain {
    static constexpr const char* name{nvtx_domain};
};

// Marks of findings carry their severity as a named category, so a profiler can colour or filter them.
struct info_category {
    static constexpr const char* name{"info"};
    static constexpr uint32_t id{1};
};
struct warning_category {
    static constexpr const char* name{"warning"};
    static constexpr uint32_t id{2};
};
struct error_category {
    static constexpr const char* name{"error"};
    static constexpr uint32_t id{3};
};

constexpr int unset = -1;
std::atomic<int> chosen{unset};

bool from_environment() noexcept {
    static const bool on = detail::switch_from_environment("GPUCHRONO_NVTX", "NVTX ranges");
    return on;
}

}  // namespace

bool nvtx_enabled() noexcept {
    const int c = chosen.load(std::memory_order_relaxed);
    return c != unset ? c != 0 : from_environment();
}

void set_nvtx_enabled(bool enabled) noexcept { chosen.store(enabled ? 1 : 0, std::memory_order_relaxed); }

namespace detail {

void prepare_nvtx() noexcept {
    static std::atomic<bool> prepared{false};
    if (prepared.load(std::memory_order_relaxed) || !nvtx_enabled()) return;
    (void)nvtx3::domain::get<gpuchrono_domain>();  // the domain is created once, by its first get
    prepared.store(true, std::memory_order_relaxed);
}

NvtxRange::NvtxRange(const char* name) noexcept {
    if (!nvtx_enabled()) return;
    const nvtx3::event_attributes attributes{nvtx3::message{name}};
    nvtxDomainRangePushEx(nvtx3::domain::get<gpuchrono_domain>(), attributes.get());
    thread_ = std::this_thread::get_id();
    open_ = true;
}

void NvtxRange::pop() noexcept {
    open_ = false;
    if (thread_ == std::this_thread::get_id()) nvtxDomainRangePop(nvtx3::domain::get<gpuchrono_domain>());
}

void nvtx_mark(const char* text, int severity) noexcept {
    if (!nvtx_enabled()) return;
    const nvtx3::category& category =
        severity >= 2   ? static_cast<const nvtx3::category&>(nvtx3::named_category_in<gpuchrono_domain>::get<error_category>())
        : severity == 1 ? nvtx3::named_category_in<gpuchrono_domain>::get<warning_category>()
                        : nvtx3::named_category_in<gpuchrono_domain>::get<info_category>();
    nvtx3::mark_in<gpuchrono_domain>(nvtx3::event_attributes{nvtx3::message{text}, category});
}

}  // namespace detail

}  // namespace gpuchrono
