// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Method::graph: the callable captured once into a CUDA graph of N calls, the graph replayed, and each replay's
// event interval divided by N. Inside a graph the launches cost the GPU about 0.83 us each and the host nothing
// (docs/pitfalls-catalog.md, other H100 figures), so a D-us kernel reads D + 0.85..0.88 us, within a few ns of its CUPTI
// activity record; the replay's own start-up is shared by N calls. N is chosen so a replay lasts about
// graph_replay_time (200 us: N = 107 for a 1 us kernel), with at least 64 calls (so 64 for 10 and 100 us)
// unless a replay would pass 10 ms (10 calls of 1 ms), and at most 1000.
//
// Capture: a callable that takes the stream is captured on a private non-blocking stream (the user's stream
// is left alone, and may be the legacy default stream, which cannot be captured); one that does not is
// captured on the user's stream, which it must launch on. Capture is thread-local: a callable that
// synchronises, allocates or queries the stream invalidates it, and the error CUDA gives is in the refusal.
// With a cold cache every replay holds one call, after the flush (a flush inside the graph would be timed).
#include "sample_method.hpp"

#include "gpu/lead_spin.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/gpu/stream.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <memory>
#include <optional>
#include <string>

namespace gpuchrono::detail {

namespace {

constexpr double max_calls_per_graph = 1000;
// A replay's own start costs the GPU 1.3-2.1 us beside the calls (an H100: graph of N 100 us spins read
// D + 1.98 us per call with N = 2, D + 0.93 us with N = 100), shared by its N calls: at least 64 calls keep
// that share near 30 ns. Replays of long calls stop at 10 ms, where the share is below 0.02%.
constexpr double min_calls_per_graph = 64;
constexpr Duration max_replay_time = Duration::from_ms(10);

unsigned default_calls(Duration replay_time, Duration per_call) {
    const double by_time = std::round(replay_time / per_call);
    const double longest = std::max(1.0, std::floor(max_replay_time / per_call));
    return static_cast<unsigned>(std::clamp(std::min(std::max(by_time, min_calls_per_graph), longest), 1.0, max_calls_per_graph));
}

class PrivateStream {
public:
    PrivateStream() {
        GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking),
                             "creating the private stream measure() captures the callable on");
    }
    ~PrivateStream() { (void)cudaStreamDestroy(stream_); }
    PrivateStream(const PrivateStream&) = delete;
    PrivateStream& operator=(const PrivateStream&) = delete;
    cudaStream_t get() const noexcept { return stream_; }

private:
    cudaStream_t stream_ = nullptr;
};

struct GraphDeleter {
    void operator()(cudaGraph_t g) const noexcept { (void)cudaGraphDestroy(g); }
};

class GraphMethod final : public SampleMethod {
public:
    explicit GraphMethod(const MethodSetup& s) : setup_(s) {
        if (s.flush)
            calls_ = 1;
        else if (s.options.calls_per_graph > 0)
            calls_ = s.options.calls_per_graph;
        else
            calls_ = default_calls(s.options.graph_replay_time, s.per_call);
        build();
    }

    ~GraphMethod() override {
        if (exec_) (void)cudaGraphExecDestroy(exec_);
    }

    Method method() const noexcept override { return Method::graph; }
    unsigned calls_per_sample() const noexcept override { return calls_; }

    std::string note() const override {
        std::string n = "graph of " + std::to_string(calls_) + (calls_ == 1 ? " call" : " calls") + " per replay";
        if (setup_.flush) n += " (cold L2: one call per replay, the flush before it)";
        n += setup_.takes_stream ? ", captured on a private stream" : ", captured on the measured stream";
        return n;
    }

    void take(std::size_t count, std::vector<Duration>& out) override {
        pairs_.reserve(count);
        const cudaStream_t stream = setup_.stream;
        // Untimed: the timed replays queue behind it (lead_spin.hpp).
        if (!setup_.flush) queue_lead(stream, setup_.device, setup_.per_call * static_cast<double>(calls_), [&] { launch_graph(); });
        for (std::size_t i = 0; i < count; ++i) {
            if (setup_.flush) setup_.flush->enqueue(stream);
            GPUCHRONO_CUDA_CHECK(cudaEventRecord(pairs_.start(i), stream), "recording a replay's start event");
            launch_graph();
            GPUCHRONO_CUDA_CHECK(cudaEventRecord(pairs_.stop(i), stream), "recording a replay's stop event");
        }
        pairs_.read(count, static_cast<double>(calls_), out);
    }

private:
    void launch_graph() { GPUCHRONO_CUDA_CHECK(cudaGraphLaunch(exec_, setup_.stream), "replaying the measured graph"); }

    [[noreturn]] void refuse(cudaError_t code, const char* call, const std::string& why) const {
        throw CudaError(code, call,
                        "measure(\"" + std::string(setup_.name) + "\"): the callable cannot be captured into a CUDA graph" +
                            why + "; measure it with Method::event or Method::host");
    }

    void build() {
        std::optional<PrivateStream> own;
        cudaStream_t capture_on = setup_.stream;
        if (setup_.takes_stream) {
            own.emplace();
            capture_on = own->get();
        } else if (is_legacy_default_stream(setup_.stream)) {
            throw std::invalid_argument(
                "measure(\"" + std::string(setup_.name) +
                "\"): Method::graph cannot capture the legacy default stream, and the callable takes no stream to be "
                "given another; pass a callable taking a cudaStream_t, or measure on a stream of your own");
        }
        (void)cudaGetLastError();  // an earlier, unrelated launch error must not be blamed on the capture
        GPUCHRONO_CUDA_CHECK(cudaStreamBeginCapture(capture_on, cudaStreamCaptureModeThreadLocal),
                             "beginning to capture the measured callable");
        cudaGraph_t raw = nullptr;
        const auto abandon_capture = [&] {
            (void)cudaStreamEndCapture(capture_on, &raw);
            if (raw) (void)cudaGraphDestroy(raw);
            (void)cudaGetLastError();
        };
        try {
            for (unsigned i = 0; i < calls_; ++i) setup_.launch(capture_on);
        } catch (const CudaError& e) {
            // A CUDA call of the callable failed under capture (typically a launch after the capture was
            // invalidated by a synchronisation): that is the refusal, with the callable's own error.
            abandon_capture();
            refuse(e.code(), e.call().c_str(), std::string(": a call inside it failed while captured (") + e.what() + ")");
        } catch (...) {
            abandon_capture();
            throw;
        }
        const cudaError_t launched = cudaGetLastError();
        const cudaError_t ended = cudaStreamEndCapture(capture_on, &raw);
        std::unique_ptr<CUgraph_st, GraphDeleter> graph(raw);
        if (ended != cudaSuccess) {
            (void)cudaGetLastError();
            refuse(ended, "cudaStreamEndCapture(stream, &graph)",
                   launched != cudaSuccess ? std::string(" (a call inside it failed first with ") + cudaGetErrorName(launched) + ")"
                                           : std::string(" (it synchronised, allocated, queried the stream or used "
                                                         "another stream while captured)"));
        }
        if (launched != cudaSuccess) refuse(launched, "cudaGetLastError()", " (a launch inside the capture failed)");
        std::size_t nodes = 0;
        GPUCHRONO_CUDA_CHECK(cudaGraphGetNodes(graph.get(), nullptr, &nodes), "counting the captured graph's nodes");
        if (nodes == 0)
            throw std::invalid_argument(
                "measure(\"" + std::string(setup_.name) + "\"): capturing the callable recorded no work: it launched "
                "nothing on the stream being captured (" + std::string(setup_.takes_stream ? "the stream it was given"
                                                                                          : "the measured stream") +
                "); launch on that stream, or measure with Method::event");
        GPUCHRONO_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph.get(), 0), "instantiating the measured graph");
        // The first launch of an instantiated graph uploads it; done here, outside every sample.
        GPUCHRONO_CUDA_CHECK(cudaGraphUpload(exec_, setup_.stream), "uploading the measured graph");
    }

    MethodSetup setup_;
    unsigned calls_ = 1;
    cudaGraphExec_t exec_ = nullptr;
    EventPairs pairs_;
};

}  // namespace

std::unique_ptr<SampleMethod> make_graph_method(const MethodSetup& setup) { return std::make_unique<GraphMethod>(setup); }

}  // namespace gpuchrono::detail
