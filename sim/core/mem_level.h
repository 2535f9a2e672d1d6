/* mem_level.h - the names of the global-memory levels, shared by the kernel
 * description ([stream] level), the model's level table and the memory
 * system, so that one enum serves all three (no cast between twins). */
#ifndef WARPSIM_MEM_LEVEL_H
#define WARPSIM_MEM_LEVEL_H

/* The level a global load is served from; MEM_LEVELS also marks "drawn per
 * load from the hit rates" in a program's instruction. */
typedef enum { MEM_L1, MEM_L2, MEM_DRAM, MEM_LEVELS } MemLevel;

#endif
