"""Seeded shuffles that reproduce from a printed seed, on any Python version."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

SEED_MAX = 999_999_999


def _below(rng: random.Random, n: int) -> int:
    """A uniform integer in [0, n) from raw Mersenne Twister bits.

    Our own rejection sampling rather than random.shuffle/randrange, whose algorithms Python may
    change: a seed printed on a card back must give the same deck years later.
    """
    bits = n.bit_length()
    while True:
        r = rng.getrandbits(bits)
        if r < n:
            return r


def shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    """A Fisher-Yates shuffle of a copy of items."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = _below(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def rng_for(seed: int, stream: str) -> random.Random:
    """An independent generator per purpose (deck pass 3, turn 5...), all from one printed seed."""
    digest = hashlib.sha256(f"{seed}:{stream}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def seed_from_bytes(data: bytes) -> int:
    """A scenario without a seed gets one from its own text: the same file always prints the same deck."""
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big") % 1_000_000
