// CFD solver: Rodinia's euler3d, an unstructured finite-volume solver of the 3-D Euler equations
// (Corrigan et al.), the CCWS paper's CFD, one of its moderately cache-sensitive programs with
// little locality. Each iteration saves the state, works out every cell's time step, then takes
// three Runge-Kutta stages, each a flux kernel and a time-step kernel. One thread owns one cell.
// Memory: the five flow variables (density, three momenta, energy) are stored variable by
// variable, so a warp's read of its own cells' variable is one line. The flux kernel then reads,
// for each of the cell's four faces, the neighbour's index and the face's normal (coalesced) and
// the neighbour's five variables: a gather, into cells numbered near the cell's own, so into
// lines that this or a nearby warp also reads. About forty loads per cell against some three
// hundred arithmetic instructions; the reuse is the neighbours' lines, shared between warps.
// The mesh: Rodinia reads fvcorr.domn.097K, an unstructured tetrahedral mesh, which cannot be
// shipped here; `cfd_mesh` makes one of the same shape. A face leads to a cell within WINDOW
// cells of its own (a mesh generator numbers cells so that neighbours are near; WINDOW is four
// warps' worth), one face in 128 lies on the wing (-1) and one in 128 on the far field (-2),
// as Rodinia's kernel distinguishes. Normals are random in [-1, 1) per component, areas in
// [0.5, 1.5). The variables start at Rodinia's far-field state (Mach 1.2, no angle of attack)
// with a small random disturbance, so the fluxes are not all zero.
// Differences from Rodinia, forced by the language: the far-field state comes in as kernel
// parameters rather than __constant__ memory, and its flux contributions are worked out in the
// kernel; `old_variables` is saved by a copy kernel where Rodinia uses cudaMemcpy. The measured
// work is Rodinia's kernels: `cfd_step_factor`, `cfd_flux` and `cfd_time_step`. ITERATIONS is 2
// (Rodinia runs 2000 of the same; each is alike in its memory pattern); 192 threads per block,
// Rodinia's default.
#define N 16128
#define ITERATIONS 2
#define RK 3
#define WINDOW 128
#define GAMMA 1.4f
#define FF_DENSITY 1.4f
#define FF_MOMENTUM_X 1.68f
#define FF_DENSITY_ENERGY 3.508f

__device__ float pressure_of(float density, float density_energy, float speed_sqd) {
    return (GAMMA - 1.0f) * (density_energy - 0.5f * density * speed_sqd);
}

__device__ float speed_of_sound_of(float density, float pressure) {
    return sqrtf(GAMMA * pressure / density);
}

__global__ void cfd_mesh(int* neighbours, const int* draw, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int j = 0; j < 4; j++) {
            int r = draw[i + j * n];
            int nb = i + r % (2 * WINDOW + 1) - WINDOW;
            if (nb < 0) nb += n;
            if (nb >= n) nb -= n;
            if (r % 128 == 0) nb = -1;
            if (r % 128 == 1) nb = -2;
            neighbours[i + j * n] = nb;
        }
    }
}

__global__ void cfd_init(float* variables, const float* disturbance, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        variables[i] = FF_DENSITY * (1.0f + disturbance[i]);
        variables[i + n] = FF_MOMENTUM_X * (1.0f + disturbance[i + n]);
        variables[i + 2 * n] = 0.1f * disturbance[i + 2 * n];
        variables[i + 3 * n] = 0.1f * disturbance[i + 3 * n];
        variables[i + 4 * n] = FF_DENSITY_ENERGY * (1.0f + disturbance[i + 4 * n]);
    }
}

__global__ void cfd_copy(const float* variables, float* old_variables, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int v = 0; v < 5; v++) old_variables[i + v * n] = variables[i + v * n];
    }
}

__global__ void cfd_step_factor(const float* variables, const float* areas, float* step_factors, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float density = variables[i];
        float vx = variables[i + n] / density;
        float vy = variables[i + 2 * n] / density;
        float vz = variables[i + 3 * n] / density;
        float speed_sqd = vx * vx + vy * vy + vz * vz;
        float pressure = pressure_of(density, variables[i + 4 * n], speed_sqd);
        float speed_of_sound = speed_of_sound_of(density, pressure);
        step_factors[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(speed_sqd) + speed_of_sound));
    }
}

__global__ void cfd_flux(const int* neighbours, const float* normals, const float* variables, float* fluxes, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float smoothing = 0.2f;
    float density_i = variables[i];
    float mx_i = variables[i + n];
    float my_i = variables[i + 2 * n];
    float mz_i = variables[i + 3 * n];
    float energy_i = variables[i + 4 * n];
    float vx_i = mx_i / density_i;
    float vy_i = my_i / density_i;
    float vz_i = mz_i / density_i;
    float speed_sqd_i = vx_i * vx_i + vy_i * vy_i + vz_i * vz_i;
    float speed_i = sqrtf(speed_sqd_i);
    float pressure_i = pressure_of(density_i, energy_i, speed_sqd_i);
    float sound_i = speed_of_sound_of(density_i, pressure_i);
    float de_p_i = energy_i + pressure_i;

    // The far field's state and flux contributions (Rodinia keeps these in constant memory).
    float ff_vx = FF_MOMENTUM_X / FF_DENSITY;
    float ff_pressure = pressure_of(FF_DENSITY, FF_DENSITY_ENERGY, ff_vx * ff_vx);
    float ff_de_p = FF_DENSITY_ENERGY + ff_pressure;

    float f_density = 0.0f;
    float f_mx = 0.0f;
    float f_my = 0.0f;
    float f_mz = 0.0f;
    float f_energy = 0.0f;
    for (int j = 0; j < 4; j++) {
        int nb = neighbours[i + j * n];
        float nx = normals[i + j * n];
        float ny = normals[i + (j + 4) * n];
        float nz = normals[i + (j + 8) * n];
        float normal_len = sqrtf(nx * nx + ny * ny + nz * nz);
        if (nb >= 0) {
            float density_nb = variables[nb];
            float mx_nb = variables[nb + n];
            float my_nb = variables[nb + 2 * n];
            float mz_nb = variables[nb + 3 * n];
            float energy_nb = variables[nb + 4 * n];
            float vx_nb = mx_nb / density_nb;
            float vy_nb = my_nb / density_nb;
            float vz_nb = mz_nb / density_nb;
            float speed_sqd_nb = vx_nb * vx_nb + vy_nb * vy_nb + vz_nb * vz_nb;
            float pressure_nb = pressure_of(density_nb, energy_nb, speed_sqd_nb);
            float sound_nb = speed_of_sound_of(density_nb, pressure_nb);
            float de_p_nb = energy_nb + pressure_nb;
            // Artificial viscosity.
            float factor = -normal_len * smoothing * 0.5f * (speed_i + sqrtf(speed_sqd_nb) + sound_i + sound_nb);
            f_density += factor * (density_i - density_nb);
            f_energy += factor * (energy_i - energy_nb);
            f_mx += factor * (mx_i - mx_nb);
            f_my += factor * (my_i - my_nb);
            f_mz += factor * (mz_i - mz_nb);
            // The cell-centred fluxes, face normal component by component.
            factor = 0.5f * nx;
            f_density += factor * (mx_nb + mx_i);
            f_energy += factor * (vx_nb * de_p_nb + vx_i * de_p_i);
            f_mx += factor * (vx_nb * mx_nb + pressure_nb + vx_i * mx_i + pressure_i);
            f_my += factor * (vx_nb * my_nb + vx_i * my_i);
            f_mz += factor * (vx_nb * mz_nb + vx_i * mz_i);
            factor = 0.5f * ny;
            f_density += factor * (my_nb + my_i);
            f_energy += factor * (vy_nb * de_p_nb + vy_i * de_p_i);
            f_mx += factor * (vx_nb * my_nb + vx_i * my_i);
            f_my += factor * (vy_nb * my_nb + pressure_nb + vy_i * my_i + pressure_i);
            f_mz += factor * (vy_nb * mz_nb + vy_i * mz_i);
            factor = 0.5f * nz;
            f_density += factor * (mz_nb + mz_i);
            f_energy += factor * (vz_nb * de_p_nb + vz_i * de_p_i);
            f_mx += factor * (vx_nb * mz_nb + vx_i * mz_i);
            f_my += factor * (vy_nb * mz_nb + vy_i * mz_i);
            f_mz += factor * (vz_nb * mz_nb + pressure_nb + vz_i * mz_i + pressure_i);
        } else if (nb == -1) {
            // A wing face: only the pressure pushes.
            f_mx += nx * pressure_i;
            f_my += ny * pressure_i;
            f_mz += nz * pressure_i;
        } else {
            // A far-field face: the free stream on the other side.
            float factor = 0.5f * nx;
            f_density += factor * (FF_MOMENTUM_X + mx_i);
            f_energy += factor * (ff_vx * ff_de_p + vx_i * de_p_i);
            f_mx += factor * (ff_vx * FF_MOMENTUM_X + ff_pressure + vx_i * mx_i + pressure_i);
            f_my += factor * (vx_i * my_i);
            f_mz += factor * (vx_i * mz_i);
            factor = 0.5f * ny;
            f_density += factor * my_i;
            f_energy += factor * (vy_i * de_p_i);
            f_mx += factor * (vx_i * my_i);
            f_my += factor * (ff_pressure + vy_i * my_i + pressure_i);
            f_mz += factor * (vy_i * mz_i);
            factor = 0.5f * nz;
            f_density += factor * mz_i;
            f_energy += factor * (vz_i * de_p_i);
            f_mx += factor * (vx_i * mz_i);
            f_my += factor * (vy_i * mz_i);
            f_mz += factor * (ff_pressure + vz_i * mz_i + pressure_i);
        }
    }
    fluxes[i] = f_density;
    fluxes[i + n] = f_mx;
    fluxes[i + 2 * n] = f_my;
    fluxes[i + 3 * n] = f_mz;
    fluxes[i + 4 * n] = f_energy;
}

__global__ void cfd_time_step(int stage, const float* old_variables, float* variables, const float* step_factors,
                              const float* fluxes, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float factor = step_factors[i] / (float)(RK + 1 - stage);
        for (int v = 0; v < 5; v++) variables[i + v * n] = old_variables[i + v * n] + factor * fluxes[i + v * n];
    }
}

host {
    int draw[4 * N] = random(0, 1000000, 31);
    float normals[12 * N] = random(-1.0, 1.0, 32);
    float areas[N] = random(0.5, 1.5, 33);
    float disturbance[5 * N] = random(-0.01, 0.01, 34);
    int neighbours[4 * N];
    float variables[5 * N];
    float old_variables[5 * N];
    float step_factors[N];
    float fluxes[5 * N];
    cfd_mesh<<<(N + 191) / 192, 192>>>(neighbours, draw, N);
    cfd_init<<<(N + 191) / 192, 192>>>(variables, disturbance, N);
    for (int it = 0; it < ITERATIONS; it++) {
        cfd_copy<<<(N + 191) / 192, 192>>>(variables, old_variables, N);
        cfd_step_factor<<<(N + 191) / 192, 192>>>(variables, areas, step_factors, N);
        for (int stage = 0; stage < RK; stage++) {
            cfd_flux<<<(N + 191) / 192, 192>>>(neighbours, normals, variables, fluxes, N);
            cfd_time_step<<<(N + 191) / 192, 192>>>(stage, old_variables, variables, step_factors, fluxes, N);
        }
    }
}
