"""A time control as a person gives it to configure a clock (a PGN tag, readable notation or
a preset's name): read and checked for plausibility, described per side, and which presets a
clock can be set to. The reading itself is the firmware's (clockcore.notation, plausible)."""

from collections.abc import Callable
from typing import Any, TextIO

from clockcore import notation, presets
from clockcore.control import DELAY_NAMES, MODE_NAMES, Control


def _side_dict(sc: Any) -> dict[str, Any]:
    return {
        "mode": MODE_NAMES[sc.mode],
        "stages": [{"time_ms": st.time_ms, "moves": st.moves, "inc_ms": st.inc_ms,
                    "delay_ms": st.delay_ms, "delay": DELAY_NAMES[st.delay_kind]}
                   for st in sc.stages],
        "byo_periods": sc.byo_periods, "byo_ms": sc.byo_ms, "byo_moves": sc.byo_moves,
    }


def _pgn_or_none(control: Control) -> str | None:
    try:
        return notation.format_pgn(control)
    except ValueError:
        return None


def configured(spec: str, pgn: bool = False, ask: Callable[[str], bool] | None = None
               ) -> tuple[str, Control, presets.Preset | None]:
    """(spec as the clock gets it, Control, Preset or None) for a control a person gives to
    configure a clock: a PGN reading no real event plays is refused (ValueError naming the
    likely meaning) unless `pgn` confirms it; then the spec goes out as "pgn:SPEC", so the
    clock, which checks the same (clockcore/plausible.py), takes it too.

    ask(question) -> bool, given on an interactive terminal: a spelling with two readings
    (90+30: 90 s + 30 s as PGN, or 90 min + 30 s) asks whether the likely one is meant; yes
    gives that one, spelled in readable notation; no keeps the refusal."""
    from clockcore import notation, plausible

    if pgn and not notation.pgn_prefixed(spec):
        spec = "pgn:" + spec.strip()
    try:
        control, preset = plausible.resolve(spec, "or add --pgn to mean the PGN")
    except ValueError:
        if ask is None:
            raise
        r = _likely(spec)
        if r is None or not ask("%s? [y/N] " % notation.describe(r[0])):
            raise
        return r[1], r[0], None
    return spec, control, preset


def _likely(spec: str) -> "tuple[Control, str] | None":
    """(Control, readable spelling) of what a refused PGN-shaped spec likely meant."""
    from clockcore import notation, plausible
    try:
        return plausible.likely(notation.parse(spec))
    except ValueError:
        return None


def terminal_ask(stdin: TextIO, stderr: TextIO) -> Callable[[str], bool] | None:
    """An ask() for configured() when stdin is an interactive terminal, else None: scripts
    keep the refusal with its hint."""
    if not (hasattr(stdin, "isatty") and stdin.isatty()):
        return None

    def ask(question: str) -> bool:
        stderr.write(question)
        stderr.flush()
        return stdin.readline().strip().lower() in ("y", "yes")
    return ask


def describe(control: Control, preset: presets.Preset | None = None) -> dict[str, Any]:
    d = {"readable": notation.format_readable(control), "pgn": _pgn_or_none(control),
         "white": _side_dict(control.white), "black": _side_dict(control.black)}
    if preset is not None:
        d["preset"] = preset.key
        d["title"] = preset.title
        d["source"] = preset.source
        d["options"] = {"freeze": preset.freeze, "stage_on_flag": preset.stage_on_flag,
                        "inc_at_turn_start": preset.inc_at_turn_start,
                        "audible_flag": preset.audible_flag,
                        "both_flags_draw": preset.both_flags_draw, "ledger": preset.ledger,
                        "move_limit": preset.move_limit}
    return d


def for_clock(preset: "presets.Preset") -> bool:
    """A preset a clock can be set to: not a correspondence ledger (days, `chessclock
    corr`), whose times are beyond what a clock counts."""
    return not preset.ledger
