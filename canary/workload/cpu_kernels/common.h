/* What the cpu lane's C kernels share: a register-blocked float32 matmul, a vectorised exp, work
 * sharing with XLA's intra-op thread pool, and the FFI plumbing, all against XLA's C API only.
 * Every function here is static: each kernel file is its own translation unit of one library,
 * built by canary/workload/cpu_kernels/__init__.py.
 */
#ifndef CANARY_CPU_KERNELS_COMMON_H
#define CANARY_CPU_KERNELS_COMMON_H

#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xla/ffi/api/c_api.h"

typedef float v16 __attribute__((vector_size(64), aligned(4)));
typedef int32_t v16i __attribute__((vector_size(64), aligned(4)));

static inline v16 splat(float x) { return (v16){x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x}; }

/* ------------------------------------------------------------------ matmul */

/* With AVX-512 a v16 is one of 32 registers: keep each vector of b in one (GCC would otherwise
 * fold its load into every row's FMA, and the loads would bound the block), and use blocks of up
 * to 24 accumulators. Elsewhere (AVX2's 16 registers of half the width, other instruction sets)
 * the compiler's own choices, and smaller blocks. */
#if defined(__AVX512F__)
#define IN_REGISTER(v) __asm__("" : "+v"(v))
#define TALL_BLOCKS 1
#else
#define IN_REGISTER(v) ((void)(v))
#define TALL_BLOCKS 0
#endif

/* c[i, j] = sum_t a[i*ai + t*at] * b[t*ldb + j] for i < RB rows and j < 16*CB columns. */
#define DEFINE_BLOCK(RB, CB)                                                                   \
  static void block_##RB##x##CB(const float *a, long ai, long at, const float *b, long ldb,    \
                                float *c, long ldc, long depth) {                              \
    v16 acc[RB][CB];                                                                           \
    _Pragma("GCC unroll 16") for (int i = 0; i < RB; i++)                                      \
        _Pragma("GCC unroll 16") for (int j = 0; j < CB; j++) acc[i][j] = splat(0.0f);         \
    for (long t = 0; t < depth; t++) {                                                         \
      v16 bv[CB];                                                                              \
      _Pragma("GCC unroll 16") for (int j = 0; j < CB; j++) {                                   \
        bv[j] = *(const v16 *)(b + t * ldb + 16 * j);                                          \
        IN_REGISTER(bv[j]);                                                                    \
      }                                                                                        \
      _Pragma("GCC unroll 16") for (int i = 0; i < RB; i++) {                                  \
        v16 av = splat(a[i * ai + t * at]);                                                    \
        _Pragma("GCC unroll 16") for (int j = 0; j < CB; j++) acc[i][j] += av * bv[j];         \
      }                                                                                        \
    }                                                                                          \
    _Pragma("GCC unroll 16") for (int i = 0; i < RB; i++)                                      \
        _Pragma("GCC unroll 16") for (int j = 0; j < CB; j++) *(v16 *)(c + i * ldc + 16 * j) = acc[i][j]; \
  }

DEFINE_BLOCK(4, 4)
DEFINE_BLOCK(1, 4)
DEFINE_BLOCK(4, 2)
DEFINE_BLOCK(1, 2)
DEFINE_BLOCK(4, 1)
DEFINE_BLOCK(1, 1)
#if TALL_BLOCKS /* up to 24 accumulators, one row of b and one value of a: 29 of 32 registers */
DEFINE_BLOCK(6, 4)
DEFINE_BLOCK(12, 2)
DEFINE_BLOCK(16, 1)
#else
DEFINE_BLOCK(8, 2)
DEFINE_BLOCK(8, 1)
#endif

typedef void (*block_fn)(const float *, long, long, const float *, long, float *, long, long);

/* c (rows, cols) = A (rows, depth) @ b (depth, cols); A[i, t] = a[i*ai + t*at]. Columns go in
 * 64-, then 32-, then 16-wide strips; each strip's rows in blocks of the most rows that fit the
 * registers, then of 4, then one at a time. */
static void matmul(const float *a, long ai, long at, const float *b, long ldb, float *c, long ldc,
                   long rows, long cols, long depth) {
  long j = 0;
  static const struct { int width, rb; block_fn full, four, one; } shapes[] = {
#if TALL_BLOCKS
      {64, 6, block_6x4, block_4x4, block_1x4}, {32, 12, block_12x2, block_4x2, block_1x2},
      {16, 16, block_16x1, block_4x1, block_1x1}};
#else
      {64, 4, block_4x4, block_4x4, block_1x4}, {32, 8, block_8x2, block_4x2, block_1x2},
      {16, 8, block_8x1, block_4x1, block_1x1}};
#endif
  for (int s = 0; s < 3; s++) {
    for (; j + shapes[s].width <= cols; j += shapes[s].width) {
      long i = 0;
      for (; i + shapes[s].rb <= rows; i += shapes[s].rb)
        shapes[s].full(a + i * ai, ai, at, b + j, ldb, c + i * ldc + j, ldc, depth);
      for (; i + 4 <= rows; i += 4) shapes[s].four(a + i * ai, ai, at, b + j, ldb, c + i * ldc + j, ldc, depth);
      for (; i < rows; i++) shapes[s].one(a + i * ai, ai, at, b + j, ldb, c + i * ldc + j, ldc, depth);
    }
  }
  for (; j < cols; j++) /* columns left over from the 16-wide blocks */
    for (long i = 0; i < rows; i++) {
      float s = 0.0f;
      for (long t = 0; t < depth; t++) s += a[i * ai + t * at] * b[t * ldb + j];
      c[i * ldc + j] = s;
    }
}

/* dst (cols, rows) = src (rows, cols) transposed; lds, ldd: the rows' strides. */
static inline void transpose(const float *src, long lds, float *dst, long ldd, long rows, long cols) {
  for (long i = 0; i < rows; i++)
    for (long j = 0; j < cols; j++) dst[j * ldd + i] = src[i * lds + j];
}

/* ------------------------------------------------------------------ exp */

/* e^x, 16 lanes at once, to about 2 ulp: 2^n * p(r) with x = n ln2 + r, |r| <= ln2 / 2.
 * Lanes below -87.3 give exactly 0 (so -inf does); NaN stays NaN; above 88.7 gives +inf. */
static inline v16 vexp(v16 x) {
  const v16 lo = splat(-87.33654f), hi = splat(88.72283f);
  v16i under = x < lo, over = x > hi;
  v16 c = (v16)(((v16i)x & ~(under | over)) | ((v16i)lo & under) | ((v16i)hi & over));
  v16 n = c * splat(1.44269504f) + splat(12582912.0f); /* round to nearest by the 1.5*2^23 trick */
  n -= splat(12582912.0f);
  v16 r = c - n * splat(0.693359375f);
  r -= n * splat(-2.12194440e-4f);
  v16 p = splat(1.9875691500e-4f);
  p = p * r + splat(1.3981999507e-3f);
  p = p * r + splat(8.3334519073e-3f);
  p = p * r + splat(4.1665795894e-2f);
  p = p * r + splat(1.6666665459e-1f);
  p = p * r + splat(5.0000001201e-1f);
  p = p * r * r + r + splat(1.0f);
  v16i e = (__builtin_convertvector(n, v16i) + 127) << 23;
  v16 y = p * (v16)e; /* n >= -126 after the clamp, so 2^n is a normal float */
  y = (v16)((v16i)y & ~under);
  return (v16)(((v16i)y & ~over) | ((v16i)splat(__builtin_inff()) & over));
}

/* ------------------------------------------------------------------ work sharing */

/* Items 0..items-1 of a call are claimed through an atomic counter by the calling thread and by
 * up to (pool size - 1) helpers from XLA's intra-op pool. The caller waits only for items a
 * running helper has claimed, never for a helper to start, so a call cannot deadlock when
 * every pool thread is busy. A helper that starts after the last item is claimed touches only
 * the (reference-counted) task, never the caller's context, which may be gone by then. */
struct task {
  void (*run)(void *ctx, long item);
  void *ctx;
  long items;
  atomic_long next, done;
  atomic_int refs;
};

static void task_release(struct task *t) {
  if (atomic_fetch_sub(&t->refs, 1) == 1) free(t);
}

static void task_work(struct task *t) {
  for (long i; (i = atomic_fetch_add(&t->next, 1)) < t->items;) {
    t->run(t->ctx, i);
    atomic_fetch_add(&t->done, 1);
  }
}

static void task_helper(void *data) {
  struct task *t = data;
  task_work(t);
  task_release(t);
}

static inline void spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

static void drop(const XLA_FFI_Api *api, XLA_FFI_Error *error) {
  XLA_FFI_Error_Destroy_Args args = {XLA_FFI_Error_Destroy_Args_STRUCT_SIZE, NULL, error};
  api->XLA_FFI_Error_Destroy(&args);
}

static long pool_threads(XLA_FFI_CallFrame *frame) {
  int64_t n = 0;
  XLA_FFI_ThreadPool_NumThreads_Args args = {XLA_FFI_ThreadPool_NumThreads_Args_STRUCT_SIZE, NULL,
                                             frame->ctx, &n};
  XLA_FFI_Error *error = frame->api->XLA_FFI_ThreadPool_NumThreads(&args);
  if (error) {
    drop(frame->api, error);
    return 0;
  }
  return (long)n;
}

/* run(ctx, i) for every i < items, shared with the pool; returns when all are done. 0 on success. */
static int parallel_for(XLA_FFI_CallFrame *frame, long items, void (*run)(void *, long), void *ctx) {
  struct task *t = malloc(sizeof(struct task));
  if (!t) return -1;
  t->run = run, t->ctx = ctx, t->items = items;
  atomic_init(&t->next, 0);
  atomic_init(&t->done, 0);
  atomic_init(&t->refs, 1);
  long helpers = pool_threads(frame) - 1;
  if (helpers > items - 1) helpers = items - 1;
  for (long h = 0; h < helpers; h++) {
    atomic_fetch_add(&t->refs, 1);
    XLA_FFI_ThreadPool_Schedule_Args args = {XLA_FFI_ThreadPool_Schedule_Args_STRUCT_SIZE, NULL, frame->ctx,
                                             task_helper, t};
    XLA_FFI_Error *error = frame->api->XLA_FFI_ThreadPool_Schedule(&args);
    if (error) {
      drop(frame->api, error);
      atomic_fetch_sub(&t->refs, 1);
      break;
    }
  }
  task_work(t);
  /* Spin briefly (a helper's item takes microseconds), then yield: on a machine with more
   * runnable threads than cores the helper may be preempted, and spinning would keep it off
   * the core it needs. */
  for (long spins = 0; atomic_load(&t->done) < items; spins++) {
    if (spins < 2000)
      spin_pause();
    else
      sched_yield();
  }
  task_release(t);
  return 0;
}

/* ------------------------------------------------------------------ FFI plumbing */

static XLA_FFI_Error *fail(const XLA_FFI_Api *api, const char *message) {
  XLA_FFI_Error_Create_Args args = {XLA_FFI_Error_Create_Args_STRUCT_SIZE, NULL, message,
                                    XLA_FFI_Error_Code_INVALID_ARGUMENT};
  return api->XLA_FFI_Error_Create(&args);
}

/* Nonzero when this call is not an execution: the metadata query (answered here) or a stage
 * these handlers have nothing to do in. */
static int not_executing(XLA_FFI_CallFrame *frame) {
  if (frame->extension_start && frame->extension_start->type == XLA_FFI_Extension_Metadata) {
    XLA_FFI_Metadata *meta = ((XLA_FFI_Metadata_Extension *)frame->extension_start)->metadata;
    meta->api_version = (XLA_FFI_Api_Version){XLA_FFI_Api_Version_STRUCT_SIZE, NULL, XLA_FFI_API_MAJOR,
                                              XLA_FFI_API_MINOR};
    meta->traits = 0;
    return 1;
  }
  return frame->stage != XLA_FFI_ExecutionStage_EXECUTE;
}

/* The buffer, if it has this dtype and rank; else NULL. */
static XLA_FFI_Buffer *buffer(void *p, XLA_FFI_DataType dtype, int64_t rank) {
  XLA_FFI_Buffer *b = p;
  return b->dtype == dtype && b->rank == rank ? b : NULL;
}

/* The int64 attribute called name; 0 if found, -1 if absent or of another type. */
static inline int attr_i64(XLA_FFI_CallFrame *frame, const char *name, int64_t *value) {
  size_t len = strlen(name);
  for (int64_t i = 0; i < frame->attrs.size; i++) {
    XLA_FFI_ByteSpan *n = frame->attrs.names[i];
    if (n->len != len || memcmp(n->ptr, name, len) != 0) continue;
    XLA_FFI_Scalar *s = frame->attrs.attrs[i];
    if (frame->attrs.types[i] != XLA_FFI_AttrType_SCALAR || s->dtype != XLA_FFI_DataType_S64) return -1;
    *value = *(int64_t *)s->value;
    return 0;
  }
  return -1;
}

#endif
