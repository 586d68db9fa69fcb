// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The GPUCHRONO_* environment variables whose text the library parses: GPUCHRONO_FINDINGS (parse_reaction, read
// once at the first finding) and the switches GPUCHRONO_NVTX and GPUCHRONO_GPU_STATE (parse_switch_setting).
// (GPUCHRONO_CUPTI is a path, handed to dlopen as it is.) getenv hands their text to the parsers, so the harness
// feeds arbitrary bytes, embedded NULs and invalid UTF-8 included, to them directly: each must accept exactly
// its words and refuse everything else without reading past the text.
#include <gpuchrono/core/finding_reaction.hpp>
#include "core/switch_setting.hpp"

#include "fuzz_input.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // An exact-size heap copy: ASan sees any read one byte past the text.
    std::unique_ptr<char[]> copy(new char[size ? size : 1]);
    if (size) std::memcpy(copy.get(), data, size);
    const std::string_view text(copy.get(), size);

    const std::optional<gpuchrono::Reaction> r = gpuchrono::parse_reaction(text);
    const bool one_of_the_words = text == "collect" || text == "report" || text == "throw";
    GPUCHRONO_FUZZ_EXPECT(r.has_value() == one_of_the_words);
    if (r) GPUCHRONO_FUZZ_EXPECT(text == gpuchrono::to_string(*r));

    // What getenv would give: the text up to its first NUL.
    const std::string_view as_env(copy.get(), ::strnlen(copy.get(), size));
    if (gpuchrono::parse_reaction(as_env)) GPUCHRONO_FUZZ_EXPECT(as_env.size() >= 5 && as_env.size() <= 7);

    const std::optional<bool> on = gpuchrono::detail::parse_switch_setting(text);
    const bool off_word = text == "0" || text == "off" || text == "false";
    const bool on_word = text == "1" || text == "on" || text == "true";
    GPUCHRONO_FUZZ_EXPECT(on.has_value() == (off_word || on_word));
    if (on) GPUCHRONO_FUZZ_EXPECT(*on == on_word);
    return 0;
}
