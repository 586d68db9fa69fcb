#include <gpuchrono/metrics/metrics_scope.hpp>

#include "detail/collection_plan.hpp"
#include "detail/range_session.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

namespace gpuchrono::metrics {

namespace {
// CUPTI's range profiler allows one session per context; a second scope would get CUPTI's less clear refusal.
std::atomic<bool> scope_open{false};
}  // namespace

MetricsScope::MetricsScope(std::vector<std::string> metrics, int device, std::size_t max_kernels) {
    auto plan = detail::prepare_collection(metrics, device);
    if (scope_open.exchange(true))
        throw std::runtime_error("hardware metrics: another MetricsScope (or measure() with metrics) is open in this "
                                 "process: CUPTI profiles one session at a time; stop the other first");
    try {
        session_ = std::make_unique<detail::RangeSession>(std::move(plan), max_kernels);
    } catch (...) {
        scope_open = false;
        throw;
    }
}

MetricsScope::~MetricsScope() {
    if (!session_) return;
    session_.reset();  // RangeSession's destructor never throws
    scope_open = false;
}

MetricsResult MetricsScope::stop() {
    if (!session_) throw std::logic_error("MetricsScope::stop(): the scope was already stopped");
    struct Close {
        MetricsScope* s;
        ~Close() {
            s->session_.reset();
            scope_open = false;
        }
    } close{this};
    return session_->finish();
}

namespace detail {

MetricsResult collect_metrics_of(const std::vector<std::string>& metrics, int device,
                                 const std::function<void()>& one_pass, const std::function<void()>& before_pass,
                                 std::size_t max_kernels) {
    const char* mode = std::getenv("GPUCHRONO_METRICS_REPLAY");
    if (mode && std::string_view(mode) == "kernel") {
        if (before_pass) before_pass();
        if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
            (void)cudaGetLastError();
            throw std::runtime_error(std::string("hardware metrics: the work before the scope failed: ") +
                                     cudaGetErrorName(e));
        }
        MetricsScope scope(metrics, device, max_kernels);
        one_pass();
        return scope.stop();
    }
    auto plan = prepare_collection(metrics, device);
    if (scope_open.exchange(true))
        throw std::runtime_error("hardware metrics: another MetricsScope (or measure() with metrics) is open in this "
                                 "process: CUPTI profiles one session at a time; stop the other first");
    struct Close {
        ~Close() { scope_open = false; }
    } close;
    RangeSession session(std::move(plan), max_kernels, Replay::user);
    session.run_passes(one_pass, before_pass);
    return session.finish();
}

}  // namespace detail

}  // namespace gpuchrono::metrics
