/* The model's attention layer for the CPU lane, forward and backward, as XLA FFI handlers.
 *
 *   canary_attention      x (B, S, M), w_qkv (M, (H + 2 Hkv) D), w_o (H D, M), cos, sin (S, D/2)
 *                         -> y (B, S, M), o (B, S, H D), lse (B, H, S)
 *   canary_attention_bwd  x, w_qkv, w_o, cos, sin, o, lse, d_y  ->  d_x, d_w_qkv, d_w_o
 *   attributes:           heads H, kv_heads Hkv (int64); window (int64): query i sees keys
 *                         i - window .. i (window < 0: keys 0 .. i)
 *
 * The same function as canary/workload/model.py's attention: q, k, v = x @ w_qkv (the query
 * heads' columns, then the key heads', then the value heads'), RoPE on q and k, softmax
 * attention scaled by 1/sqrt(D), query heads sharing key/value heads in groups of H / Hkv,
 * then y = o @ w_o. o (the heads' outputs) and lse (each query's log-sum-exp of its scaled
 * scores) are kept from the forward pass for the backward one, which recomputes q, k, v and the
 * probabilities from them.
 *
 * One item of work is a batch row: its projections, then for each key/value head its keys
 * rotated and transposed once and each of its query heads taken in blocks of QB queries against
 * only the keys those queries may see (the causal half of the square, not all of it), then the
 * output projection. Exponentials are vectorised (common.h's vexp). Items are shared with XLA's
 * intra-op thread pool; the weight gradients are summed from per-row parts afterwards.
 */
#include <math.h>

#include "common.h"

#define QB 32 /* queries per block */

struct attention {
  const float *x, *w_qkv, *w_o, *cos, *sin, *o, *lse, *d_y; /* o, lse, d_y: backward only */
  const float *w_qkv_t, *w_o_t;                             /* backward: the weights transposed */
  float *y, *o_out, *lse_out;                               /* forward results */
  float *d_x, *parts;                                       /* backward: d_x, per-row weight gradients */
  long b, s, m, h, hkv, d, sp; /* sp: s rounded up to 16 */
  long c, hd;                  /* columns of w_qkv, of o */
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

/* The query block [q0, q0 + rows) of one head: its keys k0 .. and their count n, and the row
 * stride ldp of its score block. */
struct block {
  long q0, rows, k0, n, ldp;
};

static struct block block_at(const struct attention *a, long q0) {
  struct block bl = {q0, a->s - q0 < QB ? a->s - q0 : QB, first_key(a, q0), 0, 0};
  bl.n = q0 + bl.rows - bl.k0;
  bl.ldp = (bl.n + 15) / 16 * 16;
  return bl;
}

static void forward_item(void *ctx, long bi) {
  struct attention *a = ctx;
  long S = a->s, D = a->d, SP = a->sp, C = a->c, HD = a->hd, G = a->h / a->hkv;
  float *qkv = scratch(S * C + D * SP + S * D + QB * SP);
  if (!qkv) {
    atomic_store(&a->failed, 1);
    return;
  }
  float *kt = qkv + S * C, *qr = kt + D * SP, *p = qr + S * D;
  const float *X = a->x + bi * S * a->m;
  float *O = a->o_out + bi * S * HD;
  matmul(X, a->m, 1, a->w_qkv, C, qkv, C, S, C, a->m); /* q, k, v of every head */
  for (long kh = 0; kh < a->hkv; kh++) {
    const float *V = qkv + HD + a->hkv * D + kh * D;
    rotate(a, qkv + HD + kh * D, C, qr, D, 0); /* qr holds the rotated keys for now */
    transpose(qr, D, kt, SP, S, D);
    for (long g = 0; g < G; g++) {
      long hh = kh * G + g;
      float *L = a->lse_out + (bi * a->h + hh) * S;
      rotate(a, qkv + hh * D, C, qr, D, 0);
      for (long q0 = 0; q0 < S; q0 += QB) {
        struct block bl = block_at(a, q0);
        matmul(qr + q0 * D, D, 1, kt + bl.k0, SP, p, bl.ldp, bl.rows, bl.n, D);
        for (long i = 0; i < bl.rows; i++) {
          float *row = p + i * bl.ldp;
          mask_row(a, row, bl.ldp, bl.k0, q0 + i, -INFINITY);
          for (long j = 0; j < bl.ldp; j += 16) *(v16 *)(row + j) *= splat(a->scale);
          float mx = row_max(row, bl.ldp);
          v16 sum = splat(0.0f);
          for (long j = 0; j < bl.ldp; j += 16) {
            v16 e = vexp(*(v16 *)(row + j) - splat(mx));
            *(v16 *)(row + j) = e;
            sum += e;
          }
          float total = 0.0f;
          for (int t = 0; t < 16; t++) total += sum[t];
          for (long j = 0; j < bl.ldp; j += 16) *(v16 *)(row + j) *= splat(1.0f / total);
          L[q0 + i] = mx + logf(total);
        }
        matmul(p, bl.ldp, 1, V + bl.k0 * C, C, O + q0 * HD + hh * D, HD, bl.rows, D, bl.n);
      }
    }
  }
  matmul(O, HD, 1, a->w_o, a->m, a->y + bi * S * a->m, a->m, S, a->m, HD); /* y = o @ w_o */
  free(qkv);
}

static void backward_item(void *ctx, long bi) {
  struct attention *a = ctx;
  long S = a->s, D = a->d, SP = a->sp, C = a->c, HD = a->hd, M = a->m, G = a->h / a->hkv;
  float *qkv = scratch(2 * S * C + S * HD + 4 * S * D + 2 * D * SP + 2 * QB * SP + SP * D + S);
  if (!qkv) {
    atomic_store(&a->failed, 1);
    return;
  }
  float *dqkv = qkv + S * C, *dO = dqkv + S * C, *kr = dO + S * HD, *qr = kr + S * D, *dqr = qr + S * D;
  float *dkr = dqr + S * D, *kt = dkr + S * D, *vt = kt + D * SP, *p = vt + D * SP, *ds = p + QB * SP;
  float *tmp = ds + QB * SP, *delta = tmp + SP * D;
  const float *X = a->x + bi * S * M, *O = a->o + bi * S * HD, *dY = a->d_y + bi * S * M;
  float *part_qkv = a->parts + bi * (M * C + HD * M), *part_o = part_qkv + M * C;

  matmul(dY, M, 1, a->w_o_t, HD, dO, HD, S, HD, M);   /* d_o = d_y @ w_o^T */
  matmul(O, 1, HD, dY, M, part_o, M, HD, M, S);         /* d_w_o (this row's part) = o^T @ d_y */
  matmul(X, M, 1, a->w_qkv, C, qkv, C, S, C, M);        /* q, k, v again */
  memset(dqkv, 0, sizeof(float) * S * C);
  for (long kh = 0; kh < a->hkv; kh++) {
    const float *V = qkv + HD + a->hkv * D + kh * D;
    float *dV = dqkv + HD + a->hkv * D + kh * D;
    rotate(a, qkv + HD + kh * D, C, kr, D, 0);
    transpose(kr, D, kt, SP, S, D);
    transpose(V, C, vt, SP, S, D);
    memset(dkr, 0, sizeof(float) * S * D);
    for (long g = 0; g < G; g++) {
      long hh = kh * G + g;
      const float *L = a->lse + (bi * a->h + hh) * S, *Oh = O + hh * D, *dOh = dO + hh * D;
      rotate(a, qkv + hh * D, C, qr, D, 0);
      for (long i = 0; i < S; i++) {
        float s = 0.0f;
        for (long t = 0; t < D; t++) s += dOh[i * HD + t] * Oh[i * HD + t];
        delta[i] = s;
      }
      for (long q0 = 0; q0 < S; q0 += QB) {
        struct block bl = block_at(a, q0);
        long n = bl.n, ldp = bl.ldp, k0 = bl.k0;
        matmul(qr + q0 * D, D, 1, kt + k0, SP, p, ldp, bl.rows, n, D);      /* scores */
        matmul(dOh + q0 * HD, HD, 1, vt + k0, SP, ds, ldp, bl.rows, n, D);  /* d_probs */
        for (long i = 0; i < bl.rows; i++) {
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
        matmul(ds, ldp, 1, kr + k0 * D, D, dqr + q0 * D, D, bl.rows, D, n); /* d_q = d_scores @ k */
        matmul(p, 1, ldp, dOh + q0 * HD, HD, tmp, D, n, D, bl.rows);        /* d_v += probs^T @ d_o */
        for (long j = 0; j < n; j++)
          for (long t = 0; t < D; t++) dV[(k0 + j) * C + t] += tmp[j * D + t];
        matmul(ds, 1, ldp, qr + q0 * D, D, tmp, D, n, D, bl.rows); /* d_k += d_scores^T @ q */
        for (long j = 0; j < n; j++)
          for (long t = 0; t < D; t++) dkr[(k0 + j) * D + t] += tmp[j * D + t];
      }
      rotate(a, dqr, D, dqkv + hh * D, C, 1);
    }
    rotate(a, dkr, D, dqkv + HD + kh * D, C, 1);
  }
  matmul(dqkv, C, 1, a->w_qkv_t, M, a->d_x + bi * S * M, M, S, M, C); /* d_x = d_qkv @ w_qkv^T */
  matmul(X, 1, M, dqkv, C, part_qkv, C, M, C, S);                     /* d_w_qkv (this row's part) */
  free(qkv);
}

static XLA_FFI_Error *handle(XLA_FFI_CallFrame *frame, int backward) {
  const XLA_FFI_Api *api = frame->api;
  if (not_executing(frame)) return NULL;
  long n_args = backward ? 8 : 5, n_rets = 3;
  if (frame->args.size != n_args || frame->rets.size != n_rets)
    return fail(api, backward ? "canary attention_bwd: expects 8 arguments, 3 results"
                              : "canary attention: expects 5 arguments, 3 results");
  XLA_FFI_Buffer *arg[8], *ret[3];
  static const int arg_ranks[8] = {3, 2, 2, 2, 2, 3, 3, 3}, ret_ranks[2][3] = {{3, 3, 3}, {3, 2, 2}};
  for (long i = 0; i < n_args; i++)
    if (!(arg[i] = buffer(frame->args.args[i], XLA_FFI_DataType_F32, arg_ranks[i])))
      return fail(api, "canary attention: float32 operands of the documented ranks expected");
  for (long i = 0; i < n_rets; i++)
    if (!(ret[i] = buffer(frame->rets.rets[i], XLA_FFI_DataType_F32, ret_ranks[backward][i])))
      return fail(api, "canary attention: float32 results of the documented ranks expected");
  int64_t heads, kv_heads, window;
  if (attr_i64(frame, "heads", &heads) || attr_i64(frame, "kv_heads", &kv_heads) || attr_i64(frame, "window", &window))
    return fail(api, "canary attention: int64 attributes heads, kv_heads and window expected");
  struct attention a = {0};
  a.b = arg[0]->dims[0], a.s = arg[0]->dims[1], a.m = arg[0]->dims[2], a.h = heads, a.hkv = kv_heads;
  if (a.h <= 0 || a.hkv <= 0 || a.h % a.hkv != 0)
    return fail(api, "canary attention: heads must be a positive multiple of kv heads");
  a.c = arg[1]->dims[1];
  if (a.c % (a.h + 2 * a.hkv) != 0) return fail(api, "canary attention: w_qkv must have (heads + 2 kv_heads) * D columns");
  a.d = a.c / (a.h + 2 * a.hkv), a.hd = a.h * a.d, a.sp = (a.s + 15) / 16 * 16;
  if (a.d % 2 != 0) return fail(api, "canary attention: the head dim must be even");
  if (arg[1]->dims[0] != a.m || arg[2]->dims[0] != a.hd || arg[2]->dims[1] != a.m)
    return fail(api, "canary attention: w_qkv must be (M, (H + 2 Hkv) D) and w_o (H D, M) for x (B, S, M)");
  for (int i = 3; i < 5; i++)
    if (arg[i]->dims[0] != a.s || arg[i]->dims[1] != a.d / 2)
      return fail(api, "canary attention: cos and sin must be (S, D/2)");
  a.window = window, a.scale = 1.0f / sqrtf((float)a.d);
  a.x = arg[0]->data, a.w_qkv = arg[1]->data, a.w_o = arg[2]->data, a.cos = arg[3]->data, a.sin = arg[4]->data;
  if (!backward) {
    a.y = ret[0]->data, a.o_out = ret[1]->data, a.lse_out = ret[2]->data;
    if (a.b * a.s == 0) return NULL;
    if (parallel_for(frame, a.b, forward_item, &a) != 0 || atomic_load(&a.failed))
      return fail(api, "canary attention: out of memory");
    return NULL;
  }
  a.o = arg[5]->data, a.lse = arg[6]->data, a.d_y = arg[7]->data;
  a.d_x = ret[0]->data;
  float *d_w_qkv = ret[1]->data, *d_w_o = ret[2]->data;
  long part = a.m * a.c + a.hd * a.m;
  float *w_t = scratch(a.c * a.m + a.m * a.hd + a.b * part);
  if (!w_t) return fail(api, "canary attention: out of memory");
  a.w_qkv_t = w_t, a.w_o_t = w_t + a.c * a.m, a.parts = w_t + a.c * a.m + a.m * a.hd;
  transpose(a.w_qkv, a.c, w_t, a.m, a.m, a.c);
  transpose(a.w_o, a.m, w_t + a.c * a.m, a.hd, a.hd, a.m);
  int failed = a.b * a.s > 0 && (parallel_for(frame, a.b, backward_item, &a) != 0 || atomic_load(&a.failed));
  if (!failed) { /* the weight gradients: the rows' parts, added in row order */
    memset(d_w_qkv, 0, sizeof(float) * a.m * a.c);
    memset(d_w_o, 0, sizeof(float) * a.hd * a.m);
    for (long bi = 0; bi < a.b; bi++) {
      const float *pq = a.parts + bi * part, *po = pq + a.m * a.c;
      for (long i = 0; i < a.m * a.c; i++) d_w_qkv[i] += pq[i];
      for (long i = 0; i < a.hd * a.m; i++) d_w_o[i] += po[i];
    }
  }
  free(w_t);
  return failed ? fail(api, "canary attention: out of memory") : NULL;
}

XLA_FFI_Error *canary_attention(XLA_FFI_CallFrame *frame) { return handle(frame, 0); }
XLA_FFI_Error *canary_attention_bwd(XLA_FFI_CallFrame *frame) { return handle(frame, 1); }
