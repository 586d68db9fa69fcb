// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "core/first_scope_at.hpp"

#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>

namespace gpuchrono::detail {

bool first_scope_at(const CallSite& site) {
    using Key = std::tuple<const void*, std::uint_least32_t, std::uint_least32_t>;
    Key key;
    if (site.location)
        key = {site.location->file_name(), site.location->line(), site.location->column()};
    else if (site.return_address)
        key = {site.return_address, 0, 0};
    else
        return false;
    thread_local std::optional<Key> latest;
    if (latest == key) return false;
    latest = key;
    static std::mutex mutex;
    static std::set<Key> seen;
    const std::lock_guard lock(mutex);
    return seen.insert(key).second;
}

}  // namespace gpuchrono::detail
