// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/report/model/report_section.hpp>

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/report/model/report.hpp>

#include <algorithm>
#include <set>

namespace gpuchrono::distributed {

std::vector<int> devices_of(const report::Report& report) {
    std::set<int> devices;
    if (report.device.index >= 0) devices.insert(report.device.index);
    for (const report::Experiment& e : report.experiments) {
        for (const report::SampleSeries& s : e.series) devices.insert(s.devices.begin(), s.devices.end());
        for (const KernelActivity& a : e.activities)
            if (a.device >= 0) devices.insert(a.device);
        for (const report::Timeline& t : e.timelines)
            if (t.device >= 0) devices.insert(t.device);
    }
    return {devices.begin(), devices.end()};
}

std::optional<RankSection> finished_report_section(const report::Report& report, std::vector<std::string>& notes) {
    if (!report.distributed) return std::nullopt;
    RankSection section = *report.distributed;
    if (section.anchors.size() != 1) return section;
    const bool has_activities =
        std::any_of(report.experiments.begin(), report.experiments.end(), [](const report::Experiment& e) { return !e.activities.empty(); });
    section.anchors.push_back(take_clock_anchor(has_activities));
    for (const int index : devices_of(report)) {
        if (names_device(section, index)) continue;
        try {
            section.devices.push_back(describe_device_identity(index));
        } catch (const CudaError& e) {
            notes.push_back("device " + std::to_string(index) + " is not identified (no UUID, PCI bus id): " + e.what());
        }
    }
    return section;
}

}  // namespace gpuchrono::distributed
