// The named module `gpuchrono`. It declares nothing of its own: every entity lives in a header in the
// global module and is re-exported here, so that nvcc-compiled code (which includes the headers) and
// importing code (which uses this module) share one definition and one mangling. This file is the single
// list of what `import gpuchrono;` makes visible.
module;

#include <gpuchrono/gpuchrono.hpp>

export module gpuchrono;

export namespace gpuchrono {
// Time values
using gpuchrono::Duration;
using gpuchrono::natural_unit;
using gpuchrono::to_string;

// Errors
using gpuchrono::check;
using gpuchrono::CudaError;
using gpuchrono::TimerError;

// Devices
using gpuchrono::current_device;
using gpuchrono::device_count;
using gpuchrono::DeviceGuard;
using gpuchrono::no_device_reason;
using gpuchrono::stream_device;

// Measurements and their findings
using gpuchrono::Finding;
using gpuchrono::Findings;
using gpuchrono::Measurement;
using gpuchrono::Series;
using gpuchrono::SeriesSet;
using gpuchrono::Severity;

// Timers and policies
using gpuchrono::EventLease;
using gpuchrono::EventPolicy;
using gpuchrono::EventPool;
using gpuchrono::HostClockPolicy;
using gpuchrono::HostSyncPolicy;
using gpuchrono::ScopedTimer;
using gpuchrono::SyncScope;
using gpuchrono::TimingPolicy;
}  // namespace gpuchrono
