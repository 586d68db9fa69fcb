// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono run [options] -- PROGRAM ARGS...: starts PROGRAM with libgpuchrono_inject.so (CUDA_INJECTION64_PATH)
// and the options in GPUCHRONO_RUN_* variables (run/run_options.hpp), waits for it, and exits with its exit
// status. The program's process writes the report (DIR/report.json, the table on stderr); this side checks
// what can be checked before (the injection library is there and fits the driver) and says what happened
// after (no CUDA work, a crash).
//
// Exit status: the program's; 128 + N when signal N ended it; 125 when run itself failed (bad options, the
// injection library missing or for another CUDA major); 126 the program cannot be executed; 127 not found.
#include "run/run_options.hpp"
#include "run/run_report.hpp"

#include <gpuchrono/distributed/rank_identity.hpp>
#include <gpuchrono/report/json/report_json.hpp>

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include <gpuchrono/api.hpp>

#include "commands.hpp"

namespace {

namespace fs = std::filesystem;

constexpr int run_failed = 125;

void say(const std::string& text) { std::fprintf(stderr, "gpuchrono run: %s\n", text.c_str()); }

int usage(std::FILE* to) {
    std::fputs(
        "usage: gpuchrono run [options] -- PROGRAM ARGS...\n"
        "  runs PROGRAM unchanged and records every kernel, memcpy, memset and NVTX range it runs on the GPU\n"
        "  (CUPTI activity records); writes DIR/report.json and prints the top kernels on stderr at exit.\n"
        "  -o, --output DIR     the reports' folder (default gpuchrono-run)\n"
        "  --format LIST        json,csv,html,perfetto (json always; html and perfetto write DIR/report-files/)\n"
        "  --kernels REGEX      record only kernels whose demangled name matches\n"
        "  --nvtx RANGE         record only work launched inside NVTX range RANGE\n"
        "  --delay S            start recording S seconds after the program starts CUDA\n"
        "  --duration S         record for S seconds\n"
        "  --signals            start paused; SIGUSR1 starts recording, SIGUSR2 stops it\n"
        "  --split-by-shape     one row per kernel name and grid/block\n"
        "  --reservoir N        samples kept per kernel for the median, its CI and p95 (default 4096)\n"
        "  --top N              rows of the table on stderr (default 10; 0: none)\n"
        "  --trace [N]          keep up to N activities (default 1000000) for the Perfetto trace\n"
        "  --flush-ms MS        how often the report on disk is brought up to date (10..1000, default 1000)\n"
        "  --follow-children    record child processes too (report-pid<P>.json each)\n"
        "  --no-nvtx            no NVTX ranges: CUPTI's NVTX support is not loaded into the program\n"
        "  Every option has a GPUCHRONO_RUN_* variable (docs/run.md) for programs started by a launcher.\n"
        "  exit status: the program's; 128+N if signal N ended it; 125 run failed; 126 not executable; 127 not found.\n",
        to);
    return to == stdout ? 0 : run_failed;
}

fs::path own_folder() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path(".") : exe.parent_path();
}

// $GPUCHRONO_INJECT_LIBRARY, else beside this program (build tree: modules/tools/ -> modules/; installed:
// bin/ -> lib/).
fs::path find_injection(std::vector<fs::path>& looked) {
    if (const char* v = std::getenv("GPUCHRONO_INJECT_LIBRARY"); v && *v) {
        looked.emplace_back(v);
        return fs::exists(v) ? fs::absolute(v) : fs::path();
    }
    const fs::path here = own_folder();
#ifdef GPUCHRONO_INSTALL_LIBDIR
    const fs::path installed = here.parent_path() / GPUCHRONO_INSTALL_LIBDIR / "libgpuchrono_inject.so";
#else
    const fs::path installed = here.parent_path() / "lib" / "libgpuchrono_inject.so";
#endif
    for (const fs::path& p : {here / "libgpuchrono_inject.so", here.parent_path() / "libgpuchrono_inject.so", installed,
                              here.parent_path() / "lib" / "libgpuchrono_inject.so",
                              here.parent_path() / "lib64" / "libgpuchrono_inject.so"}) {
        looked.push_back(p);
        if (fs::exists(p)) return fs::canonical(p);
    }
    return {};
}

// The CUDA version the installed driver supports (13000 = 13.0), 0 when there is no driver.
int driver_version() {
    void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!cuda) return 0;
    using GetVersion = int (*)(int*);
    int v = 0;
    if (auto f = reinterpret_cast<GetVersion>(dlsym(cuda, "cuDriverGetVersion")); f && f(&v) != 0) v = 0;
    return v;
}

const char* signal_name(int sig) {
    const char* d = strsignal(sig);
    return d ? d : "unknown signal";
}

pid_t child = -1;

// Signals sent to run (kill, a batch system) go on to the program. One the terminal sent (Ctrl-C) reached the
// program's process group already: forwarding it would deliver it twice.
void forward(int sig, siginfo_t* info, void*) {
    if (child > 0 && info && info->si_code <= 0) kill(child, sig);
}

}  // namespace

int run_main(int argc, char** argv) try {
    std::vector<std::string> args(argv + 1, argv + argc);
    gpuchrono::run::RunCommand c;
    try {
        c = gpuchrono::run::parse_run_arguments(args);
    } catch (const gpuchrono::run::OptionError& e) {
        say(e.what());
        return usage(stderr);
    }
    if (c.help) return usage(stdout);

    std::vector<fs::path> looked;
    const fs::path injection = find_injection(looked);
    if (injection.empty()) {
        std::string where;
        for (const auto& p : looked) where += "\n  " + p.string();
        say("the injection library libgpuchrono_inject.so is missing; looked for it at:" + where +
            "\n  build the target gpuchrono_inject, or set GPUCHRONO_INJECT_LIBRARY to its path");
        return run_failed;
    }
    void* library = dlopen(injection.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        say(std::string("cannot load the injection library ") + injection.string() + ": " + dlerror() +
            "\n  it links the CUPTI of the CUDA toolkit it was built with; put that toolkit's lib64 folder on "
            "LD_LIBRARY_PATH, or use a gpuchrono built for the CUDA installed here");
        return run_failed;
    }
    using Major = int (*)();
    using Path = const char* (*)();
    const auto major = reinterpret_cast<Major>(dlsym(library, "gpuchrono_inject_cuda_major"));
    const auto cupti = reinterpret_cast<Path>(dlsym(library, "gpuchrono_inject_cupti_path"));
    if (!major || !cupti || !dlsym(library, "InitializeInjection")) {
        say(injection.string() + " is not gpuchrono's injection library (it lacks InitializeInjection)");
        return run_failed;
    }
    const int built_for = major();
    const std::string cupti_path = cupti();
    if (const int driver = driver_version(); driver == 0) {
        say("no CUDA driver found (libcuda.so.1): the program runs, but it cannot start CUDA, so nothing will be recorded");
    } else if (driver / 1000 < built_for) {
        say("the injection library is built for CUDA " + std::to_string(built_for) + ", but the driver supports only CUDA " +
            std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10) +
            ": use a gpuchrono built with a CUDA " + std::to_string(driver / 1000) + " toolkit, or update the driver");
        return run_failed;
    }

    const fs::path folder = c.options.output;
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) {
        say("cannot create the output folder " + folder.string() + ": " + ec.message());
        return run_failed;
    }
    std::string file_name = "report.json";
    try {
        file_name = gpuchrono::run::report_file_name(gpuchrono::distributed::identity_from_environment(), true);
    } catch (const std::exception&) {
    }
    const fs::path report_file = folder / file_name;
    // Another tool's injection library (Nsight Systems started run, or the variable was left set): CUDA loads
    // one only, and taking its place would break that tool. The program runs as that tool set it up.
    std::string other_tool;
    if (const char* v = std::getenv("CUDA_INJECTION64_PATH"); v && *v) {
        std::error_code same;
        if (!fs::equivalent(v, injection, same)) other_tool = v;
    }
    if (!other_tool.empty())
        say("another tool's injection library is set (CUDA_INJECTION64_PATH=" + other_tool +
            "): CUDA loads one only, so the program runs with that tool's and gpuchrono records nothing");
    // Beside the injection: the library that names another CUPTI user of the program (cupti_watch.cpp). Without it
    // the program runs as well, and such a tool is left to report its own refusal.
    const fs::path watch = injection.parent_path() / "libgpuchrono_run_watch.so";
    const bool watching = other_tool.empty() && fs::exists(watch, ec);
    if (other_tool.empty() && !watching)
        say(watch.string() + " is missing: a profiler the program starts itself will be refused CUPTI without "
            "gpuchrono run naming it");
    fs::remove(report_file, ec);  // a report left by an earlier run must not pass for this one's
    std::string command;
    for (const auto& a : c.program) command += (command.empty() ? "" : " ") + a;

    int exec_error[2];
    if (pipe2(exec_error, O_CLOEXEC) != 0) {
        say(std::string("cannot create a pipe: ") + std::strerror(errno));
        return run_failed;
    }
    const auto started = fs::file_time_type::clock::now();
    std::fflush(nullptr);
    child = fork();
    if (child < 0) {
        say(std::string("cannot fork: ") + std::strerror(errno));
        return run_failed;
    }
    if (child == 0) {
        close(exec_error[0]);
        gpuchrono::run::RunOptions o = c.options;
        o.root_pid = static_cast<long>(getpid());
        o.output = fs::absolute(folder).string();  // the program may change its working folder
        if (other_tool.empty()) {
            for (const auto& [name, value] : gpuchrono::run::options_to_environment(o)) setenv(name.c_str(), value.c_str(), 1);
            setenv("CUDA_INJECTION64_PATH", injection.c_str(), 1);
            if (watching) {
                const char* preload = std::getenv("LD_PRELOAD");
                const std::string list = watch.string() + (preload && *preload ? std::string(":") + preload : std::string());
                setenv("LD_PRELOAD", list.c_str(), 1);
            }
            if (c.nvtx && !cupti_path.empty()) setenv("NVTX_INJECTION64_PATH", cupti_path.c_str(), 0);
        }
        std::vector<char*> program;
        for (auto& a : c.program) program.push_back(a.data());
        program.push_back(nullptr);
        execvp(program[0], program.data());
        const int e = errno;
        (void)!write(exec_error[1], &e, sizeof e);
        _exit(127);
    }
    close(exec_error[1]);
    struct sigaction a {};
    a.sa_sigaction = forward;
    a.sa_flags = SA_SIGINFO;
    sigemptyset(&a.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2}) sigaction(sig, &a, nullptr);

    int e = 0;
    ssize_t got;
    do got = read(exec_error[0], &e, sizeof e);
    while (got < 0 && errno == EINTR);
    close(exec_error[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) {
            say(std::string("lost the program: ") + std::strerror(errno));
            return run_failed;
        }
    }
    if (got == static_cast<ssize_t>(sizeof e)) {
        say(c.program[0] + ": " + std::strerror(e));
        return e == ENOENT ? 127 : 126;
    }

    const bool exists = fs::exists(report_file);
    // Reports of followed children or of ranks under a launcher started through run, written during this run.
    std::vector<std::string> others;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("report-", 0) == 0 && entry.path().extension() == ".json" && entry.last_write_time(ec) >= started)
            others.push_back(name);
    }
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        say("the program was ended by signal " + std::to_string(sig) + " (" + signal_name(sig) + ")" +
            (exists ? "; " + report_file.string() + " holds what was recorded up to then" +
                          (sig == SIGINT || sig == SIGTERM ? "" : " (at most one flush period old, marked incomplete)")
                    : "; no report was written before it ended"));
        return 128 + sig;
    }
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : run_failed;
    if (!exists && !other_tool.empty()) {
        try {
            gpuchrono::run::RunInfo info;
            info.complete = false;
            info.status_note = "not recorded: another tool's injection library was set (CUDA_INJECTION64_PATH)";
            info.command = command;
            gpuchrono::report::save_report(gpuchrono::run::build_report(gpuchrono::run::Aggregate(), info), report_file);
        } catch (const std::exception& x) {
            say(std::string("cannot write the report: ") + x.what());
        }
    } else if (!exists && !others.empty()) {
        say("the program itself did no CUDA work; " + std::to_string(others.size()) + " of its processes wrote reports into " +
            folder.string() + " (" + others.front() + (others.size() > 1 ? ", ..." : "") +
            "); gpuchrono merge combines the reports of a job's ranks");
    } else if (!exists) {
        try {
            gpuchrono::report::save_report(
                gpuchrono::run::no_cuda_report(command, "the program never started CUDA (the CUDA driver never loaded "
                                                        "the injection library): there is no GPU work to report"),
                report_file);
            say("the program did no CUDA work (it never initialized CUDA); " + report_file.string() + " says so");
        } catch (const std::exception& x) {
            say(std::string("the program did no CUDA work, and the report saying so cannot be written: ") + x.what());
        }
    } else {
        try {
            if (!gpuchrono::run::run_complete(gpuchrono::report::load_report(report_file)))
                say(report_file.string() + " is marked incomplete: the program ended without running its exit handlers");
        } catch (const std::exception& x) {
            say(report_file.string() + " cannot be read: " + x.what());
        }
    }
    return code;
} catch (const std::exception& e) {
    say(e.what());
    return run_failed;
}
