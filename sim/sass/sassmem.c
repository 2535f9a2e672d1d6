/* sassmem.c - memory per SASS instruction from the Nsight Compute profile:
 * sectors per request, footprints, hit rates and their change with resident
 * warps (see sassmem.h). */
#include "sass/sassmem.h"

#include <math.h>
#include <string.h>

/* The bytes of one L2 sector, the unit of Nsight Compute's sector counts and
 * of a DRAM access a sector miss makes at least (Nsight Compute Kernel
 * Profiling Guide, "Memory Tables": a sector is 32 bytes). */
#define SASSMEM_SECTOR_BYTES 32.0

/* ---- what an instruction does ---------------------------------------------- */

/* Bytes per thread the instruction moves (its .8/.16/.64/.128 modifier). */
guint sassmem_width_bytes(const SassInstr *in) {
  if (strstr(in->mods, ".128"))
    return 16;
  if (strstr(in->mods, ".64"))
    return 8;
  if (strstr(in->mods, ".U8") || strstr(in->mods, ".S8"))
    return 1;
  if (strstr(in->mods, ".U16") || strstr(in->mods, ".S16"))
    return 2;
  return 4;
}

/* How a global/local-class instruction touches memory. */
SassAccess sassmem_access(const SassInstr *in, const NcuInstr *p) {
  if (sass_op_is(in, "LDL") || (p && p->space == NCU_SPACE_LOCAL && !p->store))
    return SASS_ACC_LOCAL_LOAD;
  if (sass_op_is(in, "STL") || (p && p->space == NCU_SPACE_LOCAL && p->store))
    return SASS_ACC_LOCAL_STORE;
  if (sass_op_is(in, "LDG") || sass_op_is(in, "LD") || sass_op_is(in, "TLD") ||
      sass_op_is(in, "SULD") || sass_op_is(in, "TEX") || sass_op_is(in, "TLD4") ||
      sass_op_is(in, "LDGSTS"))
    return SASS_ACC_LOAD;
  if (sass_op_is(in, "STG") || sass_op_is(in, "ST") || sass_op_is(in, "SUST"))
    return SASS_ACC_STORE;
  if (sassmem_global_atomic(in) || g_str_has_prefix(in->opcode, "SUATOM") ||
      g_str_has_prefix(in->opcode, "SURED"))
    return in->n_dst > 0 ? SASS_ACC_LOAD : SASS_ACC_ATOMIC;
  return SASS_ACC_NONE;
}

guint sassmem_global_atomic(const SassInstr *in) {
  /* shared-memory atomics ([class_shared]) and the warp reduction are no
     global memory */
  if (sass_op_is(in, "ATOMS") || sass_op_is(in, "REDUX"))
    return 0;
  if (g_str_has_prefix(in->opcode, "ATOM"))
    return strstr(in->mods, ".CAS") ? 3 : 2;
  if (g_str_has_prefix(in->opcode, "RED"))
    return in->n_dst > 0 ? 2 : 1;
  return 0;
}

/* ---- loading ----------------------------------------------------------------- */

guint32 sassmem_bulk_bytes(const SassFunction *fn, guint i) {
  const SassInstr *in = &fn->ins[i];
  if (in->n_src == 0 || in->src[in->n_src - 1].file != SASS_REG_UR)
    return 0;
  guint8 r = in->src[in->n_src - 1].index;
  for (guint j = i; j-- > 0 && j + 64 >= i;) {
    const SassInstr *d = &fn->ins[j];
    gboolean writes = FALSE;
    for (guint k = 0; k < d->n_dst; k++)
      writes |= d->dst[k].file == SASS_REG_UR && d->dst[k].index <= r &&
                r < d->dst[k].index + d->dst[k].count;
    if (!writes)
      continue;
    const gchar *imm = strstr(d->text, ", 0x");
    if (!sass_op_is(d, "UMOV") || imm == NULL || d->guard >= 0)
      return 0;
    return (guint32)(g_ascii_strtoull(imm + 2, NULL, 16) & 0xffffu) * 16u;
  }
  return 0;
}

gdouble sassmem_executed(const SassKernel *sk, guint i) {
  return sk->source ? (gdouble)sk->source->ins[i].executed : 0.0;
}

/* Sectors one execution of global or local instruction i requests: the
 * profile's L2 Theoretical Sectors Global (Local for local memory) per
 * execution, a measured 0 included; the ideal count when the profile does
 * not give it (a TEX or TLD4 whose global columns are 0: the model's
 * [texture] bytes / 32, SassKernel tex_sectors, when set). */
gdouble sassmem_sectors(const SassKernel *sk, guint i) {
  const SassInstr *in = &sk->fn->ins[i];
  gdouble ideal = sassmem_ideal_sectors(in);
  const NcuInstr *p = sk->source ? &sk->source->ins[i] : NULL;
  if (p == NULL || p->executed == 0)
    return ideal;
  SassAccess a = sassmem_access(in, p);
  gboolean local = a == SASS_ACC_LOCAL_LOAD || a == SASS_ACC_LOCAL_STORE;
  if (p->unknown & (local ? NCU_UNKNOWN_L2_SECTORS_LOCAL : NCU_UNKNOWN_L2_SECTORS))
    return ideal;
  if (sassmem_texture_fetch(in) && p->l2_sectors == 0 && p->l1_requests == 0)
    return sk->tex_sectors > 0 && !sass_op_is(in, "TLD") ? sk->tex_sectors : ideal;
  return (gdouble)(local ? p->l2_sectors_local : p->l2_sectors) / (gdouble)p->executed;
}

gboolean sassmem_dsmem(const SassInstr *in, const NcuInstr *p) {
  return p != NULL && p->executed > 0 && p->space == NCU_SPACE_GLOBAL_SHARED &&
         (sass_op_is(in, "LD") || sass_op_is(in, "ST")) && p->l1_requests == 0 &&
         p->l2_sectors == 0 && p->smem_wavefronts == 0 &&
         !(p->unknown &
           (NCU_UNKNOWN_L1_REQUESTS | NCU_UNKNOWN_L2_SECTORS | NCU_UNKNOWN_SMEM_WAVEFRONTS));
}

gboolean sassmem_texture_fetch(const SassInstr *in) {
  return sass_op_is(in, "TEX") || sass_op_is(in, "TLD") || sass_op_is(in, "TLD4");
}

gdouble sassmem_ideal_sectors(const SassInstr *in) {
  return MAX(1.0, sassmem_width_bytes(in) * 32.0 / 32.0);
}

/* Loops: each back edge j to t < j (sass_is_back_edge) spans [t, j]. */
typedef struct {
  guint head, tail;
} Loop;

static GArray *find_loops(const SassFunction *fn) {
  GArray *loops = g_array_new(FALSE, FALSE, sizeof(Loop));
  for (guint j = 0; j < fn->n; j++) {
    const SassInstr *in = &fn->ins[j];
    if (sass_is_back_edge(in)) {
      Loop l = {(guint)(in->target / SASS_INSTR_BYTES), j};
      g_array_append_val(loops, l);
    }
  }
  return loops;
}

gboolean sassmem_barrier_synced(const SassKernel *sk, guint i) {
  g_autoptr(GArray) loops = find_loops(sk->fn);
  guint head = 0, tail = sk->fn->n - 1;
  for (guint k = 0; k < loops->len; k++) {
    const Loop *l = &g_array_index(loops, Loop, k);
    if (l->head <= i && i <= l->tail && l->tail - l->head < tail - head) {
      head = l->head;
      tail = l->tail;
    }
  }
  for (guint j = head; j <= tail; j++)
    if (sass_is_cta_barrier(&sk->fn->ins[j]) && !sass_never(&sk->fn->ins[j]))
      return TRUE;
  return FALSE;
}

/* Bytes a warp loads through global memory per trip of `l` (per warp of the
 * profiled launch; counts 1 per instruction without a profile). */
static gdouble bytes_per_trip(const SassKernel *sk, const Loop *l) {
  gdouble sum = 0, head = sk->source ? sassmem_executed(sk, l->head) : 1.0;
  for (guint i = l->head; i <= l->tail; i++) {
    const SassInstr *in = &sk->fn->ins[i];
    const NcuInstr *p = sk->source ? &sk->source->ins[i] : NULL;
    if (sassmem_access(in, p) == SASS_ACC_LOAD)
      sum += (sk->source ? sassmem_executed(sk, i) : 1.0) * sassmem_sectors(sk, i) * 32.0;
  }
  return head > 0 ? sum / head : 0.0;
}

/* The base register and immediate offset of a memory operand: "[R10.64+0x4004]"
 * -> ("R10.64", 0x4004).  FALSE when there is no bracket. */
static gboolean address_of(const SassInstr *in, gchar **base, gint64 *offset) {
  const gchar *open = strrchr(in->text, '[');
  const gchar *close = open ? strchr(open, ']') : NULL;
  if (open == NULL || close == NULL)
    return FALSE;
  const gchar *plus = memchr(open, '+', (gsize)(close - open));
  *base = g_strndup(open + 1, (gsize)((plus ? plus : close) - open - 1));
  *offset = plus ? g_ascii_strtoll(plus + 1, NULL, 16) : 0;
  return TRUE;
}

gboolean sassmem_store_rewrites_load(const SassFunction *fn, guint i) {
  const SassInstr *st = &fn->ins[i];
  g_autofree gchar *base = NULL;
  gint64 off = 0;
  if (!address_of(st, &base, &off) || base[0] != 'R' || !g_ascii_isdigit(base[1]))
    return FALSE;
  SassReg addr = {SASS_REG_R, (guint8)g_ascii_strtoull(base + 1, NULL, 10),
                  strstr(base, ".64") ? 2 : 1};
  gint64 lead = sass_block_start(fn, i);
  for (guint j = i; j-- > 0 && (gint64)fn->ins[j].offset >= lead;) {
    const SassInstr *in = &fn->ins[j];
    if (in->target >= 0)
      return FALSE; /* a branch: another block */
    for (guint d = 0; d < in->n_dst; d++)
      if (sass_reg_overlaps(&in->dst[d], &addr))
        return FALSE; /* the address changes */
    g_autofree gchar *lb = NULL;
    gint64 loff = 0;
    if (sass_op_is(in, "LDG") && address_of(in, &lb, &loff) && loff == off &&
        strcmp(lb, base) == 0 && sassmem_width_bytes(in) == sassmem_width_bytes(st))
      return TRUE;
  }
  return FALSE;
}

/* Spatial reuse within one trip of loop `l`: its coalesced loads off one
 * base register cover [offset, offset + 32 x width) each; sectors that
 * several loads cover are loaded once and hit in L1 after (stencil's c - 1,
 * c, c + 1).  Returns the fraction of requested sectors that repeat. */
static gdouble spatial_reuse(const SassKernel *sk, const Loop *l) {
  g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  gdouble requested = 0;
  for (guint i = l->head; i <= l->tail; i++) {
    const SassInstr *in = &sk->fn->ins[i];
    const NcuInstr *p = sk->source ? &sk->source->ins[i] : NULL;
    gchar *base = NULL;
    gint64 off = 0;
    if (sassmem_access(in, p) != SASS_ACC_LOAD ||
        sassmem_sectors(sk, i) >= 2.0 * sassmem_ideal_sectors(in) || !address_of(in, &base, &off))
      continue;
    gint64 first = off >= 0 ? off / 32 : -((-off + 31) / 32);
    gint64 last = (off + 32 * (gint64)sassmem_width_bytes(in) - 1) >= 0
                      ? (off + 32 * (gint64)sassmem_width_bytes(in) - 1) / 32
                      : -((-(off + 32 * (gint64)sassmem_width_bytes(in) - 1) + 31) / 32);
    for (gint64 sct = first; sct <= last; sct++) {
      requested += 1;
      g_hash_table_add(seen, g_strdup_printf("%s:%" G_GINT64_FORMAT, base, sct));
    }
    g_free(base);
  }
  return requested > 0 ? 1.0 - g_hash_table_size(seen) / requested : 0.0;
}

/* Footprints per warp: L1 reuse within a trip of the innermost loop that
 * loads, L2 reuse across trips of the outermost one (the bytes a warp loads
 * per trip); without loops, all the warp loads. */
static void estimate_footprints(SassKernel *sk) {
  g_autoptr(GArray) loops = find_loops(sk->fn);
  gdouble inner = 0, outer = 0;
  guint inner_len = G_MAXUINT, outer_len = 0;
  const Loop *inner_loop = NULL;
  for (guint k = 0; k < loops->len; k++) {
    const Loop *l = &g_array_index(loops, Loop, k);
    gdouble b = bytes_per_trip(sk, l);
    if (b <= 0)
      continue;
    guint len = l->tail - l->head;
    if (len < inner_len) {
      inner_len = len;
      inner = b;
      inner_loop = l;
    }
    if (len > outer_len) {
      outer_len = len;
      outer = b;
    }
  }
  if (outer == 0) {
    Loop all = {0, sk->fn->n - 1};
    gdouble w = sk->warps > 0 ? sk->warps : 1.0;
    gdouble total = bytes_per_trip(sk, &all) * (sk->source ? sassmem_executed(sk, 0) : 1.0) / w;
    inner = outer = total;
  }
  sk->est_l1 = inner;
  sk->est_l2 = outer;
  Loop all = {0, sk->fn->n - 1};
  sk->reuse_l1 = spatial_reuse(sk, inner_loop ? inner_loop : &all);
}

gboolean sassmem_strided_span(const SassKernel *sk, guint i) {
  const NcuInstr *p = sk->source ? &sk->source->ins[i] : NULL;
  if (p == NULL || p->executed == 0 || p->l1_requests == 0 ||
      (p->unknown & (NCU_UNKNOWN_L1_REQUESTS | NCU_UNKNOWN_L2_SECTORS)))
    return FALSE;
  SassAccess a = sassmem_access(&sk->fn->ins[i], p);
  if (a == SASS_ACC_NONE || a == SASS_ACC_LOCAL_LOAD || a == SASS_ACC_LOCAL_STORE)
    return FALSE;
  gdouble sectors = sassmem_sectors(sk, i);
  return sectors >= 2.0 * sassmem_ideal_sectors(&sk->fn->ins[i]) &&
         sectors >= SASSMEM_SPAN_SECTORS_PER_LINE * (gdouble)p->l1_requests / (gdouble)p->executed;
}

gboolean sassmem_scattered(const SassKernel *sk, guint i) {
  return sassmem_sectors(sk, i) >= 2.0 * sassmem_ideal_sectors(&sk->fn->ins[i]) &&
         !sassmem_strided_span(sk, i);
}

/* Profiled hit rates of loads: the details page's rates count stores too
 * (an L1 miss each; an L2 hit each, as written sectors allocate in L2). */
static void derive_hit_rates(SassKernel *sk) {
  gdouble loads = 0, stores = 0, stores_new = 0; /* stores_new: to lines no load read */
  gdouble bulk = 0; /* bytes TMA bulk copies (UBLKCP) read through L2 (once each, as the
                       profiled launch's caches start empty) */
  for (guint i = 0; sk->source && i < sk->fn->n; i++) {
    SassAccess a = sassmem_access(&sk->fn->ins[i], &sk->source->ins[i]);
    if (a == SASS_ACC_LOAD) {
      /* a texture fetch's sectors are in no global column (sassmem_sectors):
         its ideal count per execution stands in */
      gdouble sec = sassmem_texture_fetch(&sk->fn->ins[i])
                        ? sassmem_sectors(sk, i) * sassmem_executed(sk, i)
                        : (gdouble)sk->source->ins[i].l2_sectors;
      loads += sec;
      if (sassmem_scattered(sk, i))
        sk->l2_scattered += sec;
      else
        sk->l2_coalesced += sec;
    } else if (a == SASS_ACC_STORE || a == SASS_ACC_ATOMIC) {
      stores += (gdouble)sk->source->ins[i].l2_sectors;
      if (a == SASS_ACC_ATOMIC || !sassmem_store_rewrites_load(sk->fn, i))
        stores_new += (gdouble)sk->source->ins[i].l2_sectors;
    } else if (sass_op_is(&sk->fn->ins[i], "UBLKCP")) {
      bulk += sassmem_executed(sk, i) * sassmem_bulk_bytes(sk->fn, i);
    }
  }
  const NcuDetails *d = sk->details;
  if (d != NULL && d->grid_size > 0)
    sk->cta_store_bytes = SASSMEM_SECTOR_BYTES * stores / d->grid_size;
  if (d != NULL && loads <= 0 && bulk > 0 && d->grid_size > 0) /* copies, no loads */
    sk->cta_l2_bytes = (SASSMEM_SECTOR_BYTES * stores_new + bulk) / d->grid_size;
  if (d == NULL || loads <= 0)
    return;
  gdouble h1 = isnan(d->l1_hit_pct) ? 0.0 : d->l1_hit_pct / 100.0;
  gdouble h2 = isnan(d->l2_hit_pct) ? 0.0 : d->l2_hit_pct / 100.0;
  /* Nsight Compute's L1 hit rate is over load and store sectors.  A store
   * that writes a line an earlier store of the launch wrote hits (radix's
   * tile scatter, 4 requests a line: 57.75 % hits with cold loads; a store
   * stream to new lines 0.01 %, gstore), so the hits are the loads' only
   * while they fit in them: when they do not, whose they are is unknown, and
   * the loads take the kernel's rate. */
  gdouble h1_loads = h1 * (loads + stores) / loads;
  sk->load_l1_hit = h1_loads <= 1.0 ? h1_loads : h1;
  gdouble l2_loads = loads * (1.0 - sk->load_l1_hit);
  if (l2_loads > 0)
    sk->load_l2_hit = CLAMP((h2 * (l2_loads + stores) - stores) / l2_loads, 0.0, 1.0);
  /* A sector DRAM serves moves at least its 32 bytes, so the profiled
   * launch's DRAM bytes (Memory Throughput x Duration) bound the sectors
   * that missed L2.  Coalesced loads' misses and stores' sectors take their
   * 32 B each (within 10 % of the DRAM bytes of every real kernel without
   * scattered loads but transpose33, whose stores come to 1.59x: doc/sass.md "The
   * profile's DRAM bytes bound its L2 misses"), and the scattered loads'
   * misses are what is left.
   * Nsight Compute's L2 Hit Rate can count more misses than that (spmv: 73 %
   * hits, its misses worth 410 MB at 32 B against 287 MB from DRAM; gather_l2
   * 168 against 128): the scattered sectors DRAM did not serve came from L2
   * all the same (presumably the other half of GH100's two-part L2, which a
   * slice counts as a miss), and the model takes them as hits. */
  gdouble dram = d->dram_bytes_per_s * d->duration_s;
  gdouble l2_c = sk->l2_coalesced * (1.0 - sk->load_l1_hit);
  gdouble miss = (1.0 - sk->load_l2_hit) * l2_loads;
  if (sk->l2_scattered > 0 && !isnan(dram) && miss > l2_c) {
    gdouble scattered_dram = MAX(0.0, dram / SASSMEM_SECTOR_BYTES - l2_c - stores);
    if (miss - l2_c > scattered_dram) {
      sk->load_l2_hit = 1.0 - (l2_c + scattered_dram) / l2_loads;
      /* those hits are the far partition's ([l2] far_extra_cycles) */
      sk->l2_far = CLAMP(
          (miss - l2_c - scattered_dram) / (sk->l2_scattered * (1.0 - sk->load_l1_hit)), 0.0, 1.0);
    }
  }
  /* Whatever the loads' kind, the sectors they missed in L2 were read from
   * DRAM, so at 32 B each they cannot exceed all the bytes DRAM moved (reads
   * and writes: the stores' share is left out of the bound, as L2 merges
   * partial sectors before writing them back, transpose33's at 1.59x).
   * gemv (real_b, held out): 13.49 % L2 hits leave load misses worth
   * 1363 MB against 1111 MB from DRAM, the vector x's sectors (every SM reads
   * the same 16 KiB) counted as misses that DRAM never served. */
  sk->load_l2_hit = sassmem_dram_bounded_hit(sk->load_l2_hit, l2_loads, dram);
  /* What DRAM moved beyond the coalesced loads' misses and the stores, at
   * 32 B a sector, is what the scattered loads' misses read: about 2x their
   * 32 B (gather, real/: 2.13), reported as DRAM's bytes. */
  if (sk->l2_scattered > 0) {
    gdouble miss_all = (1.0 - sk->load_l2_hit) * l2_loads, c = MIN(miss_all, l2_c);
    sk->dram_scatter = sassmem_scattered_dram_scale(miss_all - c, c + stores, dram);
  }
  /* Nsight Compute empties the caches before the profiled launch, so what
   * its loads missed in L2 is the data they read (each line once) and its
   * stores' sectors are the data written: the bytes the launch leaves in
   * L2.  A store that writes back the sectors a load read
   * (sassmem_store_rewrites_load) adds none: h2axpy (real10, `y = p(x) +
   * y`) leaves 128 KiB a CTA, not 192. */
  if (d->grid_size > 0)
    sk->cta_l2_bytes =
        (SASSMEM_SECTOR_BYTES * (l2_loads * (1.0 - sk->load_l2_hit) + stores_new) + bulk) /
        d->grid_size;
  if (!isnan(d->theoretical_warps) && d->block_size > 0) {
    sk->prof_warps = d->theoretical_warps;
    gdouble blocks = d->theoretical_warps / ceil(d->block_size / 32.0);
    gdouble per_block = (isnan(d->smem_static) ? 0 : d->smem_static) +
                        (isnan(d->smem_dynamic) ? 0 : d->smem_dynamic) + 1024.0;
    sk->prof_smem = MAX(blocks * per_block, isnan(d->smem_config) ? 0.0 : d->smem_config);
  }
}

gdouble sassmem_dram_bounded_hit(gdouble h, gdouble l2_sectors, gdouble dram_bytes) {
  if (isnan(dram_bytes) || dram_bytes <= 0 || l2_sectors <= 0)
    return h;
  gdouble dram_sectors = dram_bytes / SASSMEM_SECTOR_BYTES;
  if ((1.0 - h) * l2_sectors <= dram_sectors)
    return h;
  return 1.0 - dram_sectors / l2_sectors;
}

gdouble sassmem_scattered_dram_scale(gdouble scattered_misses, gdouble other_sectors,
                                     gdouble dram_bytes) {
  if (isnan(dram_bytes) || dram_bytes <= 0 || scattered_misses <= 0)
    return 1.0;
  return MAX(1.0, (dram_bytes / SASSMEM_SECTOR_BYTES - other_sectors) / scattered_misses);
}

static void local_bytes(SassKernel *sk) {
  for (guint i = 0; i < sk->fn->n; i++) {
    const SassInstr *in = &sk->fn->ins[i];
    if (!sass_op_is(in, "LDL") && !sass_op_is(in, "STL"))
      continue;
    const gchar *plus = strstr(in->text, "+0x");
    guint off = plus ? (guint)g_ascii_strtoull(plus + 3, NULL, 16) : 0;
    sk->local_bytes = MAX(sk->local_bytes, off + sassmem_width_bytes(in));
  }
}

void sassmem_derive(SassKernel *sk) {
  derive_hit_rates(sk);
  estimate_footprints(sk);
  local_bytes(sk);
}

/* ---- hit rates vs resident warps ---------------------------------------------- */

/* The share of a cache of c bytes that `warps` warps of footprint f bytes
 * each hold: `m` non-NULL, the L1 ramp (model_l1_share, [l1] thrash_sass),
 * else the smooth share (model_capacity_share). */
static gdouble level_share(const SmModel *m, gdouble c, guint warps, gdouble f) {
  return m ? model_l1_share(m, c, warps, f) : model_capacity_share(c, warps, f);
}

/* One level: the profiled rate h0 at w0 warps and capacity c0, moved to
 * `warps` warps and capacity c by level_share (m as there), at most
 * max(cap, h0) and 1. */
static gdouble level_hit(const SmModel *m, gdouble h0, gdouble w0, gdouble c0, gdouble c,
                         guint warps, gdouble f, gdouble cap) {
  if (w0 <= 0 || f <= 0 || c <= 0)
    return h0;
  gdouble share0 = level_share(m, c0, (guint)lround(w0), f);
  if (h0 > share0 || share0 <= 0)
    return h0; /* more hits than the warps' own share holds: shared data; or
                  no room at the profiled point (c0 = 0), nothing to scale */
  /* h0 x share(W) / share(W0): the anchor holds at the profiled point */
  return MIN(MIN(1.0, MAX(cap, h0)), h0 * level_share(m, c, warps, f) / share0);
}

void sassmem_hit_rates(const SassKernel *sk, const SmModel *m, guint warps, gdouble smem_per_sm,
                       gdouble *l1_hit, gdouble *l2_hit) {
  gdouble f1 = sk->footprint_l1 ? sk->footprint_l1 : sk->est_l1;
  gdouble f2 = sk->footprint_l2 ? sk->footprint_l2 : sk->est_l2;
  gdouble c1 = MAX(0.0, (gdouble)m->l1_bytes - smem_per_sm);
  gdouble c1_0 = MAX(0.0, (gdouble)m->l1_bytes - sk->prof_smem);
  gdouble c2 = m->sm.sms ? (gdouble)m->l2_bytes / m->sm.sms : 0.0;
  /* L1 holds at most the spatial reuse of a trip; L2 is not bounded (reuse
   * across trips, which the listing does not show). */
  *l1_hit = level_hit(m->l1_thrash_sass ? m : NULL, sk->load_l1_hit, sk->prof_warps, c1_0, c1,
                      warps, f1, sk->reuse_l1);
  *l2_hit = m->l2_bytes ? level_hit(NULL, sk->load_l2_hit, sk->prof_warps, c2, c2, warps, f2, 1.0)
                        : sk->load_l2_hit;
}

gdouble sassmem_l2_reuse(const SassKernel *sk, const SmModel *m, guint grid_blocks) {
  if (sk->cta_l2_bytes <= 0 || m->l2_bytes == 0)
    return 0.0;
  gdouble f = sk->cta_l2_bytes * grid_blocks;
  guint full, none;
  model_l2_reuse_edges(m, &full, &none);
  if (f <= full)
    return 1.0;
  if (f >= none)
    return 0.0;
  return ((gdouble)none - f) / ((gdouble)none - full);
}

void sassmem_store_dram(const SassKernel *sk, const SmModel *m, guint grid_blocks, gboolean l2_warm,
                        gdouble dram[2]) {
  dram[0] = dram[1] = 1.0;
  gdouble cta_w = sk->store_footprint ? (gdouble)sk->store_footprint : sk->cta_store_bytes;
  if (m->l2_store_full_bytes == 0 || cta_w <= 0)
    return;
  if (!l2_warm) {
    /* cold: what a launch stores beyond the residue is written back during it */
    gdouble w = cta_w * grid_blocks;
    dram[0] = dram[1] = w > m->l2_store_residue_bytes ? 1.0 - m->l2_store_residue_bytes / w : 0.0;
    return;
  }
  /* warm: the launch's L2 footprint, its loads' misses with its stores */
  gdouble f = MAX(cta_w, sk->cta_l2_bytes) * grid_blocks, full = m->l2_store_full_bytes;
  gdouble none[2] = {m->l2_store_none_line_bytes ? m->l2_store_none_line_bytes
                                                 : m->l2_store_none_bytes,
                     m->l2_store_none_bytes};
  for (guint k = 0; k < 2; k++)
    dram[k] = none[k] > full ? CLAMP((f - full) / (none[k] - full), 0.0, 1.0)
              : f > full     ? 1.0
                             : 0.0;
}

void sassmem_l2_split(const SassKernel *sk, gdouble h, gdouble *coalesced, gdouble *scattered) {
  gdouble c = sk->l2_coalesced, r = sk->l2_scattered;
  *coalesced = *scattered = h;
  if (c <= 0 || r <= 0)
    return;
  gdouble miss = (1.0 - h) * (c + r); /* load sectors that miss L2 */
  if (miss <= c) {
    *coalesced = 1.0 - miss / c;
    *scattered = 1.0;
  } else {
    *coalesced = 0.0;
    *scattered = 1.0 - (miss - c) / r;
  }
}

gdouble sassmem_l2_far(const SassKernel *sk, gdouble scattered_hit) {
  if (sk->l2_far <= 0 || scattered_hit <= 0)
    return 0.0;
  return MIN(1.0, sk->l2_far / scattered_hit);
}

void sassmem_launch_memory(const SassKernel *sk, const SmModel *m, guint warps, gdouble smem_per_sm,
                           guint grid_blocks, gboolean l2_warm, ProgramMemory *mem) {
  gdouble l1 = 0, l2 = 0;
  sassmem_hit_rates(sk, m, warps, smem_per_sm, &l1, &l2);
  if (l2_warm)
    l2 += (1.0 - l2) * sassmem_l2_reuse(sk, m, grid_blocks);
  const OpClassModel *g = &m->opclass[OPCLASS_GLOBAL];
  *mem = (ProgramMemory){.load_l1_hit = l1,
                         .load_l2_hit = l2,
                         .max_inflight = g->lines_in_flight,
                         .warp_max_inflight = g->warp_lines_in_flight,
                         .dram_write_cost = g->write_cost,
                         .dram_turnaround = g->dram_turnaround,
                         .l1_cycle_per_line = g->l1_cycle_per_line,
                         .scattered_dram_bytes = g->scattered_dram_bytes,
                         .stores_hold_lines = g->stores_hold_lines,
                         .store_streams = {g->store_streams[0], g->store_streams[1],
                                           g->store_streams[2], g->store_streams[3]}};
  /* a TMA bulk copy misses L2 at the profiled launch; a launch after one over the same
   * data finds the part sassmem_l2_reuse keeps */
  mem->bulk_l2_hit = l2_warm ? sassmem_l2_reuse(sk, m, grid_blocks) : 0.0;
  /* the global stores L2 keeps ([l2] store_*_bytes; sassmem_store_dram) */
  gdouble dram[2];
  sassmem_store_dram(sk, m, grid_blocks, l2_warm, dram);
  mem->store_l2[0] = 1.0 - dram[0];
  mem->store_l2[1] = 1.0 - dram[1];
  /* DRAM's bytes of a scattered sector: the profile's, at most a line */
  if (m->sector_bytes > 0)
    mem->scattered_dram_scale = MIN(sk->dram_scatter, (gdouble)m->line_bytes / m->sector_bytes);
  /* the misses fall on the coalesced loads first */
  sassmem_l2_split(sk, l2, &mem->load_l2_hit_coalesced, &mem->load_l2_hit_scattered);
  /* far-partition hits cost more only with [l2] far_extra_cycles */
  if (m->l2_far_extra_cycles > 0)
    mem->load_l2_far_scattered = sassmem_l2_far(sk, mem->load_l2_hit_scattered);
}
