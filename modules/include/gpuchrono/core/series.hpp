// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Series: the measurements of one named scope, in the order they were taken, failed ones included (a
// failure is counted, never silently dropped). SeriesSet: series by name, so repeated scopes accumulate
// samples for the statistics pipeline.
#pragma once

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/measurement.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuchrono {

struct MeasureRecord;  // how measure() took a series, defined in <gpuchrono/measure/measure_record.hpp>

class Series {
public:
    explicit Series(std::string name = {}) : name_(std::move(name)) {}

    const std::string& name() const noexcept { return name_; }

    void add(Measurement m) { measurements_.push_back(std::move(m)); }

    const std::vector<Measurement>& measurements() const noexcept { return measurements_; }
    std::size_t size() const noexcept { return measurements_.size(); }
    bool empty() const noexcept { return measurements_.empty(); }

    // Resolves pending measurements, then returns the durations of those that succeeded, in order.
    std::vector<Duration> durations() const;

    // How many measurements failed (after resolving pending ones), and the first failure's reason.
    std::size_t failed_count() const;
    std::string first_error() const;

    // Every finding of every measurement, each (code, message) once, in the order first seen.
    Findings findings() const;

    void clear() noexcept {
        measurements_.clear();
        measure_record_.reset();
    }

    // How measure() took this series (method, warm-up, stopping reason, CI); null for a series filled by timers.
    const std::shared_ptr<const MeasureRecord>& measure_record() const noexcept { return measure_record_; }
    void set_measure_record(std::shared_ptr<const MeasureRecord> r) noexcept { measure_record_ = std::move(r); }

private:
    std::string name_;
    std::vector<Measurement> measurements_;
    std::shared_ptr<const MeasureRecord> measure_record_;
};

class SeriesSet {
public:
    // The series of that name, created empty on first use.
    Series& operator[](std::string_view name);

    // The series of that name; throws std::out_of_range naming it if there is none.
    const Series& at(std::string_view name) const;

    bool contains(std::string_view name) const { return series_.find(name) != series_.end(); }
    std::size_t size() const noexcept { return series_.size(); }

    auto begin() const noexcept { return series_.begin(); }
    auto end() const noexcept { return series_.end(); }

private:
    std::map<std::string, Series, std::less<>> series_;
};

}  // namespace gpuchrono
