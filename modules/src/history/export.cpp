// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// `gpuchrono history export`: CSV, Bencher's Metric Format, asv's results file and pytest-benchmark's JSON.
#include "history/check.hpp"
#include "history/export.hpp"

#include "json/json_writer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

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

// The full hash of `commit` (a prefix; empty: the newest commit) and its stored facts.
StoredCommit one_commit(Store& store, const std::string& commit) {
    std::optional<StoredCommit> found;
    for (const auto& c : store.commits())
        if (commit.empty() || c.hash.starts_with(commit)) {
            if (!commit.empty() && found && found->hash != c.hash)
                throw HistoryError("--commit " + commit + " names several commits of the history " + store.location() +
                                   ": give more of the hash");
            found = c;
        }
    if (!found)
        throw HistoryError(commit.empty() ? "the history " + store.location() + " holds no commits"
                                          : "the history " + store.location() + " has no commit " + commit);
    return *found;
}

// The last run of each series at one commit (a commit run twice keeps its later run, as BMF does).
std::vector<std::pair<StoredSeries, StoredPoint>> points_at(Store& store, const std::string& hash) {
    std::vector<std::pair<StoredSeries, StoredPoint>> out;
    for (const auto& s : store.series()) {
        // One series at a time: a long history's samples are never all in memory at once.
        auto points = store.points(s.id);
        const auto last =
            std::find_if(points.rbegin(), points.rend(), [&](const StoredPoint& p) { return p.commit == hash; });
        if (last != points.rend()) out.emplace_back(s, std::move(*last));
    }
    return out;
}

// Seconds where the series is a time (asv and pytest-benchmark write seconds), else the stored figure.
double in_tool_units(const StoredSeries& s, double v) { return s.unit == "ns" ? v * 1e-9 : v; }

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

namespace gpuchrono::history {

std::string export_asv(Store& store, const std::string& commit) {
    const StoredCommit c = one_commit(store, commit);
    json::Json results = json::Json::object();
    std::string run_time;
    for (const auto& [s, p] : points_at(store, c.hash)) {
        json::Json low = json::Json::array(), high = json::Json::array(), samples = json::Json::array();
        if (p.ci_low && p.ci_high) {
            low.push_back(in_tool_units(s, *p.ci_low));
            high.push_back(in_tool_units(s, *p.ci_high));
        } else {
            low.push_back(nullptr);
            high.push_back(nullptr);
        }
        json::Json these = json::Json::array();
        for (double v : p.samples) these.push_back(in_tool_units(s, v));
        samples.push_back(these.empty() ? json::Json(nullptr) : these);
        json::Json row = json::Json::array();
        row.push_back(json::Json::array({in_tool_units(s, p.median)}));
        row.push_back(json::Json::array());  // no parameters: the combination is in the series' name
        row.push_back(low);
        row.push_back(high);
        row.push_back(json::Json::array({static_cast<double>(p.n)}));
        row.push_back(samples);
        results[s.experiment + "." + s.name] = row;
        if (run_time.empty()) run_time = p.run_time;
    }
    json::Json document = json::Json::object();
    document["commit_hash"] = c.hash;
    document["env_name"] = "gpuchrono";
    document["params"] = json::Json::object();
    document["python"] = "";
    document["requirements"] = json::Json::object();
    document["env_vars"] = json::Json::object();
    document["result_columns"] =
        json::Json::array({"result", "params", "stats_ci_99_a", "stats_ci_99_b", "stats_repeat", "samples"});
    document["results"] = results;
    document["durations"] = json::Json::object();
    document["version"] = 2;
    return json::write_json(document) + "\n";
}

std::string export_pytest_benchmark(Store& store, const std::string& commit) {
    const StoredCommit c = one_commit(store, commit);
    json::Json benchmarks = json::Json::array();
    std::string run_time;
    for (const auto& [s, p] : points_at(store, c.hash)) {
        json::Json stats = json::Json::object();
        stats["median"] = in_tool_units(s, p.median);
        stats["rounds"] = p.n;
        if (!p.samples.empty()) {
            // What pytest-benchmark derives from the rounds, where the rounds are kept; nothing is made up.
            std::vector<double> v;
            for (double x : p.samples) v.push_back(in_tool_units(s, x));
            const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
            double mean = 0;
            for (double x : v) mean += x / static_cast<double>(v.size());
            double square = 0;
            for (double x : v) square += (x - mean) * (x - mean);
            stats["min"] = *lo;
            stats["max"] = *hi;
            stats["mean"] = mean;
            stats["stddev"] = v.size() > 1 ? std::sqrt(square / static_cast<double>(v.size() - 1)) : 0.0;
            stats["data"] = v;
        }
        json::Json b = json::Json::object();
        b["group"] = s.experiment;
        b["name"] = s.name;
        b["fullname"] = s.name;
        b["params"] = nullptr;
        b["stats"] = stats;
        b["extra_info"] = json::object({{"unit", s.unit}, {"method", p.method}});
        benchmarks.push_back(b);
        if (run_time.empty()) run_time = p.run_time;
    }
    json::Json document = json::Json::object();
    document["machine_info"] = json::Json::object();
    json::Json commit_info = json::Json::object();
    commit_info["id"] = c.hash;
    commit_info["branch"] = c.branch;
    commit_info["author_time"] = c.author_time;
    document["commit_info"] = commit_info;
    document["benchmarks"] = benchmarks;
    document["datetime"] = run_time;
    document["version"] = "gpuchrono history export";
    return json::write_json(document) + "\n";
}

}  // namespace gpuchrono::history
