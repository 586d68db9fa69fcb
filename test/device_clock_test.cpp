// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// DeviceClockPolicy's host side without a GPU: option checks, and the decoding of hand-made probe records
// (what the kernel would have written) into samples: SM changes, cross-SM cycles, dropped records, re-launch
// detection, the SM clock, overhead calibration and subtraction.
#include <boost/test/unit_test.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

// The probe's record layout, decoding and calibration are internal.
#include <gpuchrono/gpuchrono.hpp>
#include <gpuchrono/report/model/report.hpp>

#include <gpuchrono/api.hpp>

using gpuchrono::BlockSample;
using gpuchrono::DeviceClockPolicy;
using gpuchrono::Duration;
using gpuchrono::ProbeHeader;
using gpuchrono::ProbeRecord;
namespace dc = gpuchrono::device_clock;

namespace {

// Each SM's clock64 starts at its own offset, milliseconds apart (docs/pitfalls-catalog.md row 16): a subtraction across
// SMs gives nonsense, which is what the tests below make sure never happens.
constexpr double ghz = 1.98;
std::uint64_t sm_offset(std::uint32_t sm) { return 1'000'000'000ull + sm * 23'700'000ull; }
std::uint64_t cycles_at(std::uint32_t sm, std::uint64_t ns) {
    return sm_offset(sm) + static_cast<std::uint64_t>(std::llround(static_cast<double>(ns) * ghz));
}
constexpr std::uint64_t t0 = 1'700'000'000'000'000'000ull;  // %globaltimer values are ~1.7e18 ns

ProbeRecord plain(std::uint32_t block, std::uint32_t region, std::uint64_t start, std::uint64_t stop,
                  std::uint32_t sm_start = 0, std::uint32_t sm_stop = 0, std::uint64_t grid = 42) {
    ProbeRecord r{};
    r.block = block;
    r.region = region;
    r.start_ns = t0 + start;
    r.stop_ns = t0 + stop;
    r.sm_start = sm_start;
    r.sm_stop = sm_stop;
    r.start_cycles = cycles_at(sm_start, start);
    r.stop_cycles = cycles_at(sm_stop, stop);
    r.count = 1;
    r.accumulated_ns = stop - start;
    // What a device could leave here for a cross-SM region: the decoder must not use it.
    r.accumulated_cycles = r.stop_cycles - r.start_cycles;
    r.flags = sm_start == sm_stop ? 0u : gpuchrono::probe_flag_sm_changed;
    r.grid_id = grid;
    r.writes = 1;
    return r;
}

struct FakeProbe {
    ProbeHeader header{};
    std::vector<std::string> names;
    std::uint32_t capacity;
    std::vector<ProbeRecord> slots;

    FakeProbe(std::vector<std::string> n, std::uint32_t cap)
        : names(std::move(n)), capacity(cap), slots(static_cast<std::size_t>(cap) * names.size(), ProbeRecord{}) {
        header.block_threads = 256;
    }
    ProbeRecord& put(const ProbeRecord& r) {
        ProbeRecord& slot = slots.at(static_cast<std::size_t>(r.block) * names.size() + r.region);
        slot = r;
        header.grid_blocks = std::max<unsigned long long>(header.grid_blocks, r.block + 1ull);
        return slot;
    }
    dc::Decoded decode() const { return dc::decode(header, slots, names, capacity); }
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const gpuchrono::Finding* find_code(const gpuchrono::Findings& fs, const std::string& code) {
    for (const auto& f : fs)
        if (f.code == code) return &f;
    return nullptr;
}

template <class F>
std::string invalid_argument_text(F f) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "(no std::invalid_argument thrown)";
}

struct without_device {
    boost::test_tools::assertion_result operator()(boost::unit_test::test_unit_id) const {
        boost::test_tools::assertion_result r(gpuchrono::device_count() == 0);
        r.message() << "a CUDA device is present: the no-device path cannot be exercised here";
        return r;
    }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(device_clock)

BOOST_AUTO_TEST_CASE(the_policy_models_timing_policy_and_the_layout_is_fixed) {
    static_assert(gpuchrono::TimingPolicy<DeviceClockPolicy>);
    static_assert(std::is_nothrow_move_constructible_v<DeviceClockPolicy> && std::is_nothrow_move_assignable_v<DeviceClockPolicy>);
    static_assert(!std::is_copy_constructible_v<DeviceClockPolicy>);
    using T = gpuchrono::ScopedTimer<DeviceClockPolicy>;
    static_assert(std::is_constructible_v<T, cudaStream_t>);
    static_assert(std::is_constructible_v<T, cudaStream_t, DeviceClockPolicy::Options>);
    static_assert(std::is_constructible_v<T, gpuchrono::Series&, cudaStream_t, DeviceClockPolicy::Options>);
    static_assert(sizeof(ProbeRecord) == 96 && std::is_trivially_copyable_v<gpuchrono::DeviceProbe>);
    BOOST_TEST(DeviceClockPolicy::name == "device-clock");
    BOOST_TEST(gpuchrono::probe_bytes(10) == gpuchrono::probe_records_offset + 960u);
}

BOOST_AUTO_TEST_CASE(options_are_validated_without_a_device) {
    using O = DeviceClockPolicy::Options;
    BOOST_CHECK_NO_THROW(DeviceClockPolicy::validate(O{}));
    BOOST_CHECK_NO_THROW(DeviceClockPolicy::validate(O{.regions = {"a", "b"}, .max_blocks = 1, .max_clock_uncertainty = 1.0}));

    BOOST_TEST(contains(invalid_argument_text([] { DeviceClockPolicy::validate(O{.regions = {}}); }), "regions is empty"));
    BOOST_TEST(contains(invalid_argument_text([] { DeviceClockPolicy::validate(O{.regions = {"a", ""}}); }),
                        "region 1 has an empty name"));
    BOOST_TEST(contains(invalid_argument_text([] { DeviceClockPolicy::validate(O{.regions = {"a", "b", "a"}}); }),
                        "\"a\" is given twice (ids 0 and 2)"));
    BOOST_TEST(contains(invalid_argument_text([] { DeviceClockPolicy::validate(O{.max_blocks = 0}); }), "max_blocks must be > 0"));
    BOOST_TEST(contains(invalid_argument_text([] {
                            DeviceClockPolicy::validate(O{.regions = {"a", "b", "c", "d"}, .max_blocks = 1u << 30});
                        }),
                        "records"));
    BOOST_TEST(contains(invalid_argument_text([] { DeviceClockPolicy::validate(O{.resident_blocks_per_sm = -1}); }),
                        "resident_blocks_per_sm"));
    for (double bad : {0.0, -0.1, 1.5, std::numeric_limits<double>::quiet_NaN()})
        BOOST_TEST(contains(invalid_argument_text([&] { DeviceClockPolicy::validate(O{.max_clock_uncertainty = bad}); }),
                            "max_clock_uncertainty"));
    // The constructor checks the options before it asks CUDA anything, so this holds with or without a GPU.
    BOOST_CHECK_THROW(DeviceClockPolicy(cudaStream_t{}, O{.max_blocks = 0}), std::invalid_argument);
    BOOST_CHECK_THROW((gpuchrono::ScopedTimer<DeviceClockPolicy>(cudaStream_t{}, O{.regions = {}})), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(region_ids_are_looked_up_by_name) {
    const DeviceClockPolicy::Options o{.regions = {"load", "reduce", "store"}};
    BOOST_TEST(DeviceClockPolicy::region_id(o, "load") == 0u);
    BOOST_TEST(DeviceClockPolicy::region_id(o, "store") == 2u);
    const std::string why = invalid_argument_text([&] { (void)DeviceClockPolicy::region_id(o, "sort"); });
    BOOST_TEST(contains(why, "no region named \"sort\""), why);
    BOOST_TEST(contains(why, "\"load\", \"reduce\", \"store\""), why);
}

BOOST_AUTO_TEST_CASE(plain_records_become_one_sample_per_block_and_region) {
    FakeProbe p({"load", "reduce"}, 4);
    for (std::uint32_t b = 0; b < 3; ++b) {
        p.put(plain(b, 0, 1000 * b, 1000 * b + 400, b, b));
        p.put(plain(b, 1, 1000 * b + 400, 1000 * b + 900 + b, b, b));
    }
    const dc::Decoded d = p.decode();
    BOOST_REQUIRE_MESSAGE(d.ok(), d.error);
    const gpuchrono::BlockSamples& s = d.samples;
    BOOST_REQUIRE(s.samples.size() == 6u);  // block 3 has room but did not run
    for (std::size_t i = 0; i < s.samples.size(); ++i) {
        const BlockSample& x = s.samples[i];
        BOOST_TEST(x.block == i / 2);
        BOOST_TEST(x.region == i % 2);
        BOOST_TEST(x.count == 1u);
        BOOST_TEST(!x.accumulating);
        BOOST_TEST(x.cycles_valid);
        BOOST_TEST(x.accumulated_ns == x.stop_ns - x.start_ns);
        BOOST_TEST(x.accumulated_cycles == x.stop_cycles - x.start_cycles);
    }
    BOOST_TEST(s.samples[5].accumulated_ns == 502u);
    BOOST_TEST(s.region_names == p.names);
    BOOST_TEST(s.region_name(1) == "reduce");
    BOOST_TEST(s.region_id("reduce").value() == 1u);
    BOOST_TEST(!s.region_id("sort").has_value());
    BOOST_CHECK_THROW((void)s.region_name(2), std::out_of_range);
    BOOST_TEST(s.first_start_ns == t0);
    BOOST_TEST(s.last_stop_ns == t0 + 2902);
    BOOST_TEST(s.kernel_duration().ns() == 2902.0);
    BOOST_TEST(s.grid_blocks == 3u);
    BOOST_TEST(s.block_threads == 256u);
    BOOST_TEST(s.capacity_blocks == 4u);
    BOOST_TEST(s.grid_id == 42u);
    BOOST_TEST(s.dropped == 0u);
    BOOST_TEST(s.sm_changed == 0u);
    BOOST_TEST(d.findings.empty());
}

BOOST_AUTO_TEST_CASE(an_sm_change_is_flagged_and_its_cycles_are_never_subtracted) {
    FakeProbe p({"kernel"}, 2);
    p.put(plain(0, 0, 0, 5000, 7, 7));
    p.put(plain(1, 0, 100, 5100, 3, 17));
    const dc::Decoded d = p.decode();
    BOOST_REQUIRE_MESSAGE(d.ok(), d.error);
    const BlockSample& moved = d.samples.samples.at(1);
    BOOST_TEST(moved.sm_start == 3u);
    BOOST_TEST(moved.sm_stop == 17u);
    BOOST_TEST(!moved.cycles_valid);
    BOOST_TEST(moved.accumulated_cycles == 0u);  // the device's cross-SM difference was not taken
    BOOST_TEST(d.samples.sm_changed == 1u);
    const gpuchrono::Finding* f = find_code(d.findings, "device-clock-sm-changed");
    BOOST_REQUIRE(f);
    BOOST_TEST((f->severity == gpuchrono::Severity::warning));
    BOOST_TEST(contains(f->message, "1 of 2 samples"), f->message);
    BOOST_TEST(contains(f->message, "block 1, region \"kernel\", SM 3 -> 17"), f->message);

    // Converted: the moved block's time comes from %globaltimer, the other one's from its cycles.
    gpuchrono::BlockSamples s = d.samples;
    s.sm_clock.hz = ghz * 1e9;
    dc::apply_clock(s);
    BOOST_TEST(s.samples[0].net_ns == 5000.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(s.samples[1].net_ns == 5000.0);
    // A cross-SM subtraction would have given something else entirely: the test data can tell.
    const double naive_ns = static_cast<double>(moved.stop_cycles - moved.start_cycles) / ghz;
    BOOST_TEST(std::fabs(naive_ns - 5000.0) > 1e6);
}

BOOST_AUTO_TEST_CASE(loop_records_keep_their_count_and_totals) {
    FakeProbe p({"outer", "step"}, 2);
    ProbeRecord loop = plain(0, 1, 200, 9200, 5, 5);
    loop.flags = gpuchrono::probe_flag_accumulating;
    loop.count = 20;
    loop.accumulated_ns = 8000;
    loop.accumulated_cycles = 15840;
    p.put(loop);
    ProbeRecord moved = plain(1, 1, 300, 9300, 6, 6);
    moved.flags = gpuchrono::probe_flag_accumulating | gpuchrono::probe_flag_sm_changed;  // one iteration moved
    moved.count = 20;
    moved.accumulated_ns = 8100;
    moved.accumulated_cycles = 14000;
    p.put(moved);
    const dc::Decoded d = p.decode();
    BOOST_REQUIRE_MESSAGE(d.ok(), d.error);
    const BlockSample& a = d.samples.samples.at(0);
    BOOST_TEST(a.accumulating);
    BOOST_TEST(a.count == 20u);
    BOOST_TEST(a.accumulated_ns == 8000u);
    BOOST_TEST(a.accumulated_cycles == 15840u);
    BOOST_TEST(a.cycles_valid);
    const BlockSample& b = d.samples.samples.at(1);
    BOOST_TEST(!b.cycles_valid);  // its cycle total misses the iteration that changed SM
    BOOST_TEST(d.samples.sm_changed == 1u);
    BOOST_TEST(find_code(d.findings, "device-clock-sm-changed") != nullptr);

    gpuchrono::BlockSamples s = d.samples;
    s.sm_clock.hz = ghz * 1e9;
    s.overhead.region_cycles = 60;
    s.overhead.iteration_cycles = 39.6;  // 20 ns at 1.98 GHz
    s.overhead_subtracted = true;
    dc::apply_clock(s);
    BOOST_TEST(s.samples[0].net_ns == 8000.0 - 20 * 20.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(s.samples[1].net_ns == 8100.0 - 20 * 20.0, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(dropped_records_are_counted_and_the_kernel_span_still_covers_them) {
    FakeProbe p({"kernel"}, 2);
    p.put(plain(0, 0, 1000, 2000));
    p.put(plain(1, 0, 1100, 2100));
    p.header.dropped = 6;
    p.header.grid_blocks = 8;
    p.header.dropped_first_start_inverted = ~(t0 + 900);
    p.header.dropped_last_stop = t0 + 7000;
    const dc::Decoded d = p.decode();
    BOOST_REQUIRE_MESSAGE(d.ok(), d.error);
    BOOST_TEST(d.samples.samples.size() == 2u);
    BOOST_TEST(d.samples.dropped == 6u);
    BOOST_TEST(d.samples.first_start_ns == t0 + 900);
    BOOST_TEST(d.samples.last_stop_ns == t0 + 7000);
    const gpuchrono::Finding* f = find_code(d.findings, "device-clock-records-dropped");
    BOOST_REQUIRE(f);
    BOOST_TEST(contains(f->message, "6 record(s) dropped: the launch had 8 blocks and the probe holds 2"), f->message);
    BOOST_TEST(contains(f->fix, "max_blocks to at least 8"), f->fix);

    // Only dropped records (a region that only late blocks ran): no samples, yet a kernel span.
    FakeProbe late({"kernel"}, 2);
    late.header.dropped = 3;
    late.header.grid_blocks = 5;
    late.header.dropped_first_start_inverted = ~(t0 + 10);
    late.header.dropped_last_stop = t0 + 510;
    const dc::Decoded l = late.decode();
    BOOST_REQUIRE_MESSAGE(l.ok(), l.error);
    BOOST_TEST(l.samples.samples.empty());
    BOOST_TEST(l.samples.kernel_duration().ns() == 500.0);
}

BOOST_AUTO_TEST_CASE(a_slot_written_twice_refuses_the_measurement) {
    FakeProbe p({"kernel"}, 4);
    for (std::uint32_t b = 0; b < 4; ++b) p.put(plain(b, 0, 0, 100)).writes = b == 2 ? 2 : 1;
    const dc::Decoded d = p.decode();
    BOOST_TEST(!d.ok());
    BOOST_TEST(contains(d.error, "1 record(s) were written more than once (first: block 2, region \"kernel\", 2 times)"), d.error);
    BOOST_TEST(contains(d.error, "one timer per launch"), d.error);
}

BOOST_AUTO_TEST_CASE(records_of_two_launches_refuse_the_measurement) {
    // A second launch that wrote other slots than the first: every slot once, but two %gridid values.
    FakeProbe p({"a", "b"}, 2);
    p.put(plain(0, 0, 0, 100, 0, 0, 11));
    p.put(plain(1, 0, 0, 100, 0, 0, 11));
    p.put(plain(0, 1, 500, 600, 0, 0, 12));
    const dc::Decoded d = p.decode();
    BOOST_TEST(!d.ok());
    BOOST_TEST(contains(d.error, "2 different launches (%gridid 11 and 12)"), d.error);
}

BOOST_AUTO_TEST_CASE(a_region_id_the_timer_did_not_name_refuses_the_measurement) {
    FakeProbe p({"a", "b"}, 2);
    p.put(plain(0, 0, 0, 100));
    p.header.invalid_region_uses = 3;
    p.header.max_invalid_region = 7;
    const dc::Decoded d = p.decode();
    BOOST_TEST(!d.ok());
    BOOST_TEST(contains(d.error, "region id 7 (3 record(s) refused)"), d.error);
    BOOST_TEST(contains(d.error, "0 \"a\", 1 \"b\""), d.error);
}

BOOST_AUTO_TEST_CASE(no_record_refuses_the_measurement) {
    FakeProbe p({"kernel"}, 8);
    const dc::Decoded d = p.decode();
    BOOST_TEST(!d.ok());
    BOOST_TEST(contains(d.error, "no region was recorded"), d.error);
}

BOOST_AUTO_TEST_CASE(records_that_cannot_come_from_the_probe_are_refused) {
    FakeProbe wrong_slot({"kernel"}, 2);
    ProbeRecord& r = wrong_slot.put(plain(1, 0, 0, 100));
    r.block = 5;
    BOOST_TEST(contains(wrong_slot.decode().error, "probe slot 1 holds block 5"));

    FakeProbe backwards({"kernel"}, 1);
    ProbeRecord b = plain(0, 0, 0, 100);
    std::swap(b.start_ns, b.stop_ns);
    backwards.put(b);
    BOOST_TEST(contains(backwards.decode().error, "inconsistent"));

    FakeProbe sizes({"a", "b"}, 2);
    sizes.slots.pop_back();
    BOOST_CHECK_THROW(sizes.decode(), std::invalid_argument);
    BOOST_CHECK_THROW(dc::decode(ProbeHeader{}, {}, {}, 0), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(the_sm_clock_comes_from_reads_on_one_sm_at_a_time) {
    FakeProbe p({"kernel"}, 6);
    // SMs 0..2; block 5 starts on SM 1 and stops on SM 2: each of its reads still belongs to its own SM.
    p.put(plain(0, 0, 0, 3000, 0, 0));
    p.put(plain(1, 0, 100, 2000, 1, 1));
    p.put(plain(2, 0, 2500, 9000, 0, 0));
    p.put(plain(3, 0, 200, 4000, 2, 2));
    p.put(plain(4, 0, 5000, 6000, 1, 1));
    p.put(plain(5, 0, 50, 12000, 1, 2));
    const dc::Decoded d = p.decode();
    BOOST_REQUIRE_MESSAGE(d.ok(), d.error);
    const auto c = dc::clock_from_samples(d.samples.samples, Duration::from_ns(32));
    BOOST_REQUIRE(c.has_value());
    BOOST_TEST((c->source == gpuchrono::ClockSource::kernel_samples));
    BOOST_TEST(c->hz == ghz * 1e9, boost::test_tools::tolerance(1e-6));
    BOOST_TEST(c->sms == 3u);
    // SM 0: 0..9000; SM 1: 50..6000; SM 2: 200..12000.
    BOOST_TEST(c->baseline.ns() == 9000.0 + 5950.0 + 11800.0);
    BOOST_TEST(c->uncertainty == 3 * 32.0 / c->baseline.ns(), boost::test_tools::tolerance(1e-12));

    // No SM with two reads at different times: no clock. A zero step cannot bound anything.
    FakeProbe flat({"kernel"}, 1);
    flat.put(plain(0, 0, 100, 100, 0, 0));
    BOOST_TEST(!dc::clock_from_samples(flat.decode().samples.samples, Duration::from_ns(32)).has_value());
    BOOST_CHECK_THROW((void)dc::clock_from_samples(d.samples.samples, Duration{}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(a_reference_span_gives_a_clock_only_on_one_sm) {
    const dc::ClockSpan span{t0, cycles_at(4, 0), t0 + 20000, cycles_at(4, 20000), 4, 4};
    const auto c = dc::clock_from_span(span, Duration::from_ns(32), gpuchrono::ClockSource::reference_kernel);
    BOOST_REQUIRE(c.has_value());
    BOOST_TEST(c->hz == ghz * 1e9, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(c->uncertainty == 32.0 / 20000.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST((c->source == gpuchrono::ClockSource::reference_kernel));
    BOOST_TEST(std::string(gpuchrono::to_string(c->source)) == "reference-kernel");
    dc::ClockSpan moved = span;
    moved.sm_stop = 5;
    moved.stop_cycles = cycles_at(5, 20000);
    BOOST_TEST(!dc::clock_from_span(moved, Duration::from_ns(32), gpuchrono::ClockSource::reference_kernel).has_value());
}

BOOST_AUTO_TEST_CASE(net_time_is_cycles_over_the_measured_clock_minus_the_calibrated_overhead) {
    FakeProbe p({"kernel"}, 3);
    p.put(plain(0, 0, 0, 1000, 2, 2));
    p.put(plain(1, 0, 0, 25, 2, 2));  // shorter than the overhead: clamped at 0, never negative
    p.put(plain(2, 0, 0, 2000, 2, 2));
    dc::Decoded d = p.decode();
    BOOST_REQUIRE_MESSAGE(d.ok(), d.error);
    gpuchrono::BlockSamples s = d.samples;
    s.overhead.region_cycles = 99;  // 50 ns at 1.98 GHz
    s.sm_clock.hz = ghz * 1e9;

    s.overhead_subtracted = false;
    dc::apply_clock(s);
    BOOST_TEST(s.samples[0].net_ns == 1000.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(s.samples[2].net_ns == 2000.0, boost::test_tools::tolerance(1e-9));

    s.overhead_subtracted = true;
    dc::apply_clock(s);
    BOOST_TEST(s.samples[0].net_ns == 950.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(s.samples[1].net_ns == 0.0);
    BOOST_TEST(s.samples[2].net_ns == 1950.0, boost::test_tools::tolerance(1e-9));

    // Converted with the clock of this run, not a nominal one: half the clock, twice the time.
    s.sm_clock.hz = ghz * 0.5e9;
    dc::apply_clock(s);
    BOOST_TEST(s.samples[0].net_ns == 2000.0 - 100.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(s.cycles_to_time(990).ns() == 1000.0, boost::test_tools::tolerance(1e-9));

    s.sm_clock.hz = 0;
    BOOST_CHECK_THROW(dc::apply_clock(s), std::invalid_argument);
    BOOST_TEST(std::isnan(s.cycles_to_time(1).ns()));
}

BOOST_AUTO_TEST_CASE(the_overhead_is_the_median_of_empty_regions_without_the_cold_first_one) {
    std::vector<BlockSample> samples;
    auto add = [&](std::uint32_t block, std::uint32_t region, std::uint64_t cycles, bool accumulating = false,
                   std::uint64_t count = 1, bool valid = true) {
        BlockSample s;
        s.block = block;
        s.region = region;
        s.accumulated_cycles = cycles;
        s.accumulating = accumulating;
        s.count = count;
        s.cycles_valid = valid;
        samples.push_back(s);
    };
    for (std::uint32_t b = 0; b < 2; ++b) {
        add(b, 0, 5000);  // cold: left out
        add(b, 1, 40);
        add(b, 2, 44);
        add(b, 3, 90000, false, 1, false);  // moved SM: left out
    }
    add(0, 4, 256 * 30, true, 256);
    add(1, 4, 256 * 34, true, 256);
    add(2, 4, 256 * 31, true, 256);
    const gpuchrono::ProbeOverhead o = dc::overhead_from_calibration(samples, 4, 128);
    BOOST_TEST(o.region_cycles == 42.0);  // median of 40, 44, 40, 44
    BOOST_TEST(o.iteration_cycles == 31.0);
    BOOST_TEST(o.threads_per_block == 128u);
    BOOST_TEST(o.regions_measured == 4u);
    BOOST_CHECK_THROW((void)dc::overhead_from_calibration(std::vector<BlockSample>(samples.begin(), samples.begin() + 1), 4, 128),
                      std::runtime_error);
}

BOOST_AUTO_TEST_CASE(times_below_thirty_timer_steps_are_reported) {
    FakeProbe p({"kernel"}, 2);
    p.put(plain(0, 0, 0, 500));
    p.put(plain(1, 0, 0, 2000));
    gpuchrono::BlockSamples s = p.decode().samples;
    s.timer_step = Duration::from_ns(32);
    const gpuchrono::Findings f = gpuchrono::check_timer_resolution(s);
    const gpuchrono::Finding* regions = find_code(f, "device-clock-regions-below-timer-resolution");
    BOOST_REQUIRE(regions);
    BOOST_TEST(contains(regions->message, "1 of 2 samples"), regions->message);
    BOOST_TEST(!find_code(f, "device-clock-kernel-below-timer-resolution"));  // 2000 ns > 960 ns

    s.timer_step = Duration::from_us(1);  // a board whose %globaltimer steps in microseconds
    const gpuchrono::Findings coarse = gpuchrono::check_timer_resolution(s);
    BOOST_TEST(find_code(coarse, "device-clock-kernel-below-timer-resolution") != nullptr);
    BOOST_TEST(contains(find_code(coarse, "device-clock-regions-below-timer-resolution")->message, "2 of 2"));
}

BOOST_AUTO_TEST_CASE(without_a_device_the_policy_throws_a_named_cuda_error, *boost::unit_test::precondition(without_device())) {
    try {
        gpuchrono::ScopedTimer<DeviceClockPolicy> t(cudaStream_t{});
        BOOST_FAIL("a DeviceClockPolicy timer cannot start without a device");
    } catch (const gpuchrono::CudaError& e) {
        const std::string what = e.what();
        BOOST_TEST((contains(what, "cudaErrorNoDevice") || contains(what, "cudaErrorInsufficientDriver")), what);
    }
    BOOST_CHECK_THROW((void)gpuchrono::ProbeBufferPool::instance().acquire(0, 1), gpuchrono::CudaError);
    BOOST_CHECK_THROW((void)gpuchrono::DeviceClockCalibration::instance().timer_step(0, cudaStream_t{}), gpuchrono::CudaError);
}

BOOST_AUTO_TEST_SUITE_END()
