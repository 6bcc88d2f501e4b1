// Strided read: thread i reads element 32 * i, so each lane of a warp touches its own line and
// uses 4 of its bytes. Real L1s and L2s move 32-byte sectors, so the bytes moved are 8 times
// the bytes used, not 32 times.
#define N 262144
#define STRIDE 32

__global__ void strided(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i * STRIDE];
    }
}

host {
    float in[N * STRIDE] = random(0.0, 1.0, 3);
    float out[N];
    strided<<<N / 256, 256>>>(in, out, N);
}
