__device__ float f0(float x) { return x + 1.0f; }
__device__ float f1(float x) { return f0(x) + f0(x); }
__device__ float f2(float x) { return f1(x) + f1(x); }
__device__ float f3(float x) { return f2(x) + f2(x); }
__device__ float f4(float x) { return f3(x) + f3(x); }
__device__ float f5(float x) { return f4(x) + f4(x); }
__device__ float f6(float x) { return f5(x) + f5(x); }
__device__ float f7(float x) { return f6(x) + f6(x); }
__device__ float f8(float x) { return f7(x) + f7(x); }
__device__ float f9(float x) { return f8(x) + f8(x); }
__device__ float f10(float x) { return f9(x) + f9(x); }
__device__ float f11(float x) { return f10(x) + f10(x); }
__device__ float f12(float x) { return f11(x) + f11(x); }
__device__ float f13(float x) { return f12(x) + f12(x); }
__device__ float f14(float x) { return f13(x) + f13(x); }
__device__ float f15(float x) { return f14(x) + f14(x); }
__global__ void k(float* a) { a[threadIdx.x] = f15(a[threadIdx.x]); }
host { float a[32]; k<<<1, 32>>>(a); }
