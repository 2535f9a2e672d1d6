// stencil_mech.cu - what makes the H200 serve the 5-point stencil's misses slowly (issue 8).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o stencil_mech stencil_mech.cu
// Same harness and method as ../real/kernels.cu (prelude.inc, host.inc: 128-thread blocks, B
// resident blocks per SM pinned by dynamic shared memory, one wave of 132 B blocks, per-SM busy
// span in clock64 cycles, median of 3 launches after a warm-up). Clocks are not touched.
//   ./stencil_mech measure   -> $OUT/stencil_mech.csv (stencil variants vs B) and $OUT/rw.csv
//   ./stencil_mech ncu V:B ... -> one launch of variant V at B blocks/SM each, in order (for ncu)
// Stencil variants (16 rows x W points per block, as k_stencil):
//   base     the original k_stencil (pitch 4096 floats, c = 1..4094)
//   nostore  the same loads; the sum goes to a register, one store per thread at the end
//   aligned  c = 0..4095 (s[c], s[c-W], s[c+W] and the store 4 sectors per warp, not 5)
//   pad      row pitch 4096 + 32 floats (rows and bands no longer power-of-two apart)
//   sep3     rows r-1, r, r+1 read from three separate arrays: no reuse across rows at all
//   store_aligned  base loads, the store one float lower (aligned: 4 sectors per warp store)
//   loads_aligned  c = 0..4093 (aligned loads as `aligned`), the store one float higher (misaligned)
//   orig     k_stencil of ../real/kernels.cu verbatim (the measured kernel; 40 registers)
// k_wr: one float write stream per thread at index + OFF (0 aligned, 1 misaligned: partial first and
// last sector of every warp store), with or without one read stream -> $OUT/wr_align.csv
// k_rd (mode access): one float read stream at index + OFF, cached or __ldcg -> $OUT/access.csv
// k_wsc (mode access): scattered 4 B stores 32 or 128 B apart (every sector partly written)
// mode offset: k_wr (write only) at offsets 0, 1, 2, 3, 4, 8 floats, read+write at 2, k_rd at 2, 4
//   -> $OUT/offset.csv (is the cost of a part-written sector tied to 8 B words?)
// mode sync: k_wx, write (or read + write) streams offset 0 or 1 float, with a barrier every 4
//   stores per thread, or with each warp writing its own 512 B run -> $OUT/sync.csv
// rw: a streaming kernel, each thread reads R private streams and writes S, float4, 64 K floats
// per stream per block; warp 0 lane 0 of every block times its first load of each iteration
// (clock64 around a load and its use): the loaded latency of a streamed load.
#include "../real/prelude.inc"
#include "../real/host.inc"

#define PAD extern __shared__ char pad_[]

enum { V_BASE, V_NOSTORE, V_ALIGNED, V_PAD, V_SEP3, V_STA, V_LDA, V_ORIG, V_N };
static const char *vname[V_N] = {"base", "nostore", "aligned", "pad", "sep3", "store_aligned", "loads_aligned", "orig"};

template <int V>
__global__ void k_st(float *dst, const float *__restrict__ src, const float *__restrict__ s2,
                     const float *__restrict__ s3, int rows, Rec *rec, float *out) {
    PAD;
    const int W = 4096;
    const int P = V == V_PAD ? 4096 + 32 : 4096;
    const int c0 = (V == V_ALIGNED || V == V_LDA) ? 0 : 1, c1 = V == V_ALIGNED ? W : V == V_LDA ? W - 2 : W - 1;
    const int so = V == V_STA ? -1 : V == V_LDA ? 1 : 0;  // store offset: aligned store / misaligned store
    size_t band = (size_t)blockIdx.x * (rows + 2) * P;
    float acc = 0.0f;
    unsigned long long t0; rec_begin(t0);
    for (int r = 1; r <= rows; ++r) {
        const float *s = src + band + (size_t)r * P;
        if (V == V_SEP3) {
            const float *a = src + band + (size_t)r * P, *b = s2 + band + (size_t)r * P, *d = s3 + band + (size_t)r * P;
#pragma unroll 4
            for (int c = threadIdx.x + c0; c < c1; c += 128)
                dst[band + (size_t)r * P + c] = 0.25f * (b[c - 1] + b[c + 1] + a[c] + d[c]) - 0.0f * b[c];
        } else {
#pragma unroll 4
            for (int c = threadIdx.x + c0; c < c1; c += 128) {
                float v = 0.25f * (s[c - 1] + s[c + 1] + s[c - P] + s[c + P]) - 0.0f * s[c];
                if (V == V_NOSTORE) acc += v; else dst[band + (size_t)r * P + (c + so)] = v;
            }
        }
    }
    rec_end(rec, t0);
    if (V == V_NOSTORE) dst[band + threadIdx.x] = acc;
    if (acc == 1234.5f) out[0] = acc + pad_[0];
}

// The original k_stencil of ../real/kernels.cu, verbatim (its SASS: 40 registers, 20 LDG then 4 STG per trip).
__global__ void k_stencil(float *dst, const float *__restrict__ src, int rows, Rec *rec, float *out) {
    PAD;
    const int W = 4096;
    size_t band = (size_t)blockIdx.x * (rows + 2) * W;
    unsigned long long t0; rec_begin(t0);
    for (int r = 1; r <= rows; ++r) {
        const float *s = src + band + (size_t)r * W;
#pragma unroll 4
        for (int c = threadIdx.x + 1; c < W - 1; c += 128)
            dst[band + (size_t)r * W + c] = 0.25f * (s[c - 1] + s[c + 1] + s[c - W] + s[c + W]) - 0.0f * s[c];
    }
    rec_end(rec, t0);
    if (dst[0] == 1234.5f) out[0] = dst[0] + pad_[0];
}

// Write alignment: each thread reads RD float streams (0 or 1) and writes one float stream at
// index + OFF (OFF = 1: every warp store covers 5 sectors, the first and last partly).
template <int RD, int OFF>
__global__ void k_wr(float *w, const float *__restrict__ r, int n, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * (n + 32);
    unsigned long long t0; rec_begin(t0);
#pragma unroll 4
    for (int i = threadIdx.x; i < n; i += 128) w[base + i + OFF] = RD ? 2.0f * __ldcg(&r[base + i]) : (float)i;
    rec_end(rec, t0);
    if (w[0] == 1234.5f) out[0] = pad_[0];
}

// Who completes a part-written sector, and when: SYNC = 1 adds __syncthreads() after every 4
// stores per thread (warps of a block write each 2 KiB together, as blur's tiles); RUN = 1 lets
// each warp write its own 512 B run per step (lane + 32 j, j < 4: partial sectors inside the run
// are completed by the same warp's next store at once).
template <int RD, int OFF, int SYNC, int RUN>
__global__ void k_wx(float *w, const float *__restrict__ r, int n, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * (n + 32);
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    unsigned long long t0; rec_begin(t0);
    for (int i0 = 0; i0 < n; i0 += 512) {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            int i = RUN ? i0 + wid * 128 + lane + 32 * j : i0 + threadIdx.x + 128 * j;
            w[base + i + OFF] = RD ? 2.0f * __ldcg(&r[base + i]) : (float)i;
        }
        if (SYNC) __syncthreads();
    }
    rec_end(rec, t0);
    if (w[0] == 1234.5f) out[0] = pad_[0];
}

// Read alignment: one float read stream per thread at index + OFF, CG = 1 through __ldcg (L2 only).
template <int OFF, int CG>
__global__ void k_rd(const float *__restrict__ r, int n, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * (n + 32);
    float acc = 0.0f;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 4
    for (int i = threadIdx.x; i < n; i += 128) acc += CG ? __ldcg(&r[base + i + OFF]) : r[base + i + OFF];
    rec_end(rec, t0);
    if (acc == 1234.5f) out[0] = acc + pad_[0];
}

// Scattered partial-sector stores: lane i writes 4 B at (i x STRIDE) floats: 32 sectors per warp
// store, each written in 4 of its 32 bytes and never completed.
template <int STRIDE>
__global__ void k_wsc(float *w, int n, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * n * STRIDE;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 4
    for (int i = threadIdx.x; i < n; i += 128) w[base + (size_t)i * STRIDE] = (float)i;
    rec_end(rec, t0);
    if (w[0] == 1234.5f) out[0] = pad_[0];
}

// R read streams, S write streams per thread, float4 per access, n float4 per stream per block.
template <int R, int S>
__global__ void k_rw(float4 *const *rd, float4 *const *wr, int n, Rec *rec, float *out, unsigned long long *lat) {
    PAD;
    size_t base = (size_t)blockIdx.x * n;
    float4 acc = make_float4(0, 0, 0, 0);
    unsigned long long t0; rec_begin(t0);
    unsigned long long lsum = 0; unsigned lcnt = 0;
    bool probe = threadIdx.x == 0;
    for (int i = threadIdx.x; i < n; i += 128) {
        float4 v[R > 0 ? R : 1];
        if (probe && R > 0) {
            unsigned long long a = clock64();
            float4 x = __ldcg(&rd[0][base + i]);
            asm volatile("add.f32 %0, %0, %1;" : "+f"(acc.x) : "f"(x.x));
            unsigned long long b = clock64();
            lsum += b - a; lcnt++;
            v[0] = x;
#pragma unroll
            for (int k = 1; k < R; ++k) v[k] = __ldcg(&rd[k][base + i]);
        } else {
#pragma unroll
            for (int k = 0; k < R; ++k) v[k] = __ldcg(&rd[k][base + i]);
        }
        float4 s = make_float4(1, 2, 3, 4);
#pragma unroll
        for (int k = 0; k < R; ++k) { s.x += v[k].x; s.y += v[k].y; s.z += v[k].z; s.w += v[k].w; }
#pragma unroll
        for (int k = 0; k < S; ++k) wr[k][base + i] = s;
        acc.y += s.x;
    }
    rec_end(rec, t0);
    if (probe) { lat[2 * blockIdx.x] = lsum; lat[2 * blockIdx.x + 1] = lcnt; }
    if (acc.x + acc.y == 1234.5f) out[0] = acc.x + pad_[0];
}

int main(int argc, char **argv) {
    std::string mode = argc > 1 ? argv[1] : "measure";
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    const int maxB = 16, maxgrid = maxB * 132 + 64;
    Rec *drec; CK(cudaMalloc(&drec, sizeof(Rec) * maxgrid));
    float *dout; CK(cudaMalloc(&dout, 1 << 20));
    const int rows = 16;
    size_t nst = (size_t)(rows + 2) * (4096 + 32) * 12 * 132 + 4096;
    float *ts, *ts2, *ts3, *td;
    CK(cudaMalloc(&ts, nst * 4)); CK(cudaMalloc(&ts2, nst * 4)); CK(cudaMalloc(&ts3, nst * 4)); CK(cudaMalloc(&td, nst * 4));
    CK(cudaMemset(ts, 0, nst * 4)); CK(cudaMemset(ts2, 0, nst * 4)); CK(cudaMemset(ts3, 0, nst * 4)); CK(cudaMemset(td, 0, nst * 4));
    auto st_launch = [&](int v, int g, size_t sm) {
        switch (v) {
        case V_BASE: k_st<V_BASE><<<g, 128, sm>>>(td, ts, ts2, ts3, rows, drec, dout); break;
        case V_NOSTORE: k_st<V_NOSTORE><<<g, 128, sm>>>(td, ts, ts2, ts3, rows, drec, dout); break;
        case V_ALIGNED: k_st<V_ALIGNED><<<g, 128, sm>>>(td, ts, ts2, ts3, rows, drec, dout); break;
        case V_PAD: k_st<V_PAD><<<g, 128, sm>>>(td, ts, ts2, ts3, rows, drec, dout); break;
        case V_SEP3: k_st<V_SEP3><<<g, 128, sm>>>(td, ts, ts2, ts3, rows, drec, dout); break;
        case V_STA: k_st<V_STA><<<g, 128, sm>>>(td, ts, ts2, ts3, rows, drec, dout); break;
        case V_LDA: k_st<V_LDA><<<g, 128, sm>>>(td, ts, ts2, ts3, rows, drec, dout); break;
        default: k_stencil<<<g, 128, sm>>>(td, ts, rows, drec, dout); break;
        }
    };
    auto st_kernel = [&](int v) -> const void * {
        switch (v) {
        case V_BASE: return (const void *)k_st<V_BASE>;
        case V_NOSTORE: return (const void *)k_st<V_NOSTORE>;
        case V_ALIGNED: return (const void *)k_st<V_ALIGNED>;
        case V_PAD: return (const void *)k_st<V_PAD>;
        case V_SEP3: return (const void *)k_st<V_SEP3>;
        case V_STA: return (const void *)k_st<V_STA>;
        case V_LDA: return (const void *)k_st<V_LDA>;
        default: return (const void *)k_stencil;
        }
    };
    const int wn = 1 << 18;  // floats per block for k_wr (1 MiB)
    float *wa, *wb; CK(cudaMalloc(&wa, (size_t)(wn + 32) * 4 * maxgrid)); CK(cudaMalloc(&wb, (size_t)(wn + 32) * 4 * maxgrid));
    CK(cudaMemset(wa, 0, (size_t)(wn + 32) * 4 * maxgrid)); CK(cudaMemset(wb, 0, (size_t)(wn + 32) * 4 * maxgrid));
    const void *wk[4] = {(const void *)k_wr<0, 0>, (const void *)k_wr<0, 1>, (const void *)k_wr<1, 0>, (const void *)k_wr<1, 1>};
    auto wr_launch = [&](int k, int g, size_t sm) {
        switch (k) {
        case 0: k_wr<0, 0><<<g, 128, sm>>>(wa, wb, wn, drec, dout); break;
        case 1: k_wr<0, 1><<<g, 128, sm>>>(wa, wb, wn, drec, dout); break;
        case 2: k_wr<1, 0><<<g, 128, sm>>>(wa, wb, wn, drec, dout); break;
        default: k_wr<1, 1><<<g, 128, sm>>>(wa, wb, wn, drec, dout); break;
        }
    };
    const void *rk[4] = {(const void *)k_rd<0, 0>, (const void *)k_rd<0, 1>, (const void *)k_rd<1, 0>, (const void *)k_rd<1, 1>};
    auto rd_launch = [&](int k, int g, size_t sm) {
        switch (k) {
        case 0: k_rd<0, 0><<<g, 128, sm>>>(wb, wn, drec, dout); break;
        case 1: k_rd<0, 1><<<g, 128, sm>>>(wb, wn, drec, dout); break;
        case 2: k_rd<1, 0><<<g, 128, sm>>>(wb, wn, drec, dout); break;
        default: k_rd<1, 1><<<g, 128, sm>>>(wb, wn, drec, dout); break;
        }
    };
    const int sn = 1 << 13;  // scattered stores per block (x 32 B or 128 B apart: 256 KiB or 1 MiB span)
    const void *sk[2] = {(const void *)k_wsc<8>, (const void *)k_wsc<32>};
    auto sc_launch = [&](int k, int g, size_t sm) {
        if (k == 0) k_wsc<8><<<g, 128, sm>>>(wa, sn, drec, dout); else k_wsc<32><<<g, 128, sm>>>(wa, sn, drec, dout);
    };
    if (mode == "ncu") {  // ncu V:B ... (stencil variant V) or wK:B (k_wr, K = 2 RD + OFF), rK:B (k_rd, K = 2 OFF + CG), sK:B (k_wsc): one launch each, in order
        for (int i = 2; i < argc; ++i) {
            int v = 0, b = 0;
            if ((argv[i][0] == 'r' || argv[i][0] == 's') && sscanf(argv[i] + 1, "%d:%d", &v, &b) == 2 && v >= 0 && v < 4 && b >= 1 && b <= 16) {
                bool rd = argv[i][0] == 'r';
                if (!rd && v > 1) { fprintf(stderr, "bad %s\n", argv[i]); return 1; }
                size_t smem = smem_for_blocks(rd ? rk[v] : sk[v], 128, b);
                if (rd) rd_launch(v, b * g_sms, smem); else sc_launch(v, b * g_sms, smem);
                CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
                printf("launch %d: %s B=%d\n", i - 2, argv[i], b);
                continue;
            }
            if (argv[i][0] == 'w' && sscanf(argv[i] + 1, "%d:%d", &v, &b) == 2 && v >= 0 && v < 4 && b >= 1 && b <= 16) {
                size_t smem = smem_for_blocks(wk[v], 128, b);
                wr_launch(v, b * g_sms, smem); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
                printf("launch %d: k_wr%d B=%d\n", i - 2, v, b);
                continue;
            }
            if (sscanf(argv[i], "%d:%d", &v, &b) != 2 || v < 0 || v >= V_N || b < 1 || b > 12) { fprintf(stderr, "bad %s\n", argv[i]); return 1; }
            size_t smem = smem_for_blocks(st_kernel(v), 128, b);
            st_launch(v, b * g_sms, smem); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
            printf("launch %d: %s B=%d smem=%zu\n", i - 2, vname[v], b, smem);
        }
        return 0;
    }
    if (mode == "sync") {  // k_wx variants -> $OUT/sync.csv
        FILE *fo = open_csv("sync.csv", "reads,offset_floats,sync,run,blocks_per_sm,warps_per_sm,cycles,useful_bytes_per_cycle_per_sm");
        auto one = [&](int rd, int off, int sy, int run, auto kernel) {
            for (int b : {2, 8, 16}) {
                size_t smem = smem_for_blocks(kernel, 128, b);
                Span sp = run_wave(b, smem, [&](int g, size_t sm, unsigned) { kernel<<<g, 128, sm>>>(wa, wb, wn, drec, dout); }, drec);
                fprintf(fo, "%d,%d,%d,%d,%d,%d,%.0f,%.3f\n", rd, off, sy, run, b, 4 * b, sp.cycles, (double)b * wn * 4.0 * (rd ? 2 : 1) / sp.cycles);
                fflush(fo);
            }
        };
        one(0, 0, 0, 0, k_wx<0, 0, 0, 0>); one(0, 1, 0, 0, k_wx<0, 1, 0, 0>);
        one(0, 0, 1, 0, k_wx<0, 0, 1, 0>); one(0, 1, 1, 0, k_wx<0, 1, 1, 0>);
        one(0, 0, 0, 1, k_wx<0, 0, 0, 1>); one(0, 1, 0, 1, k_wx<0, 1, 0, 1>);
        one(1, 0, 0, 0, k_wx<1, 0, 0, 0>); one(1, 1, 0, 0, k_wx<1, 1, 0, 0>);
        one(1, 0, 1, 0, k_wx<1, 0, 1, 0>); one(1, 1, 1, 0, k_wx<1, 1, 1, 0>);
        fclose(fo);
        printf("done sync\n");
        return 0;
    }
    if (mode == "offset") {  // write and read streams at offsets 0, 1, 2, 4, 8 floats -> $OUT/offset.csv
        FILE *fo = open_csv("offset.csv", "kernel,offset_floats,blocks_per_sm,warps_per_sm,cycles,useful_bytes_per_cycle_per_sm");
        auto one = [&](const char *name, int off, bool rd, auto kernel, auto launch) {
            for (int b : {2, 8, 12, 16}) {
                size_t smem = smem_for_blocks(kernel, 128, b);
                Span sp = run_wave(b, smem, [&](int g, size_t sm, unsigned) { launch(g, sm); }, drec);
                fprintf(fo, "%s,%d,%d,%d,%.0f,%.3f\n", name, off, b, 4 * b, sp.cycles, (double)b * wn * 4.0 * (rd ? 2 : 1) / sp.cycles);
                fflush(fo);
            }
        };
        one("write", 0, false, k_wr<0, 0>, [&](int g, size_t sm) { k_wr<0, 0><<<g, 128, sm>>>(wa, wb, wn, drec, dout); });
        one("write", 1, false, k_wr<0, 1>, [&](int g, size_t sm) { k_wr<0, 1><<<g, 128, sm>>>(wa, wb, wn, drec, dout); });
        one("write", 2, false, k_wr<0, 2>, [&](int g, size_t sm) { k_wr<0, 2><<<g, 128, sm>>>(wa, wb, wn, drec, dout); });
        one("write", 4, false, k_wr<0, 4>, [&](int g, size_t sm) { k_wr<0, 4><<<g, 128, sm>>>(wa, wb, wn, drec, dout); });
        one("write", 8, false, k_wr<0, 8>, [&](int g, size_t sm) { k_wr<0, 8><<<g, 128, sm>>>(wa, wb, wn, drec, dout); });
        one("write", 3, false, k_wr<0, 3>, [&](int g, size_t sm) { k_wr<0, 3><<<g, 128, sm>>>(wa, wb, wn, drec, dout); });
        one("read_write", 2, true, k_wr<1, 2>, [&](int g, size_t sm) { k_wr<1, 2><<<g, 128, sm>>>(wa, wb, wn, drec, dout); });
        one("read", 2, false, k_rd<2, 0>, [&](int g, size_t sm) { k_rd<2, 0><<<g, 128, sm>>>(wb, wn, drec, dout); });
        one("read", 4, false, k_rd<4, 0>, [&](int g, size_t sm) { k_rd<4, 0><<<g, 128, sm>>>(wb, wn, drec, dout); });
        fclose(fo);
        printf("done offset\n");
        return 0;
    }
    if (mode == "access") {  // read alignment and scattered partial stores -> $OUT/access.csv
        FILE *fa = open_csv("access.csv", "kernel,offset_or_stride_floats,ldcg,blocks_per_sm,warps_per_sm,cycles,useful_bytes_per_cycle_per_sm");
        for (int k = 0; k < 4; ++k)
            for (int b : {1, 2, 4, 8, 12, 16}) {
                size_t smem = smem_for_blocks(rk[k], 128, b);
                Span sp = run_wave(b, smem, [&](int g, size_t sm, unsigned) { rd_launch(k, g, sm); }, drec);
                fprintf(fa, "read,%d,%d,%d,%d,%.0f,%.3f\n", k / 2, k % 2, b, 4 * b, sp.cycles, (double)b * wn * 4.0 / sp.cycles);
                fflush(fa);
            }
        for (int k = 0; k < 2; ++k)
            for (int b : {1, 2, 4, 8, 12, 16}) {
                size_t smem = smem_for_blocks(sk[k], 128, b);
                Span sp = run_wave(b, smem, [&](int g, size_t sm, unsigned) { sc_launch(k, g, sm); }, drec);
                fprintf(fa, "scatter_store,%d,0,%d,%d,%.0f,%.3f\n", k ? 32 : 8, b, 4 * b, sp.cycles, (double)b * sn * 4.0 / sp.cycles);
                fflush(fa);
            }
        fclose(fa);
        printf("done access\n");
        return 0;
    }
    FILE *f = open_csv("stencil_mech.csv", "variant,blocks_per_sm,warps_per_sm,dyn_smem,cycles,points_per_cycle_per_sm,regs");
    for (int v = 0; v < V_N; ++v) {
        cudaFuncAttributes a; CK(cudaFuncGetAttributes(&a, st_kernel(v)));
        double pts = rows * (v == V_ALIGNED ? 4096.0 : 4094.0);
        for (int b = 1; b <= 12; ++b) {
            int bmax = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bmax, st_kernel(v), 128, 0));
            if (b > bmax) break;
            size_t smem = smem_for_blocks(st_kernel(v), 128, b);
            Span s = run_wave(b, smem, [&](int g, size_t sm, unsigned) { st_launch(v, g, sm); }, drec);
            fprintf(f, "%s,%d,%d,%zu,%.0f,%.5f,%d\n", vname[v], b, 4 * b, smem, s.cycles, b * pts / s.cycles, a.numRegs);
            fflush(f);
        }
    }
    fclose(f);
    FILE *fw = open_csv("wr_align.csv", "reads,write_offset_floats,blocks_per_sm,warps_per_sm,cycles,bytes_per_cycle_per_sm");
    for (int k = 0; k < 4; ++k)
        for (int b : {1, 2, 4, 8, 12, 16}) {
            size_t smem = smem_for_blocks(wk[k], 128, b);
            Span sp = run_wave(b, smem, [&](int g, size_t sm, unsigned) { wr_launch(k, g, sm); }, drec);
            fprintf(fw, "%d,%d,%d,%d,%.0f,%.3f\n", k / 2, k % 2, b, 4 * b, sp.cycles, (double)b * wn * 4.0 * (1 + k / 2) / sp.cycles);
            fflush(fw);
        }
    fclose(fw);
    // ---- rw streams
    const int n = 16384;  // float4 per stream per block = 256 KiB
    const int NS = 8;
    float4 *bufs[NS];
    for (int k = 0; k < NS; ++k) { CK(cudaMalloc(&bufs[k], (size_t)n * 16 * maxgrid)); CK(cudaMemset(bufs[k], 0, (size_t)n * 16 * maxgrid)); }
    float4 **drd, **dwr; CK(cudaMalloc(&drd, sizeof(float4 *) * NS)); CK(cudaMalloc(&dwr, sizeof(float4 *) * NS));
    unsigned long long *dlat; CK(cudaMalloc(&dlat, sizeof(unsigned long long) * 2 * maxgrid));
    FILE *g = open_csv("rw.csv", "reads,writes,blocks_per_sm,warps_per_sm,cycles,bytes_per_cycle_per_sm,write_share,probe_latency_cycles");
    auto rw = [&](int R, int S, auto kernel) {
        // read streams bufs[0..R), write streams bufs[R..R+S)
        CK(cudaMemcpy(drd, bufs, sizeof(float4 *) * R, cudaMemcpyHostToDevice));
        if (S) CK(cudaMemcpy(dwr, bufs + R, sizeof(float4 *) * S, cudaMemcpyHostToDevice));
        int bmax = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bmax, kernel, 128, 0));
        for (int b : {1, 2, 4, 8, 12, 16}) {
            if (b > bmax) break;
            size_t smem = smem_for_blocks(kernel, 128, b);
            Span s = run_wave(b, smem, [&](int gr, size_t sm, unsigned) { kernel<<<gr, 128, sm>>>(drd, dwr, n, drec, dout, dlat); }, drec);
            std::vector<unsigned long long> h(2 * b * g_sms);
            CK(cudaMemcpy(h.data(), dlat, h.size() * 8, cudaMemcpyDeviceToHost));
            double ls = 0, lc = 0;
            for (int i = 0; i < b * g_sms; ++i) { ls += h[2 * i]; lc += h[2 * i + 1]; }
            double bytes = (double)b * (R + S) * n * 16.0;
            fprintf(g, "%d,%d,%d,%d,%.0f,%.3f,%.3f,%.1f\n", R, S, b, 4 * b, s.cycles, bytes / s.cycles, (double)S / (R + S), lc > 0 ? ls / lc : -1.0);
            fflush(g);
        }
    };
    rw(1, 0, k_rw<1, 0>); rw(2, 0, k_rw<2, 0>); rw(4, 0, k_rw<4, 0>); rw(8, 0, k_rw<8, 0>);
    rw(1, 1, k_rw<1, 1>); rw(2, 1, k_rw<2, 1>); rw(3, 1, k_rw<3, 1>); rw(6, 2, k_rw<6, 2>);
    rw(1, 2, k_rw<1, 2>);
    fclose(g);
    printf("done\n");
    return 0;
}
