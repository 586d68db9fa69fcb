// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "activity_buffers.hpp"

#include "cupti/run_share.hpp"
#include "cupti/toolkit.hpp"

#include "cupti/buffers_delivered.hpp"
#include "cupti/refuse_buffers.hpp"

#include <cupti_activity.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gpuchrono::cupti {

namespace {

const CuptiLibrary* library = nullptr;
ActivityStore* target = nullptr;
std::atomic<std::size_t> completed{0};
std::atomic<bool> refusing{false};  // refuse_buffers.hpp

// Kernel names are demangled once per distinct name. Keyed by the text, not by CUPTI's pointer: the pointer
// is CUPTI's to free and reuse, and a cache keyed by it both grows without bound and can name a kernel after
// another that once lived at the same address.
struct NameHash {
    using is_transparent = void;  // look up by string_view: no allocation per record
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

const std::string& demangled(const char* mangled) {
    static std::mutex mutex;
    static auto* cache = new std::unordered_map<std::string, std::string, NameHash, std::equal_to<>>();
    if (!mangled) {
        static const std::string unnamed = "(unnamed kernel)";
        return unnamed;
    }
    std::lock_guard lock(mutex);
    auto it = cache->find(std::string_view(mangled));
    if (it != cache->end()) return it->second;
    std::string name = mangled;
    int status = 0;
    char* plain = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    if (status == 0 && plain) name = plain;
    std::free(plain);
    return cache->emplace(mangled, std::move(name)).first->second;
}

const char* copy_name(std::uint8_t kind) {
    switch (kind) {
        case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "memcpy HtoD";
        case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "memcpy DtoH";
        case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return "memcpy HtoA";
        case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return "memcpy AtoH";
        case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA: return "memcpy AtoA";
        case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD: return "memcpy AtoD";
        case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA: return "memcpy DtoA";
        case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "memcpy DtoD";
        case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "memcpy HtoH";
        case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "memcpy PtoP";
        default: return "memcpy";
    }
}

// The fields every record kind carries under the same names.
template <class Record>
void copy_common(KernelActivity& a, const Record& r) {
    a.device = static_cast<int>(r.deviceId);
    a.stream = r.streamId;
    a.start_ns = r.start;
    a.end_ns = r.end;
    a.correlation_id = r.correlationId;
    a.graph_id = r.graphId;
    a.graph_node_id = r.graphNodeId;
}

// A record whose work was still running when a forced flush handed it over: no end time, and never sent again.
template <class Record>
bool without_times(const Record& r) {
    return r.start == 0 || r.end == 0 || r.end < r.start;
}

std::optional<KernelActivity> translate(const CUpti_Activity* record, std::size_t& timeless) {
    KernelActivity a;
    switch (record->kind) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
            // The build's layout (toolkit.hpp); a newer CUPTI only appends fields, an older one was refused.
            const auto* k = reinterpret_cast<const toolkit::KernelRecord*>(record);
            if (without_times(*k)) {
                ++timeless;
                return std::nullopt;
            }
            a.kind = ActivityKind::kernel;
            a.name = demangled(k->name);
            copy_common(a, *k);
            a.grid[0] = static_cast<std::uint32_t>(k->gridX);
            a.grid[1] = static_cast<std::uint32_t>(k->gridY);
            a.grid[2] = static_cast<std::uint32_t>(k->gridZ);
            a.block[0] = static_cast<std::uint32_t>(k->blockX);
            a.block[1] = static_cast<std::uint32_t>(k->blockY);
            a.block[2] = static_cast<std::uint32_t>(k->blockZ);
            return a;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
            const auto* m = reinterpret_cast<const toolkit::MemcpyRecord*>(record);
            if (without_times(*m)) {
                ++timeless;
                return std::nullopt;
            }
            a.kind = ActivityKind::memcpy;
            a.name = copy_name(m->copyKind);
            copy_common(a, *m);
            a.bytes = m->bytes;
            return a;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
            const auto* m = reinterpret_cast<const toolkit::MemsetRecord*>(record);
            if (without_times(*m)) {
                ++timeless;
                return std::nullopt;
            }
            a.kind = ActivityKind::memset;
            a.name = "memset";
            copy_common(a, *m);
            a.bytes = m->bytes;
            return a;
        }
        default: return std::nullopt;
    }
}

// Buffers are recycled, never freed, and handed to CUPTI already zeroed (CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_
// BUFFER): CUPTI asks for one on the launching thread, inside the first launch call after a flush, and by default
// zeroes it there - 240 us for a 2 MiB buffer on the H100 (bench_kernel_policy [3]), on the user's time. Here a
// buffer is allocated and zeroed at set-up, and a used one is cleaned where it comes back (only the bytes that
// CUPTI wrote), on CUPTI's thread or in the flush of a scope's stop, after its interval.
std::mutex pool_mutex;
std::vector<uint8_t*>* spare = new std::vector<uint8_t*>();

uint8_t* new_buffer() {
    auto* b = static_cast<uint8_t*>(std::aligned_alloc(8, activity_buffer_bytes));
    if (b) std::memset(b, 0, activity_buffer_bytes);  // fault its pages in now
    return b;
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
    uint8_t* b = nullptr;
    if (refusing.load(std::memory_order_relaxed)) {
        *buffer = nullptr;
        *size = 0;
        *max_records = 0;
        return;
    }
    {
        std::lock_guard lock(pool_mutex);
        if (!spare->empty()) {
            b = spare->back();
            spare->pop_back();
        }
    }
    // CUPTI wants 8-byte alignment; a failed allocation hands CUPTI no buffer, and it counts what it drops.
    if (!b) b = new_buffer();
    *buffer = b;
    *size = b ? activity_buffer_bytes : 0;
    *max_records = 0;  // as many as fit
}

void recycle(uint8_t* buffer) noexcept {
    if (!buffer) return;
    try {
        std::lock_guard lock(pool_mutex);
        spare->push_back(buffer);
    } catch (...) {
        std::free(buffer);
    }
}

// The buffer's records, translated; what cannot be kept is counted in `lost`.
std::vector<KernelActivity> read_buffer(const uint8_t* buffer, size_t valid, std::size_t& lost) noexcept {
    std::vector<KernelActivity> records;
    if (!buffer || valid == 0) return records;
    CUpti_Activity* record = nullptr;
    // CUPTI's reader takes a mutable pointer but only reads.
    auto* bytes = const_cast<uint8_t*>(buffer);
    while (library->activity_get_next_record(bytes, valid, &record) == CUPTI_SUCCESS) {
        try {
            if (auto a = translate(record, lost)) records.push_back(std::move(*a));
        } catch (...) {
            ++lost;  // out of memory on CUPTI's thread: nothing may escape into CUPTI
        }
    }
    return records;
}

void store_records(std::vector<KernelActivity> records, std::size_t lost) noexcept {
    const std::size_t count = records.size();
    try {
        if (count > 0) target->add(std::move(records));
    } catch (...) {
        // Out of memory on CUPTI's thread: nothing may escape into CUPTI; the records are lost, and counted.
        lost += count;
    }
    if (lost > 0) target->add_dropped(lost);
    completed.fetch_add(1, std::memory_order_relaxed);
}

void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream_id, uint8_t* buffer, size_t /*size*/, size_t valid) {
    std::size_t lost = 0;
    std::vector<KernelActivity> records = read_buffer(buffer, valid, lost);
    if (buffer && valid > 0) std::memset(buffer, 0, valid);
    recycle(buffer);
    size_t dropped = 0;
    if (library->activity_get_num_dropped_records(context, stream_id, &dropped) == CUPTI_SUCCESS && dropped > 0)
        target->add_dropped(dropped);
    store_records(std::move(records), lost);
}

}  // namespace

std::optional<std::string> register_activity_buffers(const CuptiLibrary& lib, ActivityStore& store) {
    library = &lib;
    target = &store;
    std::uint8_t zeroed = 1;
    std::size_t bytes = sizeof zeroed;
    if (const CUptiResult r = lib.activity_set_attribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &bytes, &zeroed);
        r != CUPTI_SUCCESS)
        return "cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER) failed: " + lib.describe(r);
    static const bool pool_made = [] {
        for (int i = 0; i < 4; ++i) recycle(new_buffer());
        return true;
    }();
    (void)pool_made;
    if (const CUptiResult r = lib.activity_register_callbacks(buffer_requested, buffer_completed); r != CUPTI_SUCCESS)
        return "cuptiActivityRegisterCallbacks failed: " + lib.describe(r);
    return std::nullopt;
}

void deliver_to(const CuptiLibrary& lib, ActivityStore& store) noexcept {
    library = &lib;
    target = &store;
}

void deliver_activity_buffer(const std::uint8_t* buffer, std::size_t valid, std::size_t dropped) noexcept {
    if (!library || !target) return;
    std::size_t lost = dropped;
    store_records(read_buffer(buffer, valid, lost), lost);
}

std::size_t buffers_delivered() noexcept { return completed.load(std::memory_order_relaxed); }

void collect_dropped_records() noexcept {
    if (!library || !target) return;
    size_t dropped = 0;
    // Sharing run's subscription, the count goes to both the run's report and the store (reading it resets it).
    if (sharing_run())
        dropped = run_collect_dropped();
    else if (library->activity_get_num_dropped_records(nullptr, 0, &dropped) != CUPTI_SUCCESS)
        dropped = 0;
    if (dropped > 0) target->add_dropped(dropped);
}

void refuse_activity_buffers(bool refuse) noexcept { refusing.store(refuse, std::memory_order_relaxed); }

}  // namespace gpuchrono::cupti
