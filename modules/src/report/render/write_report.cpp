// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/report/render/write_report.hpp>

#include <cmath>
#include <vector>

namespace gpuchrono {

namespace {

// The device the first GPU measurement ran on, or -1 when none did (host clocks, hand-made measurements).
int device_used(const std::vector<const Series*>& all) {
    for (const Series* s : all)
        for (const Measurement& m : s->measurements())
            if (m.device() >= 0) return m.device();
    return -1;
}

report::DeviceInfo device_info(int device) {
    if (device >= 0) return report::describe_device(device);
    report::DeviceInfo none;
    none.name = "no device";
    return none;
}

// The last per-block record set of a series: the one a reader of the timeline wants is the warm one.
const BlockSamples* last_blocks(const Series& s) {
    const BlockSamples* last = nullptr;
    for (const Measurement& m : s.measurements())
        if (m.blocks()) last = m.blocks().get();
    return last;
}

std::vector<report::WrittenFile> write(const std::vector<const Series*>& all, const std::filesystem::path& folder,
                                       const std::source_location& where) {
    report::Report r = report::new_report();
    const int device = device_used(all);
    r.device = device_info(device);
    if (device < 0) r.notes.push_back("no measurement ran on a GPU: the device is not described");

    report::Experiment e;
    e.id = "measurements";
    e.title = "Measurements";
    for (const Series* s : all) {
        e.series.push_back(report::make_series(*s, where));
        if (const BlockSamples* b = last_blocks(*s)) {
            e.timelines.push_back(report::make_timeline(s->name(), *b));
            // The clock this run measured describes the device better than its nominal clock.
            if (std::isnan(r.device.sm_clock_measured_mhz) && b->sm_clock.hz > 0)
                r.device.sm_clock_measured_mhz = b->sm_clock.hz / 1e6;
            if (std::isnan(r.device.globaltimer_step_ns) && b->timer_step.ns() > 0)
                r.device.globaltimer_step_ns = b->timer_step.ns();
        }
    }
    r.experiments.push_back(std::move(e));
    return report::write_report_files(r, folder);
}

}  // namespace

std::vector<report::WrittenFile> write_report(const SeriesSet& series, const std::filesystem::path& folder,
                                              std::source_location where) {
    std::vector<const Series*> all;
    for (const auto& [name, s] : series) all.push_back(&s);
    return write(all, folder, where);
}

std::vector<report::WrittenFile> write_report(const Series& series, const std::filesystem::path& folder,
                                              std::source_location where) {
    return write({&series}, folder, where);
}

}  // namespace gpuchrono
