"""Every legal action plan for 1, 2 and 3 action points, enumerated from the actions in rules.yaml."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Plan:
    """One sequence of actions taken in one activation, in order."""

    steps: tuple[str, ...]  # action ids from rules.yaml, e.g. ("move", "aim", "fire-short")
    cost: int
    wastes_aim: bool  # a Take Aim! with no Fire! after it (legal, but its bonus is lost)
    fire_and_charge: bool  # both Fire! and Charge!: open only when every fired weapon is Assault


def actions(rules: dict) -> dict[str, dict]:
    """The actions by id, each with its cost filled in from its kind (Short 1, Long 2)."""
    kinds = rules["kinds"]
    return {a["id"]: {**a, "cost": kinds[a["kind"]]["cost"]} for a in rules["actions"]}


def _wastes_aim(steps: tuple[str, ...], acts: dict) -> bool:
    # seed 003: Take Aim!'s bonus "is lost if the unit doesn't take a Fire! action on that same activation"
    for i, step in enumerate(steps):
        target = acts[step].get("bonus_for")
        if target and not any(acts[later]["action"] == target for later in steps[i + 1:]):
            return True
    return False


def _fire_and_charge(steps: tuple[str, ...], acts: dict, rule: dict) -> bool:
    done = {acts[s]["action"] for s in steps}
    return rule["fire"] in done and rule["charge"] in done


def all_plans(rules: dict, points: int | None = None) -> list[Plan]:
    """Every sequence the structural rules allow, cheapest first, costing 1 to `points` (default the maximum).

    Structural rules (seed 003): each action at most once (Fire! Short and Long are one action),
    an `alone` action (Stand Ready!) is never combined, and the costs must fit the points.
    Weapon-dependent rules are applied per unit by `for_unit`.
    """
    acts = actions(rules)
    top = rules["action_points"]["max"] if points is None else points
    rule = rules["fire_and_charge"]
    found: list[Plan] = []

    def extend(steps: tuple[str, ...], spent: int) -> None:
        if steps:
            found.append(Plan(steps, spent, _wastes_aim(steps, acts), _fire_and_charge(steps, acts, rule)))
            if any(acts[s].get("alone") for s in steps):
                return
        used = {acts[s]["action"] for s in steps}
        for aid, act in acts.items():
            if act["action"] in used or spent + act["cost"] > top:
                continue
            if act.get("alone") and steps:
                continue
            extend(steps + (aid,), spent + act["cost"])

    extend((), 0)
    order = {aid: i for i, aid in enumerate(acts)}
    return sorted(found, key=lambda p: (p.cost, len(p.steps), [order[s] for s in p.steps]))


def fired(step: str, weapons: list[dict], rules: dict) -> list[dict]:
    """The weapons a Fire! step shoots: Short skips heavy weapons, Long fires them all."""
    skip = actions(rules)[step].get("fires_except")
    return [w for w in weapons if not (skip and skip in w["tags"])]


def for_unit(plans: list[Plan], weapons: list[dict], rules: dict) -> list[Plan]:
    """The plans open to a unit with these weapons (each a dict with `tags`).

    A Fire! step needs at least one weapon it may shoot; a plan with Fire! and Charge! needs
    every weapon that Fire! shoots to carry the Assault tag (seed 003).
    """
    acts = actions(rules)
    rule = rules["fire_and_charge"]
    out = []
    for plan in plans:
        ok = True
        for step in plan.steps:
            if acts[step]["action"] == rule["fire"]:
                shot = fired(step, weapons, rules)
                if not shot:
                    ok = False
                elif plan.fire_and_charge and not all(rule["tag"] in w["tags"] for w in shot):
                    ok = False
        if ok:
            out.append(plan)
    return out


def plan_text(plan: Plan, rules: dict, short: bool = False) -> str:
    """'Move! › Take Aim! › Fire!' or, on cards, 'Move·Aim·Fire' (Long actions in capitals)."""
    acts = actions(rules)
    if short:
        return "\u00b7".join(acts[s]["abbr"] for s in plan.steps)
    return " \u203a ".join(acts[s]["name"] + (" (Long)" if acts[s]["action"] == rules["fire_and_charge"]["fire"] and acts[s]["kind"] == "long" else "") for s in plan.steps)
