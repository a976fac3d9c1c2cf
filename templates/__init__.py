"""Muster's templates, print CSS and assets, installed as the package generator.templates (see pyproject.toml)."""
