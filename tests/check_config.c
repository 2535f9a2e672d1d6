/* check_config.c - tests of sim/input/config.[ch] through the two tables that use
 * it (kernel_load_data, model_load_data): defaults, "group.key=value"
 * overrides, and every kind of bad value.  Every error must be one line that
 * names the origin (file), the group and the key, and the allowed range where
 * there is one (doc/usage.md "Bad input"). */
#include "fixture.h"
#include "input/config.h"
#include "input/kernel.h"
#include "input/model.h"

#include <check.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* A complete SM model: the test SM (fixture.h). */
static const gchar tiny_model[] = FIXTURE_SM_MODEL;

/* Only the [sm] group: enough for the occupancy calculator, not to simulate. */
static const gchar limits_only[] = "[sm]\ncc=8.0\nsmsps=4\nsms=108\nmax_warps=64\n"
                                   "max_blocks=32\nregs=65536\nmax_regs_per_block=65536\n"
                                   "smem_per_sm=167936\nsmem_per_block_optin=166912\n";

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SRunner, srunner_free)

#define K(f) offsetof(Kernel, f)
#define FIELD_UINT(obj, off) (*(const guint *)((const gchar *)(obj) + (off)))

static Kernel *kernel_ok(const gchar *data, const gchar *const *sets) {
  GError *err = NULL;
  Kernel *k = kernel_load_data(data, "k.ini", sets, &err);
  ck_assert_msg(k != NULL, "kernel: %s", err ? err->message : "?");
  return k;
}

static SmModel *model_ok(const gchar *data, const gchar *const *sets) {
  GError *err = NULL;
  SmModel *m = model_load_data(data, "m.ini", sets, &err);
  ck_assert_msg(m != NULL, "model: %s", err ? err->message : "?");
  return m;
}

/* ---- defaults ---------------------------------------------------------- */

/* Every kernel key with its documented default (doc/usage.md "Kernel files"), as
 * "group.key=value" in the effective configuration (kernel_dump). */
static const gchar *const kernel_defaults[] = {
    "launch.threads_per_block=128",
    "launch.regs_per_thread=32",
    "launch.smem_static=0",
    "launch.smem_dynamic=0",
    "launch.optin=false",
    "launch.blocks=0",
    "launch.blocks_per_sm=0",
    "launch.max_regs=0",
    "stream.iterations=64",
    "stream.fma=0",
    "stream.ilp=1",
    "stream.loads=0",
    "stream.load_pattern=stream",
    "stream.load_bytes=128",
    "stream.level=dram",
    "stream.fma_uses_load=false",
    "stream.overhead=3",
    "stream.sfu=0",
    "stream.lds=0",
    "stream.lds_ways=1",
    "stream.syncthreads=false",
    "stream.live_values=0",
    "stream.early_exit=0",
    "stream.seed=1",
};

/* The effective configuration (as dumped into results files) of the model
 * or kernel `data` with `sets` applied. */
static gchar *effective(gboolean model, const gchar *data, const gchar *const *sets) {
  GString *out = g_string_new(NULL);
  if (model) {
    g_autoptr(SmModel) m = model_ok(data, sets);
    model_dump(m, out, "");
  } else {
    g_autoptr(Kernel) k = kernel_ok(data, sets);
    kernel_dump(k, out, "");
  }
  return g_string_free(out, FALSE);
}

/* The value of "group.key" in the effective configuration of kernel `data`. */
static gchar *dumped_value(const gchar *data, const gchar *name) {
  g_autofree gchar *text = effective(FALSE, data, NULL);
  g_autoptr(GKeyFile) kf = g_key_file_new();
  ck_assert(g_key_file_load_from_data(kf, text, (gsize)-1, G_KEY_FILE_NONE, NULL));
  const gchar *dot = strchr(name, '.');
  g_autofree gchar *group = g_strndup(name, dot - name);
  gchar *value = g_key_file_get_value(kf, group, dot + 1, NULL);
  ck_assert_msg(value != NULL, "%s not in the dump", name);
  return value;
}

/* An empty file and one with empty groups both give every default. */
START_TEST(test_kernel_default) {
  static const gchar *const files[] = {"", "[launch]\n[stream]\n# only comments\n"};
  g_auto(GStrv) name_value = g_strsplit(kernel_defaults[_i], "=", 2);
  for (guint f = 0; f < G_N_ELEMENTS(files); f++) {
    g_autofree gchar *value = dumped_value(files[f], name_value[0]);
    ck_assert_msg(strcmp(value, name_value[1]) == 0, "%s: default %s", kernel_defaults[_i], value);
  }
}
END_TEST

/* --help-keys lists every key as "  group.key (RANGE...". */
START_TEST(test_kernel_describe) {
  GString *out = g_string_new(NULL);
  kernel_describe(out);
  g_autofree gchar *name = g_strndup(kernel_defaults[_i], strcspn(kernel_defaults[_i], "="));
  g_autofree gchar *needle = g_strdup_printf("  %s (", name);
  ck_assert_msg(strstr(out->str, needle) != NULL, "describe lacks %s", needle);
  g_string_free(out, TRUE);
}
END_TEST

/* Model keys a model file may omit, with their defaults. */
START_TEST(test_model_defaults) {
  g_autoptr(SmModel) m = model_ok(tiny_model, NULL);
  ck_assert_uint_eq(m->sm.warp_size, 32);
  ck_assert_uint_eq(m->sm.max_threads_per_block, 1024);
  ck_assert_uint_eq(m->sm.max_regs_per_thread, 255);
  ck_assert_uint_eq(m->sm.reg_alloc_unit, 256);
  ck_assert_uint_eq(m->sm.smem_per_block, 49152);
  ck_assert_uint_eq(m->dram.stream_latency, 0);
  ck_assert_uint_eq(m->dram.latency_spread, 0);
  ck_assert_uint_eq(m->dram.stream_channels, 0);
  ck_assert_double_eq(m->clock_mhz, 1000.0);
  ck_assert_str_eq(m->description, "");
  /* An absent smem_configs means "smem_per_sm only". */
  ck_assert_uint_eq(m->sm.n_smem_configs, 1);
  ck_assert_uint_eq(m->sm.smem_configs[0], 233472);
  /* cc is parsed into major.minor. */
  ck_assert_uint_eq(m->sm.cc_major, 9);
  ck_assert_uint_eq(m->sm.cc_minor, 0);
  ck_assert(m->has_timing);
  ck_assert_str_eq(m->policy, "grr");
}
END_TEST

/* A model without every timing group serves occupancy only and refuses to
 * simulate with an error naming the file. */
START_TEST(test_model_limits_only) {
  static const gchar *const extra[] = {"", "[fma]\nlatency=4\ninterval=1\n"};
  g_autofree gchar *data = g_strconcat(limits_only, extra[_i], NULL);
  g_autoptr(SmModel) m = model_ok(data, NULL);
  GError *err = NULL;
  ck_assert(!m->has_timing);
  ck_assert(!model_check_timing(m, &err));
  ck_assert(g_error_matches(err, MODEL_ERROR, MODEL_ERROR_NO_TIMING));
  ck_assert_msg(strstr(err->message, "m.ini") != NULL, "%s", err->message);
  g_error_free(err);
}
END_TEST

/* ---- overrides --------------------------------------------------------- */

/* `file` read, then `sets` applied in order: the later wins, and a value in
 * the file yields to an override.  Bounds are inclusive. */
static const struct {
  const gchar *file;
  const gchar *sets[3];
  gsize offset;
  guint value;
} kernel_overrides[] = {
    {"", {"launch.threads_per_block=1"}, K(threads_per_block), 1},
    {"", {"launch.threads_per_block=1024"}, K(threads_per_block), 1024},
    {"", {"launch.regs_per_thread=255"}, K(regs_per_thread), 255},
    {"", {"stream.ilp=64"}, K(ilp), 64},
    {"", {"stream.iterations=1"}, K(iterations), 1},
    {"", {"stream.seed=4294967295"}, K(seed), 4294967295u},
    {"", {"stream.ilp= 7 "}, K(ilp), 7},
    {"[stream]\nilp=2\n", {"stream.ilp=3"}, K(ilp), 3},
    {"[stream]\nilp=2\n", {NULL}, K(ilp), 2},
    {"[stream]\nilp=2\n", {"fma.latency=9"}, K(ilp), 2}, /* model group: not the kernel's */
    {"", {"stream.load_pattern=chase"}, K(pattern), KERNEL_PATTERN_CHASE},
    {"", {"stream.level=l1"}, K(level), MEM_L1},
    {"", {"stream.level=l2"}, K(level), MEM_L2},
    {"", {"stream.fma_uses_load=true"}, K(fma_uses_load), TRUE},
    {"", {"stream.syncthreads=1"}, K(syncthreads), TRUE},
    {"[stream]\nsyncthreads=true\n", {"stream.syncthreads=false"}, K(syncthreads), FALSE},
    {"[stream]\nsyncthreads=true\n", {"stream.syncthreads=0"}, K(syncthreads), FALSE},
    {"", {"launch.optin=true"}, K(optin), TRUE},
};

START_TEST(test_kernel_override) {
  g_autoptr(Kernel) k = kernel_ok(kernel_overrides[_i].file, kernel_overrides[_i].sets);
  ck_assert_msg(FIELD_UINT(k, kernel_overrides[_i].offset) == kernel_overrides[_i].value,
                "case %d (%s): got %u, expected %u", _i, kernel_overrides[_i].sets[0],
                FIELD_UINT(k, kernel_overrides[_i].offset), kernel_overrides[_i].value);
}
END_TEST

/* Overrides of each value type of the model table. */
START_TEST(test_model_override_types) {
  static const gchar *const sets[] = {"fma.latency=7",
                                      "dram.bytes_per_cycle=2.5",
                                      "operand.bank_conflict=true",
                                      "sm.smem_configs=0; 8192 ;65536",
                                      "sched.policy=lrr",
                                      "launch.threads_per_block=1", /* kernel's: ignored */
                                      NULL};
  g_autoptr(SmModel) m = model_ok(tiny_model, sets);
  ck_assert_uint_eq(m->fma.latency, 7);
  ck_assert_double_eq(m->dram.bytes_per_cycle, 2.5);
  ck_assert(m->operand_conflict); /* false in the file */
  ck_assert_uint_eq(m->sm.n_smem_configs, 3);
  ck_assert_uint_eq(m->sm.smem_configs[1], 8192);
  ck_assert_uint_eq(m->sm.smem_configs[2], 65536);
  ck_assert_str_eq(m->policy, "lrr");
}
END_TEST

/* ---- dump and re-read -------------------------------------------------- */

static const struct {
  gboolean model;
  const gchar *data;
  const gchar *sets[4];
} round_trips[] = {
    {FALSE, "", {NULL}},
    {FALSE, "", {"stream.level=l2", "stream.syncthreads=true", "launch.threads_per_block=48"}},
    {TRUE, tiny_model, {NULL}},
    {TRUE,
     tiny_model,
     {"dram.bytes_per_cycle=0.125", "sm.smem_configs=0;1024", "operand.bank_conflict=false"}},
};

/* The dumped effective configuration reads back to the same configuration,
 * so results files carry everything needed to rerun them. */
START_TEST(test_dump_round_trip) {
  gboolean model = round_trips[_i].model;
  g_autofree gchar *first = effective(model, round_trips[_i].data, round_trips[_i].sets);
  g_autofree gchar *second = effective(model, first, NULL);
  ck_assert_str_eq(first, second);
}
END_TEST

/* ---- bad input --------------------------------------------------------- */

/* A bad kernel or model input: the origin naming which, the file text (for
 * models, appended to tiny_model) and/or one override, and what the one-line message must name
 * besides the origin: "[group] key", and the allowed range or another
 * telling word. */
typedef struct {
  const gchar *origin; /* "k.ini": a kernel; "m.ini": a model */
  const gchar *file;
  const gchar *set;     /* one override, or "" */
  const gchar *where;   /* "" = the file is malformed (a parse error) */
  const gchar *allowed; /* or "" */
} BadInput;

/* One more carveout than MODEL_MAX_SMEM_CONFIGS holds. */
#define SEVENTEEN_CARVEOUTS "sm.smem_configs=0;1;2;3;4;5;6;7;8;9;0;1;2;3;4;5;6"

static const BadInput bad_inputs[] = {
    {"k.ini", "[launch\n", "", "", ""},
    {"k.ini", "[sass]\ntrip_count=4\n", "", "[sass] trip_count", "set without [sass] file"},
    {"k.ini", "", "sass.function=k", "[sass] function", "set without [sass] file"},
    {"k.ini", "ilp=2\n", "", "", ""},
    {"k.ini", "[stream]\nilp\n", "", "", ""},
    {"k.ini", "[lunch]\nx=1\n", "", "[lunch]", "unknown group"},
    {"k.ini", "[launch]\nthreads=1\n", "", "[launch] threads", "unknown key"},
    {"k.ini", "", "stream.ilpp=2", "[stream] ilpp", "unknown key"},
    {"k.ini", "[stream]\nilp=0\n", "", "[stream] ilp: out of range '0'", "1..64"},
    {"k.ini", "[stream]\nilp=x\n", "", "[stream] ilp: not an unsigned integer 'x'", "1..64"},
    {"k.ini", "[launch]\nregs_per_thread=256\n", "", "[launch] regs_per_thread", "1..255"},
    {"k.ini", "", "stream.ilp=0", "[stream] ilp", "1..64"},
    {"k.ini", "", "stream.ilp=65", "[stream] ilp", "1..64"},
    {"k.ini", "", "stream.ilp=-1", "[stream] ilp: not an unsigned integer '-1'", "1..64"},
    {"k.ini", "", "stream.ilp=+2", "[stream] ilp", "1..64"},
    {"k.ini", "", "stream.ilp=1.5", "[stream] ilp", "1..64"},
    {"k.ini", "", "stream.ilp=", "[stream] ilp", "1..64"},
    {"k.ini", "", "stream.ilp=0x4", "[stream] ilp", "1..64"},
    {"k.ini", "", "launch.threads_per_block=0", "[launch] threads_per_block", "1..1024"},
    {"k.ini", "", "launch.threads_per_block=1025", "[launch] threads_per_block", "1..1024"},
    {"k.ini", "", "stream.ilp=4294967298", "[stream] ilp", "1..64"}, /* not 2 mod 2^32 */
    {"k.ini", "", "stream.seed=4294967296", "[stream] seed", "0..4294967295"},
    {"k.ini", "", "stream.seed=99999999999999999999999", "[stream] seed", "0..4294967295"},
    {"k.ini", "", "stream.iterations=-5", "[stream] iterations", "1..100000000"},
    {"k.ini", "", "stream.iterations=0", "[stream] iterations", "1..100000000"},
    {"k.ini", "", "stream.lds_ways=33", "[stream] lds_ways", "1..32"},
    {"k.ini", "", "stream.early_exit=33", "[stream] early_exit", "0..32"},
    {"k.ini", "", "stream.syncthreads=yes", "[stream] syncthreads", "true|false"},
    {"k.ini", "", "stream.level=hbm", "[stream] level: not one of the choices", "l1|l2|dram"},
    {"k.ini", "", "stream.load_pattern=Chase", "[stream] load_pattern", "chase|stream"},
    {"m.ini", "[sm\n", "", "", ""},
    {"m.ini", "[tensor]\nlatency=1\n", "", "[tensor]", "unknown group"},
    {"m.ini", "", "fma.width=32", "[fma] width", "unknown key"},
    {"m.ini", "", "sm.smsps=0", "[sm] smsps", "1..8"},
    {"m.ini", "", "fma.latency=-4", "[fma] latency", "1..1000"},
    {"m.ini", "", "dram.bytes_per_cycle=x", "[dram] bytes_per_cycle: not a number", "0.001..1e+06"},
    {"m.ini", "", "dram.bytes_per_cycle=0", "[dram] bytes_per_cycle", "0.001..1e+06"},
    {"m.ini", "", "dram.bytes_per_cycle=nan", "[dram] bytes_per_cycle", "0.001..1e+06"},
    {"m.ini", "", "dram.bytes_per_cycle=inf", "[dram] bytes_per_cycle", "0.001..1e+06"},
    /* DRAM moves every sector a load touches: 1..31 acted as 32, silently */
    {"m.ini", "", "class_global.scattered_dram_bytes=16",
     "[class_global] scattered_dram_bytes: 16 is below a sector, [mem] sector_bytes 32",
     "allowed 0 = a line, or 32..4096 bytes"},
    /* numbers past a double's range: out of range, not "not a number" */
    {"m.ini", "", "dram.bytes_per_cycle=1e309",
     "[dram] bytes_per_cycle: out of range (overflow) '1e309'", "0.001..1e+06"},
    {"m.ini", "", "dram.bytes_per_cycle=-1e309",
     "[dram] bytes_per_cycle: out of range (overflow) '-1e309'", "0.001..1e+06"},
    {"m.ini", "", "dram.bytes_per_cycle=5e-324",
     "[dram] bytes_per_cycle: out of range (underflow) '5e-324'", "0.001..1e+06"},
    {"m.ini", "", "dram.bytes_per_cycle=1e-400",
     "[dram] bytes_per_cycle: out of range (underflow) '1e-400'", "0.001..1e+06"},
    {"k.ini", "", "stream.seed=99999999999999999999999",
     "[stream] seed: out of range (overflow) '99999999999999999999999'", "0..4294967295"},
    {"m.ini", "", "operand.bank_conflict=maybe", "[operand] bank_conflict", "true|false"},
    {"m.ini", "", "dram.latency_spread=698", "[dram] latency_spread", "0..697"},
    {"m.ini", "", "sm.smem_configs=8192;0", "[sm] smem_configs", "ascending"},
    {"m.ini", "", SEVENTEEN_CARVEOUTS, "[sm] smem_configs: more than 16 items", "0..16777216"},
    {"m.ini", "", "sm.smem_configs=0;x", "[sm] smem_configs", "0..16777216"},
    {"m.ini", "", "sm.cc=nine", "m.ini, --set: [sm] cc", "major.minor"},
    {"m.ini", "", "sm.max_warps=63", "[sm] max_warps", "smsps"},
    {"m.ini", "", "sched.policy=fifo", "[sched] policy", "gto|lrr|oldest|grr"},
    {"m.ini", "[class_fp32]\nopcodes=FFMA;FADD\n[class_int]\nopcodes=IMAD; FADD\n", "",
     "[class_int] opcodes: 'FADD' is also in [class_fp32]", "each opcode in one class"},
    /* an empty item, a space inside one ("FF MA" was read as FF and MA), a
     * modifier, a repeat */
    {"m.ini", "[class_fp32]\nopcodes=FFMA;;FADD\n", "", "[class_fp32] opcodes: item 2 ''",
     "';'-separated, each once"},
    {"m.ini", "[class_fp32]\nopcodes=FF MA\n", "", "item 1 'FF MA' is no opcode name",
     "SASS base opcodes"},
    {"m.ini", "[class_fp32]\nopcodes=FFMA.FTZ\n", "", "item 1 'FFMA.FTZ' is no opcode name",
     "SASS base opcodes"},
    {"m.ini", "[class_fp32]\nopcodes=FFMA;FADD;FFMA\n", "", "item 3 'FFMA' is repeated",
     "each once"},
};

/* Load bad input `_i` as a kernel or a model; it must fail with one line
 * naming the origin, b->where and b->allowed. */
START_TEST(test_bad_input) {
  const BadInput *b = &bad_inputs[_i];
  const gchar *sets[] = {b->set[0] ? b->set : NULL, NULL};
  const gchar *origin = b->origin;
  gboolean model = strcmp(origin, "m.ini") == 0;
  GError *err = NULL;
  if (model) {
    g_autofree gchar *data = g_strconcat(tiny_model, b->file, NULL);
    g_autoptr(SmModel) m = model_load_data(data, origin, sets, &err);
    ck_assert_msg(m == NULL && err != NULL, "'%s' '%s' accepted", b->file, b->set);
    ck_assert_str_eq(g_quark_to_string(err->domain), g_quark_to_string(MODEL_ERROR));
  } else {
    g_autoptr(Kernel) k = kernel_load_data(b->file, origin, sets, &err);
    ck_assert_msg(k == NULL && err != NULL, "'%s' '%s' accepted", b->file, b->set);
    ck_assert_str_eq(g_quark_to_string(err->domain), g_quark_to_string(KERNEL_ERROR));
  }
  const gchar *needles[] = {origin, b->where, b->allowed};
  gint code = model ? (b->where[0] ? MODEL_ERROR_INVALID : MODEL_ERROR_PARSE)
                    : (b->where[0] ? KERNEL_ERROR_INVALID : KERNEL_ERROR_PARSE);
  ck_assert_msg(err->code == code, "code %d, expected %d: %s", err->code, code, err->message);
  ck_assert_msg(strchr(err->message, '\n') == NULL, "not one line: %s", err->message);
  ck_assert_msg(g_str_has_prefix(err->message, origin), "origin first: %s", err->message);
  for (guint n = 0; n < G_N_ELEMENTS(needles); n++)
    ck_assert_msg(strstr(err->message, needles[n]) != NULL, "message lacks \"%s\": %s", needles[n],
                  err->message);
  g_error_free(err);
}
END_TEST

/* A malformed override is named as given, whatever its group. */
static const gchar *const bad_overrides[] = {"stream.ilp", ".ilp=1", "stream.=1", "ilp=1", "=1"};

START_TEST(test_bad_override) {
  const gchar *sets[] = {bad_overrides[_i], NULL};
  GError *err = NULL;
  g_autoptr(Kernel) k = kernel_load_data("", "k.ini", sets, &err);
  ck_assert(k == NULL && err != NULL);
  g_autofree gchar *quoted = g_strdup_printf("'%s'", bad_overrides[_i]);
  ck_assert_msg(strstr(err->message, quoted) != NULL, "%s", err->message);
  ck_assert_msg(strstr(err->message, "group.key=value") != NULL, "%s", err->message);
  g_error_free(err);
}
END_TEST

/* ---- config_parse_uint ------------------------------------------------- */

static const struct {
  const gchar *text;
  gboolean ok;
  guint64 value;
} uint_texts[] = {
    {"0", TRUE, 0},
    {"42", TRUE, 42},
    {"007", TRUE, 7},
    {"18446744073709551615", TRUE, G_MAXUINT64},
    {"18446744073709551616", FALSE, 0},
    {"", FALSE, 0},
    {"-1", FALSE, 0},
    {"+1", FALSE, 0},
    {" 1", FALSE, 0},
    {"1 ", FALSE, 0},
    {"1x", FALSE, 0},
    {"1.0", FALSE, 0},
    {"1e3", FALSE, 0},
};

START_TEST(test_parse_uint) {
  guint64 v = 12345;
  gboolean ok = config_parse_uint(uint_texts[_i].text, &v);
  ck_assert_msg(ok == uint_texts[_i].ok, "'%s': ok %d", uint_texts[_i].text, ok);
  if (ok)
    ck_assert_uint_eq(v, uint_texts[_i].value);
  else
    ck_assert_uint_eq(v, 12345); /* untouched on failure */
}
END_TEST

START_TEST(test_parse_uint_null) {
  guint64 v = 0;
  ck_assert(!config_parse_uint(NULL, &v));
}
END_TEST

/* ---- suite ------------------------------------------------------------- */

static Suite *config_suite(void) {
  Suite *s = suite_create("config");
  TCase *tc = tcase_create("defaults");
  tcase_add_loop_test(tc, test_kernel_default, 0, G_N_ELEMENTS(kernel_defaults));
  tcase_add_loop_test(tc, test_kernel_describe, 0, G_N_ELEMENTS(kernel_defaults));
  tcase_add_test(tc, test_model_defaults);
  tcase_add_loop_test(tc, test_model_limits_only, 0, 2);
  suite_add_tcase(s, tc);

  tc = tcase_create("overrides");
  tcase_add_loop_test(tc, test_kernel_override, 0, G_N_ELEMENTS(kernel_overrides));
  tcase_add_test(tc, test_model_override_types);
  tcase_add_loop_test(tc, test_dump_round_trip, 0, G_N_ELEMENTS(round_trips));
  suite_add_tcase(s, tc);

  tc = tcase_create("bad_input");
  tcase_add_loop_test(tc, test_bad_input, 0, G_N_ELEMENTS(bad_inputs));
  tcase_add_loop_test(tc, test_bad_override, 0, G_N_ELEMENTS(bad_overrides));
  tcase_add_loop_test(tc, test_parse_uint, 0, G_N_ELEMENTS(uint_texts));
  tcase_add_test(tc, test_parse_uint_null);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  g_autoptr(SRunner) sr = srunner_create(config_suite());
  srunner_run_all(sr, CK_NORMAL);
  return srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
