/* sim_error.h - the error domain of a run, SIM_ERROR: raised by the SM
 * core (sm.h: a launch that does not fit, a bound passed, a failed
 * invariant) and by sim_run (run/sim.h).  Its own header so that the core
 * needs nothing from run/ (sim.c includes sm.h, not the other way round).
 */
#ifndef WARPSIM_SIM_ERROR_H
#define WARPSIM_SIM_ERROR_H

#include <glib.h>

/* Defined in sm.c. */
#define SIM_ERROR (sim_error_quark())
GQuark sim_error_quark(void);
typedef enum {
  SIM_ERROR_LAUNCH,    /* the launch cannot run (0 CTAs fit, or bad policy) */
  SIM_ERROR_INVARIANT, /* an invariant failed (a bug; only with check_invariants) */
  SIM_ERROR_BOUND,     /* the run passed SimOptions' max_cycles or deadline_us */
} SimError;

#endif
