// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// `gpuchrono run`'s command line and the GPUCHRONO_RUN_* variables that carry it to the injection library.
#include <boost/test/unit_test.hpp>

#include "run/run_options.hpp"

#include <map>
#include <string>
#include <vector>

#include <gpuchrono/api.hpp>

using namespace gpuchrono::run;

namespace {

Getenv from(const std::map<std::string, std::string>& env) {
    return [env](const std::string& name) -> std::optional<std::string> {
        const auto it = env.find(name);
        if (it == env.end()) return std::nullopt;
        return it->second;
    };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(run_options)

BOOST_AUTO_TEST_CASE(program_after_double_dash_keeps_its_own_options) {
    const RunCommand c = parse_run_arguments({"--output", "out", "--kernels", "gemm", "--", "python", "-u", "train.py", "--lr", "1"});
    BOOST_TEST(c.options.output == "out");
    BOOST_TEST(c.options.kernels == "gemm");
    BOOST_TEST(c.program == (std::vector<std::string>{"python", "-u", "train.py", "--lr", "1"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(program_without_double_dash) {
    const RunCommand c = parse_run_arguments({"--top", "3", "./solver", "-n", "4"});
    BOOST_TEST(c.options.top == 3u);
    BOOST_TEST(c.program.size() == 3u);
    BOOST_TEST(c.program[0] == "./solver");
}

BOOST_AUTO_TEST_CASE(bad_input_is_named) {
    BOOST_CHECK_THROW(parse_run_arguments({}), OptionError);
    BOOST_CHECK_THROW(parse_run_arguments({"--output", "x", "--"}), OptionError);
    BOOST_CHECK_THROW(parse_run_arguments({"--bogus", "--", "p"}), OptionError);
    BOOST_CHECK_THROW(parse_run_arguments({"--delay", "-1", "--", "p"}), OptionError);
    BOOST_CHECK_THROW(parse_run_arguments({"--delay", "soon", "--", "p"}), OptionError);
    BOOST_CHECK_THROW(parse_run_arguments({"--kernels", "(", "--", "p"}), OptionError);
    BOOST_CHECK_THROW(parse_run_arguments({"--format", "pdf", "--", "p"}), OptionError);
    BOOST_CHECK_THROW(parse_run_arguments({"--flush-ms", "5000", "--", "p"}), OptionError);
    BOOST_CHECK_THROW(parse_run_arguments({"--output"}), OptionError);
    try {
        parse_run_arguments({"--format", "json,pdf", "--", "p"});
        BOOST_FAIL("no error");
    } catch (const OptionError& e) {
        BOOST_TEST(std::string(e.what()).find("pdf") != std::string::npos);
    }
    BOOST_TEST(parse_run_arguments({"--help"}).help);
    BOOST_TEST(!parse_run_arguments({"--no-nvtx", "--", "p"}).nvtx);
    BOOST_TEST(parse_run_arguments({"--", "p"}).nvtx);
}

BOOST_AUTO_TEST_CASE(every_option_survives_the_environment) {
    RunCommand c = parse_run_arguments({"-o", "o", "--format", "csv,html,perfetto", "--kernels", "^gemm", "--nvtx", "step",
                                        "--delay", "1.5", "--duration", "2", "--signals", "--split-by-shape",
                                        "--reservoir", "100", "--top", "0", "--trace", "50", "--flush-ms", "200",
                                        "--follow-children", "--", "p"});
    c.options.root_pid = 4242;
    std::map<std::string, std::string> env;
    for (const auto& [name, value] : options_to_environment(c.options)) env[name] = value;
    for (const auto& [name, value] : env)
        BOOST_TEST((std::find(option_variables().begin(), option_variables().end(), name) != option_variables().end()), name);
    const RunOptions o = options_from_environment(from(env));
    BOOST_TEST(o.output == "o");
    BOOST_TEST((o.csv && o.html && o.perfetto && o.json));
    BOOST_TEST(o.kernels == "^gemm");
    BOOST_TEST(o.nvtx == "step");
    BOOST_TEST(o.delay_s == 1.5);
    BOOST_TEST(o.duration_s == 2.0);
    BOOST_TEST(o.signals);
    BOOST_TEST(o.split_by_shape);
    BOOST_TEST(o.reservoir == 100u);
    BOOST_TEST(o.top == 0u);
    BOOST_TEST(o.trace == 50u);
    BOOST_TEST(o.flush_ms == 200u);
    BOOST_TEST(o.follow_children);
    BOOST_TEST(o.root_pid == 4242);
}

BOOST_AUTO_TEST_CASE(defaults_without_variables_and_bad_variables_named) {
    const RunOptions o = options_from_environment(from({}));
    BOOST_TEST(o.output == "gpuchrono-run");
    BOOST_TEST(o.reservoir == 4096u);
    BOOST_TEST(o.flush_ms == 1000u);
    BOOST_TEST(!o.follow_children);
    try {
        options_from_environment(from({{"GPUCHRONO_RUN_TOP", "many"}}));
        BOOST_FAIL("no error");
    } catch (const OptionError& e) {
        BOOST_TEST(std::string(e.what()).find("GPUCHRONO_RUN_TOP") != std::string::npos);
    }
    BOOST_CHECK_THROW(options_from_environment(from({{"GPUCHRONO_RUN_FOLLOW_CHILDREN", "maybe"}})), OptionError);
    BOOST_CHECK_THROW(options_from_environment(from({{"GPUCHRONO_RUN_RESERVOIR", "3"}})), OptionError);
}

BOOST_AUTO_TEST_CASE(bench_leaves_parts_out_by_name_and_unknown_parts_are_refused) {
    BOOST_TEST(!options_from_environment(from({})).left_out.any());
    const LeftOut l = options_from_environment(from({{"GPUCHRONO_RUN_BENCH_LEAVE_OUT", "memset,periodic,,tables"}})).left_out;
    BOOST_TEST((l.memset && l.periodic && l.tables));
    BOOST_TEST((!l.device && !l.memcpy && !l.overhead && !l.nvtx && !l.recycle));
    BOOST_TEST(left_out_text(l) == "memset,periodic,tables");
    const LeftOut all = left_out_from("x", "recycle,device,memcpy,memset,overhead,periodic,nvtx,tables");
    BOOST_TEST(left_out_text(all) == "device,memcpy,memset,overhead,periodic,nvtx,tables,recycle");
    BOOST_TEST(!left_out_from("x", "").any());
    try {
        options_from_environment(from({{"GPUCHRONO_RUN_BENCH_LEAVE_OUT", "memcpy,kernels"}}));
        BOOST_FAIL("no error");
    } catch (const OptionError& e) {
        const std::string what = e.what();
        BOOST_TEST(what.find("GPUCHRONO_RUN_BENCH_LEAVE_OUT") != std::string::npos, what);
        BOOST_TEST(what.find("'kernels'") != std::string::npos, what);
        BOOST_TEST(what.find("periodic") != std::string::npos, what);
    }
    // The command never sets it: a bench's setting reaches the program from the bench's own environment.
    for (const auto& [name, value] : options_to_environment(RunOptions{})) BOOST_TEST(name != "GPUCHRONO_RUN_BENCH_LEAVE_OUT");
}

BOOST_AUTO_TEST_SUITE_END()
