/* rng.h - the simulator core's random draws: which level a global access is
 * served from, a level's latency draw, the channel each line of a warp-load
 * goes to, whether a spill access misses L1.
 *
 * The generator is SplitMix64 (G. L. Steele, D. Lea, C. H. Flood, "Fast
 * splittable pseudorandom number generators", OOPSLA 2014; the constants are
 * those of S. Vigna's public-domain splitmix64.c, also used by Java's
 * SplittableRandom): a 64-bit counter, advanced by the golden-ratio
 * increment, put through a mixing function (tests/check_rng.c checks its
 * published first outputs and the spread of its draws).  It is
 * here, inline in the core, instead of GLib's GRand because a gathering
 * warp-load draws a channel for each of its up to 32 lines: GRand's
 * g_rand_int_range cost 88 host instructions a call (callgrind,
 * traces/gather_sass.ini, GLib 2.74), a quarter of the whole simulation of
 * that kernel; a draw here costs about 10.  Nothing else in the simulator
 * draws random numbers (tests/check_property.c uses GRand for its random
 * configurations).
 *
 * Determinism: the draws depend on the seed only, so a run with the same
 * inputs and seed gives byte-identical output on any host.
 */
#ifndef WARPSIM_RNG_H
#define WARPSIM_RNG_H

#include <glib.h>

typedef struct {
  guint64 state; /* the counter; any value is valid */
} SimRng;

/* A generator for `seed` (any value; different seeds give unrelated draws,
 * since each output is a mix of the counter). */
static inline void sim_rng_init(SimRng *r, guint64 seed) {
  r->state = seed;
}

/* The next 64 uniformly distributed bits. */
static inline guint64 sim_rng_next(SimRng *r) {
  guint64 z = (r->state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* A uniform double in [0, 1): the top 53 bits of a draw, so every value is a
 * multiple of 2^-53. */
static inline gdouble sim_rng_double(SimRng *r) {
  return (gdouble)(sim_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* A uniform integer in [0, n), n >= 1: the top 32 bits of a draw scaled by n
 * (D. Lemire, "Fast random integer generation in an interval", ACM TOMACS
 * 2019, without its rejection step: each value's probability is off by at
 * most n / 2^32, under 4e-9 for the model's at most 17 channels). */
static inline guint sim_rng_below(SimRng *r, guint n) {
  return (guint)(((sim_rng_next(r) >> 32) * (guint64)n) >> 32);
}

#endif
