"""Tracing a wiring file: its nets from MCU pin to part pin through the cables (used by
the model and, independent of the generator, by the check)."""

from typing import Any

from chessclock.errors import InputError


class WiringError(InputError):
    pass


def _resolve(connectors: dict[str, Any], designator: str, ref: Any) -> Any:
    c = connectors.get(designator)
    if c is None:
        raise WiringError("connection names %r, which is not a connector" % designator)
    pins = c.get("pins") or list(range(1, len(c.get("pinlabels", [])) + 1))
    if ref in pins:
        return ref
    labels = c.get("pinlabels") or []
    if ref in labels:
        return pins[labels.index(ref)]
    raise WiringError("%s has no pin %r" % (designator, ref))


def trace_nets(connectors: dict[str, Any], connections: list[Any]) -> list[Any]:
    """Union-find over (connector, pin) through the cables: the nets, named by MCU label."""
    parent = {}

    def find(x: Any) -> Any:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, cs in enumerate(connections):
        ends = [e for e in cs if isinstance(e, dict) and next(iter(e)) in connectors]
        if len(cs) != 3 or len(ends) != 2:
            raise WiringError("connection %d: expected [connector, cable, connector]" % (i + 1))
        (a, ap), (b, bp) = (next(iter(e.items())) for e in ends)
        if len(ap) != len(bp):
            raise WiringError("connection %d: %d pins against %d" % (i + 1, len(ap), len(bp)))
        for x, y in zip(ap, bp, strict=True):
            ra, rb = find((a, _resolve(connectors, a, x))), find((b, _resolve(connectors, b, y)))
            parent[ra] = rb
    groups = {}
    for node in list(parent):
        groups.setdefault(find(node), []).append(node)
    out = []
    mcu = connectors.get("MCU") or {}
    labels = dict(zip(mcu.get("pins", []), mcu.get("pinlabels", []), strict=False))
    for members in groups.values():
        members.sort(key=lambda n: (n[0] != "MCU", n[0], str(n[1])))
        names = sorted({labels.get(p, str(p)) for d, p in members if d == "MCU"})
        out.append(("/".join(names) or "%s.%s" % members[0], members))
    out.sort(key=lambda n: n[0])
    return out
