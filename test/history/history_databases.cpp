// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "history_databases.hpp"

#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

namespace history_test {
namespace fs = std::filesystem;
namespace {

int run(const std::string& command) {
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string quoted(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

fs::path unique_temp(const std::string& stem) {
    static std::atomic<int> counter{0};
    std::random_device random;
    return fs::temp_directory_path() /
           (stem + "-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + "-" + std::to_string(random()));
}

// The folder of initdb and pg_ctl: GPUCHRONO_POSTGRESQL_BIN, else the newest /usr/lib/postgresql/N/bin.
std::optional<fs::path> server_binaries() {
    if (const char* env = std::getenv("GPUCHRONO_POSTGRESQL_BIN"); env && *env) return fs::path(env);
    std::optional<fs::path> best;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
        const fs::path bin = entry.path() / "bin";
        if (fs::exists(bin / "initdb") && fs::exists(bin / "pg_ctl") && (!best || bin > *best)) best = bin;
    }
    return best;
}

int free_port() {
    const int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof a;
    if (s < 0 || bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        getsockname(s, reinterpret_cast<sockaddr*>(&a), &length) != 0)
        throw std::runtime_error("cannot find a free port on 127.0.0.1");
    const int port = ntohs(a.sin_port);
    close(s);
    return port;
}

class Server {
public:
    Server() {
        const auto bin = server_binaries();
        if (!bin) {
            std::printf("skipped: no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or "
                        "GPUCHRONO_POSTGRESQL_BIN: install Debian's postgresql to run these tests\n");
            std::fflush(stdout);
            std::exit(77);
        }
        bin_ = *bin;
        folder_ = unique_temp("gpuchrono-postgresql");
        fs::create_directories(folder_);
        // PostgreSQL refuses to run as root: the server and its folder belong to `nobody` then.
        if (geteuid() == 0) {
            const passwd* nobody = getpwnam("nobody");
            if (!nobody) throw std::runtime_error("running as root, and there is no user 'nobody' to run PostgreSQL as");
            if (chown(folder_.c_str(), nobody->pw_uid, nobody->pw_gid) != 0)
                throw std::runtime_error("cannot give " + folder_.string() + " to the user nobody");
            as_ = "runuser -u nobody -- ";
        }
        port_ = free_port();
        const std::string data = (folder_ / "data").string();
        const std::string log = (folder_ / "server.log").string();
        if (run("cd / && " + as_ + quoted((bin_ / "initdb").string()) + " -D " + quoted(data) +
                " -A trust -U gpuchrono --no-sync -E UTF8 > " + quoted((folder_ / "initdb.log").string()) + " 2>&1") != 0)
            throw std::runtime_error("initdb failed: see " + (folder_ / "initdb.log").string());
        const std::string options = "-p " + std::to_string(port_) + " -k " + folder_.string() +
                                    " -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=64";
        if (run("cd / && " + as_ + quoted((bin_ / "pg_ctl").string()) + " -D " + quoted(data) + " -l " + quoted(log) +
                " -o " + quoted(options) + " -w -t 60 start > /dev/null 2>&1") != 0)
            throw std::runtime_error("pg_ctl could not start PostgreSQL: see " + log);
        started_ = true;
    }
    ~Server() {
        if (started_)
            run("cd / && " + as_ + quoted((bin_ / "pg_ctl").string()) + " -D " + quoted((folder_ / "data").string()) +
                " -m fast -w stop > /dev/null 2>&1");
        std::error_code ec;
        fs::remove_all(folder_, ec);
    }

    std::string create_database() {
        const std::string name = "history_" + std::to_string(++databases_);
        const std::string createdb = (bin_ / "createdb").string();
        if (run(quoted(createdb) + " -h 127.0.0.1 -p " + std::to_string(port_) + " -U gpuchrono " + name +
                " > /dev/null 2>&1") != 0)
            throw std::runtime_error("createdb " + name + " failed on the test's PostgreSQL server");
        return "postgresql://gpuchrono@127.0.0.1:" + std::to_string(port_) + "/" + name;
    }

private:
    fs::path bin_, folder_;
    std::string as_;
    int port_ = 0;
    int databases_ = 0;
    bool started_ = false;
};

}  // namespace

TempFolder::TempFolder() : path_(unique_temp("gpuchrono-history-test")) { fs::create_directories(path_); }
TempFolder::~TempFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

std::string fresh_database(Backend backend, const TempFolder& folder) {
    if (backend == Backend::sqlite) {
        static std::atomic<int> n{0};
        return (folder.path() / ("history-" + std::to_string(n++) + ".db")).string();
    }
    static Server server;  // started on first use, stopped at exit
    return server.create_database();
}

namespace {
std::vector<fs::path> data_candidates() {
    std::vector<fs::path> out;
    if (const char* env = std::getenv("GPUCHRONO_SHARED_DATA"); env && *env) out.emplace_back(env);
    out.push_back(fs::path(GPUCHRONO_SOURCE_DIR) / "shared" / "data");
    out.push_back(fs::path(GPUCHRONO_SOURCE_DIR).parent_path() / "shared" / "data");
    return out;
}
constexpr const char* archive = "history-h100-2026-11-27.tar.gz";
}  // namespace

std::string data_searched() {
    std::string s;
    for (const auto& c : data_candidates()) s += (s.empty() ? "" : ", ") + (c / archive).string();
    return s;
}

fs::path replay_data() {
    static const std::unique_ptr<TempFolder> unpacked = [] {
        for (const auto& c : data_candidates()) {
            if (!fs::exists(c / archive)) continue;
            auto folder = std::make_unique<TempFolder>();
            if (run("tar xzf " + quoted((c / archive).string()) + " -C " + quoted(folder->path().string())) != 0)
                throw std::runtime_error("cannot unpack " + (c / archive).string());
            return folder;
        }
        return std::unique_ptr<TempFolder>();
    }();
    return unpacked ? unpacked->path() : fs::path();
}

}  // namespace history_test
