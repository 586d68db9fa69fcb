// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/series.hpp>

#include <algorithm>
#include <stdexcept>

namespace gpuchrono {

std::vector<Duration> Series::durations() const {
    std::vector<Duration> out;
    out.reserve(measurements_.size());
    for (const Measurement& m : measurements_)
        if (m.resolve() == Measurement::State::ok) out.push_back(m.duration());
    return out;
}

std::size_t Series::failed_count() const {
    return static_cast<std::size_t>(std::count_if(measurements_.begin(), measurements_.end(), [](const Measurement& m) {
        return m.resolve() == Measurement::State::failed;
    }));
}

std::string Series::first_error() const {
    for (const Measurement& m : measurements_)
        if (m.resolve() == Measurement::State::failed) return m.error();
    return {};
}

Findings Series::findings() const {
    Findings out;
    for (const Measurement& m : measurements_)
        for (const Finding& f : m.findings())
            if (std::none_of(out.begin(), out.end(), [&](const Finding& g) {
                    return g.code == f.code && g.message == f.message;
                }))
                out.push_back(f);
    return out;
}

Series& SeriesSet::operator[](std::string_view name) {
    auto it = series_.find(name);
    if (it == series_.end()) it = series_.emplace(std::string(name), Series(std::string(name))).first;
    return it->second;
}

const Series& SeriesSet::at(std::string_view name) const {
    auto it = series_.find(name);
    if (it == series_.end()) throw std::out_of_range("gpuchrono::SeriesSet: no series named \"" + std::string(name) + "\"");
    return it->second;
}

}  // namespace gpuchrono
