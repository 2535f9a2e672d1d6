/* fixture.h - the one test SM the module tests build their runs on.
 *
 * What it is: an SM with the limits of an sm_90 SM (the [sm] group of
 * models/h200.ini: 4 SMSPs, 64 warps, 32 CTAs, 64 K registers, 228 KB of
 * shared memory) and fixed, round timing chosen so that expected values can
 * be worked out by hand: no latency spread anywhere, one L1 channel, FFMA
 * latency 4, the operand bank conflict off (tests switch it on).  It is NOT
 * the calibrated H200 model (models/h200.ini), whose timing follows the
 * measurements and may change; tests that need the real model load it by
 * name.  One SM per device, so a grid of N CTAs runs N CTAs here.  Tests
 * change it with "group.key=value" overrides, never with a copy.
 */
#ifndef WARPSIM_TEST_FIXTURE_H
#define WARPSIM_TEST_FIXTURE_H

#define FIXTURE_SM_MODEL                                                                           \
  "[sm]\n"                                                                                         \
  "cc=9.0\n"                                                                                       \
  "smsps=4\n"                                                                                      \
  "sms=1\n"                                                                                        \
  "max_warps=64\n"                                                                                 \
  "max_blocks=32\n"                                                                                \
  "regs=65536\n"                                                                                   \
  "max_regs_per_block=65536\n"                                                                     \
  "smem_per_sm=233472\n"                                                                           \
  "smem_per_block_optin=232448\n"                                                                  \
  "smem_reserved=1024\n"                                                                           \
  "smem_alloc_unit=128\n"                                                                          \
  "[sched]\npolicy=grr\n"                                                                          \
  "[fma]\nlatency=4\ninterval=1\n"                                                                 \
  "[alu]\nlatency=4\ninterval=2\n"                                                                 \
  "[sfu]\nlatency=16\ninterval=8\n"                                                                \
  "[smem]\nlatency=29\ninterval=1\n"                                                               \
  "[lsu]\ninterval=1\n"                                                                            \
  "[branch]\nlatency=10\n"                                                                         \
  "[operand]\nbank_conflict=false\n"                                                               \
  "[l1]\nlatency=49\nbytes_per_cycle=128\nchannels=1\nbytes=262144\n"                              \
  "[l2]\nlatency=305\nbytes_per_cycle=36.5\nchannels=4\n"                                          \
  "[dram]\nlatency=697\nbytes_per_cycle=17.2\nchannels=16\n"                                       \
  "[mem]\nmax_inflight=512\nsector_bytes=32\nline_bytes=128\n"

#endif
