// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "nvtx_recorder.hpp"

// Declarations and types only: the implementation (and its weak InitializeInjectionNvtx2_fnptr) is the
// library's; this file defines the strong symbol that overrides it.
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <atomic>
#include <mutex>

namespace {

struct Domain {
    std::string name;
};

std::mutex mutex;
std::vector<NvtxEvent> recorded;
std::atomic<bool> recording{false};
std::atomic<bool> tool_attached{false};

std::string domain_name(nvtxDomainHandle_t d) { return d ? reinterpret_cast<Domain*>(d)->name : std::string(); }

std::string message_of(const nvtxEventAttributes_t* a) {
    if (a && a->messageType == NVTX_MESSAGE_TYPE_ASCII && a->message.ascii) return a->message.ascii;
    return "<not ascii>";
}

void record(NvtxEvent::Kind kind, nvtxDomainHandle_t d, std::string message) {
    if (!recording.load()) return;
    std::lock_guard lock(mutex);
    recorded.push_back({kind, domain_name(d), std::move(message), std::this_thread::get_id()});
}

nvtxDomainHandle_t NVTX_API domain_create(const char* name) {
    return reinterpret_cast<nvtxDomainHandle_t>(new Domain{name ? name : ""});  // lives as long as the process
}
int NVTX_API domain_push(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
    record(NvtxEvent::Kind::push, d, message_of(a));
    return 0;
}
int NVTX_API domain_pop(nvtxDomainHandle_t d) {
    record(NvtxEvent::Kind::pop, d, {});
    return 0;
}
void NVTX_API domain_mark(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) { record(NvtxEvent::Kind::mark, d, message_of(a)); }

template <class F>
void install(NvtxFunctionTable table, unsigned size, unsigned id, F f) {
    if (id < size && table[id]) *table[id] = reinterpret_cast<NvtxFunctionPointer>(f);
}

int NVTX_API initialize(NvtxGetExportTableFunc_t get_export_table) {
    const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
    if (!callbacks || !callbacks->GetModuleFunctionTable) return 0;
    NvtxFunctionTable table = nullptr;
    unsigned size = 0;
    if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size) || !table) return 0;
    install(table, size, NVTX_CBID_CORE2_DomainCreateA, &domain_create);
    install(table, size, NVTX_CBID_CORE2_DomainRangePushEx, &domain_push);
    install(table, size, NVTX_CBID_CORE2_DomainRangePop, &domain_pop);
    install(table, size, NVTX_CBID_CORE2_DomainMarkEx, &domain_mark);
    tool_attached = true;
    return 1;
}

}  // namespace

extern "C" {
NvtxInitializeInjectionNvtxFunc_t InitializeInjectionNvtx2_fnptr = &initialize;
}

NvtxRecording::NvtxRecording() {
    std::lock_guard lock(mutex);
    recorded.clear();
    recording = true;
}

NvtxRecording::~NvtxRecording() { recording = false; }

std::vector<NvtxEvent> NvtxRecording::events() const {
    std::lock_guard lock(mutex);
    return recorded;
}

std::vector<std::string> NvtxRecording::trace() const {
    std::vector<std::string> out;
    for (const NvtxEvent& e : events()) {
        switch (e.kind) {
            case NvtxEvent::Kind::push: out.push_back("push:" + e.message); break;
            case NvtxEvent::Kind::pop: out.push_back("pop"); break;
            case NvtxEvent::Kind::mark: out.push_back("mark:" + e.message); break;
        }
    }
    return out;
}

bool NvtxRecording::attached() { return tool_attached.load(); }
