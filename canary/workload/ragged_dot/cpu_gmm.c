/* Grouped matmuls for the CPU lane, as XLA FFI handlers written against the C API only.
 *
 * Rows of lhs are sorted by group; group g owns rows [start_g, start_g + group_sizes[g]).
 *
 *   canary_gmm    lhs (M, K), rhs (G, K, N), group_sizes (G,)  ->  out (M, N)
 *                 out[r] = lhs[r] @ rhs[g(r)]; rows past sum(group_sizes) are zero.
 *   canary_gmm_t  lhs (M, N), rhs (G, K, N), group_sizes (G,)  ->  out (M, K)
 *                 out[r] = lhs[r] @ rhs[g(r)]^T   (the gradient with respect to lhs).
 *   canary_tgmm   lhs (M, K), dout (M, N), group_sizes (G,)    ->  out (G, K, N)
 *                 out[g] = lhs[rows of g]^T @ dout[rows of g]   (the gradient with respect to rhs).
 *
 * Each expert's matrix is read in place: no per-tile copies, no padded rows. The inner block
 * keeps a few rows by up to 64 columns of the output in vector registers and streams the
 * reduction dimension, so the work is the real work at close to the core's FMA rate. Groups are
 * shared between the calling thread and XLA's intra-op thread pool through an atomic counter;
 * the caller never waits for a helper that has not started, so the call cannot deadlock when
 * every pool thread is busy.
 *
 * Built on first use with the machine's C compiler (canary/workload/ragged_dot/cpu_gmm.py).
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xla/ffi/api/c_api.h"

typedef float v16 __attribute__((vector_size(64), aligned(4)));

static inline v16 splat(float x) { return (v16){x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x}; }

/* c[i, j] = sum_t a[i*ai + t*at] * b[t*ldb + j] for i < RB rows and j < 16*CB columns. */
#define DEFINE_BLOCK(RB, CB)                                                                   \
  static void block_##RB##x##CB(const float *a, long ai, long at, const float *b, long ldb,    \
                                float *c, long ldc, long depth) {                              \
    v16 acc[RB][CB];                                                                           \
    _Pragma("GCC unroll 16") for (int i = 0; i < RB; i++)                                      \
        _Pragma("GCC unroll 16") for (int j = 0; j < CB; j++) acc[i][j] = splat(0.0f);         \
    for (long t = 0; t < depth; t++) {                                                         \
      v16 bv[CB];                                                                              \
      _Pragma("GCC unroll 16") for (int j = 0; j < CB; j++) bv[j] = *(const v16 *)(b + t * ldb + 16 * j); \
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
DEFINE_BLOCK(8, 2)
DEFINE_BLOCK(1, 2)
DEFINE_BLOCK(8, 1)
DEFINE_BLOCK(1, 1)

typedef void (*block_fn)(const float *, long, long, const float *, long, float *, long, long);

/* c (rows, cols) = A (rows, depth) @ b (depth, cols); A[i, t] = a[i*ai + t*at]. */
static void matmul(const float *a, long ai, long at, const float *b, long ldb, float *c, long ldc,
                   long rows, long cols, long depth) {
  long j = 0;
  static const struct { int width, rb; block_fn full, one; } shapes[] = {
      {64, 4, block_4x4, block_1x4}, {32, 8, block_8x2, block_1x2}, {16, 8, block_8x1, block_1x1}};
  for (int s = 0; s < 3; s++) {
    for (; j + shapes[s].width <= cols; j += shapes[s].width) {
      long i = 0;
      for (; i + shapes[s].rb <= rows; i += shapes[s].rb)
        shapes[s].full(a + i * ai, ai, at, b + j, ldb, c + i * ldc + j, ldc, depth);
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

/* ------------------------------------------------------------------ the three products */

enum op { GMM, GMM_T, TGMM };

struct job {
  enum op op;
  const float *lhs, *rhs; /* rhs: the experts' matrices (GMM, GMM_T) or dout (TGMM) */
  float *out;
  const int64_t *start; /* start[g]: first row of group g; start[G]: total rows */
  long m, k, n, groups;
  atomic_long next, done;
  atomic_int refs;
};

static void run_group(struct job *jb, long g) {
  long r0 = jb->start[g], rows = jb->start[g + 1] - r0, k = jb->k, n = jb->n;
  switch (jb->op) {
    case GMM:
      matmul(jb->lhs + r0 * k, k, 1, jb->rhs + g * k * n, n, jb->out + r0 * n, n, rows, n, k);
      break;
    case GMM_T: { /* out (rows, k) = lhs (rows, n) @ rhs[g]^T; transpose rhs[g] into scratch */
      if (rows == 0) break;
      float *wt = malloc(sizeof(float) * k * n);
      const float *w = jb->rhs + g * k * n;
      for (long i = 0; i < k; i++)
        for (long j = 0; j < n; j++) wt[j * k + i] = w[i * n + j];
      matmul(jb->lhs + r0 * n, n, 1, wt, k, jb->out + r0 * k, k, rows, k, n);
      free(wt);
      break;
    }
    case TGMM: /* out[g] (k, n) = lhs[rows]^T (k, rows) @ dout[rows] (rows, n) */
      matmul(jb->lhs + r0 * k, 1, k, jb->rhs + r0 * n, n, jb->out + g * k * n, n, k, n, rows);
      break;
  }
}

static void release(struct job *jb) {
  if (atomic_fetch_sub(&jb->refs, 1) == 1) free(jb);
}

static void work(struct job *jb) {
  for (long g; (g = atomic_fetch_add(&jb->next, 1)) < jb->groups;) {
    run_group(jb, g);
    atomic_fetch_add(&jb->done, 1);
  }
}

static void helper(void *data) {
  struct job *jb = data;
  work(jb);
  release(jb);
}

static inline void spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* ------------------------------------------------------------------ FFI plumbing */

static XLA_FFI_Error *fail(const XLA_FFI_Api *api, const char *message) {
  XLA_FFI_Error_Create_Args args = {XLA_FFI_Error_Create_Args_STRUCT_SIZE, NULL, message,
                                    XLA_FFI_Error_Code_INVALID_ARGUMENT};
  return api->XLA_FFI_Error_Create(&args);
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

static XLA_FFI_Buffer *buffer(void *p, XLA_FFI_DataType dtype, int64_t rank) {
  XLA_FFI_Buffer *b = p;
  return b->dtype == dtype && b->rank == rank ? b : NULL;
}

static XLA_FFI_Error *handle(XLA_FFI_CallFrame *frame, enum op op) {
  const XLA_FFI_Api *api = frame->api;
  if (frame->extension_start && frame->extension_start->type == XLA_FFI_Extension_Metadata) {
    XLA_FFI_Metadata *meta = ((XLA_FFI_Metadata_Extension *)frame->extension_start)->metadata;
    meta->api_version = (XLA_FFI_Api_Version){XLA_FFI_Api_Version_STRUCT_SIZE, NULL, XLA_FFI_API_MAJOR,
                                              XLA_FFI_API_MINOR};
    meta->traits = 0;
    return NULL;
  }
  if (frame->stage != XLA_FFI_ExecutionStage_EXECUTE) return NULL;
  if (frame->args.size != 3 || frame->rets.size != 1) return fail(api, "canary gmm: expects 3 arguments, 1 result");
  XLA_FFI_Buffer *lhs = buffer(frame->args.args[0], XLA_FFI_DataType_F32, 2);
  XLA_FFI_Buffer *rhs = buffer(frame->args.args[1], XLA_FFI_DataType_F32, op == TGMM ? 2 : 3);
  XLA_FFI_Buffer *sizes = buffer(frame->args.args[2], XLA_FFI_DataType_S32, 1);
  XLA_FFI_Buffer *out = buffer(frame->rets.rets[0], XLA_FFI_DataType_F32, op == TGMM ? 3 : 2);
  if (!lhs || !rhs || !sizes || !out) return fail(api, "canary gmm: float32 operands and int32 group sizes expected");

  long m = lhs->dims[0], groups = sizes->dims[0], k, n;
  if (op == TGMM) {
    k = lhs->dims[1], n = rhs->dims[1];
    if (rhs->dims[0] != m || out->dims[0] != groups) return fail(api, "canary tgmm: shapes disagree");
  } else {
    k = rhs->dims[1], n = rhs->dims[2];
    if (rhs->dims[0] != groups || lhs->dims[1] != (op == GMM ? k : n)) return fail(api, "canary gmm: shapes disagree");
  }

  struct job *jb = malloc(sizeof(struct job) + sizeof(int64_t) * (groups + 1));
  if (!jb) return fail(api, "canary gmm: out of memory");
  int64_t *start = (int64_t *)(jb + 1);
  const int32_t *gs = sizes->data;
  start[0] = 0;
  for (long g = 0; g < groups; g++) {
    int64_t s = gs[g] < 0 ? 0 : gs[g];
    start[g + 1] = start[g] + s > m ? m : start[g] + s;
  }
  jb->op = op, jb->lhs = lhs->data, jb->rhs = rhs->data, jb->out = out->data, jb->start = start;
  jb->m = m, jb->k = k, jb->n = n, jb->groups = groups;
  atomic_init(&jb->next, 0);
  atomic_init(&jb->done, 0);
  atomic_init(&jb->refs, 1);

  /* Rows past the groups' total give zeros, as ragged_dot does. */
  if (op != TGMM) {
    long width = op == GMM ? n : k;
    memset((float *)out->data + start[groups] * width, 0, sizeof(float) * (m - start[groups]) * width);
  }

  long helpers = pool_threads(frame) - 1;
  if (helpers > groups - 1) helpers = groups - 1;
  for (long h = 0; h < helpers; h++) {
    atomic_fetch_add(&jb->refs, 1);
    XLA_FFI_ThreadPool_Schedule_Args args = {XLA_FFI_ThreadPool_Schedule_Args_STRUCT_SIZE, NULL, frame->ctx,
                                             helper, jb};
    XLA_FFI_Error *error = api->XLA_FFI_ThreadPool_Schedule(&args);
    if (error) {
      drop(api, error);
      atomic_fetch_sub(&jb->refs, 1);
      break;
    }
  }
  work(jb);
  while (atomic_load(&jb->done) < groups) /* only groups a running helper has claimed */
    spin_pause();
  release(jb);
  return NULL;
}

XLA_FFI_Error *canary_gmm(XLA_FFI_CallFrame *frame) { return handle(frame, GMM); }
XLA_FFI_Error *canary_gmm_t(XLA_FFI_CallFrame *frame) { return handle(frame, GMM_T); }
XLA_FFI_Error *canary_tgmm(XLA_FFI_CallFrame *frame) { return handle(frame, TGMM); }
