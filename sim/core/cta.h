/* cta.h - CTAs on one SM (cta.c): a CTA's warps launched into a CTA slot,
 * a drained warp's retirement and its CTA's with its last warp, the CTA
 * stage that refills the slots retired in a cycle, and the active-warp
 * count those change.  Part of the SM core: called by sm.c only (the SM's
 * state is in sm_priv.h).
 */
#ifndef WARPSIM_CTA_H
#define WARPSIM_CTA_H

#include "core/event.h"
#include "core/sm.h"
#include "core/warp.h"

#include <glib.h>

/* A CTA resident in one CTA slot. */
typedef struct {
  guint live;        /* warps not exited */
  guint arrived;     /* warps waiting at the barrier */
  guint resident;    /* warps not yet drained */
  SimCycle bar_done; /* cycle the SM's barrier unit has taken the last arrival so far */
  SimCycle bulk_done[PROGRAM_CP_GROUPS]; /* TMA bulk copies (UBLKCP): when each of the CTA's
                                            last ones is in shared memory, by bulk_n % groups */
  guint32 bulk_n;                        /* bulk copies the CTA issued since its launch */
  guint8 cluster_bar;                    /* the barrier being gathered is the cluster's */
} Cta;

/* Launch the grid's next CTA into CTA slot `slot` at `now`; its warps can
 * issue at once. */
void cta_launch(Sm *sm, guint slot, SimCycle now);

/* CTA stage: the grid's next CTAs take the slots retired this cycle, in the
 * order they retired. */
void cta_launch_retired(Sm *sm, SimCycle now);

/* A drained warp leaves the SM at `now`; its CTA retires with its last
 * warp. */
void cta_retire_warp(Sm *sm, Warp *w, SimCycle now);

/* The active warps change at `now` (wake or CTA stage): charge the cycles
 * since the last change with the old counts (SimStats active_warp_cycles,
 * smsp_active_cycles). */
void cta_active_changes(Sm *sm, SimCycle now);

#endif
