// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The report page's HTML as text: every user-supplied string escaped, missing numbers shown as "-" with an
// empty data-value, the pictures linked or inlined as asked. The browser test (report_html_browser_test.py)
// checks the same pages as Chromium renders them.
#include <boost/test/unit_test.hpp>

#include <gpuchrono/report/model/report.hpp>
#include "report/render/report_html.hpp"

#include <string>

namespace report = gpuchrono::report;

namespace {

const std::string hostile = "<script>alert(1)</script>\"'&";

report::Report hostile_report() {
    report::Report r;
    r.generator = hostile;
    r.host = hostile;
    r.device.name = hostile;
    r.notes = {hostile};
    report::Experiment e;
    e.id = hostile;
    e.title = hostile;
    e.explanation = {hostile};
    e.metrics = {{hostile, report::not_measured, "ns", hostile}};
    report::SampleSeries s = report::make_series(hostile, hostile, {});
    s.findings.push_back({"<code>", gpuchrono::Severity::error, hostile, hostile, hostile, {{hostile, 1.0}}});
    e.series.push_back(std::move(s));
    r.experiments.push_back(std::move(e));
    return r;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(report_html)

BOOST_AUTO_TEST_CASE(every_name_is_escaped_and_missing_numbers_read_as_a_dash) {
    const std::string page = report::render_report_html(hostile_report(), {{hostile, "a.svg", hostile, ""}}, hostile, {.command = hostile});
    BOOST_TEST(count(page, "<script>") == 1u);  // the page's own: unfolding a linked finding
    BOOST_TEST(count(page, "alert(1)") > 0u);
    BOOST_TEST(page.find("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&apos;&amp;") != std::string::npos);
    BOOST_TEST(page.find("data-value=\"\">-</td>") != std::string::npos, "a NaN metric or median shows '-'");
    BOOST_TEST(page.find("<img src=\"a.svg\"") != std::string::npos);
    BOOST_TEST(page.find("error") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(single_file_inlines_the_pictures_without_their_tooltips) {
    report::Report r;
    r.experiments.push_back({.id = "e", .title = "E"});
    const std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">\n<rect fill=\"#4e79a7\" "
                            "width=\"5\" height=\"5\"><title>block 0 &amp; 1</title></rect>\n</svg>\n";
    const std::string page = report::render_report_html(r, {{"e", "p.svg", "a picture", svg}}, "", {.single_file = true});
    BOOST_TEST(page.find("src=\"p.svg\"") == std::string::npos);
    BOOST_TEST(page.find("href=\"p.svg\"") == std::string::npos);
    const std::string expected = "<img src=\"data:image/svg+xml;charset=utf-8,<svg xmlns=%22http://www.w3.org/2000/svg%22 "
                                 "width=%2210%22 height=%2210%22><rect fill=%22%234e79a7%22 width=%225%22 height=%225%22></rect></svg>\" "
                                 "alt=\"a picture\">";
    BOOST_TEST(page.find(expected) != std::string::npos, page.substr(page.find("<figure>"), 400));
}

BOOST_AUTO_TEST_CASE(an_empty_report_is_still_a_page) {
    const std::string page = report::render_report_html(report::Report{}, {}, "", {});
    BOOST_TEST(page.rfind("<!DOCTYPE html>", 0) == 0u);
    BOOST_TEST(page.find("This report holds no experiments.") != std::string::npos);
    BOOST_TEST(page.find("No findings") != std::string::npos);
    BOOST_TEST(page.find("</html>") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
