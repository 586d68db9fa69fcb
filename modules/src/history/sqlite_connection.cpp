// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The history's SQLite backend: one file in WAL mode (readers never wait for the writer), a busy timeout long
// enough for eight CI jobs adding at once, and write transactions that take the lock at their start. libsqlite3 is
// loaded when the first database is opened, so a program that never opens one does not need it.
#include "history/sql_connection.hpp"

#include "history/loaded_library.hpp"
#include "history/store.hpp"

#include <sqlite3.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

namespace gpuchrono::history {
namespace {

// The functions of libsqlite3 the backend calls, typed as sqlite3.h declares them.
struct SqliteFunctions {
    explicit SqliteFunctions(const LibraryNeed& need) : library(need) {}
    LoadedLibrary library;
#define GPUCHRONO_SQLITE_FUNCTION(name) decltype(&::name) name = library.function<decltype(&::name)>(#name)
    GPUCHRONO_SQLITE_FUNCTION(sqlite3_open_v2);
    GPUCHRONO_SQLITE_FUNCTION(sqlite3_close);
    GPUCHRONO_SQLITE_FUNCTION(sqlite3_errmsg);
    GPUCHRONO_SQLITE_FUNCTION(sqlite3_busy_timeout);
    GPUCHRONO_SQLITE_FUNCTION(sqlite3_prepare_v2);
    GPUCHRONO_SQLITE_FUNCTION(sqlite3_finalize);
    GPUCHRONO_SQLITE_FUNCTION(sqlite3_bind_text);
    GPUCHRONO_SQLITE_FUNCTION(sqlite3_bind_null);
    GPUCHRONO_SQLITE_FUNCTION(sqlite3_step);
    GPUCHRONO_SQLITE_FUNCTION(sqlite3_column_count);
    GPUCHRONO_SQLITE_FUNCTION(sqlite3_column_type);
    GPUCHRONO_SQLITE_FUNCTION(sqlite3_column_double);
    GPUCHRONO_SQLITE_FUNCTION(sqlite3_column_text);
    GPUCHRONO_SQLITE_FUNCTION(sqlite3_column_bytes);
    GPUCHRONO_SQLITE_FUNCTION(sqlite3_exec);
#undef GPUCHRONO_SQLITE_FUNCTION
};

// Loaded once, on first use; a failed load is tried again at the next open. Never unloaded: a store may close its
// database while the program exits.
const SqliteFunctions& sqlite() {
    static const SqliteFunctions* const loaded = new SqliteFunctions(
        LibraryNeed{"libsqlite3.so.0", "GPUCHRONO_SQLITE", "a history database file (SQLite)", "libsqlite3-0"});
    return *loaded;
}

// Long: a writer holds the lock for one report's add, milliseconds; a slow shared CI disk may need seconds.
constexpr int busy_timeout_ms = 60'000;

// $N (PostgreSQL's parameter) becomes ?N, SQLite's numbered parameter: the same index whatever the order of
// first use, which SQLite's own $NAME parameters would not keep. Quoted text is left alone.
std::string numbered_parameters(const std::string& sql) {
    std::string out;
    out.reserve(sql.size());
    bool quoted = false;
    for (char c : sql) {
        if (c == '\'') quoted = !quoted;
        out.push_back(!quoted && c == '$' ? '?' : c);
    }
    return out;
}

// The statement as a message names it: its first words, enough to tell a PRAGMA from an INSERT.
std::string statement_head(const std::string& sql) {
    constexpr std::size_t shown = 48;
    return sql.size() <= shown ? sql : sql.substr(0, shown) + "...";
}

std::string real_text(double v) {
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
    return ec == std::errc{} ? std::string(buffer, end) : std::to_string(v);
}

class SqliteConnection final : public SqlConnection {
public:
    explicit SqliteConnection(std::string path) : path_(std::move(path)), lib_(sqlite()) {
        const std::filesystem::path file(path_);
        if (file.has_parent_path()) {
            std::error_code ec;
            std::filesystem::create_directories(file.parent_path(), ec);
            if (ec) throw HistoryError("cannot create the folder of the history database " + path_ + ": " + ec.message());
        }
        if (lib_.sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                            nullptr) != SQLITE_OK) {
            const std::string why = db_ ? lib_.sqlite3_errmsg(db_) : "out of memory";
            lib_.sqlite3_close(db_);
            db_ = nullptr;
            throw HistoryError("cannot open the history database " + path_ + ": " + why);
        }
        try {
            lib_.sqlite3_busy_timeout(db_, busy_timeout_ms);
            const auto mode = switch_to_wal();
            if (mode.empty() || !mode[0][0] || *mode[0][0] != "wal")
                throw HistoryError("the history database " + path_ + " cannot use SQLite's WAL mode (a network file system?)");
            run("PRAGMA foreign_keys=ON", {});
            run("PRAGMA synchronous=NORMAL", {});
        } catch (...) {
            lib_.sqlite3_close(db_);  // the destructor does not run for an object whose constructor threw
            throw;
        }
    }
    ~SqliteConnection() override { lib_.sqlite3_close(db_); }
    SqliteConnection(const SqliteConnection&) = delete;
    SqliteConnection& operator=(const SqliteConnection&) = delete;

    std::vector<SqlRow> run(const std::string& sql, const std::vector<SqlValue>& parameters) override {
        sqlite3_stmt* statement = nullptr;
        const std::string text = numbered_parameters(sql);
        if (lib_.sqlite3_prepare_v2(db_, text.c_str(), static_cast<int>(text.size()), &statement, nullptr) != SQLITE_OK)
            fail("cannot prepare a statement");
        struct Finalize {
            sqlite3_stmt* s;
            ~Finalize() { sqlite().sqlite3_finalize(s); }
        } finalize{statement};
        for (std::size_t i = 0; i < parameters.size(); ++i) {
            const int index = static_cast<int>(i + 1);
            const int rc = parameters[i]
                ? lib_.sqlite3_bind_text(statement, index, parameters[i]->data(), static_cast<int>(parameters[i]->size()),
                                    SQLITE_TRANSIENT)
                : lib_.sqlite3_bind_null(statement, index);
            if (rc != SQLITE_OK) fail("cannot bind parameter " + std::to_string(index));
        }
        std::vector<SqlRow> rows;
        for (;;) {
            const int rc = lib_.sqlite3_step(statement);
            if (rc == SQLITE_DONE) break;
            last_step_result_ = rc;
            if (rc != SQLITE_ROW) fail("a statement failed (" + statement_head(sql) + ")");
            SqlRow row;
            const int columns = lib_.sqlite3_column_count(statement);
            for (int c = 0; c < columns; ++c) {
                switch (lib_.sqlite3_column_type(statement, c)) {
                case SQLITE_NULL: row.emplace_back(std::nullopt); break;
                // SQLite's own text of a REAL keeps 15 digits; the shortest round-trip form keeps the value.
                case SQLITE_FLOAT: row.emplace_back(real_text(lib_.sqlite3_column_double(statement, c))); break;
                default: {
                    const auto* t = reinterpret_cast<const char*>(lib_.sqlite3_column_text(statement, c));
                    row.emplace_back(std::string(t ? t : "", static_cast<std::size_t>(lib_.sqlite3_column_bytes(statement, c))));
                }
                }
            }
            rows.push_back(std::move(row));
        }
        return rows;
    }

    void begin(bool) override { run("BEGIN IMMEDIATE", {}); }
    void commit() override { run("COMMIT", {}); }
    void rollback() noexcept override { lib_.sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr); }
    std::string serial_key() const override { return "INTEGER PRIMARY KEY AUTOINCREMENT"; }
    std::string location() const override { return path_; }

private:
    // Switching a new file to WAL takes an exclusive lock, and SQLite answers SQLITE_BUSY at once there instead of
    // calling the busy handler: eight CI jobs opening one new database together would see one of them fail. So it
    // is retried here, for as long as the busy timeout would have waited.
    std::vector<SqlRow> switch_to_wal() {
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms);
        for (;;) {
            try {
                return run("PRAGMA journal_mode=WAL", {});
            } catch (const HistoryError&) {
                if ((last_step_result_ & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() >= give_up) throw;
            }
            last_step_result_ = SQLITE_OK;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }

    [[noreturn]] void fail(const std::string& what) const {
        throw HistoryError("the history database " + path_ + ": " + what + ": " + lib_.sqlite3_errmsg(db_));
    }

    std::string path_;
    const SqliteFunctions& lib_;
    sqlite3* db_ = nullptr;
    int last_step_result_ = SQLITE_OK;  // what sqlite3_step last answered, to tell a busy database from a failure
};

}  // namespace

std::unique_ptr<SqlConnection> open_sqlite(const std::string& path) { return std::make_unique<SqliteConnection>(path); }

}  // namespace gpuchrono::history
