/* gpu.h: what the tool's CUDA files share: waiting for a kernel with a
 * deadline instead of blocking in cudaDeviceSynchronize, so that a hung
 * kernel is an error the tool reports rather than a process that never
 * ends. Host code only; include from .cu files. */
#ifndef SZ_GPU_H
#define SZ_GPU_H

#include <cuda_runtime.h>
#include <time.h>

/* Waits until `ev` (recorded after the work) completes. cudaSuccess, the
 * work's error, or cudaErrorLaunchTimeout once `timeout_s` has passed. */
static inline cudaError_t gpu_wait(cudaEvent_t ev, double timeout_s)
{
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long spins = 0;; spins++) {
        cudaError_t e = cudaEventQuery(ev);
        if (e != cudaErrorNotReady)
            return e;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double dt = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) * 1e-9;
        if (dt > timeout_s)
            return cudaErrorLaunchTimeout;
        if (dt > 0.002) { /* short kernels are polled hot; long ones gently */
            struct timespec ts = {0, 50000};
            nanosleep(&ts, NULL);
        }
    }
}

#endif
