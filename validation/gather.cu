// Random gather: out[i] = in[idx[i]] with indices uniform over the whole array, so each lane
// reads its own line and a sector of it.
#define N 1048576

__global__ void gather(const float* in, const int* idx, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[idx[i]];
    }
}

host {
    float in[N] = random(0.0, 1.0, 8);
    int idx[N] = random(0, N - 1, 9);
    float out[N];
    gather<<<N / 256, 256>>>(in, idx, out, N);
}
