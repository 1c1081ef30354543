"""Worked examples of the CXEB e-mail rules (seed 000), days computed by hand in comments.

Convention (docs/CORRESPONDENCE.md): a move's days are those after the day its predecessor
arrived, up to and including the day it is sent.
"""

import datetime as dt

import pytest
from corrbook import Book, D

from chessclock.corr.dates import Calendar, CorrError
from chessclock.corr.exchange import email_text, pgn
from chessclock.corr.model import budget, series_stages
from chessclock.corr.package import claim_file, package
from chessclock.corr.reminders import game_items


@pytest.mark.seed("CXEB Art. 12", item="11.2")
@pytest.mark.seed("CXEB Art. 16", item="11.4")
def test_series_come_from_the_clock_stage_model():
    # preset cxeb-correspondence: Stage(40 days, 10 moves), repeating (Art. 12, 16)
    st = series_stages()
    assert st == [(40, 10)]
    assert [budget(st, n) for n in (1, 10, 11, 20, 21, 30, 31)] == [40, 40, 80, 80, 120, 120, 160]


@pytest.mark.seed("CXEB Art. 12", item="11.2")
@pytest.mark.seed("CXEB Art. 12 §1", item="11.3")
def test_art12_days_transit_and_official_start():
    # Start 2026-03-02 (Art. 12 §1). White had the pairing on 25 Feb and sends 1.e4 on 4 Mar:
    # days 26 Feb..4 Mar = 7, but only 3 and 4 Mar are after the start: 2 counted, 5 not.
    b = Book("2026-03-02").game()
    b.move("1", "2026-03-04", "2026-02-25", "e4")
    # Black receives on 5 Mar (transit 1, accepted), answers 9 Mar: 6,7,8,9 = 4 days.
    b.move("1...", "2026-03-09", "2026-03-05", "c5")
    # White receives on 12 Mar (transit 3: over 1 day, to be reported), answers on 13 Mar.
    b.move("2", "2026-03-13", "2026-03-12", "Nf3")
    g = b.ledger(today=D("2026-03-13"))
    m1, m2, m3 = g.moves
    assert (m1.counted, m1.cats) == (2, {"before_start": 5})
    assert (m2.transit, m2.counted, m2.charged) == (1, 4, 4)
    assert (m3.transit, m3.counted) == (3, 1)
    assert m3.as_dict()["transit_reported"] and not m2.as_dict()["transit_reported"]
    assert g.totals == [3, 4]


@pytest.mark.seed("CXEB Art. 12 §3", item="11.3")
def test_art12_par3_thematic_series_start_after_the_theme():
    # Theme 1.e4 c5 2.Nf3 (3 plies): the first move played is Black's 2nd, and it is the
    # first move of Black's first series.
    b = Book("2026-03-02", theme="1.e4 c5 2.Nf3", theme_plies=3).game()
    with pytest.raises(CorrError, match="next move to record is 2..."):
        b.move("1", "2026-03-03")
    b.move("2...", "2026-03-05", san="d6")   # received at the start: 3,4,5 Mar = 3 days
    b.move("3", "2026-03-06", "2026-03-05", "d4")
    g = b.ledger(today=D("2026-03-06"))
    assert (g.moves[0].charged, g.moves[0].count_move) == (3, 1)
    assert (g.moves[1].charged, g.moves[1].count_move) == (1, 1)
    assert "1.e4 c5 2.Nf3 2... d6" in pgn(g)


@pytest.mark.seed("CXEB Art. 12 §2", item="11.4")
@pytest.mark.seed("CXEB Art. 16", item="11.4")
@pytest.mark.seed("CXEB Art. 19", item="11.9")
def test_art12_par2_art16_carry_over_across_three_series():
    # White: moves 1-10 at 3 days (30, 10 carried), 11-19 at 4 and 20 at 9 (45 in the series,
    # 40 + 10 carried: 75 <= 80), 21-29 at 4 and 30 at 9 (45: 120 <= 120, "more than" 120 is
    # the excess, so none). Black answers the day he receives.
    days = [3] * 10 + [4] * 9 + [9] + [4] * 9 + [9]
    g = Book("2026-02-02").game().play(days, [0] * 30, "2026-02-02").ledger(today=D("2026-06-02"))
    white = [m for m in g.moves if m.side == 0]
    assert [(m.count_cum, m.budget) for m in white[9::10]] == [(30, 40), (75, 80), (120, 120)]
    assert not g.excesses[0]
    # One more day on move 30: 121 > 120, the first excess (Art. 16), and White's next move
    # starts a new count of 10 moves (Art. 19).
    days[-1] = 10
    b = Book("2026-02-02").game().play(days, [0] * 30, "2026-02-02")
    b.move("31", "2026-06-04", "2026-06-03")
    g = b.ledger(today=D("2026-06-04"))
    assert [m.label for m in g.excesses[0]] == ["30"]
    assert (g.moves[-1].count_no, g.moves[-1].count_move, g.moves[-1].count_cum) == (2, 1, 1)


@pytest.mark.seed("CXEB Art. 13", item="11.5")
def test_art13_days_after_the_12th_count_double_without_notice():
    # Received 1 Apr, sent 16 Apr: 15 days; the 13th-15th count twice: 12 + 3*2 = 18.
    b = Book("2026-04-01").game()
    b.move("1", "2026-04-16", san="d4")
    assert (b.ledger().moves[0].doubled, b.ledger().moves[0].charged) == (3, 18)
    # Announced on the 12th day (13 Apr): 15 days.
    b = Book("2026-04-01").game()
    b.add("notice", "g", {"ply": 1, "date": "2026-04-13"})
    b.move("1", "2026-04-16")
    assert b.ledger().moves[0].charged == 15
    # Announced on the 13th day: too late, still 18.
    b = Book("2026-04-01").game()
    b.add("notice", "g", {"ply": 1, "date": "2026-04-14"})
    b.move("1", "2026-04-16")
    assert b.ledger().moves[0].charged == 18


@pytest.mark.seed("CXEB Art. 7-8", item="11.6")
def test_art7_art8_fines():
    b = Book("2026-04-01").game().play([1, 1, 1], [2, 1, 1], "2026-04-01")
    # Black's 1... was impossible: +5 to Black (Art. 7); repeated on the same move: +10 (§1).
    b.add("fine", "g", {"ply": 2, "reason": "impossible", "date": "2026-04-04"})
    b.add("fine", "g", {"ply": 2, "reason": "impossible", "date": "2026-04-05"})
    # A conditional move (§3) or one not pointed out at once (§2): no fine.
    b.add("fine", "g", {"ply": 3, "reason": "illegal", "date": "2026-04-05",
                        "conditional": True})
    b.add("fine", "g", {"ply": 3, "reason": "illegal", "date": "2026-04-05", "late": True})
    g = b.ledger()
    assert [f for f, _ in g.moves[1].fines] == [5, 10]
    assert g.moves[1].charged == 2 + 15 and [f for f, _ in g.moves[2].fines] == [0, 0]
    # Art. 8: not pointed out, the game restarts from that move, both fined: White's 2
    # (ply 3) +5 to White and +5 to Black's reply 2... .
    b.add("fine", "g", {"ply": 3, "reason": "invalid", "date": "2026-04-06", "both": True})
    b.add("void", "g", {"from_ply": 5, "date": "2026-04-06", "reason": "Art. 8"})
    g = b.ledger()
    assert [f for f, _ in g.moves[2].fines][-1] == 5 and [f for f, _ in g.moves[3].fines] == [5]


@pytest.mark.seed("CXEB Art. 14", item="11.7")
def test_art14_average_transit_sets_a_missing_receipt_date():
    # Transits 1, 2, 2 (given): mean 5/3 rounds to 2. White's next move gives no receipt
    # date: Black's 2... sent 10 Apr is taken as received 12 Apr.
    b = Book("2026-04-01").game()
    b.move("1", "2026-04-02")
    b.move("1...", "2026-04-04", "2026-04-03")       # transit 1
    b.move("2", "2026-04-08", "2026-04-06")          # transit 2
    b.move("2...", "2026-04-10", "2026-04-10")       # transit 2
    b.move("3", "2026-04-15")                        # received: 10 Apr + 2 = 12 Apr
    m = b.ledger().moves[-1]
    assert (str(m.received), m.estimated, m.counted) == ("2026-04-12", True, 3)


@pytest.mark.seed("CXEB Art. 28-30", item="11.10")
def test_art28_30_split_leave_stops_only_the_player_on_leave():
    b = Book("2026-03-02").game()
    b.add("leave", None, {"player": "Ana", "start": "2026-04-01", "end": "2026-04-10",
                          "notified": "2026-03-30"})
    b.add("leave", None, {"player": "Ana", "start": "2026-05-01", "end": "2026-05-20",
                          "notified": "2026-04-30"})
    # Ana: received 28 Mar, sent 15 Apr: 18 days, 10 of leave, 8 counted.
    b.move("1", "2026-04-15", "2026-03-28")
    # Bruno answers during Ana's second leave: all 9 days (2..10 May) are his (Art. 29 §).
    b.move("1...", "2026-05-10", "2026-05-01")
    # Ana receives 1... on 11 May, during her leave, and answers on 15 May: no day counts
    # and the leave goes on (Art. 30).
    b.move("2", "2026-05-15", "2026-05-11")
    g = b.ledger()
    assert (g.moves[0].counted, g.moves[0].cats) == (8, {"leave": 10})
    assert (g.moves[1].counted, g.moves[1].cats) == (9, {})
    assert (g.moves[2].counted, g.moves[2].cats) == (0, {"leave": 4})
    # The 30 normal days are used: one more normal day is refused (Art. 28) ...
    with pytest.raises(CorrError, match="31 days of leave"):
        b.add("leave", None, {"player": "Ana", "start": "2026-06-01", "end": "2026-06-01"})
    # ... a special leave (Art. 28 §2) is granted once, up to 30 days.
    b.add("leave", None, {"player": "Ana", "start": "2026-06-01", "end": "2026-06-15",
                          "kind": "special"})
    with pytest.raises(CorrError, match="only one special"):
        b.add("leave", None, {"player": "Ana", "start": "2026-07-01", "end": "2026-07-02",
                              "kind": "special"})


@pytest.mark.seed("CXEB Art. 29", item="11.10")
def test_art29_leave_notified_late_counts_from_the_notice():
    b = Book("2026-03-02").game()
    b.add("leave", None, {"player": "Ana", "start": "2026-04-01", "end": "2026-04-10",
                          "notified": "2026-04-05"})
    b.move("1", "2026-04-15", "2026-03-28")   # 18 days, leave 5..10 Apr = 6 days
    assert b.ledger().moves[0].counted == 12

@pytest.mark.seed("CXEB Art. 28 §3", item="11.10")
@pytest.mark.seed("CXEB Art. 29", item="11.10")
def test_art28_par3_a_special_leave_granted_retroactively_counts_from_its_start():
    # Ana's 30 normal days (1-30 Apr) are used. A special leave of 1-10 Jun notified on
    # 5 Jun stops her time from the notice (Art. 29): of her move received 28 May and sent
    # 15 Jun (18 days), 5-10 Jun = 6 are leave and 12 are counted.
    def book(retroactive):
        b = Book("2026-03-02").game()
        b.add("leave", None, {"player": "Ana", "start": "2026-04-01", "end": "2026-04-30",
                              "notified": "2026-03-30"})
        b.add("leave", None, {"player": "Ana", "start": "2026-06-01", "end": "2026-06-10",
                              "kind": "special", "notified": "2026-06-05",
                              "retroactive": retroactive})
        return b.move("1", "2026-06-15", "2026-05-28")
    m = book(False).ledger().moves[0]
    assert (m.counted, m.cats) == (12, {"leave": 6})
    # Granted retroactively for force majeure (Art. 28 §3): all of 1-10 Jun, 8 counted.
    m = book(True).ledger().moves[0]
    assert (m.counted, m.cats) == (8, {"leave": 10})
    # Only the special leave can be retroactive.
    b = Book("2026-03-02").game()
    with pytest.raises(CorrError, match="only the special leave can be retroactive"):
        b.add("leave", None, {"player": "Ana", "start": "2026-04-01", "end": "2026-04-05",
                              "notified": "2026-04-03", "retroactive": True})


@pytest.mark.seed("CXEB Art. 15 §6", item="11.8")
@pytest.mark.seed("CXEB Art. 25", item="11.12")
def test_art15_par6_art25_an_outage_comes_out_of_leave():
    # Ana's e-mail is down 1-20 Apr (20 days, reported to the director): her move received
    # 28 Mar and sent 25 Apr covers 28 days, 20 of them the outage, 8 counted.
    b = Book("2026-03-02").game()
    b.add("leave", None, {"player": "Ana", "start": "2026-04-01", "end": "2026-04-20",
                          "kind": "outage", "notified": "2026-04-01"})
    b.move("1", "2026-04-25", "2026-03-28")
    m = b.ledger().moves[0]
    assert (m.counted, m.cats) == (8, {"leave": 20})
    # The outage used 20 of her 30 days of leave: 10 more normal days are granted ...
    b.add("leave", None, {"player": "Ana", "start": "2026-05-01", "end": "2026-05-10"})
    # ... and an outage beyond them is refused: past 30 days beyond leave she is eliminated.
    with pytest.raises(CorrError, match=r"31 days of leave.*eliminates the player \(Art. 25\)"):
        b.add("leave", None, {"player": "Ana", "start": "2026-06-01", "end": "2026-06-01",
                              "kind": "outage"})



@pytest.mark.seed("CXEB comment on Art. 12", item="11.11")
def test_recess_spans_new_year_until_the_first_working_day():
    # 1 Jan 2027 is a Friday (holiday), 2-3 Jan a weekend: work resumes Monday 4 Jan.
    cal = Calendar()
    assert cal.first_working_day(2027) == D("2027-01-04")
    # Received 10 Dec, sent 6 Jan: 27 days; 15 Dec..3 Jan = 20 in the recess; 11-14 Dec and
    # 4-6 Jan = 7 counted.
    b = Book("2026-12-01").game()
    b.move("1", "2027-01-06", "2026-12-10")
    m = b.ledger().moves[0]
    assert (m.counted, m.cats) == (7, {"recess": 20})
    # The director gives 4 Jan as a holiday: the recess lasts to 4 Jan, 6 counted.
    b = Book("2026-12-01", holidays=["2027-01-04"]).game()
    b.move("1", "2027-01-06", "2026-12-10")
    assert b.ledger().moves[0].counted == 6
    # Deadlines stop too: 15 days from 10 Dec are 11-14 Dec and 4-14 Jan.
    assert cal.add_days(D("2026-12-10"), 15) == D("2027-01-14")


def _two_excesses():
    # Black's 1... takes 41 days (announced, Art. 13): 41 > 40, first excess. His new count
    # starts at 2... (Art. 19), which takes 41 days again: second excess.
    b = Book("2026-01-05").game()
    b.move("1", "2026-01-06")
    b.add("notice", "g", {"ply": 2, "date": "2026-01-10"})
    b.move("1...", "2026-02-16", "2026-01-06")
    b.move("2", "2026-02-17", "2026-02-16")
    b.add("notice", "g", {"ply": 4, "date": "2026-02-20"})
    b.move("2...", "2026-03-30", "2026-02-17")
    return b


@pytest.mark.seed("CXEB Art. 17-22", item="11.9")
def test_art17_22_second_excess_ends_the_game():
    b = _two_excesses()
    g = b.ledger(today=D("2026-03-30"))
    assert [(m.label, m.count_no, m.count_cum) for m in g.excesses[1]] == [
        ("1...", 1, 41), ("2...", 2, 41)]
    # Claim 1 (White, 17 Feb): first excess, play goes on; uncontested for 15 days it stands.
    b.add("claim", "g", {"by": "white", "date": "2026-02-17"})
    b.move("3", "2026-03-31", "2026-03-30")
    # Claim 2 (White, 31 Mar): second excess, the game stops (Art. 20).
    b.add("claim", "g", {"by": "white", "date": "2026-03-31"})
    g = b.ledger(today=D("2026-04-10"))
    assert [c["state"] for c in g.claims] == ["upheld", "open"]
    assert g.claims[1]["ordinal"] == 2 and g.claims[1]["contest_by"] == "2026-04-15"
    assert g.state().startswith("halted")
    with pytest.raises(CorrError, match="halted"):
        b.add("move", "g", {"ply": 6, "san": "", "sent": "2026-04-05", "received": None})
    assert "second excess" in claim_file(g, 2) and "3...?" not in claim_file(g, 2)
    # Not contested within 15 days (Art. 21 §1): Black loses.
    g = b.ledger(today=D("2026-04-16"))
    assert g.state() == "black lost on time (second excess, Art. 22)"
    with pytest.raises(CorrError, match="lost on time"):
        b.add("move", "g", {"ply": 6, "san": "", "sent": "2026-04-16", "received": None})


@pytest.mark.seed("CXEB Art. 21-22", item="11.9")
def test_art21_22_contested_and_unfounded_costs_the_claimant_ten_days():
    b = _two_excesses()
    b.add("claim", "g", {"by": "white", "date": "2026-02-17"})
    b.move("3", "2026-03-31", "2026-03-30")
    b.add("claim", "g", {"by": "white", "date": "2026-03-31"})
    with pytest.raises(CorrError, match="up to 2026-04-15"):
        b.add("contest", "g", {"claim": 2, "date": "2026-04-16"})
    b.add("contest", "g", {"claim": 2, "date": "2026-04-10"})
    g = b.ledger(today=D("2026-04-20"))
    assert g.claims[1]["state"] == "contested" and g.claims[1]["decide_by"] == "2026-04-25"
    b.add("decide", "g", {"claim": 2, "date": "2026-04-20", "upheld": False})
    g = b.ledger(today=D("2026-04-20"))
    assert g.claims[1]["state"] == "dismissed" and g.state() == "in play"
    # Black had White's 3 on 1 Apr; the game stood halted from 1 to 20 Apr (Art. 20), so
    # of 2-21 Apr only 21 Apr counts for his 3... .
    b.move("3...", "2026-04-21", "2026-04-01")
    g = b.ledger(today=D("2026-04-21"))
    assert (g.moves[-1].counted, g.moves[-1].cats) == (1, {"halted": 19})
    # The 10 days go to White's next move (Art. 22 §1): Black was to move, so 4. carries them.
    b.move("4", "2026-04-22", "2026-04-22")
    g = b.ledger(today=D("2026-04-22"))
    assert g.moves[-1].fines == [(10, "unfounded excess claim (Art. 22 §1)")]


@pytest.mark.seed("CXEB Art. 22 §2", item="11.9")
def test_art22_par2_the_claimant_moving_withdraws_the_claim():
    b = _two_excesses()
    b.add("claim", "g", {"by": "white", "date": "2026-02-17"})
    b.add("claim", "g", {"by": "white", "date": "2026-03-31"})
    b.move("3", "2026-04-02", "2026-03-30")
    g = b.ledger(today=D("2026-04-03"))
    assert g.claims[1]["state"] == "cancelled" and g.state() == "in play"


@pytest.mark.seed("CXEB Art. 17-18", item="11.9")
def test_art18_a_late_claim_is_archived():
    # Black's excess at 1... (count move 1); the claim is due at the latest with White's
    # reply to Black's 10th move of that series. Here Black's new count starts at 2..., so
    # White's reply to 10... is 11 (ply 21).
    b = Book("2026-01-05").game()
    b.move("1", "2026-01-06")
    b.add("notice", "g", {"ply": 2, "date": "2026-01-10"})
    b.move("1...", "2026-02-16", "2026-01-06")
    t = D("2026-02-16")
    for n in range(2, 12):   # every move sent the day it arrives, a day's transit
        b.move(str(n), str(t), str(t))
        t += dt.timedelta(days=1)
        if n < 11:
            b.move("%d..." % n, str(t), str(t))
            t += dt.timedelta(days=1)
    # White's 11 went on 16 Feb + 18 days = 6 Mar: a claim on 10 Mar is late.
    b.add("claim", "g", {"by": "white", "date": "2026-03-10"})
    g = b.ledger(today=D("2026-03-10"))
    assert g.claims[0]["due_by"] == "2026-03-06" and g.claims[0]["state"] == "archived"


@pytest.mark.seed("CXEB Art. 15", item="11.8")
@pytest.mark.seed("CXEB Art. 12", item="11.2")
def test_art15_reminder_schedule():
    b = Book("2026-04-28").game()
    b.move("1", "2026-05-01")
    whats = lambda day: [(i["who"], i["what"].split()[0], i["due"], i["art"])  # noqa: E731
                         for i in game_items(b.ledger(today=D(day)))]
    assert whats("2026-05-05") == []
    assert whats("2026-05-06") == [("Ana", "resend", "2026-05-06", "Art. 15")]
    assert whats("2026-05-16") == [("Ana", "reiterate", "2026-05-16", "Art. 15")]
    assert whats("2026-06-26") == [("both", "no", "2026-06-25", "Art. 15 §4")]
    b.add("remind", "g", {"ply": 1, "kind": "reiterate", "date": "2026-05-16"})
    assert whats("2026-05-23") == [("Bruno", "answer", "2026-05-23", "Art. 15 §2")]
    assert whats("2026-05-24") == [("Ana", "Bruno", "2026-05-24", "Art. 15 §3")]
    # Bruno confirms on 26 May a move sent on 1 May: 25 days in transit, to be reported.
    b.add("ack", "g", {"ply": 1, "received": "2026-05-26"})
    assert whats("2026-05-26") == [("Bruno", "report", "2026-05-26", "Art. 12")]


@pytest.mark.seed("CXEB Art. 3 II-III", item="11.1")
@pytest.mark.seed("CXEB Art. 3 §2", item="11.1")
def test_art3_email_text_has_dates_and_both_totals():
    b = Book("2026-03-02").game().play([2, 3], [4], "2026-03-02", transit=1)
    b.ledger()
    text = email_text(b.ledger())
    # White: 2 days (3-4 Mar); Black: received 5 Mar, sent 9 Mar: 4; White: received 10 Mar,
    # sent 13 Mar: 3.
    assert "Your move 1..., sent 2026-03-09, received 2026-03-10" in text
    assert "My move 2, sent 2026-03-13" in text
    assert "Thinking time of this move: 3 days" in text
    assert "Totals: Ana 5 days, Bruno 4 days" in text
    assert text.rstrip().endswith("Ana")


@pytest.mark.seed("CXEB Art. 31-42", item="11.12")
def test_art31_42_end_of_event_package():
    b = Book("2026-03-02", end="2026-06-30").game().game("h", "Caio", "Dora")
    b.play([2, 3], [4], "2026-03-02", transit=1)   # 2 sent 13 Mar, never acknowledged
    b.add("result", "h", {"result": "1-0", "date": "2026-04-01"})
    g, h = b.ledger("g"), b.ledger("h")
    text, data, pgns = package(b.ledger().ev, [g, h], D("2026-07-01"))
    # Last acknowledged: 1... (White's 2 was never confirmed, Art. 31 §2).
    assert data["games"][0]["last_acknowledged"] == "1..."
    assert data["adjudication"] == ["g"]
    # 30 days from 30 Jun: 30 Jul (Art. 31).
    assert data["papers_by"] == "2026-07-30"
    for art in ("Art. 31", "Art. 32", "Art. 33", "Art. 35-37", "Art. 41", "Art. 42"):
        assert art in text
    assert pgns.count("[Event") == 2
    # moves recorded without their notation are comments: no SAN to give (Art. 41)
    assert "{2 ?: received 2026-03-10 sent 2026-03-13 days 3 total 5}" in pgns


@pytest.mark.seed("CXEB Art. 31", item="11.12")
@pytest.mark.seed("CXEB Art. 41", item="11.12")
def test_art31_games_stop_on_the_official_end_date():
    # The event ends on 30 Apr. Bruno's 1... (received 5 Mar, sent 28 Apr) reaches Ana on
    # 29 Apr; her 2 goes on 6 May, after the end: only 30 Apr is counted, 1-6 May are
    # after the end, and the move is not valid (Art. 31): the last valid move is 1...,
    # the last one acknowledged (§2).
    b = Book("2026-03-02", end="2026-04-30").game()
    b.move("1", "2026-03-04")
    b.add("notice", "g", {"ply": 2, "date": "2026-03-10"})
    b.move("1...", "2026-04-28", "2026-03-05")
    b.move("2", "2026-05-06", "2026-04-29")
    g = b.ledger(today=D("2026-05-06"))
    assert (g.moves[-1].counted, g.moves[-1].cats) == (1, {"after_end": 6})
    text, data, _ = package(g.ev, [g], D("2026-05-06"))
    row = data["games"][0]
    assert (row["last_acknowledged"], row["moves_after_end"]) == ("1...", ["2"])
    assert "moves after the end (not valid): 2" in text
    # The papers for adjudication are due 30 days after the end (Art. 31).
    assert [(i["art"], i["due"]) for i in game_items(g)] == [("Art. 31-33", "2026-05-30")]
    # A finished game: both send its PGN to the director, or it is lost for both (Art. 41).
    b = Book("2026-03-02").game()
    b.move("1", "2026-03-04")
    b.add("result", "g", {"result": "1-0", "date": "2026-03-10"})
    (item,) = game_items(b.ledger(today=D("2026-03-11")))
    assert (item["who"], item["art"], item["overdue"]) == ("both", "Art. 41", True)
    assert "lost for both" in item["what"]


def test_a_leave_record_is_a_frozen_value_with_its_days():
    import dataclasses

    from chessclock.corr.model import Leave
    rec = {"seq": 7, "kind": "leave", "data": {"player": "Ana", "start": "2026-03-02",
                                                "end": "2026-03-05", "notified": "2026-03-04"}}
    lv = Leave.from_record(rec)
    assert (lv.seq, lv.player, lv.kind, lv.retroactive) == (7, "Ana", "normal", False)
    assert lv.days() == [D("2026-03-04"), D("2026-03-05")]   # from the notice on (Art. 29)
    assert Leave.from_record(rec) == lv
    with pytest.raises(dataclasses.FrozenInstanceError):
        lv.end = D("2026-03-09")   # type: ignore[misc]
