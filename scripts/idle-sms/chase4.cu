// Four blocks chasing pointers through a 4 MiB table: long in cycles, light in
// instructions (scripts/idle-sms/measure.sh; BENCHMARKS.md, "idle SMs").
__global__ void chase(const unsigned* table, unsigned* out, int steps) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned p = i;
    for (int k = 0; k < steps; k++) p = table[p % 1048576u];
    out[i] = p;
}
host { unsigned table[1048576] = random(0, 2147483647, 7); unsigned out[1024]; chase<<<4, 256>>>(table, out, 64); }
