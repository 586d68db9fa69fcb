// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The first scope at a timer's line, which the cold first scope checks of EventPolicy and HostSyncPolicy ask
// about: true once per site in the process, whichever thread asks, and never for a site the library cannot name.
#include <boost/test/unit_test.hpp>

#include "core/first_scope_at.hpp"

#include <atomic>
#include <source_location>
#include <thread>
#include <vector>

using gpuchrono::CallSite;
using gpuchrono::detail::first_scope_at;

namespace {
CallSite here(std::source_location where = std::source_location::current()) { return CallSite::located(where); }
}  // namespace

BOOST_AUTO_TEST_SUITE(first_scope_at_site)

BOOST_AUTO_TEST_CASE(a_site_is_first_once) {
    const CallSite loop = here();
    BOOST_TEST(first_scope_at(loop));
    for (int i = 0; i < 3; ++i) BOOST_TEST(!first_scope_at(loop));
    // Another line is first in its turn; coming back to the loop's line does not make it first again.
    const CallSite other = here();
    BOOST_TEST(first_scope_at(other));
    BOOST_TEST(!first_scope_at(loop));
    BOOST_TEST(!first_scope_at(other));
}

BOOST_AUTO_TEST_CASE(a_return_address_names_a_site_without_a_location) {
    static const int marker = 0;
    const CallSite by_address = CallSite::returning_to(&marker);
    BOOST_TEST(first_scope_at(by_address));
    BOOST_TEST(!first_scope_at(by_address));
    BOOST_TEST(!first_scope_at(CallSite{}), "a site with nothing to name it by is never first");
}

BOOST_AUTO_TEST_CASE(eight_threads_at_one_line_see_one_first) {
    const CallSite shared = here();
    std::atomic<int> firsts{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < 100; ++i) firsts += first_scope_at(shared) ? 1 : 0;
        });
    for (std::thread& t : threads) t.join();
    BOOST_TEST(firsts.load() == 1);
}

BOOST_AUTO_TEST_SUITE_END()
