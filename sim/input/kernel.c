/* kernel.c - reading kernel files through one key table. */
#include "input/kernel.h"

#include "input/config.h"
#include "input/paths.h"
#include "input/readfile.h"
#include "sass/sassprog.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

G_STATIC_ASSERT(KERNEL_MAX_TRIP_COUNTS == SASS_MAX_TRIP_COUNTS);

G_DEFINE_QUARK(warpsim_kernel_error, kernel_error)

#define K(f) offsetof(Kernel, f)

static const ConfigEntry kernel_table[] = {
    {"launch", "threads_per_block", CONFIG_UINT, K(threads_per_block), 0, "128", 1, 1024, NULL, 0,
     0, "threads", "threads per CTA", NULL},
    {"launch", "regs_per_thread", CONFIG_UINT, K(regs_per_thread), 0, "32", 1, 255, NULL, 0, 0,
     "registers", "registers the kernel needs per thread", NULL},
    {"launch", "smem_static", CONFIG_UINT, K(smem_static), 0, "0", 0, 16777216, NULL, 0, 0, "bytes",
     "static shared memory per CTA", NULL},
    {"launch", "smem_dynamic", CONFIG_UINT, K(smem_dynamic), 0, "0", 0, 16777216, NULL, 0, 0,
     "bytes", "dynamic shared memory per CTA", NULL},
    {"launch", "optin", CONFIG_BOOL, K(optin), 0, "false", 0, 0, NULL, 0, 0, NULL,
     "dynamic shared memory raised to the opt-in maximum", NULL},
    {"launch", "blocks", CONFIG_UINT, K(blocks), 0, "0", 0, 1e9, NULL, 0, 0, "CTAs",
     "grid size (0 = one full wave on this SM)", NULL},
    {"launch", "l2_warm", CONFIG_BOOL, K(l2_warm), 0, "true", 0, 0, NULL, 0, 0, NULL,
     "SASS kernels: the launch follows one that touched the same data (a timing loop, its "
     "producer), so when all it touches fits in L2 its loads hit there",
     NULL},
    {"launch", "blocks_per_sm", CONFIG_UINT, K(blocks_per_sm), 0, "0", 0, 1024, NULL, 0, 0,
     "CTAs per SM", "resident CTA cap (0 = as many as occupancy allows)", NULL},
    {"launch", "cluster_size", CONFIG_UINT, K(cluster_size), 0, "1", 1, 16, NULL, 0, 0, "CTAs",
     "CTAs per thread-block cluster (the launch's cluster dimension, Nsight Compute's Cluster "
     "Size; 1 = no cluster): a cluster launch holds at most [sm] cluster_blocks_per_sm CTAs on "
     "an SM",
     NULL},
    {"launch", "max_regs", CONFIG_UINT, K(max_regs), 0, "0", 0, 255, NULL, 0, 0, "registers",
     "register cap as -maxrregcount imposes (0 = none)", NULL},
    {"launch", "launch_bounds_threads", CONFIG_UINT, K(bounds_threads), 0, "0", 0, 1024, NULL, 0, 0,
     "threads", "__launch_bounds__ maxThreadsPerBlock: the register ceiling (0 = none)", NULL},
    {"launch", "launch_bounds_min_blocks", CONFIG_UINT, K(bounds_min_blocks), 0, "0", 0, 1024, NULL,
     0, 0, "CTAs per SM", "__launch_bounds__ minBlocksPerMultiprocessor (0 = none)", NULL},
    {"launch", "warpgroup_regs", CONFIG_UINT_LIST, K(warpgroup_regs), K(n_warpgroups), "", 24, 256,
     NULL, 8, 0, "registers",
     "registers per thread of each warpgroup of 128 threads, setmaxnreg (empty = none)", NULL},
    {"stream", "iterations", CONFIG_UINT, K(iterations), 0, "64", 1, 1e8, NULL, 0, 0,
     "loop trips per warp", "loop iterations each warp runs", NULL},
    {"stream", "fma", CONFIG_UINT, K(fma), 0, "0", 0, 65536, NULL, 0, 0, "FFMAs per iteration",
     "FP32 FMAs per iteration, spread over ilp chains", NULL},
    {"stream", "ilp", CONFIG_UINT, K(ilp), 0, "1", 1, 64, NULL, 0, 0, "chains",
     "independent FFMA/MUFU/LDS dependency chains", NULL},
    {"stream", "loads", CONFIG_UINT, K(loads), 0, "0", 0, 64, NULL, 0, 0,
     "warp-loads per iteration", "global loads per iteration, each its own chain", NULL},
    {"stream", "load_pattern", CONFIG_ENUM, K(pattern), 0, "stream", 0, 0, "chase;stream", 0, 0,
     NULL, "chase: address depends on the chain's previous load; stream: independent", NULL},
    {"stream", "load_bytes", CONFIG_UINT, K(load_bytes), 0, "128", 4, 4096, NULL, 0, 0,
     "bytes per warp-load", "bytes one warp-load moves", NULL},
    {"stream", "level", CONFIG_ENUM, K(level), 0, "dram", 0, 0, "l1;l2;dram", 0, 0, NULL,
     "memory level that serves the loads", NULL},
    {"stream", "fma_uses_load", CONFIG_BOOL, K(fma_uses_load), 0, "false", 0, 0, NULL, 0, 0, NULL,
     "FFMA i consumes the value of load i", NULL},
    {"stream", "overhead", CONFIG_UINT, K(overhead), 0, "3", 0, 1024, NULL, 0, 0,
     "instructions per iteration", "integer loop-control instructions (last one branches)", NULL},
    {"stream", "sfu", CONFIG_UINT, K(sfu), 0, "0", 0, 65536, NULL, 0, 0, "MUFU per iteration",
     "special-function instructions, over ilp chains", NULL},
    {"stream", "lds", CONFIG_UINT, K(lds), 0, "0", 0, 65536, NULL, 0, 0, "LDS per iteration",
     "shared-memory loads, over ilp chains", NULL},
    {"stream", "lds_ways", CONFIG_UINT, K(lds_ways), 0, "1", 1, 32, NULL, 0, 0, "ways",
     "bank-conflict degree of each shared-memory load", NULL},
    {"stream", "syncthreads", CONFIG_BOOL, K(syncthreads), 0, "false", 0, 0, NULL, 0, 0, NULL,
     "one __syncthreads() per iteration", NULL},
    {"stream", "live_values", CONFIG_UINT, K(live_values), 0, "0", 0, 255, NULL, 0, 0, "registers",
     "accumulators one FFMA each updates per iteration; spilled ones add an LDL and an STL", NULL},
    {"stream", "early_exit", CONFIG_UINT, K(early_exit), 0, "0", 0, 32, NULL, 0, 0, "warps per CTA",
     "the CTA's last N warps exit at once (divergent early return)", NULL},
    {"stream", "seed", CONFIG_UINT, K(seed), 0, "1", 0, 4294967295.0, NULL, 0, 0, NULL,
     "seed of the run's random numbers", NULL},
    {"stream", "footprint", CONFIG_UINT, K(footprint), 0, "0", 0, 4294967295.0, NULL, 0, 0,
     "bytes per warp",
     "data each warp reuses at `level`: when resident warps x footprint "
     "outgrow the level (L1 left by shared memory, L2 / SMs), loads miss to the next level "
     "(0 = never)",
     "assumed: no capacity model"},
    {"sass", "file", CONFIG_STRING, K(sass_file), 0, "", 0, 0, NULL, 0, 0, NULL,
     "SASS listing (cuobjdump -sass), relative to the kernel file; empty = synthetic kernel",
     "assumed: a synthetic kernel"},
    {"sass", "function", CONFIG_STRING, K(sass_function), 0, "", 0, 0, NULL, 0, 0, NULL,
     "mangled name, or a unique substring of the demangled name", NULL},
    {"sass", "source_csv", CONFIG_STRING, K(sass_source), 0, "", 0, 0, NULL, 0, 0, NULL,
     "ncu --page source --print-source sass --csv export (empty = none)", "assumed: no profile"},
    {"sass", "details_csv", CONFIG_STRING, K(sass_details), 0, "", 0, 0, NULL, 0, 0, NULL,
     "ncu --page details --csv export (empty = none)", "assumed: no profile"},
    {"sass", "details_id", CONFIG_STRING, K(sass_details_id), 0, "", 0, 0, NULL, 0, 0, NULL,
     "the launch of details_csv to read: its ID column (empty = the kernel's first launch, with "
     "a warning when the export holds several)",
     "assumed: the first launch"},
    {"sass", "trip_count", CONFIG_UINT_LIST, K(trip_counts), K(n_trip_counts), "", 1, 1e8, NULL,
     KERNEL_MAX_TRIP_COUNTS, 0, "trips",
     "loop trips when no profile gives counts: one value for every loop, or one per loop "
     "(backward branch) in address order, e.g. 512;3 (each at least 1: a loop body runs once "
     "before its back edge; empty = not given)",
     "assumed: none"},
    {"sass", "footprint_l1", CONFIG_UINT, K(footprint_l1), 0, "0", 0, 4294967295.0, NULL, 0, 0,
     "bytes per warp", "data each warp reuses through L1 (0 = estimated from the profile)",
     "assumed: estimated"},
    {"sass", "footprint_l2", CONFIG_UINT, K(footprint_l2), 0, "0", 0, 4294967295.0, NULL, 0, 0,
     "bytes per warp", "data each warp reuses through L2 (0 = estimated from the profile)",
     "assumed: estimated"},
    {"sass", "store_footprint", CONFIG_UINT, K(store_footprint), 0, "0", 0, 4294967295.0, NULL, 0,
     0, "bytes per CTA",
     "distinct bytes one CTA's global stores write (0 = the profile's store sectors per CTA; "
     "with neither, every store goes to DRAM)",
     "assumed: from the profile"},
    {"sass", "constant_table_bytes", CONFIG_UINT, K(constant_table_bytes), 0, "0", 0, 65536, NULL,
     0, 0, "bytes",
     "size of the __constant__ table the listing's register-indexed LDCs (LDC R, c[bank][R]) read, "
     "from the program's source: picks the model's [class_special] indexed_table_* timing (0 = "
     "not stated: indexed_latency / indexed_interval)",
     "assumed: not stated"},
};
#define N_KERNEL_KEYS G_N_ELEMENTS(kernel_table)

gboolean kernel_override_group(const gchar *group) {
  return config_has_group(kernel_table, N_KERNEL_KEYS, group);
}

/* A [sass] path: relative to the kernel file's folder, as messages show
 * it (paths_display: "traces/../results/x.sass" is "results/x.sass"). */
static gchar *sass_path(const gchar *kernel_file, const gchar *p) {
  if (p == NULL || *p == '\0')
    return g_strdup("");
  g_autofree gchar *dir = g_path_get_dirname(kernel_file);
  g_autofree gchar *path = g_path_is_absolute(p) ? g_strdup(p) : g_build_filename(dir, p, NULL);
  return paths_display(path);
}

/* Registers per thread of a SASS kernel: the file's, else the details
 * export's, else the listing's (sass_function_regs); fewer than the listing
 * touches, or a max_regs cap below it, is an error naming the line that uses
 * the highest one. */
static gboolean sass_regs(Kernel *k, GKeyFile *kf, GError **error) {
  const SassFunction *fn = k->sass->fn;
  guint line = 0, listing = sass_function_regs(fn, &line);
  gboolean set = g_key_file_has_key(kf, "launch", "regs_per_thread", NULL);
  const gchar *from =
      set ? "[launch] regs_per_thread" : "the details export's Registers Per Thread";
  if (!set && k->sass->details != NULL && k->sass->details->regs > 0)
    k->regs_per_thread = k->sass->details->regs;
  else if (!set)
    k->regs_per_thread = MIN(listing, 255u);
  if (k->regs_per_thread + 2 < listing) {
    g_set_error(error, KERNEL_ERROR, KERNEL_ERROR_INVALID,
                "%s: %s = %u, but %s:%u uses R%u: the kernel needs at least %u registers per "
                "thread (allowed %u..255; ptxas -v gives the count)",
                k->file, from, k->regs_per_thread, fn->file, line, listing - 3, listing - 2,
                listing - 2);
    return FALSE;
  }
  if (k->max_regs != 0 && k->max_regs + 2 < listing) {
    g_set_error(error, KERNEL_ERROR, KERNEL_ERROR_INVALID,
                "%s: [launch] max_regs = %u, but %s:%u uses R%u: a SASS listing is compiled code "
                "and cannot be capped (allowed 0 or %u..255; simulate the listing ptxas made "
                "under the cap)",
                k->file, k->max_regs, fn->file, line, listing - 3, listing - 2);
    return FALSE;
  }
  return TRUE;
}

/* `like` (may be NULL) has a loaded listing from the same file and [sass]
 * keys as `k`: the same program, when both are loaded for one model. */
static gboolean same_sass(const Kernel *k, const Kernel *like) {
  return like != NULL && like->sass != NULL && g_strcmp0(k->file, like->file) == 0 &&
         g_strcmp0(k->sass_file, like->sass_file) == 0 &&
         g_strcmp0(k->sass_function, like->sass_function) == 0 &&
         g_strcmp0(k->sass_source, like->sass_source) == 0 &&
         g_strcmp0(k->sass_details, like->sass_details) == 0 &&
         g_strcmp0(k->sass_details_id, like->sass_details_id) == 0 &&
         k->n_trip_counts == like->n_trip_counts &&
         memcmp(k->trip_counts, like->trip_counts, sizeof k->trip_counts) == 0 &&
         k->footprint_l1 == like->footprint_l1 && k->footprint_l2 == like->footprint_l2 &&
         k->store_footprint == like->store_footprint &&
         k->constant_table_bytes == like->constant_table_bytes;
}

/* Load the [sass] listing and profiles (or share `like`'s, see same_sass); registers and static
 * shared memory default to the details export when the file does not set them (registers: to the
 * listing's count without a details export). */
static gboolean load_sass(Kernel *k, GKeyFile *kf, const SmModel *model, const Kernel *like,
                          GError **error) {
  if (k->sass_function == NULL || *k->sass_function == '\0') {
    g_set_error(error, KERNEL_ERROR, KERNEL_ERROR_INVALID,
                "%s: [sass] function: required with [sass] file (a mangled name or a unique "
                "substring of the demangled one)",
                k->file);
    return FALSE;
  }
  if (k->n_trip_counts > 0 && k->sass_source != NULL && *k->sass_source != '\0') {
    /* refused, never silently ignored, like [stream] keys on a SASS kernel */
    g_autofree gchar *where = config_origin(kf, k->file, "sass", "trip_count");
    g_set_error(error, KERNEL_ERROR, KERNEL_ERROR_INVALID,
                "%s: [sass] trip_count: set with source_csv, whose execution counts drive every "
                "branch (allowed: trip_count only without source_csv)",
                where);
    return FALSE;
  }
  g_autofree gchar *listing = sass_path(k->file, k->sass_file);
  g_autofree gchar *source = sass_path(k->file, k->sass_source);
  g_autofree gchar *details = sass_path(k->file, k->sass_details);
  const struct {
    const gchar *key, *value, *path;
  } files[] = {{"file", k->sass_file, listing},
               {"source_csv", k->sass_source, source},
               {"details_csv", k->sass_details, details}};
  for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
    if (*files[i].path == '\0' || g_file_test(files[i].path, G_FILE_TEST_EXISTS))
      continue; /* (an unreadable file is named by the reader) */
    g_autofree gchar *where = config_origin(kf, k->file, "sass", files[i].key);
    g_set_error(error, KERNEL_ERROR, KERNEL_ERROR_NOT_FOUND,
                "%s: [sass] %s: %s: %s (looked for %s; a relative path is taken from "
                "the kernel file's directory)",
                where, files[i].key, files[i].value, readfile_problem(files[i].path),
                files[i].path);
    return FALSE;
  }
  gint64 id = -1;
  gboolean set = k->sass_details_id != NULL && *k->sass_details_id != '\0';
  if (set && (!g_ascii_string_to_signed(k->sass_details_id, 10, 0, G_MAXINT64, &id, NULL) ||
              *details == '\0')) {
    g_autofree gchar *where = config_origin(kf, k->file, "sass", "details_id");
    g_set_error(error, KERNEL_ERROR, KERNEL_ERROR_INVALID,
                "%s: [sass] details_id: '%s'%s (allowed a whole number >= 0, a launch ID of "
                "details_csv; empty = the first launch)",
                where, k->sass_details_id, *details ? " is no launch ID" : " without details_csv");
    return FALSE;
  }
  GError *err = NULL;
  if (same_sass(k, like)) {
    k->sass = like->sass;
    k->sass_shared = TRUE;
  } else {
    k->sass = sass_kernel_load_id(listing, k->sass_function, source, details, id, model,
                                  k->trip_counts, k->n_trip_counts, &err);
    if (k->sass == NULL) {
      g_set_error_literal(error, KERNEL_ERROR, KERNEL_ERROR_INVALID, err->message);
      g_error_free(err);
      return FALSE;
    }
    k->sass->footprint_l1 = k->footprint_l1;
    k->sass->footprint_l2 = k->footprint_l2;
    k->sass->store_footprint = k->store_footprint;
    k->sass->constant_table_bytes = k->constant_table_bytes;
  }
  const NcuDetails *d = k->sass->details;
  if (!sass_regs(k, kf, error))
    return FALSE;
  if (d != NULL && !isnan(d->smem_static) && !g_key_file_has_key(kf, "launch", "smem_static", NULL))
    k->smem_static = (guint)d->smem_static;
  return TRUE;
}

/* A synthetic kernel (no [sass] file) takes no other [sass] key: one set
 * to other than its default means the listing was forgotten, never a
 * silently synthetic run (the dumped configuration holds the defaults). */
static gboolean no_sass_keys(const Kernel *k, GKeyFile *kf, GError **error) {
  const struct {
    const gchar *key;
    gboolean set;
  } keys[] = {{"function", k->sass_function != NULL && *k->sass_function != '\0'},
              {"source_csv", k->sass_source != NULL && *k->sass_source != '\0'},
              {"details_csv", k->sass_details != NULL && *k->sass_details != '\0'},
              {"details_id", k->sass_details_id != NULL && *k->sass_details_id != '\0'},
              {"trip_count", k->n_trip_counts != 0},
              {"footprint_l1", k->footprint_l1 != 0},
              {"footprint_l2", k->footprint_l2 != 0},
              {"store_footprint", k->store_footprint != 0},
              {"constant_table_bytes", k->constant_table_bytes != 0}};
  for (guint i = 0; i < G_N_ELEMENTS(keys); i++) {
    if (!keys[i].set)
      continue;
    g_autofree gchar *where = config_origin(kf, k->file, "sass", keys[i].key);
    g_set_error(error, KERNEL_ERROR, KERNEL_ERROR_INVALID,
                "%s: [sass] %s: set without [sass] file (give file=, the cuobjdump -sass listing; "
                "a synthetic kernel takes no [sass] keys)",
                where, keys[i].key);
    return FALSE;
  }
  return TRUE;
}

/* A SASS kernel takes no [stream] key but seed: its instructions, loads and
 * loops come from the listing and profile, so a [stream] key would show in
 * the CSV and change nothing. */
static gboolean no_stream_keys(const Kernel *k, GKeyFile *kf, GError **error) {
  g_auto(GStrv) keys = g_key_file_get_keys(kf, "stream", NULL, NULL);
  for (guint i = 0; keys != NULL && keys[i] != NULL; i++) {
    if (strcmp(keys[i], "seed") == 0)
      continue;
    g_autofree gchar *where = config_origin(kf, k->file, "stream", keys[i]);
    g_set_error(error, KERNEL_ERROR, KERNEL_ERROR_INVALID,
                "%s: [stream] %s: set on a SASS kernel (allowed in [stream]: seed; the listing and "
                "profile give its instructions, loads and loops)",
                where, keys[i]);
    return FALSE;
  }
  return TRUE;
}

static Kernel *load_keyfile(GKeyFile *kf, const gchar *name, const gchar *file,
                            const gchar *const *overrides, const SmModel *model, const Kernel *like,
                            GError **error) {
  g_autoptr(Kernel) k = g_new0(Kernel, 1);
  k->name = g_strdup(name);
  k->file = g_strdup(file);
  GError *err = NULL;
  if (!config_apply_overrides(kf, kernel_table, N_KERNEL_KEYS, overrides, &err) ||
      !config_read(kernel_table, N_KERNEL_KEYS, kf, file, k, NULL, &err)) {
    g_set_error_literal(error, KERNEL_ERROR, KERNEL_ERROR_INVALID, err->message);
    g_error_free(err);
    return NULL;
  }
  if (k->sass_file != NULL && *k->sass_file != '\0')
    return no_stream_keys(k, kf, error) && load_sass(k, kf, model, like, error)
               ? g_steal_pointer(&k)
               : NULL;
  if (k->footprint > 0 && k->level == MEM_DRAM) { /* DRAM has no capacity to outgrow */
    g_autofree gchar *where = config_origin(kf, k->file, "stream", "footprint");
    g_set_error(error, KERNEL_ERROR, KERNEL_ERROR_INVALID,
                "%s: [stream] footprint: %u bytes per warp with level=dram, where it changes "
                "nothing (allowed with level l1 or l2, or 0)",
                where, k->footprint);
    return NULL;
  }
  return no_sass_keys(k, kf, error) ? g_steal_pointer(&k) : NULL;
}

Kernel *kernel_load_data(const gchar *data, const gchar *origin, const gchar *const *overrides,
                         GError **error) {
  g_autoptr(GKeyFile) kf = g_key_file_new();
  GError *err = NULL;
  if (!g_key_file_load_from_data(kf, data, (gsize)-1, G_KEY_FILE_NONE, &err)) {
    g_set_error(error, KERNEL_ERROR, KERNEL_ERROR_PARSE, "%s: %s", origin, err->message);
    g_error_free(err);
    return NULL;
  }
  return load_keyfile(kf, origin, origin, overrides, NULL, NULL, error);
}

static gint compare_names(gconstpointer a, gconstpointer b) {
  return g_strcmp0(*(const gchar *const *)a, *(const gchar *const *)b);
}

/* The shipped kernel names, space-separated (newly allocated). */
static gchar *kernel_names(void) {
  g_auto(GStrv) dirs = paths_candidates("traces");
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
  for (guint d = 0; dirs[d] != NULL; d++) {
    g_autoptr(GDir) dir = g_dir_open(dirs[d], 0, NULL);
    const gchar *name;
    while (dir != NULL && (name = g_dir_read_name(dir)) != NULL)
      if (g_str_has_suffix(name, ".ini") &&
          !g_ptr_array_find_with_equal_func(names, name, g_str_equal, NULL))
        g_ptr_array_add(names, g_strdup(name));
  }
  g_ptr_array_sort(names, compare_names);
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < names->len; i++) {
    const gchar *n = g_ptr_array_index(names, i);
    g_string_append_printf(s, "%s%.*s", i ? " " : "", (int)(strlen(n) - 4), n);
  }
  return g_string_free(s, FALSE);
}

Kernel *kernel_load(const gchar *spec, const gchar *const *overrides, const SmModel *model,
                    GError **error) {
  return kernel_load_like(spec, overrides, model, NULL, error);
}

Kernel *kernel_load_like(const gchar *spec, const gchar *const *overrides, const SmModel *model,
                         const Kernel *like, GError **error) {
  g_autofree gchar *path = NULL;
  if (spec == NULL || *spec == '\0') {
    g_set_error(error, KERNEL_ERROR, KERNEL_ERROR_NOT_FOUND, "--kernel: empty kernel name");
    return NULL;
  }
  /* A bare name ("fma", or "fma.ini" that is not a file here) is a shipped
   * kernel when one exists, so a stray file called "fma" in the working
   * directory cannot shadow it. */
  gboolean bare = strchr(spec, '/') == NULL;
  gboolean ini = g_str_has_suffix(spec, ".ini");
  if (bare && !(ini && g_file_test(spec, G_FILE_TEST_EXISTS))) {
    g_autofree gchar *file = ini ? g_strdup(spec) : g_strconcat(spec, ".ini", NULL);
    path = paths_find("traces", file);
    if (path == NULL && (ini || !g_file_test(spec, G_FILE_TEST_EXISTS))) {
      g_autofree gchar *where = paths_describe("traces");
      g_autofree gchar *names = kernel_names();
      g_autofree gchar *stem = config_file_stem(spec);
      g_autofree gchar *near = config_closest_name(stem, names);
      g_autofree gchar *hint = near ? g_strdup_printf(": did you mean --kernel %s?", near) : NULL;
      g_set_error(error, KERNEL_ERROR, KERNEL_ERROR_NOT_FOUND,
                  "--kernel %s: no such kernel file here or in the shipped traces%s (%s; looked "
                  "in %s; set WARPSIM_TRACES to the traces directory)",
                  spec, hint ? hint : "", *names ? names : "none found", where);
      return NULL;
    }
  }
  gchar *shown = paths_display(path != NULL ? path : spec); /* the file as messages name it */
  g_free(path);
  path = shown;
  g_autoptr(GKeyFile) kf =
      config_keyfile_load(path, KERNEL_ERROR, KERNEL_ERROR_NOT_FOUND, KERNEL_ERROR_PARSE, error);
  if (kf == NULL)
    return NULL;
  g_autofree gchar *stem = config_file_stem(path);
  return load_keyfile(kf, stem, path, overrides, model, like, error);
}

guint kernel_regs_allocated(const Kernel *k) {
  if (k->max_regs != 0 && k->max_regs < k->regs_per_thread)
    return k->max_regs;
  return k->regs_per_thread;
}

G_STATIC_ASSERT(G_N_ELEMENTS(((Kernel *)0)->warpgroup_regs) == OCC_MAX_WARPGROUPS);

void kernel_occ_launch(const Kernel *k, OccLaunch *launch) {
  occupancy_launch_init(launch);
  launch->threads = k->threads_per_block;
  launch->regs = k->n_warpgroups > 0 ? 0 : k->regs_per_thread;
  launch->smem_static = k->smem_static;
  launch->smem_dynamic = k->smem_dynamic;
  launch->optin = k->optin;
  launch->bounds = (OccBounds){.max_threads = k->bounds_threads,
                               .min_blocks = k->bounds_min_blocks,
                               .max_regs = k->max_regs};
  launch->n_warpgroups = MIN(k->n_warpgroups, OCC_MAX_WARPGROUPS);
  memcpy(launch->warpgroup_regs, k->warpgroup_regs, sizeof launch->warpgroup_regs);
}

void kernel_dump(const Kernel *k, GString *out, const gchar *prefix) {
  config_dump(kernel_table, N_KERNEL_KEYS, k, out, prefix);
}

void kernel_describe(GString *out) {
  config_describe(kernel_table, N_KERNEL_KEYS, out);
}

const gchar *kernel_pattern_name(guint pattern) {
  return pattern == KERNEL_PATTERN_CHASE ? "chase" : "stream";
}

const gchar *kernel_level_name(guint level) {
  static const gchar *const names[] = {"l1", "l2", "dram"};
  return level < G_N_ELEMENTS(names) ? names[level] : "?";
}

void kernel_free(Kernel *k) {
  if (k == NULL)
    return;
  config_clear(kernel_table, N_KERNEL_KEYS, k);
  if (!k->sass_shared)
    sass_kernel_free(k->sass);
  g_free(k->name);
  g_free(k->file);
  g_free(k);
}
