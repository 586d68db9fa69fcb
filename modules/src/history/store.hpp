// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The performance history's store: one small interface, two backends over their C libraries. SQLite (one file,
// WAL mode, a busy timeout) is the default; PostgreSQL (a "postgresql://" or "postgres://" location) is for a
// team whose CI machines all write to one place. Both hold the same versioned schema and behave the same: every
// add() is one transaction, so a refused or interrupted add leaves nothing behind.
#pragma once

#include "history/record.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpuchrono::history {

// Anything the history refuses or cannot do, in one sentence naming the database, file or field concerned.
class HistoryError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The schema this library writes. A database of a newer one is refused; an older one is migrated on open.
inline constexpr int store_schema_version = 1;

struct StoredCommit {
    std::int64_t id = 0;
    std::string hash;
    std::string branch;
    std::string author_time;
    std::string subject;
    std::int64_t position = 0;  // commit order: ascending is oldest first
};

struct StoredSeries {
    std::int64_t id = 0;
    std::string experiment;
    std::string name;
    std::string unit;
};

// One stored point of one series, with the commit and machine it came from.
struct StoredPoint {
    std::string commit;
    std::int64_t commit_position = 0;
    std::int64_t fingerprint_id = 0;
    std::string baseline;  // the fingerprint's baseline key: points of equal ones are comparable
    std::int64_t run_id = 0;
    std::string run_time;
    double median = 0;
    std::optional<double> ci_low;
    std::optional<double> ci_high;
    std::size_t n = 0;
    std::string method;
    std::string cache_state;
    std::vector<std::string> findings;
    std::vector<double> samples;
};

class Store {
public:
    virtual ~Store() = default;

    // Adds one run in one transaction: its commit (kept as first seen), fingerprint, run and points. Refuses,
    // writing nothing, a point whose series is stored with another unit.
    virtual std::int64_t add(const RunRecord& run) = 0;

    // Adds several runs (a folder of reports) in one transaction: every one, or none when one is refused.
    // Returns their run ids in the order given.
    virtual std::vector<std::int64_t> add_all(const std::vector<RunRecord>& runs) = 0;

    // From now on `old_name` of `experiment` is read as `new_name` (a rename, not a new series).
    virtual void add_alias(const std::string& experiment, const std::string& old_name, const std::string& new_name) = 0;

    virtual std::vector<StoredCommit> commits() = 0;  // oldest first
    virtual std::vector<StoredSeries> series() = 0;
    // The points of one series, oldest commit first (runs of one commit in the order they were added): every one,
    // or the `newest` newest when it is not 0 (one index range, however long the history). With `samples_when_no_ci`
    // a point's samples are read only when it has no CI (all the change detection needs of them), which spares
    // reading and parsing every sample of a long history.
    virtual std::vector<StoredPoint> points(std::int64_t series_id, std::size_t newest = 0,
                                            bool samples_when_no_ci = false) = 0;
    // points() of every series at once, keyed by series id, in one query (an index range per series) rather than
    // one per series: what the CI gate reads of a history of thousands of series.
    virtual std::map<std::int64_t, std::vector<StoredPoint>> points_of_every_series(std::size_t newest = 0,
                                                                                    bool samples_when_no_ci = false) = 0;

    // A series by "EXPERIMENT/NAME", or by NAME (or an alias) when one experiment holds it; nullopt when none.
    // Throws when NAME alone names series of several experiments.
    virtual std::optional<StoredSeries> find_series(std::string_view name) = 0;

    virtual std::string location() const = 0;  // as given, a PostgreSQL password left out
};

// Opens (creating when absent) the history at `location`: a "postgresql://" or "postgres://" URI, else a SQLite
// file path (its folder is created). Throws HistoryError when it cannot: a newer schema, no PostgreSQL support in
// this build, a server that does not answer.
std::unique_ptr<Store> open_store(const std::string& location);

// The location to use when none is given: GPUCHRONO_HISTORY when set, else ".gpuchrono/history.db".
std::string default_store_location();

// Whether this build can open "postgresql://" locations.
bool postgresql_supported() noexcept;

}  // namespace gpuchrono::history
