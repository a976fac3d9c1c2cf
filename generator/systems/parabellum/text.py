"""The kinds of text Para Bellum's rule data holds: ids, titles and rules as printed."""

from __future__ import annotations

from ...schema import Str

ID = Str(30, r"[a-z][a-z0-9-]*", "an id (lower-case letters, digits and -)")
TITLE = Str(80)
RULE = Str(400)
