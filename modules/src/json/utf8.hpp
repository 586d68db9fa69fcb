// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Text that users supply (series, kernel, region and sweep names) goes into JSON, XML, CSV and terminal
// text, all of which require UTF-8; a name with stray bytes ("sw\xff\xfe") made files that standard
// readers refuse. The renderers pass such text through valid_utf8(), and the strict JSON parser its error
// messages, which quote the text (private header).
#pragma once

#include <string>
#include <string_view>

namespace gpuchrono::json {

// U+FFFD REPLACEMENT CHARACTER in UTF-8.
inline constexpr std::string_view replacement_character = "\xef\xbf\xbd";

// `text` with each ill-formed UTF-8 sequence (a stray byte, a truncated or overlong sequence, a surrogate,
// a code point above U+10FFFF) replaced by one U+FFFD per maximal subpart, as the Unicode Standard
// recommends (chapter 3, "U+FFFD Substitution of Maximal Subparts"). Valid text comes back unchanged.
std::string valid_utf8(std::string_view text);

}  // namespace gpuchrono::json
