"""WarSpike's one odds table: seed 002 rolls nothing beyond the coin toss, counted over the coin's faces."""

from __future__ import annotations

from fractions import Fraction

from ...tables import Column, Table
from .models import Rules


def coin_toss(rules: Rules) -> Table:
    """Each face of the coin with its exact chance."""
    faces = rules.coin_toss.faces
    rows = [{"face": face, "chance": Fraction(1, len(faces))} for face in faces]  # faces differ (models.CoinToss)
    return Table(
        "coin_toss",
        "The coin toss (who may choose to be Instigator)",
        [Column("face", "The coin shows", "text"), Column("chance", "Chance", "prob")],
        rows,
        note=rules.odds.note,
    )
