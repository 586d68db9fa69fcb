// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The CI loop a project runs, replayed on real H100 data: for each of 40 commits, the suite's report is added to
// the history and the gate checks the newest commit. The data hold two real changes (`spin 20us` 2% longer from
// commit 20, `vscale 64MiB` 1% from commit 30) and A/A noise elsewhere: the gate must fail within two commits of
// each change, with a range that holds it, and pass at every other commit it can judge. On SQLite and PostgreSQL.
#include <boost/test/unit_test.hpp>

#include "history_databases.hpp"

#include "history/check.hpp"
#include "history/ingest.hpp"
#include "history/store.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>

using namespace gpuchrono::history;
using history_test::Backend;

namespace {

std::string label(int commit) {
    char b[8];
    std::snprintf(b, sizeof b, "c%02d", commit);
    return b;
}

void replay(Backend backend) {
    const auto data = history_test::replay_data();
    if (data.empty()) {
        // Exit 77: ctest shows the suite as Skipped, never as a pass on nothing.
        std::printf("skipped: the shared H100 history is not here (looked for %s)\n", history_test::data_searched().c_str());
        std::fflush(stdout);
        std::exit(77);
    }
    history_test::TempFolder folder;
    auto store = open_store(history_test::fresh_database(backend, folder));
    constexpr int commits = 40;
    std::map<int, CheckResult> verdicts;
    for (int c = 0; c < commits; ++c) {
        store->add(read_run(data / label(c) / "report.json", {label(c), "main"}));
        verdicts[c] = check_history(*store);
        const auto& v = verdicts[c];
        BOOST_TEST_MESSAGE(label(c) << ": exit " << v.exit_code() << ", " << v.summary);
        for (const auto& a : v.regressions) BOOST_TEST_MESSAGE("    " << a.sentence);
    }
    // Alerts where the changes came in, each naming its series with a range that holds the change.
    const auto alerted = [&](int from, int to, const std::string& series, int step) {
        for (int c = from; c <= to; ++c)
            for (const auto& a : verdicts[c].regressions)
                if (a.series == "measurements/" + series && a.last_good < label(step) && a.first_bad >= label(step) &&
                    a.first_bad <= label(c))
                    return true;
        return false;
    };
    BOOST_TEST(alerted(20, 22, "spin 20us", 20), "no alert naming spin 20us at commits 20-22");
    BOOST_TEST(alerted(30, 32, "vscale 64MiB", 30), "no alert naming vscale 64MiB at commits 30-32");
    for (int c = 0; c < commits; ++c) {
        const auto& v = verdicts[c];
        const bool near_step = (c >= 20 && c <= 22) || (c >= 30 && c <= 32);
        if (v.exit_code() == 1) {
            BOOST_TEST(near_step, label(c) << " failed the gate away from the changes: " << v.regressions[0].sentence);
            for (const auto& a : v.regressions)
                BOOST_TEST((a.series == "measurements/spin 20us" || a.series == "measurements/vscale 64MiB"),
                           label(c) << " named an A/A series: " << a.sentence);
        }
        // Once a baseline is long enough the gate judges: never "cannot judge" on a long history of one machine.
        if (c >= 10) BOOST_TEST(v.exit_code() != 2, label(c) << " could not judge: " << v.summary);
        // Never a pass on nothing: before enough history, the answer is "cannot judge".
        if (v.series_judged == 0) BOOST_TEST(v.exit_code() == 2, label(c) << ": " << v.summary);
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(history_replay_sqlite)
BOOST_AUTO_TEST_CASE(ci_loop_on_h100_data) { replay(Backend::sqlite); }
BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(history_replay_postgresql)
BOOST_AUTO_TEST_CASE(ci_loop_on_h100_data) { replay(Backend::postgresql); }
BOOST_AUTO_TEST_SUITE_END()
