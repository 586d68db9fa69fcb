// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The databases the history's tests run against: a fresh SQLite file in a temporary folder, or a fresh database
// on a real PostgreSQL server that the first PostgreSQL test starts (initdb and pg_ctl of Debian's postgresql in
// a temporary folder, a free port on 127.0.0.1) and the program stops when it exits. As root the server runs as
// `nobody` (PostgreSQL refuses to run as root). Without server binaries the PostgreSQL suites print why and exit
// 77, which ctest shows as Skipped.
#pragma once

#include <filesystem>
#include <string>

namespace history_test {

// A temporary folder, removed with everything in it when the object goes.
class TempFolder {
public:
    TempFolder();
    ~TempFolder();
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

enum class Backend { sqlite, postgresql };

// A new empty database of `backend`: a file path in `folder` or a postgresql:// URI. For PostgreSQL, starts the
// server on first use, or prints "skipped: ..." and exits 77 when this machine has no PostgreSQL server.
std::string fresh_database(Backend backend, const TempFolder& folder);

// The shared H100 history (40 commit folders), unpacked once into a temporary folder; empty when the data folder
// is not there (the caller skips with the path it looked in: data_searched()).
std::filesystem::path replay_data();
std::string data_searched();

}  // namespace history_test
