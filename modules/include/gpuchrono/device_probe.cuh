// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The device-side umbrella: what a kernel timed by DeviceClockPolicy includes (.cu files only). The probe itself
// lives with its policy, in policies/device_clock/; this short path is the one the documentation shows.
#pragma once

#include <gpuchrono/policies/device_clock/device_probe.cuh>
