"""The ferry's corpus: a sparse first-order Markov chain over the vocabulary, made from a seed.

Every token ``i`` has ``successors`` possible next tokens ``succ[i]`` with probabilities
``probs[i]`` drawn from a Dirichlet. A model that learns the bigram table reaches the chain's
entropy rate, which is computed exactly (``entropy_floor``), so a healthy run's loss falls toward
a known number. Batches are sampled per step from ``(seed, step)``: the same on every machine,
and resumable at any step. Only numpy; nothing is downloaded.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class MarkovCorpus:
    succ: np.ndarray  # (V, K) int32: the possible next tokens of each token
    cdf: np.ndarray  # (V, K) float64: cumulative probabilities of those successors
    probs: np.ndarray  # (V, K) float64
    seed: int

    @property
    def vocab_size(self) -> int:
        return self.succ.shape[0]

    @classmethod
    def make(cls, vocab_size: int, successors: int, concentration: float, seed: int) -> MarkovCorpus:
        rng = np.random.default_rng(seed)
        succ = np.stack([rng.choice(vocab_size, size=successors, replace=False) for _ in range(vocab_size)])
        probs = rng.dirichlet(np.full(successors, concentration), size=vocab_size)
        return cls(succ.astype(np.int32), np.cumsum(probs, axis=1), probs, seed)

    def batch(self, step: int, batch_size: int, length: int) -> np.ndarray:
        """(batch_size, length) int32 token sequences for this step; starts are uniform."""
        return self.batches(step, 1, batch_size, length)[0]

    def batches(self, first_step: int, count: int, batch_size: int, length: int) -> np.ndarray:
        """(count, batch_size, length): the batches of ``count`` steps from ``first_step``, the
        same as ``batch`` gives one by one, sampled together (the chain's walk is one NumPy
        pass per position for all of them, not one per step)."""
        n = count * batch_size
        out = np.empty((n, length), np.int32)
        u = np.empty((n, length - 1))
        for i in range(count):
            rng = np.random.default_rng([self.seed, first_step + i])
            rows = slice(i * batch_size, (i + 1) * batch_size)
            out[rows, 0] = rng.integers(0, self.vocab_size, size=batch_size)
            u[rows] = rng.random((batch_size, length - 1))
        for t in range(1, length):
            prev = out[:, t - 1]
            choice = (u[:, t - 1, None] > self.cdf[prev]).sum(axis=1)
            np.minimum(choice, self.succ.shape[1] - 1, out=choice)
            out[:, t] = self.succ[prev, choice]
        return out.reshape(count, batch_size, length)

    def stream(self, steps: int, batch_size: int, length: int, chunk_tokens: int = 1 << 20) -> BatchStream:
        return BatchStream(self, steps, batch_size, length, max(1, chunk_tokens // (batch_size * length)))

    def entropy_floor(self, length: int) -> float:
        """The best achievable mean next-token cross-entropy (nats) over positions 1..length-1
        of a sequence that starts uniformly: the chain's conditional entropy, averaged over the
        token distribution at each position."""
        V = self.vocab_size
        row_entropy = -np.sum(self.probs * np.log(self.probs + 1e-300), axis=1)
        dist = np.full(V, 1.0 / V)
        total, positions = 0.0, length - 1
        for t in range(positions):
            h = float(dist @ row_entropy)
            total += h
            nxt = np.bincount(self.succ.ravel(), weights=(dist[:, None] * self.probs).ravel(), minlength=V)
            if np.abs(nxt - dist).sum() < 1e-9 or t > 512:
                total += h * (positions - t - 1)  # stationary from here on
                break
            dist = nxt
        return total / positions


@dataclass
class BatchStream:
    """A run's batches, step by step, sampled ``chunk_steps`` steps at a time (``batches``):
    ``stream.get(i)`` is ``corpus.batch(i, ...)`` at a fraction of the cost per step."""

    corpus: MarkovCorpus
    steps: int
    batch_size: int
    length: int
    chunk_steps: int
    _first: int = 0
    _chunk: np.ndarray | None = None

    def get(self, step: int) -> np.ndarray:
        if self._chunk is None or not self._first <= step < self._first + len(self._chunk):
            count = max(1, min(self.chunk_steps, self.steps - step))
            self._first, self._chunk = step, self.corpus.batches(step, count, self.batch_size, self.length)
        return self._chunk[step - self._first]
