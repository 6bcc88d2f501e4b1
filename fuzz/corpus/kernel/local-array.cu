__global__ void k(float* a, int n) {
    float x[8];
    int i = threadIdx.x;
    for (int j = 0; j < 8; j++) { x[j] = a[(i + j) % n]; }
    x[i % 9] = 2.0f;
    a[i] = x[(i * 3) % 8] + x[i % 8];
}
host { float a[256] = random(0.0, 1.0, 3); k<<<2, 128>>>(a, 256); }
