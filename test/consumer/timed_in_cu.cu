#include <gpuchrono/gpuchrono.hpp>

#include <cstdint>

namespace {
__global__ void spin(std::uint64_t ns) {
    std::uint64_t start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start)::"memory");
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now)::"memory");
    } while (now - start < ns);
}
}  // namespace

gpuchrono::Duration doubled_in_cu(gpuchrono::Duration d) { return d * 2.0; }

gpuchrono::Measurement time_spin_in_cu(cudaStream_t stream, gpuchrono::Duration d) {
    gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(stream);
    spin<<<1, 32, 0, stream>>>(static_cast<std::uint64_t>(d.ns()));
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the consumer's spin kernel");
    return t.stop();
}
