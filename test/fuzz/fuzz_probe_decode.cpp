// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The probe records DeviceClockPolicy copies back from device memory (policies/device_clock/decode.hpp): a
// ProbeHeader and capacity_blocks x regions ProbeRecords, written by a kernel the library does not control (a
// user's kernel can overwrite the probe, launch twice into it, or stop before writing). The harness builds
// that memory from the fuzzer's bytes and runs everything the policy runs on it on the host: decode, the SM
// clock from the samples, apply_clock, the calibration medians, every finding, the views and the findings'
// text.
//
// Input layout (every field zero past the end of the input: a truncated buffer):
//   byte 0       bits 0-1: regions - 1; bit 2: pass one record slot too few or too many (decode must refuse
//                it with std::invalid_argument); bit 3: "plausible" records (slot, block, region, count and
//                times made consistent, so most inputs reach the clock and the findings); bit 4: subtract the
//                probe overhead; bit 5: take the clock from a reference span instead of the samples
//   byte 1       capacity_blocks (0..255)
//   u16          %globaltimer step in ns (0 must be refused by clock_from_samples)
//   u8, u8       SMs on the device, resident blocks per SM
//   ProbeHeader  as the device writes it
//   ClockSpan    the reference span
//   f64, f64     overhead cycles per region and per loop iteration
//   records      up to capacity_blocks x regions ProbeRecords
#include <gpuchrono/core/finding.hpp>
#include <gpuchrono/policies/device_clock/decode.hpp>
#include <gpuchrono/core/probe_layout.hpp>
#include <gpuchrono/stats/stats.hpp>
#include <gpuchrono/stats/views.hpp>

#include "fuzz_input.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace gpuchrono;
using gpuchrono::fuzz::FuzzInput;

void make_plausible(ProbeRecord& r, std::size_t slot, std::size_t regions) {
    r.block = static_cast<std::uint32_t>(slot / regions);
    r.region = static_cast<std::uint32_t>(slot % regions);
    r.writes = r.writes & 1u;  // written once, or not at all
    r.grid_id = 1;
    if (r.stop_ns < r.start_ns) std::swap(r.stop_ns, r.start_ns);
    if (r.count == 0) r.count = 1;
    const std::uint64_t span = r.stop_ns - r.start_ns;
    r.accumulated_ns = span == ~std::uint64_t{0} ? span : r.accumulated_ns % (span + 1);
}

void exercise_findings_text(const Findings& found) {
    for (const Finding& f : found) {
        GPUCHRONO_FUZZ_EXPECT(!f.code.empty());
        GPUCHRONO_FUZZ_EXPECT(!to_string(f).empty());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzInput in(data, size);
    const auto mode = in.take<std::uint8_t>();
    const std::size_t regions = 1u + (mode & 3u);
    const bool wrong_size = (mode & 4u) != 0;
    const bool plausible = (mode & 8u) != 0;
    const bool subtract_overhead = (mode & 16u) != 0;
    const bool reference_clock = (mode & 32u) != 0;
    const std::uint32_t capacity = in.take<std::uint8_t>();
    const double step_ns = in.take<std::uint16_t>();
    const int sm_count = in.take<std::uint8_t>();
    const int resident = in.take<std::uint8_t>();
    const auto header = in.take<ProbeHeader>();
    const auto span = in.take<device_clock::ClockSpan>();
    const auto region_overhead = in.take<double>();
    const auto iteration_overhead = in.take<double>();

    std::vector<std::string> names;
    for (std::size_t r = 0; r < regions; ++r) names.push_back("region " + std::to_string(r));
    const std::size_t slots = static_cast<std::size_t>(capacity) * regions;
    std::vector<ProbeRecord> records(slots + 1);  // one spare slot for the wrong-size case
    for (std::size_t i = 0; i < records.size(); ++i) {
        in.read_into(records[i]);
        if (plausible) make_plausible(records[i], i, regions);
    }
    const std::size_t passed = wrong_size ? (slots == 0 ? 1 : slots - 1 + 2 * (data[0] >> 7)) : slots;
    const std::span<const ProbeRecord> given(records.data(), passed);

    std::optional<device_clock::Decoded> decoded;
    try {
        decoded = device_clock::decode(header, given, names, capacity);
    } catch (const std::invalid_argument&) {
        GPUCHRONO_FUZZ_EXPECT(passed != slots);  // only a size mismatch may throw
        return 0;
    }
    GPUCHRONO_FUZZ_EXPECT(passed == slots);
    device_clock::Decoded& d = *decoded;
    if (!d.ok()) return 0;  // refused, with its reason

    BlockSamples& s = d.samples;
    GPUCHRONO_FUZZ_EXPECT(s.samples.size() <= slots);
    GPUCHRONO_FUZZ_EXPECT(s.dropped == header.dropped);
    GPUCHRONO_FUZZ_EXPECT(s.first_start_ns <= s.last_stop_ns);
    for (const BlockSample& b : s.samples) {
        GPUCHRONO_FUZZ_EXPECT(b.region < regions && b.block < capacity);
        if (!b.accumulating && b.cycles_valid) GPUCHRONO_FUZZ_EXPECT(b.sm_start == b.sm_stop);
    }
    s.device = 0;
    s.sm_count = sm_count;
    s.resident_blocks_per_sm = resident;
    s.timer_step = Duration::from_ns(step_ns);

    std::optional<SmClock> clock;
    try {
        clock = device_clock::clock_from_samples(s.samples, s.timer_step);
    } catch (const std::invalid_argument&) {
        GPUCHRONO_FUZZ_EXPECT(step_ns <= 0);
        return 0;
    }
    if (clock) GPUCHRONO_FUZZ_EXPECT(clock->sms > 0 && clock->source == ClockSource::kernel_samples);
    if (!clock || reference_clock) clock = device_clock::clock_from_span(span, s.timer_step, ClockSource::reference_kernel);
    if (clock) {
        s.sm_clock = *clock;
        s.overhead.region_cycles = region_overhead;
        s.overhead.iteration_cycles = iteration_overhead;
        s.overhead_subtracted = subtract_overhead;
        try {
            device_clock::apply_clock(s);
            for (const BlockSample& b : s.samples) GPUCHRONO_FUZZ_EXPECT(b.net_ns >= 0);
        } catch (const std::invalid_argument&) {
            GPUCHRONO_FUZZ_EXPECT(!(s.sm_clock.hz > 0) || !std::isfinite(s.sm_clock.hz));
        }
    }
    try {
        const ProbeOverhead o = device_clock::overhead_from_calibration(s.samples, static_cast<std::uint32_t>(regions),
                                                                        s.block_threads);
        GPUCHRONO_FUZZ_EXPECT(o.regions_measured > 0);
    } catch (const std::runtime_error&) {
    }

    exercise_findings_text(d.findings);
    exercise_findings_text(device_clock::measurement_findings(d.findings, s));
    GPUCHRONO_FUZZ_EXPECT(!to_string(s.kernel_duration()).empty());

    // The views a user runs over the samples.
    if (!s.samples.empty()) {
        const Stats per_block = s.samples | views::block_durations | summarize;
        GPUCHRONO_FUZZ_EXPECT(per_block.count + per_block.rejected_non_finite == s.samples.size());
        (void)(s.samples | views::for_region(0) | makespan);
        for (const auto& [sm, on_that_sm] : s.samples | group_by_sm) GPUCHRONO_FUZZ_EXPECT(!on_that_sm.empty());
    }
    if (sm_count > 0 && resident > 0) (void)waves(s.samples.size(), static_cast<std::size_t>(sm_count), static_cast<std::size_t>(resident));
    return 0;
}
