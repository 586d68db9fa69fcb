// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono::Duration: the one time value every policy yields.
//
// Why a class and not std::chrono::nanoseconds: CUDA event intervals arrive as float milliseconds with
// sub-ns fractions, statistics need fractional means, and an integer tick would silently truncate both.
// The representation is double nanoseconds (exact for integers up to 2^53 ns = 104 days), and the type
// converts to and from any std::chrono::duration, like cuda::std::chrono does for its own clocks.
//
// This header is part of the global module: nvcc-compiled .cu files include it and module code re-exports
// the same entity (see modules/gpuchrono.cppm), so a Duration made in a kernel's TU is the module's Duration.
#pragma once

#include <chrono>
#include <compare>
#include <cmath>
#include <iosfwd>
#include <string>

namespace gpuchrono {

class Duration {
public:
    using rep = double;
    using period = std::nano;
    using chrono_type = std::chrono::duration<double, std::nano>;

    constexpr Duration() noexcept = default;

    // Implicit from any std::chrono duration: `Duration d = 5ms;` reads as it should.
    template <class Rep, class Period>
    constexpr Duration(std::chrono::duration<Rep, Period> d) noexcept
        : ns_(std::chrono::duration_cast<chrono_type>(d).count()) {}

    static constexpr Duration from_ns(double ns) noexcept { return Duration(ns, raw_tag{}); }
    static constexpr Duration from_us(double us) noexcept { return Duration(us * 1e3, raw_tag{}); }
    static constexpr Duration from_ms(double ms) noexcept { return Duration(ms * 1e6, raw_tag{}); }
    static constexpr Duration from_s(double s) noexcept { return Duration(s * 1e9, raw_tag{}); }

    constexpr double ns() const noexcept { return ns_; }
    constexpr double us() const noexcept { return ns_ * 1e-3; }
    constexpr double ms() const noexcept { return ns_ * 1e-6; }
    constexpr double s() const noexcept { return ns_ * 1e-9; }
    constexpr double count() const noexcept { return ns_; }  // std::chrono spelling, in ns

    constexpr chrono_type chrono() const noexcept { return chrono_type(ns_); }

    // Explicit conversion to an integral chrono type rounds to nearest, never truncates toward zero.
    template <class ToDuration>
    constexpr ToDuration to() const noexcept {
        return std::chrono::round<ToDuration>(chrono());
    }

    bool is_finite() const noexcept { return std::isfinite(ns_); }

    constexpr Duration operator-() const noexcept { return from_ns(-ns_); }
    constexpr Duration& operator+=(Duration o) noexcept { ns_ += o.ns_; return *this; }
    constexpr Duration& operator-=(Duration o) noexcept { ns_ -= o.ns_; return *this; }
    constexpr Duration& operator*=(double k) noexcept { ns_ *= k; return *this; }
    constexpr Duration& operator/=(double k) noexcept { ns_ /= k; return *this; }

    friend constexpr Duration operator+(Duration a, Duration b) noexcept { return a += b; }
    friend constexpr Duration operator-(Duration a, Duration b) noexcept { return a -= b; }
    friend constexpr Duration operator*(Duration a, double k) noexcept { return a *= k; }
    friend constexpr Duration operator*(double k, Duration a) noexcept { return a *= k; }
    friend constexpr Duration operator/(Duration a, double k) noexcept { return a /= k; }
    friend constexpr double operator/(Duration a, Duration b) noexcept { return a.ns_ / b.ns_; }
    friend constexpr bool operator==(Duration a, Duration b) noexcept = default;
    friend constexpr auto operator<=>(Duration a, Duration b) noexcept { return a.ns_ <=> b.ns_; }

    // "812 ns", "12.5 us", "3.21 ms", "2.00 s": three significant digits (integers below 1 us).
    friend std::ostream& operator<<(std::ostream& os, Duration d);

private:
    struct raw_tag {};
    constexpr Duration(double ns, raw_tag) noexcept : ns_(ns) {}
    double ns_ = 0.0;
};

// The unit a reader expects for this magnitude: "ns", "us", "ms" or "s".
const char* natural_unit(Duration d) noexcept;

// Formats with three significant digits in natural_unit(d); "nan", "inf" and "-inf" for non-finite values.
std::string to_string(Duration d);

// Formats in a fixed unit ("ns", "us", "ms", "s") with `decimals` digits, for aligned table columns.
std::string to_string(Duration d, const char* unit, int decimals);

}  // namespace gpuchrono
