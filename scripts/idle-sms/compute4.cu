// Four blocks of an integer loop: fixed work for machines of any SM count
// (scripts/idle-sms/measure.sh; BENCHMARKS.md, "idle SMs").
__global__ void k(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = i, y = 3;
    for (int k = 0; k < n; k++) { x = x * y + 1; y ^= x; }
    out[i] = x;
}
host { int out[1024]; k<<<4, 256>>>(out, 2048); }
