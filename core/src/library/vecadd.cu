// Vector add: c[i] = a[i] + b[i], one element per thread, every access coalesced.
// The no-reuse streaming baseline of the inter-kernel reuse paper's regular applications:
// nothing is read twice, within the kernel or across kernels, so no placement or cache
// policy should change its speed much. The knob N is the vector length.
#define N 65536

__global__ void vecadd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

host {
    float a[N] = random(0.0, 1.0, 1);
    float b[N] = random(0.0, 1.0, 2);
    float c[N];
    vecadd<<<(N + 255) / 256, 256>>>(a, b, c, N);
}
