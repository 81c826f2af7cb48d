/* Rotary causal self-attention for the CPU lane, forward and backward, as XLA FFI handlers.
 *
 *   canary_attention      q (B, S, H, D), k, v (B, S, Hkv, D), cos, sin (S, D/2)
 *                         -> out (B, S, H, D), lse (B, H, S)
 *   canary_attention_bwd  q, k, v, cos, sin, out, lse, d_out  ->  d_q, d_k, d_v
 *   attribute window:     query i sees keys i - window .. i (window < 0: keys 0 .. i)
 *
 * The same function as the model's reference (canary/workload/model.py: rope on q and k, then
 * jax.nn.dot_product_attention, causal, scale 1/sqrt(D)), with query heads sharing key/value
 * heads in groups of H / Hkv. lse is each query's log-sum-exp of its scaled scores, kept from
 * the forward pass for the backward one, which recomputes the probabilities from it.
 *
 * One item of work is a (batch row, key/value head): its keys are rotated and transposed once,
 * then each of its query heads is taken in blocks of QB queries against only the keys those
 * queries may see, so the work is the causal half of the square, not all of it. Exponentials
 * are vectorised (common.h's vexp). Items are shared with XLA's intra-op thread pool.
 */
#include <math.h>

#include "common.h"

#define QB 32 /* queries per block */

struct attention {
  const float *q, *k, *v, *cos, *sin, *out, *lse, *d_out; /* out, lse, d_out: backward only */
  float *o_out, *o_lse, *d_q, *d_k, *d_v;                  /* results */
  long b, s, h, hkv, d, sp;                                /* sp: s rounded up to 16 */
  long window;
  float scale;
  atomic_int failed; /* an item could not get its scratch memory */
};

/* dst[i] = x[i] rotated by position i's angles (forward), or by their inverse (backward). */
static void rotate(const struct attention *a, const float *x, long ldx, float *dst, long ldd, int inverse) {
  long half = a->d / 2;
  for (long i = 0; i < a->s; i++) {
    const float *xi = x + i * ldx, *c = a->cos + i * half, *sn = a->sin + i * half;
    float *o = dst + i * ldd;
    for (long t = 0; t < half; t++) {
      float x1 = xi[t], x2 = xi[t + half], s = inverse ? -sn[t] : sn[t];
      o[t] = x1 * c[t] - x2 * s;
      o[t + half] = x1 * s + x2 * c[t];
    }
  }
}

static long first_key(const struct attention *a, long query) {
  return a->window < 0 || query - a->window < 0 ? 0 : query - a->window;
}

/* A block's row covers keys k0 .. k0+ldp-1; the entries of keys this query may not see are set
 * to value (-inf for a score, 0 for its gradient). */
static void mask_row(const struct attention *a, float *row, long ldp, long k0, long query, float value) {
  for (long j = 0; j < first_key(a, query) - k0; j++) row[j] = value;
  for (long j = query - k0 + 1; j < ldp; j++) row[j] = value;
}

static float row_max(const float *row, long ldp) {
  v16 m = splat(-INFINITY);
  for (long j = 0; j < ldp; j += 16) {
    v16 x = *(const v16 *)(row + j);
    v16i gt = x > m;
    m = (v16)(((v16i)x & gt) | ((v16i)m & ~gt));
  }
  float r = m[0];
  for (int t = 1; t < 16; t++) r = m[t] > r ? m[t] : r;
  return r;
}

static void *scratch(size_t floats) { return aligned_alloc(64, (floats * sizeof(float) + 63) / 64 * 64); }

static void forward_item(void *ctx, long item) {
  struct attention *a = ctx;
  long bi = item / a->hkv, kh = item % a->hkv, S = a->s, D = a->d, SP = a->sp, G = a->h / a->hkv;
  long qs = a->h * D, ks = a->hkv * D; /* row strides of q / out and of k / v */
  float *kt = scratch(D * SP + S * D + QB * SP);
  if (!kt) {
    atomic_store(&a->failed, 1);
    return;
  }
  float *qr = kt + D * SP, *p = qr + S * D;
  const float *V = a->v + bi * S * ks + kh * D;
  rotate(a, a->k + bi * S * ks + kh * D, ks, qr, D, 0); /* qr holds the rotated keys for now */
  for (long j = 0; j < S; j++)
    for (long t = 0; t < D; t++) kt[t * SP + j] = qr[j * D + t];
  for (long g = 0; g < G; g++) {
    long hh = kh * G + g;
    float *O = a->o_out + bi * S * qs + hh * D, *L = a->o_lse + (bi * a->h + hh) * S;
    rotate(a, a->q + bi * S * qs + hh * D, qs, qr, D, 0);
    for (long q0 = 0; q0 < S; q0 += QB) {
      long rows = S - q0 < QB ? S - q0 : QB, k0 = first_key(a, q0), n = q0 + rows - k0, ldp = (n + 15) / 16 * 16;
      matmul(qr + q0 * D, D, 1, kt + k0, SP, p, ldp, rows, n, D);
      for (long i = 0; i < rows; i++) {
        float *row = p + i * ldp;
        mask_row(a, row, ldp, k0, q0 + i, -INFINITY);
        for (long j = 0; j < ldp; j += 16) *(v16 *)(row + j) *= splat(a->scale);
        float m = row_max(row, ldp);
        v16 sum = splat(0.0f);
        for (long j = 0; j < ldp; j += 16) {
          v16 e = vexp(*(v16 *)(row + j) - splat(m));
          *(v16 *)(row + j) = e;
          sum += e;
        }
        float total = 0.0f;
        for (int t = 0; t < 16; t++) total += sum[t];
        for (long j = 0; j < ldp; j += 16) *(v16 *)(row + j) *= splat(1.0f / total);
        L[q0 + i] = m + logf(total);
      }
      matmul(p, ldp, 1, V + k0 * ks, ks, O + q0 * qs, qs, rows, D, n);
    }
  }
  free(kt);
}

static void backward_item(void *ctx, long item) {
  struct attention *a = ctx;
  long bi = item / a->hkv, kh = item % a->hkv, S = a->s, D = a->d, SP = a->sp, G = a->h / a->hkv;
  long qs = a->h * D, ks = a->hkv * D;
  float *kr = scratch(4 * S * D + 2 * D * SP + 2 * QB * SP + SP * D + S);
  if (!kr) {
    atomic_store(&a->failed, 1);
    return;
  }
  float *qr = kr + S * D, *dqr = qr + S * D, *dkr = dqr + S * D, *kt = dkr + S * D, *vt = kt + D * SP;
  float *p = vt + D * SP, *ds = p + QB * SP, *tmp = ds + QB * SP, *delta = tmp + SP * D;
  const float *V = a->v + bi * S * ks + kh * D;
  float *dV = a->d_v + bi * S * ks + kh * D;
  rotate(a, a->k + bi * S * ks + kh * D, ks, kr, D, 0);
  for (long j = 0; j < S; j++)
    for (long t = 0; t < D; t++) {
      kt[t * SP + j] = kr[j * D + t];
      vt[t * SP + j] = V[j * ks + t];
      dkr[j * D + t] = 0.0f;
      dV[j * ks + t] = 0.0f;
    }
  for (long g = 0; g < G; g++) {
    long hh = kh * G + g;
    const float *O = a->out + bi * S * qs + hh * D, *dO = a->d_out + bi * S * qs + hh * D;
    const float *L = a->lse + (bi * a->h + hh) * S;
    rotate(a, a->q + bi * S * qs + hh * D, qs, qr, D, 0);
    for (long i = 0; i < S; i++) {
      float s = 0.0f;
      for (long t = 0; t < D; t++) s += dO[i * qs + t] * O[i * qs + t];
      delta[i] = s;
    }
    for (long q0 = 0; q0 < S; q0 += QB) {
      long rows = S - q0 < QB ? S - q0 : QB, k0 = first_key(a, q0), n = q0 + rows - k0, ldp = (n + 15) / 16 * 16;
      matmul(qr + q0 * D, D, 1, kt + k0, SP, p, ldp, rows, n, D);  /* scores */
      matmul(dO + q0 * qs, qs, 1, vt + k0, SP, ds, ldp, rows, n, D); /* d_probs */
      for (long i = 0; i < rows; i++) {
        float *row = p + i * ldp, *drow = ds + i * ldp;
        mask_row(a, row, ldp, k0, q0 + i, -INFINITY);
        v16 lse = splat(L[q0 + i]), dl = splat(delta[q0 + i]), scale = splat(a->scale);
        for (long j = 0; j < ldp; j += 16) {
          v16 e = vexp(*(v16 *)(row + j) * scale - lse);
          *(v16 *)(row + j) = e;
          *(v16 *)(drow + j) = e * (*(v16 *)(drow + j) - dl) * scale;
        }
        mask_row(a, drow, ldp, k0, q0 + i, 0.0f); /* including the columns past n, never written */
      }
      matmul(ds, ldp, 1, kr + k0 * D, D, dqr + q0 * D, D, rows, D, n); /* d_q = d_scores @ k */
      matmul(p, 1, ldp, dO + q0 * qs, qs, tmp, D, n, D, rows);        /* d_v += probs^T @ d_out */
      for (long j = 0; j < n; j++)
        for (long t = 0; t < D; t++) dV[(k0 + j) * ks + t] += tmp[j * D + t];
      matmul(ds, 1, ldp, qr + q0 * D, D, tmp, D, n, D, rows); /* d_k += d_scores^T @ q */
      for (long j = 0; j < n; j++)
        for (long t = 0; t < D; t++) dkr[(k0 + j) * D + t] += tmp[j * D + t];
    }
    rotate(a, dqr, D, a->d_q + bi * S * qs + hh * D, qs, 1);
  }
  rotate(a, dkr, D, a->d_k + bi * S * ks + kh * D, ks, 1);
  free(kr);
}

static XLA_FFI_Error *handle(XLA_FFI_CallFrame *frame, int backward) {
  const XLA_FFI_Api *api = frame->api;
  if (not_executing(frame)) return NULL;
  long n_args = backward ? 8 : 5, n_rets = backward ? 3 : 2;
  if (frame->args.size != n_args || frame->rets.size != n_rets)
    return fail(api, backward ? "canary attention_bwd: expects 8 arguments, 3 results"
                              : "canary attention: expects 5 arguments, 2 results");
  XLA_FFI_Buffer *arg[8], *ret[3];
  static const int ranks[8] = {4, 4, 4, 2, 2, 4, 3, 4};
  for (long i = 0; i < n_args; i++)
    if (!(arg[i] = buffer(frame->args.args[i], XLA_FFI_DataType_F32, ranks[i])))
      return fail(api, "canary attention: float32 operands of the documented ranks expected");
  for (long i = 0; i < n_rets; i++)
    if (!(ret[i] = buffer(frame->rets.rets[i], XLA_FFI_DataType_F32, backward || i == 0 ? 4 : 3)))
      return fail(api, "canary attention: float32 results expected");
  struct attention a = {0};
  a.b = arg[0]->dims[0], a.s = arg[0]->dims[1], a.h = arg[0]->dims[2], a.d = arg[0]->dims[3];
  a.hkv = arg[1]->dims[2], a.sp = (a.s + 15) / 16 * 16;
  for (int i = 1; i < 3; i++)
    if (arg[i]->dims[0] != a.b || arg[i]->dims[1] != a.s || arg[i]->dims[3] != a.d || arg[i]->dims[2] != a.hkv)
      return fail(api, "canary attention: k and v must be (B, S, Hkv, D) like q's B, S and D");
  if (a.hkv == 0 || a.h % a.hkv != 0 || a.d % 2 != 0)
    return fail(api, "canary attention: heads must be a multiple of kv heads, and the head dim even");
  for (int i = 3; i < 5; i++)
    if (arg[i]->dims[0] != a.s || arg[i]->dims[1] != a.d / 2)
      return fail(api, "canary attention: cos and sin must be (S, D/2)");
  int64_t window;
  if (attr_i64(frame, "window", &window) != 0) return fail(api, "canary attention: int64 attribute window expected");
  a.window = window, a.scale = 1.0f / sqrtf((float)a.d);
  a.q = arg[0]->data, a.k = arg[1]->data, a.v = arg[2]->data, a.cos = arg[3]->data, a.sin = arg[4]->data;
  if (backward) {
    a.out = arg[5]->data, a.lse = arg[6]->data, a.d_out = arg[7]->data;
    a.d_q = ret[0]->data, a.d_k = ret[1]->data, a.d_v = ret[2]->data;
  } else {
    a.o_out = ret[0]->data, a.o_lse = ret[1]->data;
  }
  if (a.b * a.hkv == 0 || a.s == 0) return NULL;
  if (parallel_for(frame, a.b * a.hkv, backward ? backward_item : forward_item, &a) != 0 || atomic_load(&a.failed))
    return fail(api, "canary attention: out of memory");
  return NULL;
}

XLA_FFI_Error *canary_attention(XLA_FFI_CallFrame *frame) { return handle(frame, 0); }
XLA_FFI_Error *canary_attention_bwd(XLA_FFI_CallFrame *frame) { return handle(frame, 1); }
