// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "job/trace_writer.hpp"

#include <gpuchrono/job/job_merge.hpp>

#include "json/json_writer.hpp"

#include <cerrno>
#include <charconv>
#include <system_error>

namespace gpuchrono::distributed {

namespace {

constexpr std::size_t flush_bytes = 1 << 20;

std::string error_text() { return std::system_category().message(errno); }

// The magnitude of ns as "<us>.<3 digits>" into `out` (at least 24 bytes); returns the end.
char* format_micros(char* out, std::int64_t ns) {
    if (ns < 0) *out++ = '-';
    const std::uint64_t a = ns < 0 ? static_cast<std::uint64_t>(-(ns + 1)) + 1 : static_cast<std::uint64_t>(ns);
    out = std::to_chars(out, out + 21, a / 1000).ptr;
    const unsigned frac = static_cast<unsigned>(a % 1000);
    *out++ = '.';
    *out++ = static_cast<char>('0' + frac / 100);
    *out++ = static_cast<char>('0' + frac / 10 % 10);
    *out++ = static_cast<char>('0' + frac % 10);
    return out;
}

}  // namespace

std::string json_string(const std::string& s) { return json::Json(s).dump(-1, ' ', false, json::Json::error_handler_t::replace); }

std::string micros(std::int64_t ns) {
    char buffer[32];
    return std::string(buffer, format_micros(buffer, ns));
}

TraceWriter::TraceWriter(const std::filesystem::path& file) : path_(file), out_(std::fopen(file.c_str(), "wb"), &std::fclose) {
    if (!out_) throw MergeError("gpuchrono: cannot write the trace to " + file.string() + ": " + error_text());
    buffer_.reserve(flush_bytes + 4096);
    put("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
}

void TraceWriter::begin_event() {
    if (!first_) put(",\n");
    first_ = false;
}

void TraceWriter::put_integer(std::int64_t v) {
    char digits[24];
    put(std::string_view(digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, v).ptr - digits)));
}

void TraceWriter::put_micros(std::int64_t ns) {
    char digits[32];
    put(std::string_view(digits, static_cast<std::size_t>(format_micros(digits, ns) - digits)));
}

void TraceWriter::metadata(std::string_view what, int pid, std::int64_t tid, std::string_view key, std::string_view value) {
    begin_event();
    put("{\"ph\":\"M\",\"name\":\"");
    put(what);
    put("\",\"pid\":");
    put_integer(pid);
    put(",\"tid\":");
    put_integer(tid);
    put(",\"args\":{\"");
    put(key);
    put("\":");
    put(value);
    put("}}");
    flush_if_full();
}

void TraceWriter::complete(int pid, std::int64_t tid, std::int64_t ts_ns, std::int64_t dur_ns, std::string_view json_name,
                           std::string_view category, std::string_view args) {
    begin_event();
    put("{\"ph\":\"X\",\"pid\":");
    put_integer(pid);
    put(",\"tid\":");
    put_integer(tid);
    put(",\"ts\":");
    put_micros(ts_ns);
    put(",\"dur\":");
    put_micros(dur_ns);
    put(",\"name\":");
    put(json_name);
    put(",\"cat\":\"");
    put(category);
    put("\"");
    if (!args.empty()) {
        put(",\"args\":{");
        put(args);
        put("}");
    }
    put("}");
    flush_if_full();
}

void TraceWriter::flush_if_full() {
    if (buffer_.size() >= flush_bytes) write_buffer();
}

void TraceWriter::write_buffer() {
    if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), out_.get()) != buffer_.size())
        throw MergeError("gpuchrono: writing the trace " + path_.string() + " failed: " + error_text());
    buffer_.clear();
}

void TraceWriter::close() {
    put("\n]}\n");
    write_buffer();
    if (std::fflush(out_.get()) != 0) throw MergeError("gpuchrono: writing the trace to " + path_.string() + " failed: " + error_text());
}

}  // namespace gpuchrono::distributed
