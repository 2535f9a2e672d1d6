// gload.cuh - what the global-load microbenchmarks share (results/reference/h200/matrix/matrix.cu,
// results/reference/h200/l2flight/l2flight.cu): a fold over template arguments, the store that
// keeps a result alive, a warp-load of W bytes per lane (ld.global or ld.global.cg) and printf
// into a std::string.  Include after common.cuh.
#pragma once
#include <cstdarg>
#include <string>
#include <type_traits>

// Calls fn(std::integral_constant<int, I>()) for each I of Is, in order: one curve per
// template argument without a line per instantiation.
template <int... Is, typename F> static void each(F fn) { (fn(std::integral_constant<int, Is>()), ...); }
#define V(x) decltype(x)::value

#define KEEP(val) out[blockIdx.x * blockDim.x + threadIdx.x] = (val)

template <int W> struct Vec {
  float c[W / 4];
};
template <int W, bool CG> __device__ __forceinline__ Vec<W> ldg(const char *p) {
  Vec<W> v;
  if (W == 4) {
    if (CG)
      asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v.c[0]) : "l"(p));
    else
      asm volatile("ld.global.f32 %0, [%1];" : "=f"(v.c[0]) : "l"(p));
  } else if (W == 8) {
    if (CG)
      asm volatile("ld.global.cg.v2.f32 {%0,%1}, [%2];" : "=f"(v.c[0]), "=f"(v.c[W / 4 - 1]) : "l"(p));
    else
      asm volatile("ld.global.v2.f32 {%0,%1}, [%2];" : "=f"(v.c[0]), "=f"(v.c[W / 4 - 1]) : "l"(p));
  } else {
    if (CG)
      asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];"
                   : "=f"(v.c[0]), "=f"(v.c[1 % (W / 4)]), "=f"(v.c[2 % (W / 4)]), "=f"(v.c[W / 4 - 1])
                   : "l"(p));
    else
      asm volatile("ld.global.v4.f32 {%0,%1,%2,%3}, [%4];"
                   : "=f"(v.c[0]), "=f"(v.c[1 % (W / 4)]), "=f"(v.c[2 % (W / 4)]), "=f"(v.c[W / 4 - 1])
                   : "l"(p));
  }
  return v;
}

static std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static std::string fmt(const char *f, ...) {
  char b[512];
  va_list ap;
  va_start(ap, f);
  vsnprintf(b, sizeof b, f, ap);
  va_end(ap);
  return b;
}
