// Memcached GET: a batch of key lookups in a chained hash table, after the GPU memcached of
// Hetherington et al. that the CCWS paper runs (MEMC, highly cache-sensitive). One thread per
// request: it hashes its own 64-byte key (16 words, private to the thread: two lanes per line,
// so a warp's keys are 16 lines), reads the bucket's chain head, and walks the chain comparing
// each 128-byte item's stored key word by word with its own, which it re-reads each time. So
// each thread keeps about 128 bytes hot (its key and the item it compares): about 4 KB per warp,
// a handful of warps fill the L1, and with more warps the keys are evicted between re-reads.
// The table has N items in N * 2 / 5 buckets (chains of 2 or 3 items). The generator gives
// item i a key that hashes to bucket i % buckets and links the chain of bucket b as b, b +
// buckets, b + 2 * buckets, ... (the order the items were inserted in). Request r asks for a
// random item (80 %) or for a key that is not stored (20 %, which walks the whole chain).
// The hash is h = (31 h + word) mod buckets over the 16 words (unsigned, no overflow).
// The knob N is the number of requests (and of stored items): at the default 16384 the items
// are 2 MB and the request keys 1 MB, beyond the L2.
#define N 16384
#define KEY_WORDS 16
#define ITEM_WORDS 32
#define NEXT_WORD 16
#define VALUE_WORD 17

// A bijective 32-bit mixer (Wellons' lowbias32): stands in for the random bytes of keys.
__device__ unsigned mix(unsigned x) {
    x = x ^ (x >> 16);
    x = x * 0x7feb352du;
    x = x ^ (x >> 15);
    x = x * 0x846ca68bu;
    x = x ^ (x >> 16);
    return x;
}

// Item i: a key that hashes to bucket i % buckets, the chain link, and a value.
__global__ void memc_build(unsigned* items, int* heads, int n, int buckets) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned nb = (unsigned)buckets;
    unsigned b = (unsigned)(i % buckets);
    int base = i * ITEM_WORDS;
    unsigned h = 0u;
    for (int w = 0; w < KEY_WORDS - 1; w++) {
        unsigned k = mix((unsigned)(i * KEY_WORDS + w)) & 0x7fffffffu;
        items[base + w] = k;
        h = (h * 31u + k) % nb;
    }
    unsigned fix = (b + nb - (h * 31u) % nb) % nb;
    unsigned last = fix + nb * (mix((unsigned)(i * KEY_WORDS + KEY_WORDS - 1)) % (0x7fffffffu / nb - 1u));
    items[base + KEY_WORDS - 1] = last;
    int next = i + buckets;
    if (next >= n) {
        next = -1;
    }
    items[base + NEXT_WORD] = (unsigned)next;
    items[base + VALUE_WORD] = mix((unsigned)i ^ 0x5bd1e995u) & 0x7fffffffu;
    for (int w = VALUE_WORD + 1; w < ITEM_WORDS; w++) {
        items[base + w] = 0u;
    }
    if (i < buckets) {
        heads[i] = i;
    }
}

// The request keys, one word per thread so that the writes coalesce (the real server gets its
// keys from the network, not from a kernel, so this setup should cost little and the same under
// every scheduler): word w of request r is word w of item target[r]'s key, or of a key nobody
// stored.
__global__ void memc_requests(const unsigned* items, const int* target, unsigned* keys, int requests, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= requests * KEY_WORDS) {
        return;
    }
    int r = i / KEY_WORDS;
    int w = i % KEY_WORDS;
    int t = target[r];
    if (t < n) {
        keys[i] = items[t * ITEM_WORDS + w];
    } else {
        keys[i] = mix((unsigned)(t * KEY_WORDS + w)) & 0x7fffffffu;
    }
}

// The GET kernel: value of the item whose key equals the request's, or -1.
__global__ void memc_get(const unsigned* keys, const int* heads, const unsigned* items, int* out, int requests,
                         int buckets) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= requests) {
        return;
    }
    unsigned nb = (unsigned)buckets;
    int key = r * KEY_WORDS;
    unsigned h = 0u;
    for (int w = 0; w < KEY_WORDS; w++) {
        h = (h * 31u + keys[key + w]) % nb;
    }
    int it = heads[h];
    int found = -1;
    while (it >= 0 && found < 0) {
        int base = it * ITEM_WORDS;
        int same = 1;
        for (int w = 0; w < KEY_WORDS; w++) {
            if (items[base + w] != keys[key + w]) {
                same = 0;
            }
        }
        if (same != 0) {
            found = it;
        } else {
            it = (int)items[base + NEXT_WORD];
        }
    }
    if (found >= 0) {
        out[r] = (int)items[found * ITEM_WORDS + VALUE_WORD];
    } else {
        out[r] = -1;
    }
}

host {
    int buckets = N * 2 / 5;
    int items[N * ITEM_WORDS];
    int heads[N * 2 / 5];
    int target[N] = random(0, N + N / 4 - 1, 21);
    int keys[N * KEY_WORDS];
    int out[N];
    memc_build<<<(N + 255) / 256, 256>>>(items, heads, N, buckets);
    memc_requests<<<(N * KEY_WORDS + 255) / 256, 256>>>(items, target, keys, N, N);
    memc_get<<<(N + 255) / 256, 256>>>(keys, heads, items, out, N, buckets);
}
