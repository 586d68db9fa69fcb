// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A commit's facts from git, run as a child process with its arguments as given (no shell between).
#include "history/ingest.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

extern char** environ;

namespace gpuchrono::history {
namespace {

// git's standard output when it exits 0; nullopt when it cannot start or fails (its errors are not shown: a
// folder outside a repository is an ordinary case the caller reports in its own words).
std::optional<std::string> git(const std::filesystem::path& folder, std::vector<std::string> args) {
    args.insert(args.begin(), {"git", "-C", folder.string()});
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    int out[2];
    if (pipe(out) != 0) return std::nullopt;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", 0, 0);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, "git", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    std::string text;
    if (spawned == 0) {
        char buffer[4096];
        for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
    }
    close(out[0]);
    if (spawned != 0) return std::nullopt;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
}

}  // namespace

std::optional<CommitInfo> commit_from_git(const std::filesystem::path& folder, const std::string& revision) {
    // The -- ends revisions: a revision that looks like an option is refused by git, not obeyed.
    const auto line = git(folder, {"log", "-1", "--format=%H%x1f%aI%x1f%s", "--end-of-options", revision, "--"});
    if (!line) return std::nullopt;
    CommitInfo c;
    const auto first = line->find('\x1f'), second = line->find('\x1f', first + 1);
    if (first == std::string::npos || second == std::string::npos) return std::nullopt;
    c.hash = line->substr(0, first);
    c.author_time = line->substr(first + 1, second - first - 1);
    c.subject = line->substr(second + 1);
    if (const auto count = git(folder, {"rev-list", "--count", "--end-of-options", c.hash}))
        c.graph_position = std::strtoll(count->c_str(), nullptr, 10);
    // HEAD's branch is this commit's only when HEAD is this commit; an older commit's branch is not known here.
    if (const auto head = git(folder, {"rev-parse", "HEAD"}); head && *head == c.hash)
        if (const auto branch = git(folder, {"rev-parse", "--abbrev-ref", "HEAD"}); branch && *branch != "HEAD")
            c.branch = *branch;
    return c;
}

}  // namespace gpuchrono::history
