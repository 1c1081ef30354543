# The bodies of the event log's rarer records (clockcore/eventlog.py has the format): a
# restoring boot's snapshot, an adjourned game's added stages, a pairing, an arbiter's
# ground. Loaded by the first such record, so that a game that never writes one does not
# carry them. Portable: MicroPython and CPython.

from clockcore.control import stage_ints
from clockcore.eventlog import _put_str, put_varint


def snapshot_body(clock):
    """A restored clock's state (boot arg 1): what the replay takes over after a cut."""
    c = clock
    vals = [c.state, c.turn, c.stage_cause, c.flag_order[0], c.flag_order[1], c.turn_used,
            c.delay_left, c.last, c.undo_side, c.undo_gain, c.undo_moves, c.undo_stage,
            c.undo_stage_moves, c.undo_period_moves]
    for s in (0, 1):
        vals += [c.moves[s], c.stage[s], c.stage_moves[s], c.periods[s], c.period_moves[s],
                 c.flag_at[s], c.overrun[s]]
    vals += [c.undo_opp_gain, 1 if c.out[0] else 0, 1 if c.out[1] else 0]
    buf = bytearray(10 * len(vals))
    p = 0
    for v in vals:
        p = put_varint(buf, p, v)
    return bytes(buf[:p])


def pairing_body(rnd, white, black, event):
    """The bytes of a pairing record (62) after its arg (the board): the round, then the
    names of White, Black and the event, UTF-8 (logread.Reader decodes them)."""
    buf = bytearray(16 + 4 * (len(white) + len(black) + len(event)))
    n = put_varint(buf, 0, rnd)
    for s in (white, black, event):
        n = _put_str(buf, n, s)
    return bytes(buf[:n])


def ground_body(reason, article):
    """The body of a correction whose reason is R_GROUND: the arbiter's reason and the rule's
    article (text, each at most events.GROUND_MAX bytes of UTF-8), as logread.Reader decodes
    them."""
    buf = bytearray(8 + 4 * (len(reason) + len(article)))
    n = _put_str(buf, 0, reason)
    n = _put_str(buf, n, article)
    return bytes(buf[:n])


def added_stages_body(clock):
    """After an adjourned game's snapshot (51): per side, the stages an arbiter added to
    its control (count, then time_ms, moves, inc_ms, delay_ms, delay_kind each)."""
    vals = []
    for s in (0, 1):
        extra = clock.stages[s][len(clock.sides[s].stages):]
        vals.append(len(extra))
        for st in extra:
            vals += stage_ints(st)
    buf = bytearray(10 * len(vals))
    p = 0
    for v in vals:
        p = put_varint(buf, p, v)
    return bytes(buf[:p])
