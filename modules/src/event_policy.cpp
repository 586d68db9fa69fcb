#include <gpuchrono/cuda_error.hpp>
#include <gpuchrono/device.hpp>
#include <gpuchrono/event_policy.hpp>

#include <memory>
#include <optional>
#include <string>

namespace gpuchrono {

namespace {

std::string on_device(const char* what, int device) { return std::string(what) + " on device " + std::to_string(device); }

Duration elapsed(const EventLease& start, const EventLease& stop) {
    GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(stop.get()), on_device("waiting for the EventPolicy stop event", stop.device()));
    float ms = 0.0f;
    GPUCHRONO_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()),
                         on_device("reading the EventPolicy interval", stop.device()));
    return Duration::from_ms(static_cast<double>(ms));
}

// Keeps the two events out of the pool until the interval has been read; caches the value so that copies of
// one pending Measurement read the events once.
class PendingEventInterval final : public detail::PendingInterval {
public:
    PendingEventInterval(EventLease start, EventLease stop) : start_(std::move(start)), stop_(std::move(stop)) {}

    Duration resolve() override {
        if (!value_) {
            value_ = elapsed(start_, stop_);
            start_ = EventLease();
            stop_ = EventLease();
        }
        return *value_;
    }

private:
    EventLease start_;
    EventLease stop_;
    std::optional<Duration> value_;
};

}  // namespace

EventPolicy::EventPolicy(cudaStream_t stream, Options options)
    : stream_(stream), device_(stream_device(stream)), options_(options) {}

void EventPolicy::start() {
    start_ = EventPool::instance().acquire(device_);
    stop_ = EventPool::instance().acquire(device_);
    GPUCHRONO_CUDA_CHECK(cudaEventRecord(start_.get(), stream_), on_device("recording the EventPolicy start event", device_));
}

Measurement EventPolicy::stop() {
    if (!start_ || !stop_) throw TimerError("gpuchrono: EventPolicy::stop() without start()");
    GPUCHRONO_CUDA_CHECK(cudaEventRecord(stop_.get(), stream_), on_device("recording the EventPolicy stop event", device_));
    if (options_.wait_at_stop) return Measurement::completed(name, elapsed(start_, stop_), device_);
    return Measurement::pending(name, std::make_shared<PendingEventInterval>(std::move(start_), std::move(stop_)), device_);
}

}  // namespace gpuchrono
