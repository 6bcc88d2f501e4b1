// Black-Scholes: the CUDA SDK's European option pricer, a compute-intensive ("C") kernel for
// the concurrent-kernel-execution paper's pairings. Each thread prices OPTS_PER_THREAD
// options with a grid-stride loop (as the SDK does): three coalesced loads and two stores
// per option among about 80 warp instructions, the rest arithmetic: five SFU operations
// (logf, sqrtf, expf three times), divisions and a polynomial. Its warps rarely wait on memory, so next to a
// memory-intensive kernel it is the one starved of LSU slots.
// The knob OPTIONS is the number of options (a multiple of 512): the default 524288 is 1024
// blocks of 128 threads over 10 MB of inputs and outputs, each byte touched once.
#define OPTIONS 524288
#define OPTS_PER_THREAD 4
#define BLOCK 128
#define RISKFREE 0.02f
#define VOLATILITY 0.30f

// The cumulative normal distribution, by the Abramowitz-Stegun polynomial.
__device__ float cnd(float d) {
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float poly = k * (0.31938153f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
    float c = 0.39894228f * expf(-0.5f * d * d) * poly;
    if (d > 0.0f) {
        c = 1.0f - c;
    }
    return c;
}

__global__ void black_scholes(float* call, float* put, const float* price, const float* strike, const float* years, int options, float r, float v) {
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < options; i += stride) {
        float s = price[i];
        float x = strike[i];
        float t = years[i];
        float sqrt_t = sqrtf(t);
        float d1 = (logf(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
        float d2 = d1 - v * sqrt_t;
        float cnd1 = cnd(d1);
        float cnd2 = cnd(d2);
        float exp_rt = expf(-r * t);
        call[i] = s * cnd1 - x * exp_rt * cnd2;
        put[i] = x * exp_rt * (1.0f - cnd2) - s * (1.0f - cnd1);
    }
}

host {
    float call[OPTIONS];
    float put[OPTIONS];
    float price[OPTIONS] = random(5.0, 30.0, 71);
    float strike[OPTIONS] = random(1.0, 100.0, 72);
    float years[OPTIONS] = random(0.25, 10.0, 73);
    black_scholes<<<OPTIONS / (BLOCK * OPTS_PER_THREAD), BLOCK>>>(call, put, price, strike, years, OPTIONS, RISKFREE, VOLATILITY);
}
