// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// One database connection as the history's SQL store sees it: statements with $1, $2, ... parameters, every
// value passed and read as text (NULL as nullopt), and explicit transactions. SQLite and PostgreSQL implement it
// over their C libraries; the store's SQL (sql_store.cpp) is the same for both.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpuchrono::history {

using SqlValue = std::optional<std::string>;
using SqlRow = std::vector<SqlValue>;

class SqlConnection {
public:
    virtual ~SqlConnection() = default;

    // Runs one statement; the rows it returns (none for most). Throws HistoryError naming the database.
    virtual std::vector<SqlRow> run(const std::string& sql, const std::vector<SqlValue>& parameters = {}) = 0;

    // A write transaction: on SQLite it takes the write lock at once (so two writers never deadlock upgrading
    // a read lock); on PostgreSQL it also takes the store's advisory lock when `exclusive` (schema changes).
    virtual void begin(bool exclusive) = 0;
    virtual void commit() = 0;
    virtual void rollback() noexcept = 0;

    // The column type of a generated 64-bit key.
    virtual std::string serial_key() const = 0;
    virtual std::string location() const = 0;
};

std::unique_ptr<SqlConnection> open_sqlite(const std::string& path);
// nullptr-free: throws HistoryError saying which package to install when the build has no libpq.
std::unique_ptr<SqlConnection> open_postgresql(const std::string& uri);

}  // namespace gpuchrono::history
