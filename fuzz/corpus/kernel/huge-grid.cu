#define G 2147483647
__global__ void k(float* a) { }
host {
    float a[4];
    k<<<G, 32>>>(a);
}
