// The inter-kernel reuse paper's Work-Stealing microbenchmark (§5.4.1): the load-add-store
// kernel of `ubench`, but block b performs n(b) updates of its private slice, rising from 1
// for the first block to 64 for the last, the same in every launch. Static chunks of
// consecutive blocks are then unbalanced: the SM holding the last blocks works about 64 times
// as long as the one holding the first, unless idle SMs steal. The paper drives n from an
// input array; a fixed rising rule is the notes' suggestion and keeps the imbalance spatially
// clustered. Update j touches row j % 8 of the block's 8 KB slice. 16 launches, in place.
#define T 96
#define B 256
#define LAUNCHES 16

__global__ void ubench_ws(float* a) {
    int tb = blockIdx.x;
    int n = 1 + (63 * tb) / (T - 1);
    for (int j = 0; j < n; j++) {
        int i = (tb * 8 + j % 8) * B + threadIdx.x;
        a[i] = a[i] + 1.0f;
    }
}

host {
    float a[T * 8 * B] = iota();
    for (int k = 0; k < LAUNCHES; k++) {
        ubench_ws<<<T, B>>>(a);
    }
}
