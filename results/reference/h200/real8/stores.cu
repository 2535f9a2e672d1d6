// stores.cu: how much DRAM write bandwidth few warps can draw, with and without loads
// (harness of ../real/: prelude.inc, host.inc; 128-thread blocks, B blocks per SM pinned
// by dynamic shared-memory padding, one wave of B x 132 blocks, per-SM busy span in clock64
// cycles, median of 3 launches after a warm-up; clocks as found).
// k_store<K,T>: per iteration each thread stores K independent values of type T (float: 128 B
// per warp-store; float4: 512 B) to consecutive 128-thread chunks of its block's own 1 MiB.
// k_copy<K,T>: per iteration each thread loads K values from its block's own 1 MiB of a
// source and stores them (plus one) to the same offsets of a destination: a copy stream.
// Asked by the validation of ../real*/: kernels that store (transpose, transpose33,
// vmix, saxpy) are simulated 10-37 % fast at 4-12 warps per SM.
// Writes $OUT/stores.csv: kind,width_bytes,ilp,blocks_per_sm,warps_per_sm,cycles,
// bytes_per_cycle_per_sm (bytes stored; a copy also loads as many)
#include "prelude.inc"
#include "host.inc"

#define PAD extern __shared__ char pad_[]

template <int K, typename T>
__global__ void k_store(T *__restrict__ y, size_t per_block, int iters, Rec *rec, float v0) {
    PAD;
    T *p = y + (size_t)blockIdx.x * per_block;
    unsigned long long t0; rec_begin(t0);
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int k = 0; k < K; ++k) {
            T v;
            if constexpr (sizeof(T) == 16) v = make_float4(v0 + it, v0 + k, v0, v0);
            else v = v0 + (float)(it + k);
            p[((size_t)it * K + k) * 128 + threadIdx.x] = v;
        }
    }
    rec_end(rec, t0);
}

template <int K, typename T>
__global__ void k_copy(const T *__restrict__ x, T *__restrict__ y, size_t per_block, int iters,
                       Rec *rec, float v0) {
    PAD;
    const T *s = x + (size_t)blockIdx.x * per_block;
    T *d = y + (size_t)blockIdx.x * per_block;
    unsigned long long t0; rec_begin(t0);
    for (int it = 0; it < iters; ++it) {
        T v[K];
#pragma unroll
        for (int k = 0; k < K; ++k) v[k] = s[((size_t)it * K + k) * 128 + threadIdx.x];
#pragma unroll
        for (int k = 0; k < K; ++k) {
            if constexpr (sizeof(T) == 16) { v[k].x += v0; }
            else v[k] += v0;
            d[((size_t)it * K + k) * 128 + threadIdx.x] = v[k];
        }
    }
    rec_end(rec, t0);
}

static Rec *g_rec;
static const size_t kBlockBytes = (size_t)1 << 20;  // 1 MiB per block: 132 MiB at B = 1, past L2

template <int K, typename T>
static void sweep(FILE *f, char *x, char *y) {
    auto ks = k_store<K, T>;
    auto kc = k_copy<K, T>;
    for (int b : {1, 2, 3, 4, 6, 8}) {
        size_t per_block = kBlockBytes / sizeof(T);
        int iters = (int)(per_block / (K * 128));
        size_t smem = smem_for_blocks(ks, 128, b);
        Span s = run_wave(b, smem, [&](int grid, size_t sm, unsigned r) {
            ks<<<grid, 128, sm>>>(reinterpret_cast<T *>(y), per_block, iters, g_rec, (float)r);
        }, g_rec);
        fprintf(f, "store,%zu,%d,%d,%d,%.0f,%.4f\n", sizeof(T), K, b, 4 * b, s.cycles,
                (double)b * kBlockBytes / s.cycles);
        smem = smem_for_blocks(kc, 128, b);
        s = run_wave(b, smem, [&](int grid, size_t sm, unsigned r) {
            kc<<<grid, 128, sm>>>(reinterpret_cast<const T *>(x), reinterpret_cast<T *>(y), per_block,
                                  iters, g_rec, (float)r);
        }, g_rec);
        fprintf(f, "copy,%zu,%d,%d,%d,%.0f,%.4f\n", sizeof(T), K, b, 4 * b, s.cycles,
                (double)b * kBlockBytes / s.cycles);
        fflush(f);
    }
}

// ncu8 mode: each kernel once at B = 8 (for the Nsight Compute exports).
template <int K, typename T>
static void once8(char *x, char *y) {
    size_t per_block = kBlockBytes / sizeof(T);
    int iters = (int)(per_block / (K * 128));
    auto ks = k_store<K, T>;
    auto kc = k_copy<K, T>;
    size_t smem = smem_for_blocks(ks, 128, 8);
    ks<<<8 * g_sms, 128, smem>>>(reinterpret_cast<T *>(y), per_block, iters, g_rec, 1.0f);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    smem = smem_for_blocks(kc, 128, 8);
    kc<<<8 * g_sms, 128, smem>>>(reinterpret_cast<const T *>(x), reinterpret_cast<T *>(y), per_block,
                                 iters, g_rec, 1.0f);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
}

int main(int argc, char **argv) {
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    const int maxgrid = 8 * 132 + 64;
    CK(cudaMalloc(&g_rec, sizeof(Rec) * maxgrid));
    char *x, *y;
    CK(cudaMalloc(&x, kBlockBytes * maxgrid));
    CK(cudaMalloc(&y, kBlockBytes * maxgrid));
    CK(cudaMemset(x, 0, kBlockBytes * maxgrid));
    CK(cudaMemset(y, 0, kBlockBytes * maxgrid));
    if (argc > 1 && std::string(argv[1]) == "ncu8") {
        once8<1, float>(x, y); once8<4, float>(x, y); once8<1, float4>(x, y); once8<4, float4>(x, y);
        printf("done\n");
        return 0;
    }
    FILE *f = open_csv("stores.csv", "kind,width_bytes,ilp,blocks_per_sm,warps_per_sm,cycles,bytes_per_cycle_per_sm");
    sweep<1, float>(f, x, y); sweep<4, float>(f, x, y);
    sweep<1, float4>(f, x, y); sweep<4, float4>(f, x, y);
    fclose(f);
    printf("done\n");
    return 0;
}
