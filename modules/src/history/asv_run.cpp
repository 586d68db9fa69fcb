// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// airspeed velocity's results file (version 2: .asv/results/MACHINE/HASH-ENV.json) as a run: one series per
// benchmark and parameter combination, named as asv shows them ("suite.time_x(1024, 'float')"), times turned from
// seconds into nanoseconds, memory benchmarks in bytes. asv writes each benchmark as a row of columns named by
// result_columns; a combination asv could not measure (null) is left out.
#include "history/run_formats.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <vector>

namespace gpuchrono::history {
namespace {

// The value of one combination in a per-combination column: asv writes a list, or a bare value when there is one.
const json::Json* at_combination(const json::Json* column, std::size_t combination) {
    if (!column || column->is_null()) return nullptr;
    if (!column->is_array()) return combination == 0 ? column : nullptr;
    return combination < column->size() ? &(*column)[combination] : nullptr;
}

std::string iso_time_from_milliseconds(double ms) {
    const auto seconds = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buffer;
}

// "(a, b)" of one combination: asv's params are a list of axes (each a list of the values' reprs), combined as a
// Cartesian product with the last axis moving fastest.
std::string combination_label(const std::vector<std::vector<std::string>>& axes, std::size_t combination) {
    if (axes.empty()) return {};
    std::vector<std::string> picked(axes.size());
    for (std::size_t a = axes.size(); a-- > 0;) {
        picked[a] = axes[a][combination % axes[a].size()];
        combination /= axes[a].size();
    }
    std::string out = "(";
    for (std::size_t a = 0; a < picked.size(); ++a) out += (a ? ", " : "") + picked[a];
    return out + ")";
}

}  // namespace

bool is_asv_results(const json::Json& document) {
    return document.is_object() && document.contains("result_columns") && document.contains("results") &&
           document.contains("commit_hash");
}

RunRecord run_from_asv(const json::Json& document) {
    const json::Reader top(document, "");
    RunRecord run;
    run.source_format = "asv";
    run.commit.hash = top.string("commit_hash");
    if (const double date = top.number("date"); std::isfinite(date) && date > 0)
        run.run_time = iso_time_from_milliseconds(date);
    if (const json::Json* params = top.present("params")) {
        const json::Reader machine(*params, "params");
        if (const std::string cpu = machine.string("cpu"); !cpu.empty()) run.fingerprint.host_cpu = cpu;
    }
    const std::vector<std::string> columns = top.strings("result_columns");
    const auto column_of = [&](const std::string& name) -> std::optional<std::size_t> {
        for (std::size_t i = 0; i < columns.size(); ++i)
            if (columns[i] == name) return i;
        return std::nullopt;
    };
    const auto result_column = column_of("result");
    if (!result_column) json::fail("result_columns", "has no \"result\" column");
    const auto params_column = column_of("params"), low_column = column_of("stats_ci_99_a"),
               high_column = column_of("stats_ci_99_b"), samples_column = column_of("samples"),
               repeat_column = column_of("stats_repeat");

    const json::Json& results = document["results"];
    if (!results.is_object()) json::fail("results", std::string("expected an object, found ") + results.type_name());
    for (const auto& [benchmark, row_json] : results.items()) {
        const std::string path = "results." + benchmark;
        if (!row_json.is_array()) json::fail(path, std::string("expected an array, found ") + row_json.type_name());
        const auto column = [&](std::optional<std::size_t> c) -> const json::Json* {
            return c && *c < row_json.size() ? &row_json[*c] : nullptr;
        };
        std::vector<std::vector<std::string>> axes;
        if (const json::Json* params = column(params_column); params && !params->is_null()) {
            if (!params->is_array()) json::fail(path + "[params]", "expected a list of parameter lists");
            for (std::size_t a = 0; a < params->size(); ++a) {
                const json::Json& axis = (*params)[a];
                const std::string at = path + "[params][" + std::to_string(a) + "]";
                if (!axis.is_array() || axis.empty()) json::fail(at, "expected a non-empty list of parameter values");
                std::vector<std::string> values;
                for (const auto& v : axis) values.push_back(v.is_string() ? v.get<std::string>() : v.dump());
                axes.push_back(std::move(values));
            }
        }
        std::size_t combinations = 1;
        for (const auto& axis : axes) combinations *= axis.size();
        const json::Json* values = column(result_column);
        if (!values) json::fail(path, "has no result");
        if (values->is_array() && values->size() != combinations)
            json::fail(path + "[result]", "holds " + std::to_string(values->size()) + " values for " +
                                              std::to_string(combinations) + " parameter combinations");
        const std::string kind = benchmark.substr(benchmark.rfind('.') + 1);
        const bool is_time = kind.starts_with("time_");
        const bool is_memory = kind.starts_with("mem_") || kind.starts_with("peakmem_");
        const double scale = is_time ? 1e9 : 1;
        for (std::size_t c = 0; c < combinations; ++c) {
            const json::Json* value = at_combination(values, c);
            if (!value || value->is_null()) continue;  // not measured (failed or skipped) in this run
            const std::string at = path + "[result][" + std::to_string(c) + "]";
            const double result = json::as_double(*value, at);
            if (!std::isfinite(result)) continue;
            PointRecord p;
            p.experiment = "asv";
            p.series = benchmark + combination_label(axes, c);
            p.unit = is_time ? "ns" : is_memory ? "bytes" : "value";
            p.median = result * scale;
            p.method = "asv";
            const json::Json* low = at_combination(column(low_column), c);
            const json::Json* high = at_combination(column(high_column), c);
            if (low && high && low->is_number() && high->is_number()) {
                const double l = low->get<double>(), h = high->get<double>();
                if (std::isfinite(l) && std::isfinite(h) && l <= result && result <= h) {
                    p.ci_low = l * scale;
                    p.ci_high = h * scale;
                }
            }
            if (const json::Json* samples = at_combination(column(samples_column), c); samples && samples->is_array())
                for (std::size_t i = 0; i < samples->size(); ++i) {
                    const double s = json::as_double((*samples)[i], path + "[samples][" + std::to_string(c) + "][" +
                                                                        std::to_string(i) + "]");
                    if (std::isfinite(s)) p.samples.push_back(s * scale);
                }
            p.n = p.samples.size();
            if (p.n == 0)
                if (const json::Json* repeat = at_combination(column(repeat_column), c); repeat && repeat->is_number())
                    p.n = static_cast<std::size_t>(std::max(0.0, repeat->get<double>()));
            if (p.n == 0) p.n = 1;
            run.points.push_back(std::move(p));
        }
    }
    return run;
}

}  // namespace gpuchrono::history
