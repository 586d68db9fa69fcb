// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The fast reading of reports whose activities are streamed (the job merge reads every rank's this way), when
// the library is built with RapidJSON: about four times the strict parser's speed on a report's text. Without
// RapidJSON, or where it stops, the strict parser (json/strict_parser.hpp) reads the text.
#pragma once

#include <gpuchrono/report/json/report_json.hpp>

#include "json/strict_parser.hpp"

#include <cstddef>
#include <optional>
#include <string_view>

namespace gpuchrono::report::detail {

// The document `text` holds, each of its activities converted and handed to `sink` instead of kept (the
// objects `activities` names; its `take` is not called). nullopt when this reader stopped at something it
// leaves to the strict parser, or was not built; `delivered` is then how many activities the sink already has,
// in file order.
std::optional<json::Json> parse_streaming_activities_fast(std::string_view text, const json::StreamedObjects& activities,
                                                          const ActivitySink& sink, std::size_t& delivered);

}  // namespace gpuchrono::report::detail
