"""The rules behind `chessclock rounds`: the schedule rules of the seeds' rapid events and a
round's length.

    chessclock rounds check --rules act1987|rap1990 --posted "YYYY-MM-DD HH:MM"
                            --start "YYYY-MM-DD HH:MM" [--start ...]
    chessclock rounds estimate --control SPEC [--moves N]

check: the rules are handed out or posted at least 30 minutes before the event starts
(ACT 23, RAP 19), and an Active event plays at most 6 rounds a day (ACT 24; the 5-minute
rules set no limit). Each --start is a round's start, local time as the organisers write it.
estimate: how long a round lasts at most when every game uses all its time: each side's
time for N moves (the stages reached, and N increments), both sides together; S3 lets the
organisers set the game's duration from the entrants and the boards (S3, last items).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from chessclock import timetext as T
from chessclock.errors import InputError

POST_BEFORE = dt.timedelta(minutes=30)     # ACT 23, RAP 19: «almenys mitja hora abans»
ACTIVE_ROUNDS_A_DAY = 6                    # ACT 24: «no més de 6 rondes diaries»
RULES = {"act1987": ("ACT 23", "ACT 24"), "rap1990": ("RAP 19", None)}


class RoundsError(InputError):
    pass


def parse_when(text: str, name: str) -> dt.datetime:
    try:
        return dt.datetime.strptime(" ".join(text.split()), "%Y-%m-%d %H:%M")
    except ValueError:
        raise RoundsError("%s %r: write \"YYYY-MM-DD HH:MM\"" % (name, text[:30])) from None


def check(rules: str, posted: dt.datetime, starts: list[dt.datetime]) -> dict[str, Any]:
    post_art, day_art = RULES[rules]
    first = min(starts)
    ahead = first - posted
    ok_posted = ahead >= POST_BEFORE
    lines = ["rules posted %s, the event starts %s: %s before (%s: at least 30 min): %s"
             % (posted.strftime("%Y-%m-%d %H:%M"), first.strftime("%Y-%m-%d %H:%M"),
                _span(ahead), post_art, "in time" if ok_posted else "too late")]
    per_day: dict[str, int] = {}
    for s in starts:
        per_day[s.date().isoformat()] = per_day.get(s.date().isoformat(), 0) + 1
    over = sorted(d for d, n in per_day.items() if n > ACTIVE_ROUNDS_A_DAY)
    if day_art is None:
        lines.append("rounds a day: %s (the 5-minute rules set no limit)"
                     % ", ".join("%s %d" % kv for kv in sorted(per_day.items())))
        ok_days = True
    else:
        ok_days = not over
        lines.append("rounds a day: %s (%s: at most %d)%s" % (
            ", ".join("%s %d" % kv for kv in sorted(per_day.items())), day_art,
            ACTIVE_ROUNDS_A_DAY, ": too many on " + ", ".join(over) if over else ""))
    return {"rules": rules, "posted_in_time": ok_posted, "rounds_a_day": per_day,
            "days_over": over, "ok": ok_posted and ok_days, "lines": lines,
            "articles": [a for a in (post_art, day_art) if a]}


def _span(d: dt.timedelta) -> str:
    minutes = int(d.total_seconds() // 60)
    return ("%d min" % minutes) if minutes >= 0 else ("%d min after" % -minutes)


def side_time_ms(side: Any, moves: int) -> int:
    """What a side can spend on `moves` moves: the stages it reaches and its increments (a
    last stage with a move count repeats)."""
    total, done, i = 0, 0, 0
    stages = side.stages
    while done < moves:
        st = stages[min(i, len(stages) - 1)]
        total += st.time_ms
        n = st.moves if st.moves else moves - done
        n = min(n, moves - done)
        total += n * st.inc_ms
        done += n
        i += 1
        if not st.moves:
            break
    return total


def estimate(spec: str, moves: int) -> dict[str, Any]:
    from clockcore import presets

    try:
        control, _ = presets.resolve(spec)
        control.validate()
    except ValueError as e:
        raise RoundsError("--control %r: %s" % (spec, e)) from None
    each = [side_time_ms(control.side(i), moves) for i in (0, 1)]
    total = sum(each)
    lines = ["%s, %d moves each: White %s, Black %s; the round lasts at most %s when every "
             "game uses all its time (2 x base + the moves' increments, delays not counted)"
             % (spec, moves, T.clock_text(each[0], hours=True),
                T.clock_text(each[1], hours=True), T.clock_text(total, hours=True))]
    return {"control": spec, "moves": moves, "white_ms": each[0], "black_ms": each[1],
            "round_ms": total, "lines": lines, "articles": ["S3"]}

