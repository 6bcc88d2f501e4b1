__global__ void child(float* a) { }
__global__ void parent(float* a) { child<<<1, 32>>>(a); }
host {
    float a[4];
    parent<<<8, 256>>>(a);
}
