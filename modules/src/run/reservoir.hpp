// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A bounded uniform sample of a stream of durations (Vitter's algorithm R): after n additions it holds
// min(n, capacity) of them, each of the n equally likely to be among them. The median and p95 of a kernel that
// ran ten million times come from such a sample, so memory per kernel stays fixed however long the program runs.
// The generator is a fixed-seed xorshift: two runs of the same program keep the same positions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpuchrono::run {

class Reservoir {
public:
    explicit Reservoir(std::size_t capacity = 4096) : capacity_(capacity == 0 ? 1 : capacity) {}

    void add(double value) {
        ++seen_;
        if (values_.size() < capacity_) {
            values_.push_back(value);
            return;
        }
        const std::uint64_t slot = next() % seen_;
        if (slot < capacity_) values_[static_cast<std::size_t>(slot)] = value;
    }

    const std::vector<double>& values() const noexcept { return values_; }
    std::uint64_t seen() const noexcept { return seen_; }
    std::size_t capacity() const noexcept { return capacity_; }
    // Whether every addition is held (the sample is the whole stream).
    bool complete() const noexcept { return seen_ == values_.size(); }

private:
    std::uint64_t next() noexcept {
        state_ ^= state_ << 13;
        state_ ^= state_ >> 7;
        state_ ^= state_ << 17;
        return state_;
    }

    std::size_t capacity_;
    std::vector<double> values_;
    std::uint64_t seen_ = 0;
    std::uint64_t state_ = 0x9e3779b97f4a7c15ULL;
};

}  // namespace gpuchrono::run
