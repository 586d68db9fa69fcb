// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The history's PostgreSQL backend, over libpq: for a team whose CI machines all add to one server. Built when
// CMake finds libpq's header (GPUCHRONO_HISTORY_POSTGRESQL); otherwise opening a "postgresql://" location says so.
// libpq itself is loaded when the first such location is opened, so that no other use of the `gpuchrono` command
// needs it.
#include "history/sql_connection.hpp"

#include "history/loaded_library.hpp"
#include "history/store.hpp"

#include <regex>
#include <string>

#if GPUCHRONO_HISTORY_POSTGRESQL
#include <libpq-fe.h>
#endif

namespace gpuchrono::history {
namespace {

// The URI as messages may show it: a password is never printed.
std::string without_password(const std::string& uri) {
    static const std::regex password(R"(^([a-z]+://[^:@/]*):[^@/]*@)");
    return std::regex_replace(uri, password, "$1@");
}

#if GPUCHRONO_HISTORY_POSTGRESQL
// The functions of libpq the backend calls, typed as libpq-fe.h declares them.
struct PostgresFunctions {
    explicit PostgresFunctions(const LibraryNeed& need) : library(need) {}
    LoadedLibrary library;
#define GPUCHRONO_LIBPQ_FUNCTION(name) decltype(&::name) name = library.function<decltype(&::name)>(#name)
    GPUCHRONO_LIBPQ_FUNCTION(PQconnectdb);
    GPUCHRONO_LIBPQ_FUNCTION(PQstatus);
    GPUCHRONO_LIBPQ_FUNCTION(PQerrorMessage);
    GPUCHRONO_LIBPQ_FUNCTION(PQfinish);
    GPUCHRONO_LIBPQ_FUNCTION(PQsetNoticeProcessor);
    GPUCHRONO_LIBPQ_FUNCTION(PQexecParams);
    GPUCHRONO_LIBPQ_FUNCTION(PQclear);
    GPUCHRONO_LIBPQ_FUNCTION(PQresultStatus);
    GPUCHRONO_LIBPQ_FUNCTION(PQntuples);
    GPUCHRONO_LIBPQ_FUNCTION(PQnfields);
    GPUCHRONO_LIBPQ_FUNCTION(PQgetisnull);
    GPUCHRONO_LIBPQ_FUNCTION(PQgetvalue);
    GPUCHRONO_LIBPQ_FUNCTION(PQgetlength);
    GPUCHRONO_LIBPQ_FUNCTION(PQexec);
#undef GPUCHRONO_LIBPQ_FUNCTION
};

// Loaded once, on first use; a failed load is tried again at the next open. Never unloaded: a store may close its
// connection while the program exits.
const PostgresFunctions& libpq() {
    static const PostgresFunctions* const loaded = new PostgresFunctions(
        LibraryNeed{"libpq.so.5", "GPUCHRONO_LIBPQ", "a history database on PostgreSQL", "libpq5"});
    return *loaded;
}

// Arbitrary, fixed: the advisory lock that serialises schema creation and migration between writers.
constexpr long long schema_lock_key = 0x67707563'68726f6eLL;

class PostgresConnection final : public SqlConnection {
public:
    explicit PostgresConnection(const std::string& uri) : shown_(without_password(uri)), lib_(libpq()) {
        db_ = lib_.PQconnectdb(uri.c_str());
        if (!db_ || lib_.PQstatus(db_) != CONNECTION_OK) {
            const std::string why = db_ ? lib_.PQerrorMessage(db_) : "out of memory";
            lib_.PQfinish(db_);
            db_ = nullptr;
            throw HistoryError("cannot connect to the history database " + shown_ + ": " + trimmed(why));
        }
        // "relation already exists, skipping" and the like: not for the user's terminal.
        lib_.PQsetNoticeProcessor(db_, [](void*, const char*) {}, nullptr);
    }
    ~PostgresConnection() override { lib_.PQfinish(db_); }
    PostgresConnection(const PostgresConnection&) = delete;
    PostgresConnection& operator=(const PostgresConnection&) = delete;

    std::vector<SqlRow> run(const std::string& sql, const std::vector<SqlValue>& parameters) override {
        std::vector<const char*> values;
        values.reserve(parameters.size());
        for (const auto& p : parameters) values.push_back(p ? p->c_str() : nullptr);
        PGresult* result = lib_.PQexecParams(db_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                                        nullptr, nullptr, 0);
        struct Clear {
            PGresult* r;
            ~Clear() { libpq().PQclear(r); }
        } clear{result};
        const auto status = result ? lib_.PQresultStatus(result) : PGRES_FATAL_ERROR;
        if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
            throw HistoryError("the history database " + shown_ + ": a statement failed: " + trimmed(lib_.PQerrorMessage(db_)));
        std::vector<SqlRow> rows;
        const int n = lib_.PQntuples(result), columns = lib_.PQnfields(result);
        rows.reserve(static_cast<std::size_t>(n));
        for (int r = 0; r < n; ++r) {
            SqlRow row;
            for (int c = 0; c < columns; ++c) {
                if (lib_.PQgetisnull(result, r, c)) row.emplace_back(std::nullopt);
                else row.emplace_back(std::string(lib_.PQgetvalue(result, r, c), static_cast<std::size_t>(lib_.PQgetlength(result, r, c))));
            }
            rows.push_back(std::move(row));
        }
        return rows;
    }

    void begin(bool exclusive) override {
        run("BEGIN", {});
        if (exclusive) run("SELECT pg_advisory_xact_lock(" + std::to_string(schema_lock_key) + ")", {});
    }
    void commit() override { run("COMMIT", {}); }
    void rollback() noexcept override {
        PGresult* r = lib_.PQexec(db_, "ROLLBACK");
        lib_.PQclear(r);
    }
    std::string serial_key() const override { return "BIGSERIAL PRIMARY KEY"; }
    std::string location() const override { return shown_; }

private:
    static std::string trimmed(std::string s) {
        while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
        return s;
    }

    std::string shown_;
    const PostgresFunctions& lib_;
    PGconn* db_ = nullptr;
};
#endif

}  // namespace

std::unique_ptr<SqlConnection> open_postgresql(const std::string& uri) {
#if GPUCHRONO_HISTORY_POSTGRESQL
    return std::make_unique<PostgresConnection>(uri);
#else
    throw HistoryError("this gpuchrono was built without PostgreSQL support, so it cannot open " +
                       without_password(uri) + ": install libpq-dev (Debian) or libpq (other systems) and rebuild");
#endif
}

}  // namespace gpuchrono::history
