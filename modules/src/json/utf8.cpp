// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "json/utf8.hpp"

namespace gpuchrono::json {

std::string valid_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        const auto lead = static_cast<unsigned char>(text[i]);
        if (lead < 0x80) {
            out += static_cast<char>(lead);
            ++i;
            continue;
        }
        // Well-formed sequences (Unicode Table 3-7): the continuation bytes after the lead, and the range
        // the first of them must fall in (narrower after E0, ED, F0 and F4: no overlongs, surrogates or
        // code points past U+10FFFF).
        int continuation = 0;
        unsigned char low = 0x80, high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            continuation = 1;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            continuation = 2;
            if (lead == 0xE0) low = 0xA0;
            if (lead == 0xED) high = 0x9F;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            continuation = 3;
            if (lead == 0xF0) low = 0x90;
            if (lead == 0xF4) high = 0x8F;
        } else {
            out += replacement_character;  // C0, C1, F5..FF, or a continuation byte without a lead
            ++i;
            continue;
        }
        std::size_t j = i + 1;
        bool whole = true;
        for (int k = 0; k < continuation; ++k, ++j) {
            const unsigned char lo = k == 0 ? low : 0x80, hi = k == 0 ? high : 0xBF;
            if (j >= text.size() || static_cast<unsigned char>(text[j]) < lo || static_cast<unsigned char>(text[j]) > hi) {
                whole = false;
                break;
            }
        }
        if (whole)
            out.append(text.substr(i, j - i));
        else
            out += replacement_character;  // the maximal subpart text[i, j); text[j] starts afresh
        i = j;
    }
    return out;
}

}  // namespace gpuchrono::json
