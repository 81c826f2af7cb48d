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
    def make(cls, vocab_size: int, successors: int, concentration: float, seed: int) -> "MarkovCorpus":
        rng = np.random.default_rng(seed)
        succ = np.stack([rng.choice(vocab_size, size=successors, replace=False) for _ in range(vocab_size)])
        probs = rng.dirichlet(np.full(successors, concentration), size=vocab_size)
        return cls(succ.astype(np.int32), np.cumsum(probs, axis=1), probs, seed)

    def batch(self, step: int, batch_size: int, length: int) -> np.ndarray:
        """(batch_size, length) int32 token sequences for this step; starts are uniform."""
        rng = np.random.default_rng([self.seed, step])
        out = np.empty((batch_size, length), np.int32)
        out[:, 0] = rng.integers(0, self.vocab_size, size=batch_size)
        u = rng.random((batch_size, length - 1))
        for t in range(1, length):
            prev = out[:, t - 1]
            choice = (u[:, t - 1, None] > self.cdf[prev]).sum(axis=1)
            np.minimum(choice, self.succ.shape[1] - 1, out=choice)
            out[:, t] = self.succ[prev, choice]
        return out

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
