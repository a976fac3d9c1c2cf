"""Muster: YAML scenarios and forces in, print-ready PDF packs for tabletop wargames out."""

__version__ = "0.1.0"
