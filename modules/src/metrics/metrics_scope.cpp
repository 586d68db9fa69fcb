// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/metrics/metrics_scope.hpp>

#include "detail/collection_plan.hpp"
#include "detail/one_session.hpp"
#include "detail/range_session.hpp"

#include <stdexcept>

namespace gpuchrono::metrics {

MetricsScope::MetricsScope(std::vector<std::string> metrics, int device, std::size_t max_kernels) {
    auto plan = detail::prepare_collection(metrics, device);
    claim_ = std::make_unique<detail::OneSession>();
    session_ = std::make_unique<detail::RangeSession>(std::move(plan), max_kernels);
}

MetricsScope::~MetricsScope() = default;  // RangeSession's destructor never throws; the claim goes after it

MetricsResult MetricsScope::stop() {
    if (!session_) throw std::logic_error("MetricsScope::stop(): the scope was already stopped");
    struct Close {
        MetricsScope* s;
        ~Close() {
            s->session_.reset();
            s->claim_.reset();
        }
    } close{this};
    return session_->finish();
}

}  // namespace gpuchrono::metrics
