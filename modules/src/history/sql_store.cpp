// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The history's store over one SqlConnection: the schema, its migrations and every query, one text for SQLite and
// PostgreSQL alike.
#include "history/sql_connection.hpp"

#include "history/store.hpp"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <cstdlib>
#include <sstream>
#include <string>

namespace gpuchrono::history {
namespace {

// Schema migrations, oldest first: migrations[v - 1] takes a database from version v - 1 to v. "{key}" is the
// backend's generated-key column type.
const std::vector<std::vector<std::string>>& migrations() {
    static const std::vector<std::vector<std::string>> all = {
        {
            "CREATE TABLE commits (id {key}, hash TEXT NOT NULL UNIQUE, branch TEXT, author_time TEXT, subject TEXT,"
            " position BIGINT NOT NULL)",
            "CREATE TABLE fingerprints (id {key}, record_key TEXT NOT NULL UNIQUE, baseline TEXT NOT NULL,"
            " gpu_name TEXT, gpu_uuid TEXT, sm_count BIGINT, compute_capability TEXT, driver TEXT, cuda_runtime TEXT,"
            " sm_clock_max_mhz DOUBLE PRECISION, sm_clock_applied_mhz DOUBLE PRECISION, memory_clock_mhz DOUBLE PRECISION,"
            " power_limit_w DOUBLE PRECISION, ecc TEXT, mig TEXT, persistence_mode TEXT, host_cpu TEXT,"
            " gpuchrono_version TEXT, build_type TEXT)",
            "CREATE TABLE runs (id {key}, commit_id BIGINT NOT NULL REFERENCES commits(id),"
            " fingerprint_id BIGINT NOT NULL REFERENCES fingerprints(id), run_time TEXT, added_time TEXT,"
            " report_path TEXT, source_format TEXT)",
            "CREATE TABLE series (id {key}, experiment TEXT NOT NULL, name TEXT NOT NULL, unit TEXT NOT NULL,"
            " UNIQUE (experiment, name))",
            "CREATE TABLE series_aliases (experiment TEXT NOT NULL, name TEXT NOT NULL,"
            " series_id BIGINT NOT NULL REFERENCES series(id), PRIMARY KEY (experiment, name))",
            // position: the commit's, copied so that a series' newest points are one index range.
            "CREATE TABLE points (run_id BIGINT NOT NULL REFERENCES runs(id), series_id BIGINT NOT NULL REFERENCES series(id),"
            " position BIGINT NOT NULL, median DOUBLE PRECISION NOT NULL, ci_low DOUBLE PRECISION, ci_high DOUBLE PRECISION, n BIGINT NOT NULL,"
            " method TEXT, cache_state TEXT, findings TEXT, samples TEXT, PRIMARY KEY (run_id, series_id))",
            "CREATE INDEX points_by_series ON points (series_id, position, run_id)",
            "CREATE INDEX runs_by_commit ON runs (commit_id)",
        },
    };
    return all;
}

std::string number(double v) {
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
    return ec == std::errc{} ? std::string(buffer, end) : "0";
}
SqlValue number(const std::optional<double>& v) { return v ? SqlValue(number(*v)) : std::nullopt; }
SqlValue integer(const std::optional<std::int64_t>& v) { return v ? SqlValue(std::to_string(*v)) : std::nullopt; }
SqlValue text_or_null(const std::string& v) { return v.empty() ? std::nullopt : SqlValue(v); }

std::int64_t to_integer(const SqlValue& v) { return v ? std::strtoll(v->c_str(), nullptr, 10) : 0; }
double to_double(const SqlValue& v) { return v ? std::strtod(v->c_str(), nullptr) : 0; }
std::optional<double> to_optional_double(const SqlValue& v) {
    return v ? std::optional<double>(std::strtod(v->c_str(), nullptr)) : std::nullopt;
}
std::string to_text(const SqlValue& v) { return v ? *v : std::string(); }

std::string joined_samples(const std::vector<double>& samples) {
    std::string out;
    for (double s : samples) {
        if (!out.empty()) out += ' ';
        out += number(s);
    }
    return out;
}
std::vector<double> split_samples(const std::string& text) {
    std::vector<double> out;
    std::istringstream in(text);
    for (double v; in >> v;) out.push_back(v);
    return out;
}
std::string joined_codes(const std::vector<std::string>& codes) {
    std::string out;
    for (const auto& c : codes) out += (out.empty() ? "" : ",") + c;
    return out;
}
std::vector<std::string> split_codes(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string c; std::getline(in, c, ',');)
        if (!c.empty()) out.push_back(c);
    return out;
}

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buffer;
}

// Rolls a transaction back unless it was committed (an exception leaves nothing written).
class Transaction {
public:
    Transaction(SqlConnection& db, bool exclusive) : db_(db) { db_.begin(exclusive); }
    ~Transaction() {
        if (!done_) db_.rollback();
    }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit() {
        db_.commit();
        done_ = true;
    }

private:
    SqlConnection& db_;
    bool done_ = false;
};

class SqlStore final : public Store {
public:
    explicit SqlStore(std::unique_ptr<SqlConnection> db) : db_(std::move(db)) { migrate(); }

    std::int64_t add(const RunRecord& run) override { return add_all({run}).at(0); }

    std::vector<std::int64_t> add_all(const std::vector<RunRecord>& runs) override {
        for (const auto& run : runs)
            if (run.commit.hash.empty())
                throw HistoryError("a run from " + run.report_path + " has no commit: give one (--commit SHA)");
        Transaction t(*db_, false);
        std::vector<std::int64_t> ids;
        ids.reserve(runs.size());
        for (const auto& run : runs) ids.push_back(add_in_transaction(run));
        t.commit();
        return ids;
    }

    std::int64_t add_in_transaction(const RunRecord& run) {
        const auto [commit_id, position] = commit_row(run.commit);
        const std::int64_t fingerprint_id = fingerprint_row(run.fingerprint);
        const auto run_row = db_->run(
            "INSERT INTO runs (commit_id, fingerprint_id, run_time, added_time, report_path, source_format)"
            " VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            {std::to_string(commit_id), std::to_string(fingerprint_id), text_or_null(run.run_time), utc_now(),
             text_or_null(run.report_path), text_or_null(run.source_format)});
        const std::int64_t run_id = to_integer(run_row.at(0).at(0));
        for (const auto& p : run.points) {
            const std::int64_t series_id = series_row(p, run.report_path);
            db_->run("INSERT INTO points (run_id, series_id, position, median, ci_low, ci_high, n, method, cache_state,"
                     " findings, samples) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                     {std::to_string(run_id), std::to_string(series_id), std::to_string(position), number(p.median), number(p.ci_low),
                      number(p.ci_high), std::to_string(p.n), text_or_null(p.method), text_or_null(p.cache_state),
                      text_or_null(joined_codes(p.findings)), text_or_null(joined_samples(p.samples))});
        }
        return run_id;
    }

    void add_alias(const std::string& experiment, const std::string& old_name, const std::string& new_name) override {
        Transaction t(*db_, false);
        const auto target = db_->run("SELECT id FROM series WHERE experiment = $1 AND name = $2", {experiment, new_name});
        if (target.empty())
            throw HistoryError("the history " + db_->location() + " has no series '" + new_name + "' in experiment '" +
                               experiment + "' to name '" + old_name + "' after");
        if (!db_->run("SELECT id FROM series WHERE experiment = $1 AND name = $2", {experiment, old_name}).empty())
            throw HistoryError("the history " + db_->location() + " already holds points under '" + old_name +
                               "' in experiment '" + experiment + "': an alias names only a series no longer written");
        db_->run("INSERT INTO series_aliases (experiment, name, series_id) VALUES ($1, $2, $3)"
                 " ON CONFLICT (experiment, name) DO UPDATE SET series_id = excluded.series_id",
                 {experiment, old_name, target[0][0]});
        t.commit();
    }

    std::vector<StoredCommit> commits() override {
        std::vector<StoredCommit> out;
        for (const auto& r : db_->run("SELECT id, hash, branch, author_time, subject, position FROM commits"
                                      " ORDER BY position, id", {}))
            out.push_back({to_integer(r[0]), to_text(r[1]), to_text(r[2]), to_text(r[3]), to_text(r[4]), to_integer(r[5])});
        return out;
    }

    std::vector<StoredSeries> series() override {
        std::vector<StoredSeries> out;
        for (const auto& r : db_->run("SELECT id, experiment, name, unit FROM series ORDER BY experiment, name", {}))
            out.push_back({to_integer(r[0]), to_text(r[1]), to_text(r[2]), to_text(r[3])});
        return out;
    }

    std::vector<StoredPoint> points(std::int64_t series_id, std::size_t newest, bool samples_when_no_ci) override {
        const std::string columns = point_columns(samples_when_no_ci) + " WHERE p.series_id = $1";
        auto rows = newest == 0
            ? db_->run(columns + " ORDER BY p.position, p.run_id", {std::to_string(series_id)})
            : db_->run(columns + " ORDER BY p.position DESC, p.run_id DESC LIMIT $2",
                       {std::to_string(series_id), std::to_string(newest)});
        if (newest != 0) std::reverse(rows.begin(), rows.end());
        std::vector<StoredPoint> out;
        out.reserve(rows.size());
        for (const auto& r : rows) out.push_back(stored_point(r));
        return out;
    }

    std::map<std::int64_t, std::vector<StoredPoint>> points_of_every_series(std::size_t newest,
                                                                            bool samples_when_no_ci) override {
        // One query whatever the number of series: each series' newest runs are one range of the points_by_series
        // index, from the position of its newest-th newest run (found in the same index) on. The cutoffs are
        // materialised first so that both planners walk the series and range into points, rather than scan
        // every point and look its cutoff up. A window (ROW_NUMBER() OVER (PARTITION BY series_id ...)) numbers
        // every point of the history instead, and took three times as long on SQLite. The bound is cast:
        // parameters arrive as text, and SQLite orders any integer before any text.
        const auto rows = newest == 0
            ? db_->run(point_columns(samples_when_no_ci, "points p"), {})
            : db_->run("WITH cutoff AS MATERIALIZED (SELECT s.id AS series_id, COALESCE((SELECT q.position FROM points q"
                       " WHERE q.series_id = s.id ORDER BY q.position DESC, q.run_id DESC LIMIT 1"
                       " OFFSET CAST($1 AS BIGINT) - 1), -9223372036854775807) AS from_position FROM series s) " +
                           point_columns(samples_when_no_ci, "cutoff k JOIN points p ON p.series_id = k.series_id"
                                                             " AND p.position >= k.from_position"),
                       {std::to_string(newest)});
        std::map<std::int64_t, std::vector<StoredPoint>> out;
        for (const auto& r : rows) out[to_integer(r[14])].push_back(stored_point(r));
        for (auto& [series_id, points] : out) {
            // Oldest first, as points() gives them; runs sharing the cutoff's commit may add a few to drop.
            std::sort(points.begin(), points.end(), [](const StoredPoint& a, const StoredPoint& b) {
                return a.commit_position != b.commit_position ? a.commit_position < b.commit_position : a.run_id < b.run_id;
            });
            if (newest != 0 && points.size() > newest)
                points.erase(points.begin(), points.begin() + static_cast<std::ptrdiff_t>(points.size() - newest));
        }
        return out;
    }

    std::optional<StoredSeries> find_series(std::string_view name) override {
        const std::string text(name);
        const auto row = [](const SqlRow& r) {
            return StoredSeries{to_integer(r[0]), to_text(r[1]), to_text(r[2]), to_text(r[3])};
        };
        if (const auto slash = text.find('/'); slash != std::string::npos) {
            const std::string experiment = text.substr(0, slash), series = text.substr(slash + 1);
            auto found = db_->run("SELECT s.id, s.experiment, s.name, s.unit FROM series s WHERE s.experiment = $1"
                                  " AND s.name = $2 UNION SELECT s.id, s.experiment, s.name, s.unit FROM series s"
                                  " JOIN series_aliases a ON a.series_id = s.id WHERE a.experiment = $1 AND a.name = $2",
                                  {experiment, series});
            if (!found.empty()) return row(found[0]);
        }
        auto found = db_->run("SELECT s.id, s.experiment, s.name, s.unit FROM series s WHERE s.name = $1 UNION"
                              " SELECT s.id, s.experiment, s.name, s.unit FROM series s JOIN series_aliases a"
                              " ON a.series_id = s.id WHERE a.name = $1",
                              {text});
        if (found.empty()) return std::nullopt;
        if (found.size() > 1) {
            std::string experiments;
            for (const auto& r : found) experiments += (experiments.empty() ? "" : ", ") + to_text(r[1]);
            throw HistoryError("series '" + text + "' is in several experiments (" + experiments +
                               "): name it as EXPERIMENT/" + text);
        }
        return row(found[0]);
    }

    std::string location() const override { return db_->location(); }

private:
    // The columns stored_point() reads, then the series id (column 14).
    // `points`: what the points p come from (the table, or a join that narrows it).
    static std::string point_columns(bool samples_when_no_ci, const std::string& points = "points p") {
        const std::string samples =
            samples_when_no_ci ? "CASE WHEN p.ci_low IS NULL OR p.ci_high IS NULL THEN p.samples END" : "p.samples";
        return "SELECT c.hash, p.position, r.fingerprint_id, f.baseline, r.id, r.run_time, p.median, p.ci_low, p.ci_high,"
               " p.n, p.method, p.cache_state, p.findings, " + samples + ", p.series_id FROM " + points + " JOIN runs r"
               " ON r.id = p.run_id JOIN commits c ON c.id = r.commit_id JOIN fingerprints f ON f.id = r.fingerprint_id";
    }

    static StoredPoint stored_point(const SqlRow& r) {
        StoredPoint p;
        p.commit = to_text(r[0]);
        p.commit_position = to_integer(r[1]);
        p.fingerprint_id = to_integer(r[2]);
        p.baseline = to_text(r[3]);
        p.run_id = to_integer(r[4]);
        p.run_time = to_text(r[5]);
        p.median = to_double(r[6]);
        p.ci_low = to_optional_double(r[7]);
        p.ci_high = to_optional_double(r[8]);
        p.n = static_cast<std::size_t>(to_integer(r[9]));
        p.method = to_text(r[10]);
        p.cache_state = to_text(r[11]);
        p.findings = split_codes(to_text(r[12]));
        p.samples = split_samples(to_text(r[13]));
        return p;
    }

    void migrate() {
        Transaction t(*db_, true);
        db_->run("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)", {});
        const auto rows = db_->run("SELECT MAX(version) FROM schema_version", {});
        const int found = rows.empty() ? 0 : static_cast<int>(to_integer(rows[0][0]));
        if (found > store_schema_version)
            throw HistoryError("the history database " + db_->location() + " has schema version " +
                               std::to_string(found) + ", newer than the version " +
                               std::to_string(store_schema_version) +
                               " this gpuchrono reads: use a newer gpuchrono with it");
        for (int v = found + 1; v <= store_schema_version; ++v) {
            for (std::string sql : migrations()[static_cast<std::size_t>(v - 1)]) {
                for (auto at = sql.find("{key}"); at != std::string::npos; at = sql.find("{key}"))
                    sql.replace(at, 5, db_->serial_key());
                db_->run(sql, {});
            }
            db_->run("DELETE FROM schema_version", {});
            db_->run("INSERT INTO schema_version (version) VALUES ($1)", {std::to_string(v)});
        }
        t.commit();
    }

    // The commit's id and position, inserted when new.
    std::pair<std::int64_t, std::int64_t> commit_row(const CommitInfo& c) {
        const std::string position_sql =
            c.graph_position ? "$5" : "(SELECT COALESCE(MAX(position), 0) + 1 FROM commits)";
        db_->run("INSERT INTO commits (hash, branch, author_time, subject, position) VALUES ($1, $2, $3, $4, " +
                     position_sql + ") ON CONFLICT (hash) DO NOTHING",
                 c.graph_position ? std::vector<SqlValue>{c.hash, text_or_null(c.branch), text_or_null(c.author_time),
                                                          text_or_null(c.subject), integer(c.graph_position)}
                                  : std::vector<SqlValue>{c.hash, text_or_null(c.branch), text_or_null(c.author_time),
                                                          text_or_null(c.subject)});
        const auto row = db_->run("SELECT id, position FROM commits WHERE hash = $1", {c.hash}).at(0);
        return {to_integer(row.at(0)), to_integer(row.at(1))};
    }

    std::int64_t fingerprint_row(const Fingerprint& f) {
        const auto s = [](const std::optional<std::string>& v) { return v ? SqlValue(*v) : std::nullopt; };
        const std::string key = fingerprint_key(f);
        db_->run("INSERT INTO fingerprints (record_key, baseline, gpu_name, gpu_uuid, sm_count, compute_capability,"
                 " driver, cuda_runtime, sm_clock_max_mhz, sm_clock_applied_mhz, memory_clock_mhz, power_limit_w, ecc,"
                 " mig, persistence_mode, host_cpu, gpuchrono_version, build_type) VALUES ($1, $2, $3, $4, $5, $6, $7,"
                 " $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) ON CONFLICT (record_key) DO NOTHING",
                 {key, baseline_key(f), s(f.gpu_name), s(f.gpu_uuid), integer(f.sm_count), s(f.compute_capability),
                  s(f.driver), s(f.cuda_runtime), number(f.sm_clock_max_mhz), number(f.sm_clock_applied_mhz),
                  number(f.memory_clock_mhz), number(f.power_limit_w), s(f.ecc), s(f.mig), s(f.persistence_mode),
                  s(f.host_cpu), s(f.gpuchrono_version), s(f.build_type)});
        return to_integer(db_->run("SELECT id FROM fingerprints WHERE record_key = $1", {key}).at(0).at(0));
    }

    std::int64_t series_row(const PointRecord& p, const std::string& file) {
        // A renamed series is read under its current name.
        const auto alias = db_->run("SELECT s.id, s.unit, s.name FROM series_aliases a JOIN series s ON s.id = a.series_id"
                                    " WHERE a.experiment = $1 AND a.name = $2",
                                    {p.experiment, p.series});
        auto found = alias.empty() ? db_->run("SELECT id, unit, name FROM series WHERE experiment = $1 AND name = $2",
                                              {p.experiment, p.series})
                                   : alias;
        if (found.empty()) {
            db_->run("INSERT INTO series (experiment, name, unit) VALUES ($1, $2, $3)"
                     " ON CONFLICT (experiment, name) DO NOTHING",
                     {p.experiment, p.series, p.unit});
            found = db_->run("SELECT id, unit, name FROM series WHERE experiment = $1 AND name = $2",
                             {p.experiment, p.series});
        }
        if (to_text(found.at(0).at(1)) != p.unit)
            throw HistoryError(file + ": series '" + p.series + "' of experiment '" + p.experiment + "' is in " +
                               p.unit + ", but the history " + db_->location() + " keeps it in " +
                               to_text(found[0][1]) + ": a series keeps one unit (give the new one another name)");
        return to_integer(found[0][0]);
    }

    std::unique_ptr<SqlConnection> db_;
};

}  // namespace

std::unique_ptr<Store> open_store(const std::string& location) {
    if (location.empty()) throw HistoryError("no history database given (--db PATH or postgresql://...)");
    if (location.starts_with("postgresql://") || location.starts_with("postgres://"))
        return std::make_unique<SqlStore>(open_postgresql(location));
    return std::make_unique<SqlStore>(open_sqlite(location));
}

std::string default_store_location() {
    if (const char* env = std::getenv("GPUCHRONO_HISTORY"); env && *env) return env;
    return ".gpuchrono/history.db";
}

bool postgresql_supported() noexcept { return GPUCHRONO_HISTORY_POSTGRESQL != 0; }

}  // namespace gpuchrono::history
