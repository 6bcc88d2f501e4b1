// Back propagation: Rodinia's backprop (run by the CCWS paper as BACKP), one training step of
// the input-to-hidden layer of a network with IN input units and 16 hidden units. Three
// launches: `bpnn_layerforward` (Rodinia's kernel: a 16 x 16 block multiplies 16 inputs by
// their 16 x 16 weights in shared memory and reduces them to 16 partial sums), `bpnn_squash`
// (the host's part in Rodinia: each hidden unit adds the partial sums and the bias weight and
// applies the sigmoid), and `bpnn_adjust_weights` (Rodinia's kernel: every weight moves by
// ETA * delta * input plus MOMENTUM times its previous change). Unlike Rodinia,
// layerforward does not write its partial products back over the weights.
// Loads are coalesced along the 17-float weight rows and each element is used once per kernel:
// moderately cache-sensitive at most (the input and delta vectors are shared by all blocks).
// The knob IN is the number of input units (rounded down to a multiple of 16): at the default
// 16384 the weight and previous-change matrices are 1.1 MB each (1024 blocks of 256 threads per
// kernel).
#define IN 16384
#define HID 16
#define HEIGHT 16
#define WIDTH 16
#define UNITS (IN / HEIGHT * HEIGHT)
#define ETA 0.3f
#define MOMENTUM 0.3f

__global__ void bpnn_layerforward(const float* input, const float* weights, float* partial, int in, int hid) {
    __shared__ float input_node[HEIGHT];
    __shared__ float weight_matrix[HEIGHT][WIDTH];
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_in = HEIGHT * by + ty + 1;
    if (tx == 0) {
        input_node[ty] = input[index_in];
    }
    __syncthreads();
    weight_matrix[ty][tx] = weights[index];
    __syncthreads();
    weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
    __syncthreads();
    for (int i = 1; i <= 4; i++) {
        int power_two = 1 << i;
        if (ty % power_two == 0) {
            weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two / 2][tx];
        }
        __syncthreads();
    }
    if (tx == 0) {
        partial[by * hid + ty] = weight_matrix[tx][ty];
    }
}

__global__ void bpnn_squash(const float* partial, const float* weights, float* hidden, int blocks, int hid) {
    int j = threadIdx.x;
    if (j < hid) {
        float sum = 0.0f;
        for (int k = 0; k < blocks; k++) {
            sum += partial[k * hid + j];
        }
        sum += weights[j + 1];
        hidden[j + 1] = 1.0f / (1.0f + expf(-sum));
    }
}

__global__ void bpnn_adjust_weights(const float* delta, int hid, const float* ly, int in, float* w, float* oldw) {
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_y = HEIGHT * by + ty + 1;
    int index_x = tx + 1;
    w[index] += ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
    oldw[index] = ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
    __syncthreads();
    if (ty == 0 && by == 0) {
        w[index_x] += ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
        oldw[index_x] = ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
    }
}

host {
    float input[UNITS + 1] = random(0.0, 1.0, 31);
    float weights[(UNITS + 1) * (HID + 1)] = random(-0.05, 0.05, 32);
    float oldw[(UNITS + 1) * (HID + 1)] = random(-0.01, 0.01, 33);
    float delta[HID + 1] = random(-0.1, 0.1, 34);
    float partial[(UNITS / HEIGHT) * HID];
    float hidden[HID + 1];
    bpnn_layerforward<<<dim3(1, UNITS / HEIGHT), dim3(WIDTH, HEIGHT)>>>(input, weights, partial, UNITS, HID);
    bpnn_squash<<<1, 32>>>(partial, weights, hidden, UNITS / HEIGHT, HID);
    bpnn_adjust_weights<<<dim3(1, UNITS / HEIGHT), dim3(WIDTH, HEIGHT)>>>(delta, HID, input, UNITS, weights, oldw);
}
