#include "launch_layout_probe.hpp"

namespace gpuchrono::cupti {

namespace {
__global__ void gpuchrono_launch_layout_probe() {}
}  // namespace

cudaError_t launch_layout_probe_kernel(const LayoutProbeLaunch& launch) noexcept {
    // A launch with <<<>>> reports its error through cudaGetLastError, which also takes an earlier error of the
    // user's: with one pending, the probe does not launch (and the layout stays unconfirmed) rather than take it.
    if (const cudaError_t pending = cudaPeekAtLastError(); pending != cudaSuccess) return pending;
    gpuchrono_launch_layout_probe<<<launch.grid, launch.block, launch.shared_bytes, launch.stream>>>();
    return cudaGetLastError();
}

}  // namespace gpuchrono::cupti
