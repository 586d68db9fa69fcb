// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A stand-in libcupti that works, for the hold's counting and release without a GPU (cupti_hold_counting.cpp,
// loaded through GPUCHRONO_CUPTI): every call succeeds and is counted, and fake_cupti_take(true) plays another
// tool holding the one subscriber slot (cuptiSubscribe then fails as the real one does).
#include <cupti.h>

#include <atomic>
#include <cstdint>

namespace {
std::atomic<int> subscribes{0}, unsubscribes{0}, enabled_kinds{0}, registrations{0}, forced_flushes{0};
std::atomic<bool> subscribed{false}, taken{false};
std::atomic<std::uint64_t> clock_ns{1000};
}  // namespace

extern "C" {

// What the test reads: [subscribes, unsubscribes, kinds enabled now, buffer-callback registrations, forced flushes,
// subscribed now].
void fake_cupti_counts(int* out) {
    out[0] = subscribes;
    out[1] = unsubscribes;
    out[2] = enabled_kinds;
    out[3] = registrations;
    out[4] = forced_flushes;
    out[5] = subscribed ? 1 : 0;
}
void fake_cupti_take(bool take) { taken = take; }

CUptiResult CUPTIAPI cuptiGetVersion(std::uint32_t* version) {
    *version = CUPTI_API_VERSION;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult, const char** text) {
    *text = "fake CUPTI";
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc, void*) {
    if (taken || subscribed.exchange(true)) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    ++subscribes;
    *subscriber = reinterpret_cast<CUpti_SubscriberHandle>(0x1);
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiUnsubscribe(CUpti_SubscriberHandle) {
    if (!subscribed.exchange(false)) return CUPTI_ERROR_INVALID_PARAMETER;
    ++unsubscribes;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiEnableCallback(std::uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId) {
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiGetCallbackName(CUpti_CallbackDomain, std::uint32_t, const char** name) {
    *name = "cudaLaunchKernel";
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind) {
    ++enabled_kinds;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiActivityDisable(CUpti_ActivityKind) {
    --enabled_kinds;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc) {
    ++registrations;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiActivityGetNextRecord(std::uint8_t*, size_t, CUpti_Activity**) {
    return CUPTI_ERROR_MAX_LIMIT_REACHED;
}
CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext, std::uint32_t, size_t* dropped) {
    *dropped = 0;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiActivityFlushAll(std::uint32_t flag) {
    if (flag & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) ++forced_flushes;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiActivitySetAttribute(CUpti_ActivityAttribute, size_t*, void*) { return CUPTI_SUCCESS; }
CUptiResult CUPTIAPI cuptiGetTimestamp(std::uint64_t* t) {
    *t = clock_ns += 1000;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiGetStreamIdEx(CUcontext, CUstream, std::uint8_t, std::uint32_t* id) {
    *id = 7;
    return CUPTI_SUCCESS;
}
}
