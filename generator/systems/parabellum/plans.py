"""Every legal action plan for 1, 2 and 3 action points, enumerated from the actions in rules.yaml."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .models import Rules


@dataclass(frozen=True)
class Plan:
    """One sequence of actions taken in one activation, in order."""

    steps: tuple[str, ...]  # action ids from rules.yaml, e.g. ("move", "aim", "fire-short")
    cost: int
    wastes_aim: bool  # a Take Aim! with no Fire! after it (legal, but its bonus is lost)
    fire_and_charge: bool  # both Fire! and Charge!: open only when every fired weapon is Assault


def _wastes_aim(steps: tuple[str, ...], actions: dict[str, Action]) -> bool:
    # seed 003: Take Aim!'s bonus "is lost if the unit doesn't take a Fire! action on that same activation"
    for i, step in enumerate(steps):
        target = actions[step].bonus_for
        if target and not any(actions[later].action == target for later in steps[i + 1 :]):
            return True
    return False


def _fire_and_charge(steps: tuple[str, ...], rules: Rules) -> bool:
    done = {rules.action(step).action for step in steps}
    return rules.fire_and_charge.fire in done and rules.fire_and_charge.charge in done


def all_plans(rules: Rules, points: int | None = None) -> list[Plan]:
    """Every sequence the structural rules allow, cheapest first, costing 1 to `points` (default the maximum).

    Structural rules (seed 003): each action at most once (Fire! Short and Long are one action),
    an `alone` action (Stand Ready!) is never combined, and the costs must fit the points.
    Weapon-dependent rules are applied per unit by `for_unit`.
    """
    actions = rules.actions_by_id
    top = rules.action_points.max if points is None else points
    found: list[Plan] = []

    def extend(steps: tuple[str, ...], spent: int) -> None:
        if steps:
            found.append(Plan(steps, spent, _wastes_aim(steps, actions), _fire_and_charge(steps, rules)))
            if any(actions[step].alone for step in steps):
                return
        used = {actions[step].action for step in steps}
        for action_id, action in actions.items():
            cost = rules.cost(action)
            if action.action in used or spent + cost > top:
                continue
            if action.alone and steps:
                continue
            extend(steps + (action_id,), spent + cost)

    extend((), 0)
    order = {action_id: i for i, action_id in enumerate(actions)}
    return sorted(found, key=lambda plan: (plan.cost, len(plan.steps), [order[step] for step in plan.steps]))


def fired(step: str, weapons: list, rules: Rules) -> list:
    """The weapons (each with `tags`) a Fire! step shoots: Short skips heavy weapons, Long fires them all."""
    skip = rules.action(step).fires_except
    return [weapon for weapon in weapons if not (skip and skip in weapon.tags)]


def for_unit(plans: list[Plan], weapons: list, rules: Rules) -> list[Plan]:
    """The plans open to a unit with these weapons (each with `tags`).

    A Fire! step needs at least one weapon it may shoot; a plan with Fire! and Charge! needs
    every weapon that Fire! shoots to carry the Assault tag (seed 003).
    """
    rule = rules.fire_and_charge
    out = []
    for plan in plans:
        ok = True
        for step in plan.steps:
            if rules.action(step).action == rule.fire:
                shot = fired(step, weapons, rules)
                if not shot:
                    ok = False
                elif plan.fire_and_charge and not all(rule.tag in weapon.tags for weapon in shot):
                    ok = False
        if ok:
            out.append(plan)
    return out
