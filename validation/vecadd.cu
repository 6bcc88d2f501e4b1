// Vector add, the reference every other kernel's time is divided by: one float of a, one of b
// and one of c per thread, every access coalesced, nothing reused.
#define N 4194304

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
    vecadd<<<N / 256, 256>>>(a, b, c, N);
}
