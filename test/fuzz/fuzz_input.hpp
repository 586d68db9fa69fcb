// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Reading a fuzzer's bytes as the fields of a structured input. Past the end every read yields zeros, which is
// how a harness builds a truncated buffer: the fields the input did not reach stay zero, as unwritten probe
// memory does (the host clears it before every scope).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace gpuchrono::fuzz {

class FuzzInput {
public:
    FuzzInput(const std::uint8_t* data, std::size_t size) noexcept : data_(data), size_(size) {}

    // Copies up to sizeof(T) bytes into a zeroed T; returns how many bytes were really there.
    template <class T>
    std::size_t read_into(T& out) noexcept {
        static_assert(std::is_trivially_copyable_v<T>);
        std::memset(static_cast<void*>(&out), 0, sizeof(T));
        const std::size_t n = std::min(sizeof(T), remaining());
        if (n) std::memcpy(static_cast<void*>(&out), data_ + pos_, n);
        pos_ += n;
        return n;
    }

    template <class T>
    T take() noexcept {
        T v;
        read_into(v);
        return v;
    }

    std::string_view rest() const noexcept {
        return {reinterpret_cast<const char*>(data_) + pos_, remaining()};
    }
    std::size_t remaining() const noexcept { return size_ - pos_; }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
};

// A broken promise of the library: print what and abort, so libFuzzer keeps the input as a crash.
[[noreturn]] inline void broken(const char* what) {
    std::fprintf(stderr, "fuzz: broken promise: %s\n", what);
    std::abort();
}

}  // namespace gpuchrono::fuzz

#define GPUCHRONO_FUZZ_EXPECT(cond) \
    do {                            \
        if (!(cond)) ::gpuchrono::fuzz::broken(#cond " (" __FILE__ ")"); \
    } while (0)
