// kernels11.cu: eight ordinary kernels, each built around an instruction or access shape that no
// earlier real kernel has (int8 dot products, warp vote/match/reduce, a 12-byte array of
// structs, a per-thread array in local memory indexed by data, a constant table indexed per
// thread, a compare-and-swap loop, FP64 square root and division, 64-bit integer hashing),
// measured exactly as ../real10/kernels10.cu (same harness: prelude.inc, host.inc; 128-thread
// blocks, B blocks per SM pinned by dynamic shared-memory padding, one wave of B x 132 blocks,
// per-SM busy span in clock64 cycles, median of 3 launches after a warm-up).  Measured to judge
// the model, never to fit it.  Work per block is the same at every B.
//   dp4a:  int8 dot products: each thread streams 64 int4 (16 int8 x 4 words) and dots every
//          word with 16 weight words (kernel arguments) by __dp4a         work: dp4a
//   vote:  per element __match_any_sync on a 5-bit key, __popc of the peers, __ballot_sync on
//          one bit, __reduce_add_sync of the low byte                      work: elements
//   aos12: out[i] = dot(p[i], d) over an array of 12-byte float3 structs (three 4-byte loads
//          at a 12-byte stride), one float stored per element             work: elements
//   lmem:  a 16-bin histogram per thread in a local array indexed by the data (two nibbles
//          per element), 64 elements a thread, then a weighted sum stored  work: elements
//   cdiv:  out[i] = ctab[v & 1023] * 0.5 + ctab[(v >> 10) & 1023] from a __constant__ table
//          of 1024 floats, the index differing per thread                  work: elements
//   cas:   an exponential average b = b / 2 + v into one of the block's 256 global bins by an
//          atomicCAS loop, 32 elements a thread                            work: elements
//   dsqrt: four rounds v = sqrt(v + 1) / (v + 2) in double on each of 16 doubles a thread
//          (MUFU.RSQ64H / MUFU.RCP64H seeds and DFMA refinement)           work: rounds
//   mix64: eight splitmix64 rounds (64-bit xor-shift and multiply by a 64-bit constant) on
//          each of 16 64-bit keys a thread                                 work: rounds
// usage: real11 [measure|ncu8|check]; measure writes $OUT/real11.csv and $OUT/attrs11.csv.
#include "prelude.inc"
#include "host.inc"

template <typename K>
static size_t smem_pin(K kernel, int threads, int want) {
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
    size_t smem = std::min<size_t>(200 * 1024, (228 * 1024) / want);
    for (;;) {
        int b = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, kernel, threads, smem));
        if (b >= want) return b == want ? smem : 0;
        if (smem < 128) return 0;
        smem -= 128;
    }
}

#define PAD extern __shared__ char pad_[]
#define TOUCH_PAD(x) if ((x) == 1234.5f) out[0] = (x) + pad_[0]

// ---- dp4a --------------------------------------------------------------------------------
static const int kPSteps = 64, kPW = 16;
struct W16 { int w[kPW]; };

__global__ void k_dp4a(int *y, const int4 *__restrict__ x, W16 w, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * kPSteps * 128;
    int acc[kPW];
#pragma unroll
    for (int j = 0; j < kPW; ++j) acc[j] = 0;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 2
    for (int k = 0; k < kPSteps; ++k) {
        int4 v = x[base + (size_t)k * 128 + threadIdx.x];
#pragma unroll
        for (int j = 0; j < kPW; ++j) {
            acc[j] = __dp4a(v.x, w.w[j], acc[j]);
            acc[j] = __dp4a(v.y, w.w[(j + 1) % kPW], acc[j]);
            acc[j] = __dp4a(v.z, w.w[(j + 2) % kPW], acc[j]);
            acc[j] = __dp4a(v.w, w.w[(j + 3) % kPW], acc[j]);
        }
    }
    int s = 0;
#pragma unroll
    for (int j = 0; j < kPW; ++j) s ^= acc[j] * (j + 1);
    y[(size_t)blockIdx.x * 128 + threadIdx.x] = s;
    rec_end(rec, t0);
    float lf = (float)s;
    TOUCH_PAD(lf);
}

// ---- vote --------------------------------------------------------------------------------
static const int kVSteps = 64;

__global__ void k_vote(unsigned *y, const unsigned *__restrict__ x, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * kVSteps * 128;
    unsigned lane = threadIdx.x % 32, acc = 0, tot = 0;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 4
    for (int k = 0; k < kVSteps; ++k) {
        unsigned v = x[base + (size_t)k * 128 + threadIdx.x];
        unsigned peers = __match_any_sync(0xffffffffu, v & 31u);
        unsigned leader = __ffs(peers) - 1;
        acc += leader == lane ? __popc(peers) : 0u;
        unsigned b = __ballot_sync(0xffffffffu, v & 0x100u);
        tot += __popc(b) + __reduce_add_sync(0xffffffffu, v & 0xffu);
    }
    y[(size_t)blockIdx.x * 128 + threadIdx.x] = acc * 65536u + tot;
    rec_end(rec, t0);
    float lf = (float)acc;
    TOUCH_PAD(lf);
}

// ---- aos12 -------------------------------------------------------------------------------
static const int kASteps = 64;
struct P3 { float x, y, z; };

__global__ void k_aos12(float *y, const P3 *__restrict__ p, float dx, float dy, float dz, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * kASteps * 128;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 4
    for (int k = 0; k < kASteps; ++k) {
        size_t i = base + (size_t)k * 128 + threadIdx.x;
        P3 q = p[i];
        float d = q.x * dx + q.y * dy + q.z * dz;
        y[i] = d;
        last = d;
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

// ---- lmem --------------------------------------------------------------------------------
static const int kLSteps = 64, kLBins = 16;

__global__ void k_lmem(unsigned *y, const unsigned *__restrict__ x, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * kLSteps * 128;
    unsigned cnt[kLBins];
#pragma unroll
    for (int j = 0; j < kLBins; ++j) cnt[j] = 0;
    unsigned long long t0; rec_begin(t0);
    for (int k = 0; k < kLSteps; ++k) {
        unsigned v = x[base + (size_t)k * 128 + threadIdx.x];
        cnt[v & 15u]++;
        cnt[(v >> 4) & 15u]++;
    }
    unsigned s = 0;
#pragma unroll
    for (int j = 0; j < kLBins; ++j) s += cnt[j] * (unsigned)(j * j + 1);
    y[(size_t)blockIdx.x * 128 + threadIdx.x] = s;
    rec_end(rec, t0);
    float lf = (float)s;
    TOUCH_PAD(lf);
}

// ---- cdiv --------------------------------------------------------------------------------
static const int kCSteps = 32, kCTab = 1024;
__constant__ float ctab[kCTab];

__global__ void k_cdiv(float *y, const unsigned *__restrict__ x, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * kCSteps * 128;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 4
    for (int k = 0; k < kCSteps; ++k) {
        size_t i = base + (size_t)k * 128 + threadIdx.x;
        unsigned v = x[i];
        float r = ctab[v & (kCTab - 1)] * 0.5f + ctab[(v >> 10) & (kCTab - 1)];
        y[i] = r;
        last = r;
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

// ---- cas ---------------------------------------------------------------------------------
static const int kSSteps = 32, kSBins = 256;

__global__ void k_cas(unsigned *bins, const unsigned *__restrict__ x, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * kSSteps * 128;
    unsigned *b = bins + (size_t)blockIdx.x * kSBins;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int k = 0; k < kSSteps; ++k) {
        unsigned v = x[base + (size_t)k * 128 + threadIdx.x];
        float val = (float)(v & 0xffffu) * (1.0f / 65536.0f);
        unsigned *a = &b[(v >> 16) & (kSBins - 1)];
        unsigned old = *(volatile unsigned *)a, assumed;
        do {
            assumed = old;
            old = atomicCAS(a, assumed, __float_as_uint(__uint_as_float(assumed) * 0.5f + val));
        } while (old != assumed);
        last = __uint_as_float(old);
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

// ---- dsqrt -------------------------------------------------------------------------------
static const int kDSteps = 16, kDRounds = 4;

__global__ void k_dsqrt(double *y, const double *__restrict__ x, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * kDSteps * 128;
    double last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int k = 0; k < kDSteps; ++k) {
        size_t i = base + (size_t)k * 128 + threadIdx.x;
        double v = x[i];
#pragma unroll
        for (int r = 0; r < kDRounds; ++r) v = sqrt(v + 1.0) / (v + 2.0);
        y[i] = v;
        last = v;
    }
    rec_end(rec, t0);
    float lf = (float)last;
    TOUCH_PAD(lf);
}

// ---- mix64 -------------------------------------------------------------------------------
static const int kMSteps = 16, kMRounds = 8;

__global__ void k_mix64(unsigned long long *y, const unsigned long long *__restrict__ x, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * kMSteps * 128;
    unsigned long long last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int k = 0; k < kMSteps; ++k) {
        size_t i = base + (size_t)k * 128 + threadIdx.x;
        unsigned long long z = x[i] + (unsigned long long)i * 0x9e3779b97f4a7c15ull;
#pragma unroll
        for (int r = 0; r < kMRounds; ++r) {
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            z ^= z >> 31;
        }
        y[i] = z;
        last = z;
    }
    rec_end(rec, t0);
    float lf = (float)(last & 0xffff);
    TOUCH_PAD(lf);
}

int main(int argc, char **argv) {
    std::string mode = argc > 1 ? argv[1] : "measure";
    bool ncu = mode == "ncu8";
    bool check = mode == "check";
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    const int maxB = 16, maxgrid = maxB * 132 + 64;
    Rec *drec; CK(cudaMalloc(&drec, sizeof(Rec) * maxgrid));
    float *dout; CK(cudaMalloc(&dout, 1 << 20));
    // one input and one output buffer big enough for every streaming kernel (bytes)
    size_t per_block = std::max(std::max((size_t)kPSteps * 128 * 16, (size_t)kASteps * 128 * 12),
                                std::max((size_t)kDSteps * 128 * 8, (size_t)kMSteps * 128 * 8));
    per_block = std::max(per_block, (size_t)kLSteps * 128 * 4);
    size_t nb = (size_t)maxgrid * per_block;
    void *x, *y;
    CK(cudaMalloc(&x, nb)); CK(cudaMalloc(&y, nb));
    {
        std::vector<unsigned> h(nb / 4);
        std::mt19937 g(7);
        for (auto &v : h) v = g() & 0x3bff3bffu;  // finite floats of modest size
        CK(cudaMemcpy(x, h.data(), nb, cudaMemcpyHostToDevice));
    }
    CK(cudaMemset(y, 0, nb));
    double *xd;  // positive doubles in [1, 1000) for dsqrt
    size_t nd = (size_t)maxgrid * kDSteps * 128;
    CK(cudaMalloc(&xd, nd * 8));
    {
        std::vector<double> h(nd);
        std::mt19937 g(11);
        for (auto &v : h) v = 1.0 + 999.0 * (g() / 4294967296.0);
        CK(cudaMemcpy(xd, h.data(), nd * 8, cudaMemcpyHostToDevice));
    }
    {
        std::vector<float> h(kCTab);
        for (int i = 0; i < kCTab; ++i) h[i] = 0.001f * (float)((i * 37) % 1000);
        CK(cudaMemcpyToSymbol(ctab, h.data(), kCTab * 4));
    }
    unsigned *bins; CK(cudaMalloc(&bins, (size_t)maxgrid * kSBins * 4)); CK(cudaMemset(bins, 0, (size_t)maxgrid * kSBins * 4));
    W16 w;
    for (int j = 0; j < kPW; ++j) w.w[j] = (int)(0x01fe03fdu * (unsigned)(j + 1));

    FILE *f = (ncu || check) ? nullptr : open_csv("real11.csv", "kernel,blocks_per_sm,warps_per_sm,dyn_smem,cycles,work_per_cycle_per_sm,unit,blocks_min,blocks_max");
    FILE *fa = (ncu || check) ? nullptr : open_csv("attrs11.csv", "kernel,regs,static_smem,local_bytes,max_blocks_per_sm_no_pad,work_per_block,unit");
    auto curve = [&](const char *name, auto kernel, double work, const char *unit, auto launch) {
        cudaFuncAttributes at; CK(cudaFuncGetAttributes(&at, kernel));
        int bmax = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bmax, kernel, 128, 0));
        if (fa) fprintf(fa, "%s,%d,%zu,%zu,%d,%.0f,%s\n", name, at.numRegs, at.sharedSizeBytes, at.localSizeBytes, bmax, work, unit);
        if (check) printf("%s regs %d smem %zu local %zu bmax %d\n", name, at.numRegs, at.sharedSizeBytes, at.localSizeBytes, bmax);
        for (int bb = 1; bb <= maxB; ++bb) {
            if ((ncu || check) && bb != 8) continue;
            size_t smem = smem_pin(kernel, 128, bb);
            if (!smem) continue;
            if (ncu || check) { launch(bb * g_sms, smem); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); continue; }
            Span s = run_wave(bb, smem, [&](int grid, size_t sm, unsigned) { launch(grid, sm); }, drec);
            fprintf(f, "%s,%d,%d,%zu,%.0f,%.5f,%s,%.0f,%.0f\n", name, bb, 4 * bb, smem, s.cycles, bb * work / s.cycles, unit,
                    s.blocks_per_sm_min, s.blocks_per_sm_max);
            fflush(f);
        }
    };
    curve("dp4a", k_dp4a, (double)kPSteps * 128 * 4 * kPW, "dp4a",
          [&](int g, size_t sm) { k_dp4a<<<g, 128, sm>>>((int *)y, (const int4 *)x, w, drec, dout); });
    curve("vote", k_vote, (double)kVSteps * 128, "elements",
          [&](int g, size_t sm) { k_vote<<<g, 128, sm>>>((unsigned *)y, (const unsigned *)x, drec, dout); });
    curve("aos12", k_aos12, (double)kASteps * 128, "elements",
          [&](int g, size_t sm) { k_aos12<<<g, 128, sm>>>((float *)y, (const P3 *)x, 0.5f, -0.25f, 0.125f, drec, dout); });
    curve("lmem", k_lmem, (double)kLSteps * 128, "elements",
          [&](int g, size_t sm) { k_lmem<<<g, 128, sm>>>((unsigned *)y, (const unsigned *)x, drec, dout); });
    curve("cdiv", k_cdiv, (double)kCSteps * 128, "elements",
          [&](int g, size_t sm) { k_cdiv<<<g, 128, sm>>>((float *)y, (const unsigned *)x, drec, dout); });
    curve("cas", k_cas, (double)kSSteps * 128, "elements",
          [&](int g, size_t sm) { k_cas<<<g, 128, sm>>>(bins, (const unsigned *)x, drec, dout); });
    curve("dsqrt", k_dsqrt, (double)kDSteps * 128 * kDRounds, "rounds",
          [&](int g, size_t sm) { k_dsqrt<<<g, 128, sm>>>((double *)y, xd, drec, dout); });
    curve("mix64", k_mix64, (double)kMSteps * 128 * kMRounds, "rounds",
          [&](int g, size_t sm) { k_mix64<<<g, 128, sm>>>((unsigned long long *)y, (const unsigned long long *)x, drec, dout); });
    if (f) fclose(f);
    if (fa) fclose(fa);
    if (check) {  // after the B = 8 launches: mix64's first key and lmem's first sum against the host
        unsigned long long z0 = 0;
        CK(cudaMemcpy(&z0, y, 8, cudaMemcpyDeviceToHost));
        unsigned long long z; CK(cudaMemcpy(&z, x, 8, cudaMemcpyDeviceToHost));
        for (int r = 0; r < kMRounds; ++r) {
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            z ^= z >> 31;
        }
        printf("mix64 key 0: device %016llx host %016llx\n", z0, z);
    }
    printf("done %s\n", mode.c_str());
    return 0;
}
