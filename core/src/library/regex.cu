// Regular-expression matching with dynamic parallelism, after the LaPerm paper's REGX (GRegex
// over network packets and random strings: a parent thread per string runs a cheap prefilter
// and, for each candidate block of 32 offsets, launches one block of 32 threads; thread j runs
// the pattern automaton from offset j). Siblings re-read the string's lines their parent just
// scanned, and every thread walks the same small automaton.
// Here the text is NS strings of SLEN letters over {A, C, G, T} (one letter per word: A = 0,
// C = 1, G = 2, T = 3), searched for two motifs compiled into one 11-state DFA (`dfa`, 4 entries
// per state; state 9 accepts, 10 rejects):
//     GATT[AC]*G        GACA[CG]T+A
// The parent keeps the last four letters in a register and flags an offset that starts GATT or
// GACA (the literal prefixes); the first flagged offset of a 32-offset block launches the
// child for that block, so about one block in five gets a child. A child thread whose offset
// matches a motif (anchored there; the shortest match is enough) counts it in `matches` and
// lowers `first`, the string's first match offset, with integer atomics: order-independent.
// The knob NS is the number of strings: at the default 2048 the text is 2 MB (beyond the L2);
// 2048 parent threads launch about 3600 child blocks.
#define NS 2048
#define SLEN 256
#define ACCEPT 9
#define GATT 143
#define GACA 132

// A child: thread j tries to match the motifs at offset `offset + j` of string `s`.
__global__ void regex_match(const int* text, const int* dfa, int* matches, int* first, int s, int offset) {
    int start = offset + threadIdx.x;
    int base = s * SLEN;
    int state = 0;
    for (int p = start; p < SLEN && state < ACCEPT; p++) {
        state = dfa[state * 4 + text[base + p]];
    }
    if (state == ACCEPT) {
        atomicAdd(&matches[s], 1);
        atomicMin(&first[s], start);
    }
}

// A parent: one thread per string.
__global__ void regex_scan(const int* text, const int* dfa, int* matches, int* first, int strings) {
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= strings) {
        return;
    }
    int base = s * SLEN;
    int window = 0;
    int launched = -1;
    for (int p = 0; p < SLEN; p++) {
        window = ((window << 2) | text[base + p]) & 255;
        if (p >= 3 && (window == GATT || window == GACA)) {
            int block = (p - 3) / 32;
            if (block != launched) {
                regex_match<<<1, 32>>>(text, dfa, matches, first, s, block * 32);
                launched = block;
            }
        }
    }
}

host {
    int text[NS * SLEN] = random(0, 3, 9);
    int dfa[] = {
        10, 10, 1, 10,   // 0: start, wants G
        2, 10, 10, 10,   // 1: G
        10, 5, 10, 3,    // 2: GA
        10, 10, 10, 4,   // 3: GAT
        4, 4, 9, 10,     // 4: GATT[AC]*
        6, 10, 10, 10,   // 5: GAC
        10, 7, 7, 10,    // 6: GACA
        10, 10, 10, 8,   // 7: GACA[CG]
        9, 10, 10, 8,    // 8: GACA[CG]T+
        9, 9, 9, 9,      // 9: accept
        10, 10, 10, 10   // 10: reject
    };
    int matches[NS];
    int first[NS] = fill(SLEN);
    regex_scan<<<(NS + 127) / 128, 128>>>(text, dfa, matches, first, NS);
}
