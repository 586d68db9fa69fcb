// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The merged job's JSON document ("schema": "gpuchrono-job"), docs/report-json.md.
#include <gpuchrono/job/job_merge.hpp>

#include "json/json_writer.hpp"

#include <cerrno>
#include <cstdio>
#include <memory>
#include <system_error>

namespace gpuchrono::distributed {

using json::Json;
using json::object;

namespace {

template <class T>
Json array(const std::vector<T>& v) {
    Json a = Json::array();
    for (const T& x : v) a.push_back(x);
    return a;
}

}  // namespace

std::string job_to_json(const MergedJob& job) {
    Json ranks = Json::array();
    for (const MergedRank& r : job.ranks) {
        Json devices = Json::array();
        for (const DeviceIdentity& d : r.devices)
            devices.push_back(object({{"index", d.index}, {"name", d.name}, {"uuid", d.uuid}, {"pci_bus_id", d.pci_bus_id}}));
        Json busy = Json::array();
        for (const DeviceBusy& b : r.busy)
            busy.push_back(object({{"device", b.device}, {"activities", b.activities}, {"busy_ns", b.busy_ns}, {"span_ns", b.span_ns}}));
        ranks.push_back(object({
            {"rank", r.identity.rank},
            {"local_rank", r.identity.local_rank},
            {"host", r.identity.host},
            {"pid", r.identity.pid},
            {"launcher", r.identity.launcher},
            {"file", r.file},
            {"devices", std::move(devices)},
            {"offset_ns", r.offset_ns},
            {"drift_ppm", r.drift_ppm},
            {"error_ns", r.error_ns},
            {"clock_note", r.clock_note},
            {"scopes", r.scopes},
            {"activities", r.activities},
            {"activities_unplaced", r.activities_unplaced},
            {"busy", std::move(busy)},
            {"communication_ns", r.overlap.communication_ns},
            {"compute_ns", r.overlap.compute_ns},
            {"overlapped_ns", r.overlap.overlapped_ns},
        }));
    }
    Json stragglers = Json::array();
    for (const ScopeStragglers& s : job.stragglers) {
        Json steps = Json::array();
        for (const StepLateness& st : s.steps)
            steps.push_back(object({{"last_rank", st.last_rank},
                                    {"spread_ns", st.spread_ns},
                                    {"waited_ns", st.waited_ns},
                                    {"last_lateness_ns", st.last_lateness_ns},
                                    {"last_excess_ns", st.last_excess_ns},
                                    {"lateness_ns", array(st.lateness_ns)},
                                    {"excess_ns", array(st.excess_ns)},
                                    {"last_gpu_excess_ns", st.gpu_excess_ns.empty() ? Json(nullptr) : Json(st.last_gpu_excess_ns)},
                                    {"gpu_excess_ns", array(st.gpu_excess_ns)}}));
        stragglers.push_back(object({{"name", s.name},
                                     {"ranks", array(s.ranks)},
                                     {"times_last", array(s.times_last)},
                                     {"total_lateness_ns", array(s.total_lateness_ns)},
                                     {"note", s.note},
                                     {"steps", std::move(steps)}}));
    }
    Json collectives = Json::array();
    for (const CollectiveSplit& c : job.collectives)
        collectives.push_back(object({{"collective", c.collective},
                                      {"calls", c.calls},
                                      {"ranks", array(c.ranks)},
                                      {"wait_ns", array(c.wait_ns)},
                                      {"transfer_ns", array(c.transfer_ns)}}));
    return json::write_json(object({
        {"schema", "gpuchrono-job"},
        {"schema_version", 1},
        {"job_id", job.job_id},
        {"world_size", job.world_size},
        {"clock", to_string(job.clock)},
        {"alignment_error_ns", job.alignment_error_ns},
        {"alignment_note", job.alignment_note},
        {"notes", array(job.notes)},
        {"peak_activities_held", job.peak_activities_held},
        {"nccl_kernels_kept", job.nccl_kernels_kept},
        {"ranks", std::move(ranks)},
        {"stragglers", std::move(stragglers)},
        {"collectives", std::move(collectives)},
    }));
}

void save_job(const MergedJob& job, const std::filesystem::path& file) {
    const std::string text = job_to_json(job) + "\n";
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(std::fopen(file.c_str(), "wb"), &std::fclose);
    if (!out) throw MergeError("gpuchrono: cannot write " + file.string() + ": " + std::system_category().message(errno));
    if (std::fwrite(text.data(), 1, text.size(), out.get()) != text.size() || std::fflush(out.get()) != 0)
        throw MergeError("gpuchrono: writing " + file.string() + " failed: " + std::system_category().message(errno));
}

}  // namespace gpuchrono::distributed
