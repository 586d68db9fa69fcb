// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "run/run_options.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <regex>

namespace gpuchrono::run {

namespace {

double seconds(const std::string& what, const std::string& text) {
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || errno != 0 || !std::isfinite(v) || v < 0)
        throw OptionError(what + " needs a number of seconds >= 0, not '" + text + "'");
    return v;
}

std::uint64_t count(const std::string& what, const std::string& text) {
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || text[0] == '-' || end == text.c_str() || *end != '\0' || errno != 0)
        throw OptionError(what + " needs a whole number >= 0, not '" + text + "'");
    return v;
}

bool flag(const std::string& what, const std::string& text) {
    if (text == "1" || text == "yes" || text == "true" || text == "on") return true;
    if (text.empty() || text == "0" || text == "no" || text == "false" || text == "off") return false;
    throw OptionError(what + " is 1 or 0, not '" + text + "'");
}

void check_regex(const std::string& what, const std::string& text) {
    try {
        std::regex r(text);
    } catch (const std::regex_error& e) {
        throw OptionError(what + " is not a regular expression: '" + text + "' (" + e.what() + ")");
    }
}

std::string number_text(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

// The items of a comma-separated list, in order, empty ones left out ("csv,,html" is csv and html).
std::vector<std::string> comma_items(const std::string& list) {
    std::vector<std::string> items;
    std::size_t begin = 0;
    while (begin <= list.size()) {
        const std::size_t comma = list.find(',', begin);
        std::string item = list.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
        if (!item.empty()) items.push_back(std::move(item));
        if (comma == std::string::npos) break;
        begin = comma + 1;
    }
    return items;
}

// The parts of LeftOut by name, in the order left_out_text writes them.
constexpr std::pair<const char*, bool LeftOut::*> left_out_parts[] = {
    {"device", &LeftOut::device},     {"memcpy", &LeftOut::memcpy},     {"memset", &LeftOut::memset},
    {"overhead", &LeftOut::overhead}, {"periodic", &LeftOut::periodic}, {"nvtx", &LeftOut::nvtx},
    {"tables", &LeftOut::tables},     {"recycle", &LeftOut::recycle}};

}  // namespace

LeftOut left_out_from(const std::string& what, const std::string& list) {
    LeftOut l;
    for (const std::string& part : comma_items(list)) {
        bool known = false;
        for (const auto& [name, member] : left_out_parts)
            if (part == name) l.*member = known = true;
        if (!known) {
            std::string names;
            for (const auto& [name, member] : left_out_parts) names += (names.empty() ? "" : ", ") + std::string(name);
            throw OptionError(what + " names parts of the recording to leave out (" + names + "), not '" + part + "'");
        }
    }
    return l;
}

std::string left_out_text(const LeftOut& l) {
    std::string text;
    for (const auto& [name, member] : left_out_parts)
        if (l.*member) text += (text.empty() ? "" : ",") + std::string(name);
    return text;
}

void set_formats(RunOptions& o, const std::string& list) {
    o.csv = o.html = o.perfetto = false;
    o.json = true;
    for (const std::string& f : comma_items(list)) {
        if (f == "csv") o.csv = true;
        else if (f == "html") o.html = true;
        else if (f == "perfetto" || f == "trace") o.perfetto = true;
        else if (f != "json")
            throw OptionError("unknown format '" + f + "' (the formats are json, csv, html, perfetto)");
    }
}

const std::vector<std::string>& option_variables() {
    static const std::vector<std::string> names = {
        "GPUCHRONO_RUN_OUTPUT",   "GPUCHRONO_RUN_FORMAT",          "GPUCHRONO_RUN_KERNELS",   "GPUCHRONO_RUN_NVTX",
        "GPUCHRONO_RUN_DELAY",    "GPUCHRONO_RUN_DURATION",        "GPUCHRONO_RUN_SIGNALS",   "GPUCHRONO_RUN_SPLIT_BY_SHAPE",
        "GPUCHRONO_RUN_RESERVOIR", "GPUCHRONO_RUN_TOP",            "GPUCHRONO_RUN_TRACE",     "GPUCHRONO_RUN_FLUSH_MS",
        "GPUCHRONO_RUN_FOLLOW_CHILDREN", "GPUCHRONO_RUN_ROOT_PID", "GPUCHRONO_RUN_BENCH_LEAVE_OUT"};
    return names;
}

RunOptions options_from_environment(const Getenv& getenv) {
    RunOptions o;
    auto get = [&](const char* name) { return getenv(name); };
    if (auto v = get("GPUCHRONO_RUN_OUTPUT"); v && !v->empty()) o.output = *v;
    if (auto v = get("GPUCHRONO_RUN_FORMAT")) set_formats(o, *v);
    if (auto v = get("GPUCHRONO_RUN_KERNELS")) {
        check_regex("GPUCHRONO_RUN_KERNELS", *v);
        o.kernels = *v;
    }
    if (auto v = get("GPUCHRONO_RUN_NVTX")) o.nvtx = *v;
    if (auto v = get("GPUCHRONO_RUN_DELAY"); v && !v->empty()) o.delay_s = seconds("GPUCHRONO_RUN_DELAY", *v);
    if (auto v = get("GPUCHRONO_RUN_DURATION"); v && !v->empty()) o.duration_s = seconds("GPUCHRONO_RUN_DURATION", *v);
    if (auto v = get("GPUCHRONO_RUN_SIGNALS")) o.signals = flag("GPUCHRONO_RUN_SIGNALS", *v);
    if (auto v = get("GPUCHRONO_RUN_SPLIT_BY_SHAPE")) o.split_by_shape = flag("GPUCHRONO_RUN_SPLIT_BY_SHAPE", *v);
    if (auto v = get("GPUCHRONO_RUN_RESERVOIR"); v && !v->empty()) {
        o.reservoir = count("GPUCHRONO_RUN_RESERVOIR", *v);
        if (o.reservoir < 16) throw OptionError("GPUCHRONO_RUN_RESERVOIR needs at least 16 samples, not " + *v);
    }
    if (auto v = get("GPUCHRONO_RUN_TOP"); v && !v->empty()) o.top = count("GPUCHRONO_RUN_TOP", *v);
    if (auto v = get("GPUCHRONO_RUN_TRACE"); v && !v->empty()) o.trace = count("GPUCHRONO_RUN_TRACE", *v);
    if (auto v = get("GPUCHRONO_RUN_FLUSH_MS"); v && !v->empty()) {
        const auto ms = count("GPUCHRONO_RUN_FLUSH_MS", *v);
        if (ms < 10 || ms > 1000) throw OptionError("GPUCHRONO_RUN_FLUSH_MS is between 10 and 1000, not " + *v);
        o.flush_ms = static_cast<unsigned>(ms);
    }
    if (auto v = get("GPUCHRONO_RUN_FOLLOW_CHILDREN")) o.follow_children = flag("GPUCHRONO_RUN_FOLLOW_CHILDREN", *v);
    if (auto v = get("GPUCHRONO_RUN_ROOT_PID"); v && !v->empty())
        o.root_pid = static_cast<long>(count("GPUCHRONO_RUN_ROOT_PID", *v));
    if (auto v = get("GPUCHRONO_RUN_BENCH_LEAVE_OUT")) o.left_out = left_out_from("GPUCHRONO_RUN_BENCH_LEAVE_OUT", *v);
    return o;
}

RunOptions options_from_environment() {
    return options_from_environment([](const std::string& name) -> std::optional<std::string> {
        const char* v = std::getenv(name.c_str());
        if (v == nullptr) return std::nullopt;
        return std::string(v);
    });
}

std::vector<std::pair<std::string, std::string>> options_to_environment(const RunOptions& o) {
    std::string formats = "json";
    if (o.csv) formats += ",csv";
    if (o.html) formats += ",html";
    if (o.perfetto) formats += ",perfetto";
    std::vector<std::pair<std::string, std::string>> env = {
        {"GPUCHRONO_RUN_OUTPUT", o.output},
        {"GPUCHRONO_RUN_FORMAT", formats},
        {"GPUCHRONO_RUN_KERNELS", o.kernels},
        {"GPUCHRONO_RUN_NVTX", o.nvtx},
        {"GPUCHRONO_RUN_DELAY", number_text(o.delay_s)},
        {"GPUCHRONO_RUN_DURATION", number_text(o.duration_s)},
        {"GPUCHRONO_RUN_SIGNALS", o.signals ? "1" : "0"},
        {"GPUCHRONO_RUN_SPLIT_BY_SHAPE", o.split_by_shape ? "1" : "0"},
        {"GPUCHRONO_RUN_RESERVOIR", std::to_string(o.reservoir)},
        {"GPUCHRONO_RUN_TOP", std::to_string(o.top)},
        {"GPUCHRONO_RUN_TRACE", std::to_string(o.trace)},
        {"GPUCHRONO_RUN_FLUSH_MS", std::to_string(o.flush_ms)},
        {"GPUCHRONO_RUN_FOLLOW_CHILDREN", o.follow_children ? "1" : "0"},
    };
    if (o.root_pid > 0) env.emplace_back("GPUCHRONO_RUN_ROOT_PID", std::to_string(o.root_pid));
    return env;
}

RunCommand parse_run_arguments(const std::vector<std::string>& args) {
    RunCommand c;
    std::size_t i = 0;
    auto value = [&](const std::string& option) -> const std::string& {
        if (i + 1 >= args.size()) throw OptionError(option + " needs a value");
        return args[++i];
    };
    for (; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--") {
            ++i;
            break;
        }
        if (a.empty() || a[0] != '-') break;
        if (a == "-h" || a == "--help") {
            c.help = true;
            return c;
        }
        if (a == "-o" || a == "--output") c.options.output = value(a);
        else if (a == "--format") set_formats(c.options, value(a));
        else if (a == "--kernels") {
            c.options.kernels = value(a);
            check_regex("--kernels", c.options.kernels);
        } else if (a == "--nvtx") c.options.nvtx = value(a);
        else if (a == "--delay") c.options.delay_s = seconds(a, value(a));
        else if (a == "--duration") c.options.duration_s = seconds(a, value(a));
        else if (a == "--signals") c.options.signals = true;
        else if (a == "--split-by-shape") c.options.split_by_shape = true;
        else if (a == "--reservoir") {
            c.options.reservoir = count(a, value(a));
            if (c.options.reservoir < 16) throw OptionError("--reservoir needs at least 16 samples");
        } else if (a == "--top") c.options.top = count(a, value(a));
        else if (a == "--trace") {
            c.options.trace = 1000000;
            if (i + 1 < args.size() && !args[i + 1].empty() && std::isdigit(static_cast<unsigned char>(args[i + 1][0])))
                c.options.trace = count(a, args[++i]);
            c.options.perfetto = true;
        } else if (a == "--flush-ms") {
            const auto ms = count(a, value(a));
            if (ms < 10 || ms > 1000) throw OptionError("--flush-ms is between 10 and 1000");
            c.options.flush_ms = static_cast<unsigned>(ms);
        } else if (a == "--follow-children") c.options.follow_children = true;
        else if (a == "--no-nvtx") c.nvtx = false;
        else throw OptionError("unknown option " + a);
    }
    for (; i < args.size(); ++i) c.program.push_back(args[i]);
    if (c.program.empty()) throw OptionError("no program given: gpuchrono run [options] -- PROGRAM ARGS...");
    return c;
}

}  // namespace gpuchrono::run
