// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The merged job's Chrome/Perfetto trace, written as it is produced: tens of millions of events, each
// formatted straight into one buffer (no string per event) and written a megabyte at a time.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace gpuchrono::distributed {

// `s` as a JSON string, ill-formed UTF-8 replaced (names come from the ranks' files).
std::string json_string(const std::string& s);

// Microseconds with ns digits, as Chrome's trace format wants them ("12.345").
std::string micros(std::int64_t ns);

class TraceWriter {
public:
    // Throws MergeError naming the file when it cannot be created.
    explicit TraceWriter(const std::filesystem::path& file);

    // {"ph":"M",...}: names and sorts processes and tracks. `value` is JSON text.
    void metadata(std::string_view what, int pid, std::int64_t tid, std::string_view key, std::string_view value);
    // {"ph":"X",...}: one slice. `json_name` is JSON text (json_string); `args` the members of "args", if any.
    void complete(int pid, std::int64_t tid, std::int64_t ts_ns, std::int64_t dur_ns, std::string_view json_name, std::string_view category,
                  std::string_view args);
    // Ends the document and flushes it; throws MergeError when the file could not be written whole.
    void close();

private:
    void begin_event();
    void put(std::string_view s) { buffer_.append(s); }
    void put_integer(std::int64_t v);
    void put_micros(std::int64_t ns);
    void flush_if_full();
    void write_buffer();

    std::filesystem::path path_;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> out_;
    std::string buffer_;
    bool first_ = true;
};

}  // namespace gpuchrono::distributed
