"""The standing organisation of a WarSpike army: Units into Blocks into larger Blocks, checked and laid out as a tree."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...schema import Checker, suggest


@dataclass
class Node:
    """One Unit or Block of a side, with where it was declared and what it belongs to."""

    name: str
    kind: str  # "unit" or "block"
    side: int
    index: int
    data: dict
    parent: str | None = None
    children: list[str] = field(default_factory=list)

    @property
    def path(self) -> tuple:
        return ("sides", self.side, "units" if self.kind == "unit" else "blocks", self.index)


@dataclass
class Organisation:
    """Every Unit and Block by name, and each side's tree roots in printed order."""

    nodes: dict[str, Node]
    roots: list[list[str]]

    def units_of(self, side: int) -> list[Node]:
        return [n for n in self.nodes.values() if n.side == side and n.kind == "unit"]

    def held(self, name: str) -> tuple[bool, bool]:
        """(on hold, inherited from a Block): a Block's hold order covers every Unit within it."""
        node = self.nodes[name]
        if node.data.get("hold"):
            return True, False
        for parent in self.chain(name):
            if self.nodes[parent].data.get("hold"):
                return True, True
        return False, False

    def can_instigate(self, side: int) -> bool:
        """seed 002: "There must be at least one unit who can advance" for a side to be Instigator."""
        return any(not self.held(u.name)[0] for u in self.units_of(side))

    def chain(self, name: str) -> list[str]:
        """The Blocks a Unit or Block sits in, innermost first."""
        out = []
        parent = self.nodes[name].parent
        while parent is not None and parent not in out:
            out.append(parent)
            parent = self.nodes[parent].parent
        return out

    def units_within(self, name: str) -> list[Node]:
        node = self.nodes[name]
        if node.kind == "unit":
            return [node]
        return [u for child in node.children for u in self.units_within(child)]

    def leading_unit(self, name: str) -> Node:
        """The Unit a Block follows: its leader member, followed down to a Unit."""
        node = self.nodes[name]
        seen = set()
        while node.kind == "block" and node.name not in seen:
            seen.add(node.name)
            node = self.nodes[node.data.get("leader") or node.children[0]]
        return node


def organise(sides: list[dict], ck: Checker) -> Organisation:
    """Index every name, link Blocks to their members, and report every broken link at its spot."""
    nodes: dict[str, Node] = {}
    for s, side in enumerate(sides):
        for kind, key in (("unit", "units"), ("block", "blocks")):
            for i, item in enumerate(side[key]):
                node = Node(item["name"], kind, s, i, item)
                if node.name in nodes:
                    first = nodes[node.name]
                    ck.report(node.path + ("name",), f"two Units or Blocks are named {node.name!r} "
                              f"(the first in {sides[first.side]['name']!r}); each needs its own name")
                    continue
                nodes[node.name] = node
    for s, side in enumerate(sides):
        own = [n for n in nodes.values() if n.side == s]
        for b, block in enumerate(side["blocks"]):
            me = nodes.get(block["name"])
            if me is None or me.side != s or me.index != b or me.kind != "block":
                continue  # a duplicate name, already reported
            seen: set[str] = set()
            for m, member in enumerate(block["members"]):
                where = ("sides", s, "blocks", b, "members", m)
                if member in seen:
                    ck.report(where, f"Block {me.name!r} names {member!r} twice")
                    continue
                seen.add(member)
                target = nodes.get(member)
                if target is None:
                    ck.report(where, f"Block {me.name!r} names {member!r}, no Unit or Block of "
                              f"{side['name']!r}{suggest(member, [n.name for n in own])}")
                    continue
                if target.side != s:
                    ck.report(where, f"Block {me.name!r} of {side['name']!r} names {member!r}, a "
                              f"{'Unit' if target.kind == 'unit' else 'Block'} of {sides[target.side]['name']!r}; "
                              "a Block holds the Units of one side only")
                    continue
                if target.parent is not None:
                    what = "Unit" if target.kind == "unit" else "Block"
                    ck.report(where, f"{what} {member!r} is already in Block {target.parent!r}; a {what} belongs "
                              "to one Block (put the whole smaller Block in the larger one instead)")
                    continue
                target.parent = me.name
                me.children.append(member)
            leader = block.get("leader")
            if leader is not None and leader not in block["members"]:
                ck.report(("sides", s, "blocks", b, "leader"), f"Block {me.name!r} follows {leader!r}, which is not "
                          f"one of its members{suggest(leader, block['members'])}")
    _report_cycles(nodes, sides, ck)
    roots = []
    for s in range(len(sides)):
        blocks = [n.name for n in nodes.values() if n.side == s and n.kind == "block" and n.parent is None]
        units = [n.name for n in nodes.values() if n.side == s and n.kind == "unit" and n.parent is None]
        roots.append(blocks + units)
    return Organisation(nodes, roots)


def _report_cycles(nodes: dict[str, Node], sides: list[dict], ck: Checker) -> None:
    """A Block nested in itself, directly or through other Blocks, is reported once at the member closing the loop."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        node = nodes[name]
        for child in list(node.children):
            if nodes[child].kind != "block":
                continue
            if state.get(child) == 1:
                loop = path[path.index(child):] + [name, child] if child in path else [name, child]
                m = node.data["members"].index(child)
                ck.report(("sides", node.side, "blocks", node.index, "members", m),
                          f"Block {child!r} is nested in itself: {' > '.join(loop)}")
                node.children.remove(child)  # break the loop so the tree can still be walked
            elif state.get(child) is None:
                visit(child, path + [name])
        state[name] = 2

    for name, node in nodes.items():
        if node.kind == "block" and state.get(name) is None:
            visit(name, [])


def tree_rows(org: Organisation, side: int) -> list[dict]:
    """The side's Blocks and Units in tree order, each with its depth and the guide lines drawn to its left.

    guides[i] is "v" (a line passes), "t" (a branch to this row, more below), "l" (the last
    branch) or "" (nothing), one per level above the row: plain data the template turns into cells.
    """
    rows: list[dict] = []

    def walk(name: str, depth: int, open_levels: list[bool], last: bool) -> None:
        guides = ["v" if still else "" for still in open_levels[:-1]] if depth else []
        if depth:
            guides.append("l" if last else "t")
        rows.append({"name": name, "depth": depth, "guides": guides})
        children = org.nodes[name].children
        for i, child in enumerate(children):
            is_last = i == len(children) - 1
            walk(child, depth + 1, open_levels + [not is_last], is_last)

    for name in org.roots[side]:
        walk(name, 0, [], True)
    return rows
