// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The memory the in-kernel probe writes and the host reads back: one layout, seen identically by nvcc-compiled
// device code (<gpuchrono/device_probe.cuh>) and by the host (DeviceClockPolicy, device_clock_decode.hpp).
// Plain structs only: no CUDA syntax, so clang and nvcc both compile it and the module can re-export it.
//
// Device memory of one probe: a ProbeHeader at offset 0, then capacity_blocks x region_count ProbeRecords at
// probe_records_offset. The record of (block b, region r) is slot b * region_count + r: fixed slots need no
// atomic to claim, so a region's exit costs plain stores, and a slot written twice (a second launch into the
// same probe, or a plain region entered twice by one block) is visible in its `writes` count.
// The host clears the whole area before every timed scope (zero means "not written").
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpuchrono {

// ProbeRecord::flags
inline constexpr std::uint32_t probe_flag_accumulating = 1u << 0;  // written by a ProbeLoop
inline constexpr std::uint32_t probe_flag_sm_changed = 1u << 1;    // some interval began and ended on different SMs

// One (block, region) record as the device writes it. Times are %globaltimer (ns, one clock for the whole
// GPU); cycles are clock64 of the SM the read ran on (sm_start for start_cycles, sm_stop for stop_cycles).
struct ProbeRecord {
    std::uint64_t start_ns;            // plain region: at entry; loop: first iteration's entry
    std::uint64_t stop_ns;             // plain region: at exit; loop: last iteration's exit
    std::uint64_t start_cycles;
    std::uint64_t stop_cycles;
    std::uint64_t count;               // plain region: 1; loop: iterations
    std::uint64_t accumulated_ns;      // sum over intervals of stop - start in ns
    std::uint64_t accumulated_cycles;  // sum over the intervals whose two reads were on one SM
    std::uint64_t grid_id;             // %gridid of the launch that wrote the record
    std::uint32_t block;               // linear block index (x fastest)
    std::uint32_t region;
    std::uint32_t sm_start;
    std::uint32_t sm_stop;
    std::uint32_t flags;               // probe_flag_*
    unsigned int writes;               // times this slot was written (atomicAdd): 1 in a correct run
    std::uint32_t reserved[2];
};

// Written with atomics by every block (unsigned long long / unsigned int: the types CUDA's atomics take).
struct ProbeHeader {
    unsigned long long dropped;                       // records not written: block >= capacity_blocks
    unsigned long long dropped_first_start_inverted;  // ~(earliest start_ns of a dropped record); 0: none
    unsigned long long dropped_last_stop;             // latest stop_ns of a dropped record; 0: none
    unsigned long long invalid_region_uses;           // records refused: region >= region_count
    unsigned long long grid_blocks;                   // blocks in the launch (gridDim product)
    unsigned int block_threads;                       // threads per block (blockDim product)
    unsigned int max_invalid_region;                  // largest refused region id
};

// Records start at this byte offset from the header, 64-byte aligned for whole-sector stores.
inline constexpr std::size_t probe_records_offset = 64;

// The value a kernel receives: where to write, and how many slots there are. Trivially copyable, passed
// by value as a kernel argument. A default-constructed probe is disabled: regions still synchronise the
// block but read and write nothing, so one kernel can run timed and untimed.
struct DeviceProbe {
    ProbeHeader* header = nullptr;
    ProbeRecord* records = nullptr;
    std::uint32_t capacity_blocks = 0;  // blocks with room for records; later blocks are counted as dropped
    std::uint32_t region_count = 0;     // region ids are 0 .. region_count - 1
};

// Bytes of device memory a probe with this many record slots occupies.
constexpr std::size_t probe_bytes(std::size_t records) noexcept {
    return probe_records_offset + records * sizeof(ProbeRecord);
}

static_assert(sizeof(ProbeRecord) == 96, "ProbeRecord is read by host and device: its layout is fixed");
static_assert(sizeof(ProbeHeader) <= probe_records_offset);
static_assert(sizeof(unsigned long long) == 8 && sizeof(unsigned int) == 4);
static_assert(std::is_trivially_copyable_v<ProbeRecord> && std::is_trivially_copyable_v<ProbeHeader> &&
              std::is_trivially_copyable_v<DeviceProbe>);

}  // namespace gpuchrono
