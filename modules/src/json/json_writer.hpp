// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The JSON text of report files, over nlohmann-json (a private dependency: no installed header includes
// this one, so a consumer of the package needs no JSON headers).
//
// Documents are nlohmann::ordered_json, so members keep the order they were added in and the files are
// stable and diffable. write_json() lays them out the way report files have always been written
// (docs/report-json.md), byte for byte:
//  - containers whose elements are all scalars (a row of samples, a block record) go on one line;
//  - integers are written exactly (64-bit %globaltimer and clock64 readings exceed 2^53);
//  - doubles in their shortest round-trip form (std::to_chars), with ".0" added where that form would
//    read back as an integer, and NaN or infinity as null (JSON has neither);
//  - strings escaped as JSON requires; invalid UTF-8 (names come from users) becomes U+FFFD, so every
//    file gpuchrono writes is valid UTF-8 and parses in any standard reader.
#pragma once

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>
#include <utility>

namespace gpuchrono::json {

using Json = nlohmann::ordered_json;

// indent: spaces per level (0..16); 0 writes everything on one line without spaces ({"a":1,"b":[1,2]}).
std::string write_json(const Json& value, int indent = 2);

// An object with members in the order given (ordered_json keeps insertion order, so files diff cleanly).
// Built member by member because a braced list of pairs is ambiguous between an object and an array of
// arrays.
inline Json object(std::initializer_list<std::pair<const char*, Json>> members) {
    Json o = Json::object();
    for (const auto& [key, value] : members) o[key] = value;
    return o;
}

}  // namespace gpuchrono::json
