// 5-point stencil on a 4096-wide grid in 32 x 8 blocks: each point reads itself and its four
// neighbours, and a block's rows are reused by the rows above and below. Rows are 16 KB apart,
// so under linear set indexing a block's rows crowd into few L1 sets; a highly associative L1
// keeps them all.
#define W 4096
#define H 512

__global__ void stencil5(const float* in, float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x > 0 && x < w - 1 && y > 0 && y < h - 1) {
        int i = y * w + x;
        out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
    }
}

host {
    float in[W * H] = random(0.0, 1.0, 4);
    float out[W * H];
    stencil5<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(in, out, W, H);
}
