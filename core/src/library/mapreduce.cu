// Word count in the style of Mars (the GPU MapReduce framework whose WC, SM, II, PVC and SS
// applications CIAO runs; Table II). The text is RECORDS records of REC_LEN characters, one
// character per int: values below LETTER separate words, the others are letters.
// wc_map gives every thread one record and, like Mars's MapCount/Map pair, reads it twice: a
// first pass counts its words, a block-wide prefix sum in shared memory (with barriers) turns the
// counts into each thread's offset in its block's output buffer, and a second pass hashes each
// word and emits its bucket there. Each lane walks its own 128-byte line, so a warp's load
// touches 32 lines, each re-read by its lane 63 more times over the two passes: many warps on an
// SM evict each other's records before their owners come back (CIAO's small-working-set Mars
// class, with a barrier per block as in Table II). wc_reduce then gives every map block one
// block of threads that reads the emitted keys (coalesced) and counts them with integer
// atomicAdd into BUCKETS counters: the order of the atomics does not change the counts.
// The knob RECORDS is the number of records (= map threads). At the default 16384 the text is
// 2 MB and the map runs 64 blocks of 8 warps, about 4 blocks (34 warps) per SM.
#define RECORDS 16384
#define REC_LEN 32
#define MAX_WORDS 16
#define LETTER 4
#define BUCKETS 1024
#define BLOCK 256

__global__ void wc_map(const int* text, int* keys, int* block_words, int records) {
    __shared__ int scan[BLOCK];
    int t = threadIdx.x;
    int r = blockIdx.x * BLOCK + t;
    int base = r * REC_LEN;

    // Map count: the number of words in this record.
    int count = 0;
    if (r < records) {
        int in_word = 0;
        for (int p = 0; p < REC_LEN; p++) {
            int c = text[base + p];
            if (c >= LETTER) {
                if (in_word == 0) {
                    count++;
                }
                in_word = 1;
            } else {
                in_word = 0;
            }
        }
    }

    // Inclusive prefix sum of the counts over the block (Hillis-Steele).
    scan[t] = count;
    __syncthreads();
    for (int d = 1; d < BLOCK; d = d * 2) {
        int v = 0;
        if (t >= d) {
            v = scan[t - d];
        }
        __syncthreads();
        scan[t] += v;
        __syncthreads();
    }
    if (t == BLOCK - 1) {
        block_words[blockIdx.x] = scan[t];
    }

    // Map: hash every word of the record and emit its bucket at this thread's offset.
    if (r < records) {
        int slot = blockIdx.x * BLOCK * MAX_WORDS + scan[t] - count;
        unsigned h = 0;
        int len = 0;
        for (int p = 0; p < REC_LEN; p++) {
            int c = text[base + p];
            if (c >= LETTER) {
                h = h * 31 + c;
                len++;
            } else if (len > 0) {
                keys[slot] = (int)(h % BUCKETS);
                slot++;
                h = 0;
                len = 0;
            }
        }
        if (len > 0) {
            keys[slot] = (int)(h % BUCKETS);
        }
    }
}

__global__ void wc_reduce(const int* keys, const int* block_words, int* counts) {
    int n = block_words[blockIdx.x];
    int base = blockIdx.x * BLOCK * MAX_WORDS;
    for (int e = threadIdx.x; e < n; e += blockDim.x) {
        atomicAdd(counts + keys[base + e], 1);
    }
}

host {
    int text[RECORDS * REC_LEN] = random(0, 26, 71);
    int keys[RECORDS * MAX_WORDS];
    int block_words[(RECORDS + BLOCK - 1) / BLOCK];
    int counts[BUCKETS];
    wc_map<<<(RECORDS + BLOCK - 1) / BLOCK, BLOCK>>>(text, keys, block_words, RECORDS);
    wc_reduce<<<(RECORDS + BLOCK - 1) / BLOCK, BLOCK>>>(keys, block_words, counts);
}
