"""Properties of the correspondence ledger over random games: every calendar day of a game is
either counted for a side or not counted for a stated reason, and what a side is charged is
exactly its counted days plus doubling and fines."""

import datetime as dt

from corrbook import Book
from hypothesis import event, given, settings
from hypothesis import strategies as st

from chessclock.corr.model import SIDES, budget

moves_st = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 20), st.booleans(),
                              st.booleans(), st.integers(0, 14)), min_size=1, max_size=24)
leave_st = st.lists(st.tuples(st.sampled_from(["Ana", "Bruno"]), st.integers(0, 150),
                              st.integers(0, 9)), max_size=3)


@settings(max_examples=150, deadline=None)
@given(start=st.integers(0, 120), moves=moves_st, leaves=leave_st, tail=st.integers(0, 40),
       theme=st.sampled_from([0, 3]), claims=st.sampled_from([None, "white", "black"]),
       decide=st.integers(0, 30), early=st.integers(0, 5), end=st.integers(0, 300))
def test_days_charged_and_not_counted_add_up_to_the_calendar(start, moves, leaves, tail, theme,
                                                             claims, decide, early, end):
    # Starts from October to January, so that many games cross the recess and New Year.
    t0 = dt.date(2026, 10, 1) + dt.timedelta(days=start)
    b = Book(str(t0), end=str(t0 + dt.timedelta(days=end)) if end else None,
             theme="1.e4 c5 2.Nf3" if theme else "", theme_plies=theme).game()
    for who, off, length in leaves:
        first = t0 + dt.timedelta(days=off)
        try:
            b.add("leave", None, {"player": who, "start": str(first),
                                  "end": str(first + dt.timedelta(days=length))})
        except Exception as e:   # overlapping or over the allowance: refused, fine
            assert "leave" in str(e)
    t, ply = t0, theme + 1
    for i, (transit, think, give_received, notice, fine) in enumerate(moves):
        # The first game may start before the official start (Art. 12 §1).
        received = t + dt.timedelta(days=transit) if i else t - dt.timedelta(days=early)
        if notice:
            b.add("notice", "g", {"ply": ply,
                                  "date": str(max(received, t0) + dt.timedelta(days=1))})
        sent = received + dt.timedelta(days=think)
        b.add("move", "g", {"ply": ply, "san": "", "sent": str(sent),
                            "received": str(received) if give_received or not i else None})
        if fine > 10:
            b.add("fine", "g", {"ply": ply, "reason": "illegal", "date": str(sent)})
        t, ply = sent, ply + 1
    if claims:   # two claims: the second may halt the game (Art. 20) and be decided
        b.add("claim", "g", {"by": claims, "date": str(t)})
        b.add("claim", "g", {"by": claims, "date": str(t)})
        if decide:
            b.today = max(b.today, t + dt.timedelta(days=decide))
            b.add("decide", "g", {"claim": 2, "date": str(t + dt.timedelta(days=decide)),
                                  "upheld": decide % 2 == 0})
    g = b.ledger(today=t + dt.timedelta(days=tail))
    first = g.moves[0].received
    # The game runs to today, or to its last move once it is over (a second excess lost).
    last = g.moves[-1].sent if g.pending is None else max(g.moves[-1].sent, g.today)
    for side in (0, 1):
        counted, not_counted = g.calendar_days(side)
        for reason in not_counted:
            event(reason)   # `pytest --hypothesis-show-statistics` shows what was covered
        assert all(v >= 0 for v in not_counted.values()), not_counted
        assert counted + sum(not_counted.values()) == (last - first).days
    charged = [0, 0]
    for m in g.moves:
        assert m.charged == m.counted + m.doubled + sum(f for f, _ in m.fines)
        assert m.counted + sum(m.cats.values()) == (m.sent - m.received).days
        assert m.doubled == (0 if m.notice_ok else max(0, m.counted - 12))
        charged[m.side] += m.charged
        assert m.excess == (m.count_cum > budget(g.ev.stages, m.count_move))
    assert charged == g.totals
    # Both sides together: each day is counted for at most one of them.
    both = [set(), set()]
    for m in g.moves:
        both[m.side].update(m.counted_dates)
    assert not both[0] & both[1]
    assert {SIDES[s]: g.totals[s] for s in (0, 1)} == g.as_dict()["totals"]
