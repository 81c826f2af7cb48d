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
 * reduction dimension (common.h), so the work is the real work at close to the core's FMA rate.
 * Groups are shared with XLA's intra-op thread pool (common.h's parallel_for).
 */
#include "common.h"

/* ------------------------------------------------------------------ the three products */

enum op { GMM, GMM_T, TGMM };

struct job {
  enum op op;
  const float *lhs, *rhs; /* rhs: the experts' matrices (GMM, GMM_T) or dout (TGMM) */
  float *out;
  const int64_t *start; /* start[g]: first row of group g; start[G]: total rows */
  long m, k, n, groups;
  atomic_int failed;    /* a group could not get its scratch memory */
};

static void run_group(void *ctx, long g) {
  struct job *jb = ctx;
  long r0 = jb->start[g], rows = jb->start[g + 1] - r0, k = jb->k, n = jb->n;
  switch (jb->op) {
    case GMM:
      matmul(jb->lhs + r0 * k, k, 1, jb->rhs + g * k * n, n, jb->out + r0 * n, n, rows, n, k);
      break;
    case GMM_T: { /* out (rows, k) = lhs (rows, n) @ rhs[g]^T; transpose rhs[g] into scratch */
      if (rows == 0) break;
      float *wt = malloc(sizeof(float) * k * n);
      if (!wt) {
        atomic_store(&jb->failed, 1);
        break;
      }
      transpose(jb->rhs + g * k * n, n, wt, k, k, n);
      matmul(jb->lhs + r0 * n, n, 1, wt, k, jb->out + r0 * k, k, rows, k, n);
      free(wt);
      break;
    }
    case TGMM: /* out[g] (k, n) = lhs[rows]^T (k, rows) @ dout[rows] (rows, n) */
      matmul(jb->lhs + r0 * k, 1, k, jb->rhs + r0 * n, n, jb->out + g * k * n, n, k, n, rows);
      break;
  }
}

static XLA_FFI_Error *handle(XLA_FFI_CallFrame *frame, enum op op) {
  const XLA_FFI_Api *api = frame->api;
  if (not_executing(frame)) return NULL;
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

  int64_t *start = malloc(sizeof(int64_t) * (groups + 1));
  if (!start) return fail(api, "canary gmm: out of memory");
  const int32_t *gs = sizes->data;
  start[0] = 0;
  for (long g = 0; g < groups; g++) {
    int64_t s = gs[g] < 0 ? 0 : gs[g];
    start[g + 1] = start[g] + s > m ? m : start[g] + s;
  }
  struct job jb = {op, lhs->data, rhs->data, out->data, start, m, k, n, groups, 0};

  /* Rows past the groups' total give zeros, as ragged_dot does. */
  if (op != TGMM) {
    long width = op == GMM ? n : k;
    memset((float *)out->data + start[groups] * width, 0, sizeof(float) * (m - start[groups]) * width);
  }
  int failed = groups > 0 && parallel_for(frame, groups, run_group, &jb) != 0;
  free(start);
  return failed || atomic_load(&jb.failed) ? fail(api, "canary gmm: out of memory") : NULL;
}

XLA_FFI_Error *canary_gmm(XLA_FFI_CallFrame *frame) { return handle(frame, GMM); }
XLA_FFI_Error *canary_gmm_t(XLA_FFI_CallFrame *frame) { return handle(frame, GMM_T); }
XLA_FFI_Error *canary_tgmm(XLA_FFI_CallFrame *frame) { return handle(frame, TGMM); }
