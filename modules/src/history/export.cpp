// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// `gpuchrono history export`: CSV and Bencher's Metric Format.
#include "history/check.hpp"
#include "history/export.hpp"

#include "json/json_writer.hpp"

#include <charconv>

namespace gpuchrono::history {
namespace {

std::string field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string number(double v) {
    char b[32];
    const auto [end, ec] = std::to_chars(b, b + sizeof b, v);
    return ec == std::errc{} ? std::string(b, end) : std::string();
}
std::string number(const std::optional<double>& v) { return v ? number(*v) : std::string(); }

}  // namespace

std::string export_csv(Store& store) {
    std::string out = "experiment,series,unit,commit,position,run_time,median,ci_low,ci_high,n,method,cache_state,findings,machine\r\n";
    for (const auto& s : store.series())
        for (const auto& p : store.points(s.id)) {
            std::string findings;
            for (const auto& f : p.findings) findings += (findings.empty() ? "" : " ") + f;
            out += field(s.experiment) + "," + field(s.name) + "," + field(s.unit) + "," + field(p.commit) + "," +
                   std::to_string(p.commit_position) + "," + field(p.run_time) + "," + number(p.median) + "," +
                   number(p.ci_low) + "," + number(p.ci_high) + "," + std::to_string(p.n) + "," + field(p.method) + "," +
                   field(p.cache_state) + "," + field(findings) + "," + field(p.baseline) + "\r\n";
        }
    return out;
}

std::string export_bmf(Store& store, const std::string& commit) {
    const auto commits = store.commits();
    std::string hash;
    for (const auto& c : commits)
        if (commit.empty() || c.hash.starts_with(commit)) hash = c.hash;
    if (hash.empty())
        throw HistoryError(commit.empty() ? "the history " + store.location() + " holds no commits"
                                          : "the history " + store.location() + " has no commit " + commit);
    json::Json document = json::Json::object();
    for (const auto& s : store.series())
        for (const auto& p : store.points(s.id)) {
            if (p.commit != hash) continue;
            json::Json latency = json::object({{"value", p.median}});
            if (p.ci_low) latency["lower_value"] = *p.ci_low;
            if (p.ci_high) latency["upper_value"] = *p.ci_high;
            document[series_label(s)] = json::object({{"latency", latency}});
        }
    return json::write_json(document) + "\n";
}

}  // namespace gpuchrono::history
