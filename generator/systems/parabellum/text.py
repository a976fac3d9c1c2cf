"""The kinds of text Para Bellum's rule data holds: ids, titles and rules as printed."""

from __future__ import annotations

from typing import Any

from ...schema import Str

ID = Str(30, r"[a-z][a-z0-9-]*", "an id (lower-case letters, digits and -)")
TITLE = Str(80)
RULE = Str(400)


def derived(data: Any) -> dict[str, str]:
    """The sentences the reference makes of several values: the D6's table ("{action_points.faces}": "1 gives 1
    action point, 2-5 give 2, 6 gives 3") and each kind's actions ("{kinds.short.actions}": "Move!, Take Aim!,
    Fire! (non-heavy weapons), Charge!"; "{kinds.short.points}": "1 point"). Worked out from the data as read; a part not in shape is left out."""
    out: dict[str, str] = {}
    try:
        points = data["action_points"]["points"]
        if points and all(isinstance(p, int) and not isinstance(p, bool) for p in points):
            out["action_points.faces"] = _faces(points)
    except (KeyError, TypeError):
        pass
    try:
        kinds, actions = data["kinds"], data["actions"]
        for kind in kinds:
            names = [_action(a, actions) for a in actions if isinstance(a, dict) and a.get("kind") == kind]
            if names:
                out[f"kinds.{kind}.actions"] = ", ".join(names)
            cost = kinds[kind]["cost"]
            out[f"kinds.{kind}.points"] = f"{cost} point{'s' if cost != 1 else ''}"
    except (KeyError, TypeError, AttributeError):
        pass
    return out


def _faces(points: list[int]) -> str:
    """Runs of faces that give the same points, face 1 first: '1 gives 1 action point, 2-5 give 2, 6 gives 3'."""
    runs: list[tuple[int, int, int]] = []  # (first face, last face, points)
    for face, got in enumerate(points, start=1):
        if runs and runs[-1][2] == got:
            runs[-1] = (runs[-1][0], face, got)
        else:
            runs.append((face, face, got))
    words = []
    for i, (first, last, got) in enumerate(runs):
        faces, verb = (str(first), "gives") if first == last else (f"{first}-{last}", "give")
        what = f" action point{'s' if got != 1 else ''}" if i == 0 else ""
        words.append(f"{faces} {verb} {got}{what}")
    return ", ".join(words)


def _action(action: dict, actions: list) -> str:
    """An action's name as a kind's list prints it; an action taken Short or Long says which weapons each fires:
    'Fire! (non-heavy weapons)', 'Fire! (all weapons, heavy included)'."""
    name = str(action.get("name", ""))
    twins = [a for a in actions if isinstance(a, dict) and a.get("action") == action.get("action") and a is not action]
    if not twins:
        return name
    if action.get("fires_except"):
        return f"{name} (non-{action['fires_except']} weapons)"
    left_out = sorted({str(a["fires_except"]) for a in twins if a.get("fires_except")})
    return f"{name} (all weapons, {' and '.join(left_out)} included)" if left_out else name
