// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "cupti_session.hpp"

#include "activity_buffers.hpp"
#include "launch_subscriber.hpp"
#include "run_share.hpp"

#include <gpuchrono/core/cuda_error.hpp>

#include <cupti_activity.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <thread>

namespace gpuchrono::cupti {

namespace {

// The hold: holders and the set-up they share are changed under hold_mutex; `session_active` says CUPTI is set
// up (holders > 0, or within the linger after the last) for readers that must not take the lock (a flush, the
// metrics collector, a release of the kept range profiler called from inside the give-back).
std::mutex hold_mutex;
std::size_t holder_count = 0;
std::atomic<std::size_t> acquired{0};
std::atomic<bool> session_active{false};
CuptiSession* session_object = nullptr;  // made once the library loads; never destroyed (the store outlives holds)
// Another CUPTI user that does not take the subscriber slot (torch.profiler records through activity buffers
// alone): said by the Python package, which can see it; a new set-up is refused with this as the tool.
std::string taken_by;

constexpr CUpti_ActivityKind recorded_kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                                 CUPTI_ACTIVITY_KIND_MEMSET};

// CUPTI stays set up this long after the last hold ends. Setting it up and giving it back once per scope, with
// scopes on four threads, crashed inside the process on an H100 (the stress test: a fault, then a smashed
// stack); a loop of scopes, on one thread or several, now sets it up once. release_cupti() gives it back at once.
constexpr auto linger = std::chrono::milliseconds(50);

// The give-back after the linger, by a thread of its own (started by the first release), under hold_mutex.
struct GiveBack {
    std::condition_variable cv;
    std::chrono::steady_clock::time_point due{};
    bool scheduled = false;
    bool worker = false;
};
GiveBack& give_back = *new GiveBack;  // never destroyed: its thread may still wait at exit

// Set at exit: a give-back due then is left undone (the process is ending), since it would run while static
// objects it reaches (the metrics collector's, which the give-back releases) are being destroyed: a program that
// exited within the linger after a measure() with metrics crashed at exit on an H100.
std::atomic<bool> process_exiting{false};

}  // namespace

bool activity_session_active() noexcept { return session_active.load(); }

namespace {
std::atomic<const char*> silenced{nullptr};
}  // namespace

void mark_activity_silenced(const char* why) noexcept { silenced.store(why); }
const char* activity_silenced() noexcept { return silenced.load(); }

namespace {
std::atomic<void (*)() noexcept> silence_release{nullptr};
}  // namespace

void set_silence_release(void (*release)() noexcept) noexcept { silence_release.store(release); }

const char* release_activity_silence() noexcept {
    if (!silenced.load()) return nullptr;
    if (auto* release = silence_release.load()) release();
    return silenced.load();
}

bool activity_session_shared() noexcept { return session_active.load() && sharing_run(); }

void pause_activity_kinds() noexcept {
    if (session_active.load()) session_object->disable_kinds();
}

void reenable_activity_kinds() noexcept {
    if (!session_active.load()) return;
    const CuptiLibrary& lib = cupti_library();
    for (const CUpti_ActivityKind kind : recorded_kinds) (void)lib.activity_enable(kind);
    // Work that ran while the records were off left none: a device's idle time is known again only from here.
    std::string why;
    if (CuptiSession* session = CuptiSession::get(why)) {
        try {
            session->store().set_recording_since(session->timestamp());
        } catch (...) {
            // No timestamp: the earlier start stays, and a gap across the silence may read longer than it was.
        }
    }
}

CuptiSession* CuptiSession::get(std::string& why) noexcept {
    if (session_active.load()) return session_object;
    why = "gpuchrono holds no CUPTI now (no KernelPolicy, measure() by the kernel method, metrics collection or "
          "CuptiHold is alive)";
    return nullptr;
}

std::size_t CuptiSession::holders() noexcept {
    std::lock_guard lock(hold_mutex);
    return holder_count;
}

std::size_t CuptiSession::acquisitions() noexcept { return acquired.load(); }

CuptiSession* CuptiSession::acquire(std::string& why) noexcept {
    std::lock_guard lock(hold_mutex);
    if (holder_count > 0 || session_active.load()) {  // held, or still set up within the linger
        give_back.scheduled = false;
        ++holder_count;
        return session_object;
    }
    try {
        if (!taken_by.empty()) {
            why = "CUPTI is taken by another tool in this process (" + taken_by + ")";
            return nullptr;
        }
        const CuptiLibrary& lib = cupti_library();
        if (!lib.loaded()) {
            why = lib.error;
            return nullptr;
        }
        if (!session_object) session_object = new CuptiSession(lib);
        switch (attach_to_run(lib, session_object->store_, why)) {
            case RunShare::refused: return nullptr;
            case RunShare::attached:
                if (auto e = session_object->set_up_shared()) {
                    detach_from_run();
                    unsubscribe_from_launches();
                    why = *e;
                    return nullptr;
                }
                holder_count = 1;
                acquired.fetch_add(1);
                session_active = true;
                return session_object;
            case RunShare::no_run: break;
        }
        if (auto e = subscribe_to_launches(lib)) {
            why = *e;
            return nullptr;
        }
        if (auto e = session_object->set_up()) {
            session_object->disable_kinds();
            unsubscribe_from_launches();
            why = *e;
            return nullptr;
        }
    } catch (const std::exception& e) {
        if (sharing_run()) {
            detach_from_run();
        } else if (session_object) {
            session_object->disable_kinds();
        }
        unsubscribe_from_launches();
        why = std::string("setting up CUPTI failed: ") + e.what();
        return nullptr;
    }
    holder_count = 1;
    acquired.fetch_add(1);
    session_active = true;
    return session_object;
}

void CuptiSession::release() noexcept {
    std::lock_guard lock(hold_mutex);
    if (holder_count == 0 || --holder_count > 0) return;
    give_back.due = std::chrono::steady_clock::now() + linger;
    give_back.scheduled = true;
    if (!give_back.worker) {
        try {
            std::thread(&CuptiSession::give_back_after_linger).detach();
            give_back.worker = true;
            // Registered after the first hold's static objects were made, so it runs before they are destroyed;
            // it waits for a give-back in progress (under hold_mutex) and keeps the thread from starting another.
            std::atexit([] {
                process_exiting.store(true);
                std::lock_guard exiting(hold_mutex);
                give_back.scheduled = false;
            });
        } catch (...) {  // no thread to wait the linger out: given back now
            give_back.scheduled = false;
            session_object->tear_down();
            return;
        }
    }
    give_back.cv.notify_one();
}

void CuptiSession::give_back_after_linger() noexcept {
    std::unique_lock lock(hold_mutex);
    for (;;) {
        // wait_for, not wait(): libstdc++ 12 versions condition_variable::wait anew (GLIBCXX_3.4.30), which would
        // raise the Python wheels' glibc baseline from manylinux_2_34 to 2_35; the timed wait is inline.
        while (!give_back.scheduled) give_back.cv.wait_for(lock, std::chrono::hours(1));
        // A new hold unschedules it; a later release moves `due`.
        while (give_back.scheduled && std::chrono::steady_clock::now() < give_back.due)
            give_back.cv.wait_until(lock, give_back.due);
        if (give_back.scheduled && holder_count == 0 && session_active.load() && !process_exiting.load())
            session_object->tear_down();
        give_back.scheduled = false;
    }
}

void CuptiSession::set_taken_by(std::string tool) {
    std::lock_guard lock(hold_mutex);
    taken_by = std::move(tool);
}

bool CuptiSession::give_back_now() noexcept {
    std::lock_guard lock(hold_mutex);
    if (holder_count > 0) return false;
    give_back.scheduled = false;
    if (session_active.load()) session_object->tear_down();
    return true;
}

std::optional<std::string> CuptiSession::set_up() {
    const CuptiLibrary& lib = lib_;
    if (auto e = register_activity_buffers(lib, store_)) return *e + " (" + lib.path + ")";
    // Per-thread buffers off: the flush gate (launch_subscriber.hpp) needs the launch callbacks, which stream-mode
    // scopes leave off, and a flush that met another thread's half-written per-thread buffer crashed inside
    // libcupti. CUPTI's shared buffer is written under CUPTI's own lock. Set at every acquisition: a tool that used
    // CUPTI meanwhile may have turned them on.
    {
        std::uint8_t per_thread = 0;
        std::size_t bytes = sizeof per_thread;
        if (const CUptiResult r =
                lib.activity_set_attribute(CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, &bytes, &per_thread);
            r != CUPTI_SUCCESS)
            return "cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER) failed: " +
                   lib.describe(r) + " (" + lib.path + ")";
    }
    // Concurrent-kernel records leave kernels concurrent (KIND_KERNEL would serialise them).
    for (auto [kind, what] : {std::pair{CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "CONCURRENT_KERNEL"},
                              std::pair{CUPTI_ACTIVITY_KIND_MEMCPY, "MEMCPY"},
                              std::pair{CUPTI_ACTIVITY_KIND_MEMSET, "MEMSET"}}) {
        if (const CUptiResult r = lib.activity_enable(kind); r != CUPTI_SUCCESS)
            return std::string("cuptiActivityEnable(CUPTI_ACTIVITY_KIND_") + what + ") failed: " + lib.describe(r) +
                   " (" + lib.path + ")";
    }
    // From here on every kernel, copy and set has a record: before it (or while CUPTI was given back), none says
    // whether a device was busy.
    store_.set_recording_since(timestamp());
    return std::nullopt;
}

std::optional<std::string> CuptiSession::set_up_shared() {
    // The injection registered the buffers and enabled its records before the program's first CUDA call, with
    // CUPTI's per-thread buffers on (CUPTI: changing that mid-session is undefined). Enabling the kinds again is
    // harmless, and makes sure of the ones the store reads.
    for (const CUpti_ActivityKind kind : recorded_kinds) (void)lib_.activity_enable(kind);
    // With per-thread buffers a flush must not meet a launch writing its record (launch_subscriber.hpp): the launch
    // callbacks that gate flushes are on while gpuchrono shares CUPTI, in stream mode too.
    if (auto e = enable_launch_callbacks()) return "sharing gpuchrono run's CUPTI subscription: " + *e;
    // The store has the program's records from here on only.
    store_.set_recording_since(timestamp());
    return std::nullopt;
}

void CuptiSession::disable_kinds() noexcept {
    for (const CUpti_ActivityKind kind : recorded_kinds) (void)lib_.activity_disable(kind);
}

void CuptiSession::serve_all() noexcept {
    try {
        std::lock_guard lock(flush_mutex_);
        std::vector<std::shared_ptr<FlushWaiter>> ready;
        for (const std::weak_ptr<FlushWaiter>& w : pending_) {
            auto s = w.lock();
            if (!s || s->flushed) continue;
            try {
                s->wait_for_work();
                ready.push_back(std::move(s));
            } catch (...) {
                // Its work failed: it fails on its own when read.
            }
        }
        if (!ready.empty()) flush();
        for (const auto& s : ready) s->flushed = true;
        std::erase_if(pending_, [](const std::weak_ptr<FlushWaiter>& w) {
            auto s = w.lock();
            return !s || s->flushed;
        });
    } catch (...) {
        // A failed flush: the scopes stay unflushed and report it when read.
    }
}

void CuptiSession::tear_down() noexcept {
    // The range profiler kept enabled between metrics sessions holds kernel records back and CUPTI's profiler
    // with them: disabled first (cupti_session.hpp, activity silence).
    (void)release_activity_silence();
    serve_all();
    // Forced: no holder is left to launch into a scope, and every record of work launched while gpuchrono held
    // CUPTI (finished or not) must come back to gpuchrono's buffers rather than reach the next tool's callbacks.
    // Not when sharing gpuchrono run's subscription: the records go on to the injection, and a forced flush would
    // hand it those of the program's work still running without their times.
    const bool shared = sharing_run();
    try {
        const std::lock_guard turn(flushing_);
        flushes_.fetch_add(1, std::memory_order_release);
        flush_between_launches(
            [&] { (void)flush_all_activity(lib_, shared ? 0 : CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); });
    } catch (...) {
    }
    collect_dropped_records();
    // Shared, the records are the run's report: they stay on.
    if (!shared) disable_kinds();
    session_active = false;
    if (shared) detach_from_run();
    unsubscribe_from_launches();
}

std::uint64_t CuptiSession::timestamp() const {
    std::uint64_t t = 0;
    if (const CUptiResult r = lib_.get_timestamp(&t); r != CUPTI_SUCCESS)
        throw TimerError("gpuchrono: cuptiGetTimestamp failed: " + lib_.describe(r));
    return t;
}

std::uint32_t CuptiSession::stream_id(cudaStream_t stream) const {
    std::uint32_t id = 0;
    const std::uint8_t per_thread = stream == cudaStreamPerThread ? 1 : 0;
    if (const CUptiResult r = lib_.get_stream_id_ex(nullptr, reinterpret_cast<CUstream>(stream), per_thread, &id);
        r != CUPTI_SUCCESS)
        throw TimerError("gpuchrono: cuptiGetStreamIdEx failed for the timed stream: " + lib_.describe(r));
    return id;
}

void CuptiSession::flush() {
    // Given back: the last holder's forced flush delivered every record gpuchrono's holds produced, and a flush now
    // would hand another tool's buffers to it.
    if (!session_active.load()) return;
    // Flushes take turns: one that starts while another thread's runs may return before that one has delivered
    // its buffers (seen on the H100: a scope of a second thread then missed its own kernel). A caller that waited
    // for its turn while a later flush ran needs no flush of its own; under 16 threads of eager scopes this turns
    // one flush per scope into about one per turn of the lock.
    const std::size_t begun_before = flushes_.load(std::memory_order_acquire);
    std::lock_guard lock(flushing_);
    if (flushes_.load(std::memory_order_relaxed) > begun_before) return;
    flushes_.fetch_add(1, std::memory_order_release);
    CUptiResult r = CUPTI_SUCCESS;
    flush_between_launches([&] { r = flush_all_activity(lib_, 0); });
    if (r != CUPTI_SUCCESS) {
        flushes_.fetch_sub(1, std::memory_order_release);  // it delivered nothing: whoever waited must flush
        throw TimerError("gpuchrono: cuptiActivityFlushAll failed: " + lib_.describe(r) +
                         "; the scope's activity records cannot be read");
    }
}

void CuptiSession::register_pending(const std::shared_ptr<FlushWaiter>& scope) {
    std::lock_guard lock(flush_mutex_);
    std::erase_if(pending_, [](const std::weak_ptr<FlushWaiter>& w) { return w.expired(); });
    pending_.push_back(scope);
}

void CuptiSession::serve(FlushWaiter& scope) {
    std::lock_guard lock(flush_mutex_);
    if (scope.flushed) return;
    std::vector<std::shared_ptr<FlushWaiter>> waiting;
    for (const std::weak_ptr<FlushWaiter>& w : pending_)
        if (auto s = w.lock(); s && !s->flushed) waiting.push_back(std::move(s));
    // Wait for the others' work only if this scope's own wait succeeds; one failing scope must not block the rest.
    scope.wait_for_work();
    std::vector<FlushWaiter*> ready{&scope};
    for (const auto& s : waiting) {
        if (s.get() == &scope) continue;
        try {
            s->wait_for_work();
            ready.push_back(s.get());
        } catch (...) {
            // That scope fails on its own when it is read (it stays unflushed, so it waits again then).
        }
    }
    flush();
    for (FlushWaiter* s : ready) s->flushed = true;
    std::erase_if(pending_, [](const std::weak_ptr<FlushWaiter>& w) {
        auto s = w.lock();
        return !s || s->flushed;
    });
}

}  // namespace gpuchrono::cupti
