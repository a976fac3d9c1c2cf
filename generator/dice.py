"""Exact dice distributions: every outcome of the whole space counted, kept as Fractions, rounded only when printed."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from fractions import Fraction
from itertools import product


class Dist:
    """A finite probability distribution over outcomes, with exact Fraction weights that sum to 1."""

    __slots__ = ("p",)

    def __init__(self, weights: dict):
        total = sum(weights.values())
        self.p = {k: Fraction(v) / total for k, v in sorted(weights.items()) if v}

    @classmethod
    def die(cls, sides: int = 6) -> Dist:
        return cls({face: 1 for face in range(1, sides + 1)})

    @classmethod
    def table(cls, faces: Iterable[Hashable]) -> Dist:
        """A die whose faces read as given, such as [1, 2, 2, 2, 2, 3] (a die read through a table)."""
        weights: dict = {}
        for face in faces:
            weights[face] = weights.get(face, 0) + 1
        return cls(weights)

    def map(self, f: Callable) -> Dist:
        out: dict = {}
        for k, v in self.p.items():
            key = f(k)
            out[key] = out.get(key, 0) + v
        return Dist(out)

    def combine(self, other: Dist, f: Callable) -> Dist:
        out: dict = {}
        for (a, pa), (b, pb) in product(self.p.items(), other.p.items()):
            key = f(a, b)
            out[key] = out.get(key, 0) + pa * pb
        return Dist(out)

    def __add__(self, other):
        if isinstance(other, Dist):
            return self.combine(other, lambda a, b: a + b)
        return self.map(lambda a: a + other)

    def prob(self, pred: Callable) -> Fraction:
        return sum((v for k, v in self.p.items() if pred(k)), Fraction(0))

    def at_least(self, n) -> Fraction:
        return self.prob(lambda k: k >= n)

    def mean(self) -> Fraction:
        return sum((k * v for k, v in self.p.items()), Fraction(0))

    def __getitem__(self, outcome) -> Fraction:
        return self.p.get(outcome, Fraction(0))

    def __repr__(self):
        return f"Dist({ {k: str(v) for k, v in self.p.items()} })"


def nd(n: int, sides: int = 6) -> Dist:
    """The sum of n dice of the given number of sides."""
    out = Dist({0: 1})
    for _ in range(n):
        out = out + Dist.die(sides)
    return out
