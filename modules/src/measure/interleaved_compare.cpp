// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// compare(fn_a, fn_b) on the GPU: warm-up of each side, the checks that refuse what cannot be compared, then
// rounds of interleaved blocks queued back to back and read with one wait per round, fed to the sequential test
// one block (one look) at a time. The timing of a sample is measure()'s: with the kernel method, the busy time of
// the CUPTI records between two marks on the stream, the samples of both sides in a round sharing one KernelBatch
// (one mark per sample, one wait and one CUPTI flush per round: policies/kernel/kernel_batch.hpp); with the event
// method, an event pair around the call. The L2 flush runs before each sample when cold, outside it; the first
// timed call of a round is queued behind an untimed one. The probe of each side, queued before the first round's
// blocks and read with them, times one call in a KernelPolicy scope of its own, whose findings say what the callable
// launched where.
#include <gpuchrono/measure/sequential_compare.hpp>

#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/gpu/gpu_state.hpp>
#include <gpuchrono/gpu/stream.hpp>
#include "gpu/l2_flush.hpp"
#include "measure/round_plan.hpp"
#include "measure/warmup.hpp"
#include <gpuchrono/core/nvtx_range.hpp>
#include <gpuchrono/cupti/cupti_hold.hpp>
#include <gpuchrono/policies/kernel/kernel_policy.hpp>

#include "methods/sample_method.hpp"
#include "gpu/lead_spin.hpp"
#include "policies/kernel/kernel_batch.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuchrono::detail {

namespace {

// The first round is the pilot; the rounds after it are planned by round_plan.hpp, within about 10 ms of GPU
// work (as measure()'s batches).
constexpr std::size_t first_round_blocks = 16;
constexpr Duration round_budget = Duration::from_ms(10);

std::string side_label(const std::string& name, char side) { return std::string("the callable ") + side + " (\"" + name + "\")"; }

// The user's callable, with what it throws named. CUDA errors stay CudaError (the entry point renames them).
LaunchFn guarded(const LaunchFn& launch, std::string label) {
    return [&launch, label = std::move(label)](cudaStream_t s) {
        try {
            launch(s);
        } catch (const CudaError&) {
            throw;
        } catch (const std::exception& e) {
            throw std::runtime_error("gpuchrono::compare: " + label + " threw: " + e.what() + "; no verdict");
        }
    };
}

class SideTimer {
public:
    SideTimer(cudaStream_t stream, const LaunchFn& launch, L2Flush* flush) : stream_(stream), launch_(launch), flush_(flush) {}
    virtual ~SideTimer() = default;
    // One timed call, queued (the flush before it, untimed, when cold).
    virtual void queue() = 0;
    // The samples queued since the last read, in order, in ns; waits for them.
    virtual void read(std::vector<double>& out_ns) = 0;
    // One untimed call, for the timed ones to queue behind.
    void untimed() { launch_(stream_); }

protected:
    cudaStream_t stream_;
    const LaunchFn& launch_;
    L2Flush* flush_;
};

// The kernel method's samples of one round, both sides': one KernelBatch on the stream, begun by the round's first
// sample and read once, by whichever side reads first; the next round's first sample begins a new one.
class KernelRound {
public:
    KernelRound(cudaStream_t stream, std::source_location where) : stream_(stream), where_(where) {}

    // Queues one sample (the flush before it, outside it, when cold); returns its index in the round.
    std::size_t queue(const LaunchFn& launch, L2Flush* flush) {
        if (!batch_ || read_) {
            batch_.reset();  // its window closes before the next opens
            read_ = false;
            try {
                batch_ = std::make_unique<KernelBatch>(stream_);
            } catch (const TimerError& e) {
                throw failed(e);
            }
        }
        if (flush) flush->enqueue(stream_);
        batch_->begin_sample(flush != nullptr);
        launch(stream_);
        batch_->end_sample();
        return batch_->samples() - 1;
    }

    // The round's samples, in the order queued; waits for them.
    const std::vector<Duration>& read() {
        if (!batch_) throw TimerError("gpuchrono::compare: a round read before any sample was queued (library bug)");
        if (read_) return batch_->read();
        read_ = true;
        const std::vector<Duration>* got = nullptr;
        try {
            got = &batch_->read();
        } catch (const TimerError& e) {
            throw failed(e);
        }
        if (holding_reports_)
            report_due_ = true;
        else
            report_no_activity(*batch_, CallSite::located(where_));
        return *got;
    }

    // The first round is read together with the probes (one wait, one CUPTI flush): its findings wait until the
    // probes are judged, so a side that launched nothing is refused rather than reported.
    void hold_reports() { holding_reports_ = true; }
    void report_held() {
        holding_reports_ = false;
        if (report_due_ && batch_) report_no_activity(*batch_, CallSite::located(where_));
        report_due_ = false;
    }

private:
    static TimerError failed(const TimerError& e) {
        return TimerError(std::string("gpuchrono::compare: a kernel-method sample failed: ") + e.what());
    }

    cudaStream_t stream_;
    std::source_location where_;  // the user's compare() call, which the round's findings name
    std::unique_ptr<KernelBatch> batch_;
    bool read_ = false;
    bool holding_reports_ = false;
    bool report_due_ = false;
};

class KernelSide final : public SideTimer {
public:
    KernelSide(cudaStream_t stream, const LaunchFn& launch, L2Flush* flush, std::shared_ptr<KernelRound> round)
        : SideTimer(stream, launch, flush), round_(std::move(round)) {}
    void queue() override { queued_.push_back(round_->queue(launch_, flush_)); }
    void read(std::vector<double>& out_ns) override {
        const std::vector<Duration>& round = round_->read();
        for (const std::size_t i : queued_) out_ns.push_back(round.at(i).ns());
        queued_.clear();
    }

private:
    CuptiHold hold_;  // one CUPTI set-up for every round of the comparison
    std::shared_ptr<KernelRound> round_;
    std::vector<std::size_t> queued_;  // this side's samples, by index in the round
};

class EventSide final : public SideTimer {
public:
    using SideTimer::SideTimer;
    void queue() override {
        pairs_.reserve(queued_ + 1);
        if (flush_) flush_->enqueue(stream_);
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(pairs_.start(queued_), stream_), "recording a sample's start event");
        launch_(stream_);
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(pairs_.stop(queued_), stream_), "recording a sample's stop event");
        ++queued_;
    }
    void read(std::vector<double>& out_ns) override {
        std::vector<Duration> d;
        pairs_.read(queued_, 1.0, d);
        queued_ = 0;
        for (const Duration x : d) out_ns.push_back(x.ns());
    }

private:
    EventPairs pairs_;
    std::size_t queued_ = 0;
};

class CaptureStream {
public:
    CaptureStream() { GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "creating compare()'s probe stream"); }
    ~CaptureStream() { (void)cudaStreamDestroy(s_); }
    CaptureStream(const CaptureStream&) = delete;
    CaptureStream& operator=(const CaptureStream&) = delete;
    cudaStream_t get() const noexcept { return s_; }

private:
    cudaStream_t s_ = nullptr;
};

// How many graph nodes one call records when captured on the stream it would launch on; nullopt when it cannot
// be captured (it synchronises or allocates: then this check cannot tell, and the event method times it
// anyway). For the event method, which sees no activity records: 0 nodes means it launched nothing on its stream.
std::optional<std::size_t> captured_work(const LaunchFn& launch, bool takes_stream, cudaStream_t stream) {
    std::optional<CaptureStream> own;
    cudaStream_t on = stream;
    if (takes_stream) {
        own.emplace();
        on = own->get();
    } else if (is_legacy_default_stream(stream)) {
        return std::nullopt;  // cannot be captured
    }
    (void)cudaGetLastError();
    if (cudaStreamBeginCapture(on, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
        (void)cudaGetLastError();
        return std::nullopt;
    }
    cudaGraph_t graph = nullptr;
    try {
        launch(on);
    } catch (...) {
        (void)cudaStreamEndCapture(on, &graph);
        if (graph) (void)cudaGraphDestroy(graph);
        (void)cudaGetLastError();
        throw;
    }
    const cudaError_t ended = cudaStreamEndCapture(on, &graph);
    std::optional<std::size_t> nodes;
    if (ended == cudaSuccess && graph) {
        std::size_t n = 0;
        if (cudaGraphGetNodes(graph, nullptr, &n) == cudaSuccess) nodes = n;
    }
    if (graph) (void)cudaGraphDestroy(graph);
    (void)cudaGetLastError();
    return nodes;
}

std::string no_work_message(const std::string& label, bool other_stream, const std::string& detail_text) {
    return "gpuchrono::compare: " + label +
           (other_stream ? " launched its work on another stream than the one it was given; launch on the stream "
                           "passed to it (or on SequentialCompareOptions::stream), so both sides are timed on one stream"
                         : " launched no GPU work on the stream it was given (no kernel, copy or set there: it launched "
                           "nothing, or only on another stream); a compare of it would time nothing") +
           (detail_text.empty() ? "" : " (" + detail_text + ")") + "; no verdict";
}

// The refusal of a side that cannot be timed by the method the other side is timed by.
std::invalid_argument untimeable(const std::string& label, Method method, const TimerError& e) {
    return std::invalid_argument("gpuchrono::compare: " + label + " cannot be timed by the " + std::string(to_string(method)) +
                                 " method the other side is timed by: " + e.what() + "; no verdict");
}

// What a side's probe found: refuses a side that launched nothing or only on another stream; returns a note for
// the result ("" for none).
std::string judge_probe(const Findings& found, const std::string& label) {
    for (const Finding& f : found) {
        if (f.code == codes::kernel_no_activity)
            throw std::invalid_argument(no_work_message(label, f.evidence_or("elsewhere", 0.0) > 0.0, f.message));
        // Work on other streams beside some on its own: the callable's, or another thread's meanwhile (stream-mode
        // attribution cannot tell which), so a note rather than a refusal.
        if (f.code == codes::kernel_activity_elsewhere)
            return label + "'s first sample saw work on other streams beside its own (" + f.message +
                   "): if the callable launches it, that work is not timed";
    }
    return {};
}

struct ProbedSide {
    const std::string& label;
    const LaunchFn& launch;
    bool takes_stream;
    SideTimer& timer;
};

// With the kernel method, one call of each side in a lazy KernelPolicy scope of its own, queued as a sample is
// (the flush before it when cold) before the first round's blocks, which it leads: its findings say whether the
// callable launched on the stream, elsewhere, or nothing. The first round's read waits for the probes too, so
// probes and round cost one wait and one CUPTI flush.
std::vector<Measurement> queue_kernel_probes(const std::array<ProbedSide, 2>& sides, cudaStream_t stream, L2Flush* flush) {
    std::vector<Measurement> queued;
    for (const ProbedSide& side : sides) {
        try {
            if (flush) flush->enqueue(stream);
            KernelPolicy::Options lazy;
            lazy.wait_at_stop = false;
            KernelPolicy scope(stream, lazy);
            scope.start();
            side.launch(stream);
            queued.push_back(scope.stop());
        } catch (const TimerError& e) {
            throw untimeable(side.label, Method::kernel, e);
        }
    }
    return queued;
}

// Reads the queued probes: refuses a side that launched nothing, launched on another stream, or cannot be timed by
// the kernel method; returns the notes for the result.
std::vector<std::string> judge_kernel_probes(std::vector<Measurement>& queued, const std::array<ProbedSide, 2>& sides) {
    const ScopedFindingReaction quiet(Reaction::collect);  // the probes' findings are turned into the refusals
    std::vector<std::string> notes;
    for (std::size_t i = 0; i < sides.size(); ++i) {
        try {
            if (queued[i].resolve() == Measurement::State::failed)
                throw TimerError("gpuchrono::compare: a kernel-method sample failed: " + queued[i].error());
        } catch (const TimerError& e) {
            throw untimeable(sides[i].label, Method::kernel, e);
        }
        if (std::string note = judge_probe(queued[i].findings(), sides[i].label); !note.empty()) notes.push_back(std::move(note));
    }
    return notes;
}

// With the event method, one timed sample of each side alone, before any block: refuses a side that launches
// nothing (a capture of one call records no node) or cannot be timed by the method.
void probe_by_events(const std::array<ProbedSide, 2>& sides, cudaStream_t stream) {
    const ScopedFindingReaction quiet(Reaction::collect);
    for (const ProbedSide& side : sides) {
        if (const std::optional<std::size_t> nodes = captured_work(side.launch, side.takes_stream, stream); nodes && *nodes == 0)
            throw std::invalid_argument(
                no_work_message(side.label, false, "a capture of one call on that stream recorded nothing"));
        std::vector<double> one;
        try {
            side.timer.queue();
            side.timer.read(one);
        } catch (const TimerError& e) {
            throw untimeable(side.label, Method::event, e);
        }
    }
}

SequentialComparison run(const LaunchFn& raw_a, bool a_takes_stream, const LaunchFn& raw_b, bool b_takes_stream,
                         const SequentialCompareOptions& options, std::source_location where) {
    const auto began = std::chrono::steady_clock::now();
    options.validate();
    const std::string label_a = side_label(options.name_a, 'A'), label_b = side_label(options.name_b, 'B');
    const LaunchFn a = guarded(raw_a, label_a), b = guarded(raw_b, label_b);
    const detail::NvtxRange range(("compare " + options.name_a + " / " + options.name_b).c_str());
    const cudaStream_t stream = options.stream;
    if (stream_is_capturing(stream))
        throw std::invalid_argument("gpuchrono::compare: the stream is being captured into a graph; compare() runs the "
                                    "work, so call it outside the capture");
    const int device = stream_device(stream);
    DeviceGuard on_device(device);

    std::string why_no_kernel;
    Method method = options.method;
    std::string note;
    // One hold of CUPTI for the choice and every round (CuptiHold); given back when compare() returns.
    std::optional<CuptiHold> cupti_hold;
    if (method == Method::automatic || method == Method::kernel) cupti_hold.emplace();
    if (method == Method::automatic) {
        method = kernel_method_available(&why_no_kernel) ? Method::kernel : Method::event;
        note = method == Method::kernel ? "automatic: kernel (CUPTI activity records) per call"
                                        : "automatic: event pairs (no kernel method: " + why_no_kernel + ")";
    } else if (method == Method::kernel && !kernel_method_available(&why_no_kernel)) {
        throw std::invalid_argument("gpuchrono::compare: Method::kernel cannot be used: " + why_no_kernel +
                                    "; choose Method::event or automatic");
    }

    std::optional<L2Flush> flush;
    if (options.cache == CacheState::cold) flush.emplace(device);

    MeasureOptions warm;
    warm.cache = options.cache;
    warm.warmup_min_time = options.warmup_min_time;
    warm.warmup_max_time = options.warmup_max_time;
    const WarmupRecord warm_a = warm_up(stream, device, a, warm);
    // B finds the clock A brought up: its first call and one slice (a sizing slice more below 50 us a call).
    const WarmupRecord warm_b = warm_up(stream, device, b, warm);

    std::array<std::unique_ptr<SideTimer>, 2> side;
    const auto round = method == Method::kernel ? std::make_shared<KernelRound>(stream, where) : nullptr;
    for (int i = 0; i < 2; ++i) {
        const LaunchFn& launch = i == 0 ? a : b;
        L2Flush* f = flush ? &*flush : nullptr;
        if (method == Method::kernel)
            side[i] = std::make_unique<KernelSide>(stream, launch, f, round);
        else
            side[i] = std::make_unique<EventSide>(stream, launch, f);
    }
    const std::array<ProbedSide, 2> probed{ProbedSide{label_a, a, a_takes_stream, *side[0]},
                                           ProbedSide{label_b, b, b_takes_stream, *side[1]}};
    std::vector<std::string> probe_notes;
    std::vector<Measurement> kernel_probes;
    if (method == Method::kernel) {
        kernel_probes = queue_kernel_probes(probed, stream, flush ? &*flush : nullptr);
        round->hold_reports();
    } else {
        probe_by_events(probed, stream);
    }

    SequentialTest test({options.threshold, options.confidence, options.pilot_blocks});
    std::mt19937_64 rng(options.seed ? options.seed : std::random_device{}());
    const double block_ns = 2.0 * (std::max(1.0, warm_a.per_call.ns()) + std::max(1.0, warm_b.per_call.ns()));
    const std::size_t most_per_round = static_cast<std::size_t>(std::max(1.0, std::floor(round_budget.ns() / block_ns)));
    std::size_t per_round = std::min(first_round_blocks, most_per_round);
    bool timed_out = false;
    const auto sampling_began = std::chrono::steady_clock::now();
    std::vector<double> got_a, got_b;
    while (!test.decided()) {
        if (Duration(std::chrono::steady_clock::now() - sampling_began) >= options.max_time) {
            timed_out = true;
            break;
        }
        // The probes, when queued just before, lead the first round.
        if (!flush && kernel_probes.empty()) queue_lead(stream, device, warm_a.per_call, [&] { side[0]->untimed(); });  // lead_spin.hpp
        for (std::size_t k = 0; k < per_round; ++k) {
            const bool a_first = (rng() & 1u) != 0;
            const int first = a_first ? 0 : 1;
            side[first]->queue();
            side[1 - first]->queue();
            side[1 - first]->queue();
            side[first]->queue();
        }
        GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the compared callables");
        got_a.clear();
        got_b.clear();
        side[0]->read(got_a);
        side[1]->read(got_b);
        if (!kernel_probes.empty()) {  // read by the round's wait and flush
            probe_notes = judge_kernel_probes(kernel_probes, probed);
            kernel_probes.clear();
            round->report_held();
        }
        for (std::size_t k = 0; k < per_round; ++k)
            if (test.add_block(std::span(got_a).subspan(2 * k, 2), std::span(got_b).subspan(2 * k, 2))) break;
        per_round = next_round_blocks(test, most_per_round);
    }
    if (!kernel_probes.empty()) {  // no round ran (max_time): the probes still say what a side launched
        probe_notes = judge_kernel_probes(kernel_probes, probed);
        round->report_held();
    }
    const auto ended = std::chrono::steady_clock::now();

    SequentialComparison c = sequential_result(test, options.name_a, options.name_b);
    c.wall_time = Duration(ended - began);
    c.sampling_time = Duration(ended - sampling_began);
    c.method = method;
    c.cache = options.cache;
    c.method_note = note;
    c.notes.insert(c.notes.end(), probe_notes.begin(), probe_notes.end());
    if (timed_out) {
        c.reason = "inconclusive at max_time (" + to_string(options.max_time) + "): " + c.reason;
        c.notes.push_back("stopped at max_time; a longer max_time or a wider threshold would decide");
    }
    return c;
}

}  // namespace

SequentialComparison compare_interleaved(const LaunchFn& a, bool a_takes_stream, const LaunchFn& b, bool b_takes_stream,
                                         const SequentialCompareOptions& options, std::source_location where) {
    return in_entry_point("compare(fn_a, fn_b)", &where, [&] { return run(a, a_takes_stream, b, b_takes_stream, options, where); });
}

}  // namespace gpuchrono::detail
