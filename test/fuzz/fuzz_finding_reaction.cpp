// GPUCHRONO_FINDINGS: the one environment variable the library reads (finding_reaction.cpp, read once at the
// first finding). getenv hands its text to parse_reaction, so the harness feeds arbitrary bytes, embedded NULs
// and invalid UTF-8 included, to parse_reaction directly: it must accept exactly the three words to_string
// prints and refuse everything else without reading past the text.
#include <gpuchrono/checks/finding_reaction.hpp>

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
    return 0;
}
