"""The log as evidence. A log pulled from the clock carries the clock's head,
signed with a key derived from the arbiter's key; `chessclock log verify` then proves that
no record was changed, added or cut off before that head. Every attack the issue lists
fails: an empty file, a log cut at any record (the flag cut off), a damaged first record,
a forged record whose chain was recomputed, a head from another key. The simulator board
runs the real firmware; its serial link is driven in-process."""

import os

import pytest
from inproc import KEY, InProcess, flagged_game, pulled

from chessclock.link import transport as HL
from chessclock.log.records import find_heads
from chessclock.log.verify import verify
from clockcore import eventlog as L
from clockcore import events as EV
from clockcore import framing as F
from clockcore import logread as LR


def frames_of(data):
    return F.unframe(data)[0]


def test_a_pulled_log_is_authentic_and_acknowledged(tmp_path):
    board, app = flagged_game()
    r, data = pulled(tmp_path, app)
    assert r["signed"] and r["acked"] == app.logw.writer.seq - 1
    assert app.logw.pulled == r["acked"]                       # the clock took the ack
    res = verify(data, key=KEY)
    assert res.problems == [] and res.auth_problems == [], (res.problems, res.auth_problems)
    assert res.status() == "AUTHENTIC" and res.auth.seq == r["acked"]
    assert len(res.played()) == 1 and res.played()[0].flagged
    # the same file checked with another key is not authenticated
    other = verify(data, key=bytes(32))
    assert other.problems == [] and any("does not match" in p for p in other.auth_problems)
    # no key at all: intact, not authenticated, and it says why
    assert any("no arbiter key" in p for p in verify(data).auth_problems)


@pytest.mark.parametrize("refusals, completes", [(1, True), (3, True), (4, False)])
def test_a_pull_the_clocks_heap_cannot_answer_is_asked_again(tmp_path, refusals, completes):
    # A Pico's heap in pieces after power cuts refused a log reply (internal: MemoryError):
    # the host asks again, the clock answers in smaller replies, and the pulled log is
    # the same authentic log. Past the retries the pull fails and says why.
    board, app = flagged_game()
    real = app.store.read_log
    left = [refusals]

    def short_of_memory():
        for i, p in enumerate(real()):
            if i == 1 and left[0]:
                left[0] -= 1
                raise MemoryError
            yield p
    app.store.read_log = short_of_memory
    if not completes:
        with pytest.raises(HL.ClockError, match="MemoryError"):
            pulled(tmp_path, app)
        return
    r, data = pulled(tmp_path, app)
    assert left == [0] and app.link.log_cap == 1024 >> refusals
    got = [p for _, p in frames_of(data)]                       # (the head is no LG frame)
    assert len(got) == r["records"] and got == [bytes(p) for p in real()][:len(got)]
    assert [L.seq_of(p) for p in got] == list(range(len(got)))
    assert verify(data, key=KEY).status() == "AUTHENTIC"


def test_a_signed_head_is_a_frozen_value_read_from_its_text(tmp_path):
    import dataclasses

    from chessclock.log.records import Head
    board, app = flagged_game()
    r, data = pulled(tmp_path, app)
    off, _, head = find_heads(data)[-1]
    assert head == Head.parse(off, head.text, head.mac) and head.seq == r["acked"]
    assert (head.clock, head.offset) == (app.board.clock_id(), off)
    with pytest.raises(dataclasses.FrozenInstanceError):
        head.seq = 0   # type: ignore[misc]
    with pytest.raises(ValueError):
        Head.parse(0, "ccl-head 2 x 1 00 0 0", "-")


def test_every_cut_forgery_and_damage_fails(tmp_path):
    board, app = flagged_game()
    r, data = pulled(tmp_path, app)
    frames = frames_of(data)
    head_at = find_heads(data)[-1][0]
    assert head_at == frames[-1][0] + 8 + len(frames[-1][1])   # the head ends the file

    def fails(blob, what):
        res = verify(blob, key=KEY)
        assert res.problems or res.auth_problems, what
        assert res.status() != "AUTHENTIC", what

    fails(b"", "an empty file")
    fails(data[head_at:], "a head alone")
    # cut at every record: the head goes with the tail, or stays with a file missing records
    for off, _payload in frames[1:]:
        fails(data[:off], "cut at byte %d" % off)
        fails(data[:off] + data[head_at:], "cut at byte %d, head kept" % off)
    flag = [off for off, p in frames if p[4] & 0x3F == 4]
    assert flag
    # the damaged first record
    fails(b"\x00" + data[1:], "first record damaged")
    # a forged record with its CRC and the whole chain recomputed: a press after the last
    # header made a second later (the replay may or may not notice; the head does)
    recs = [p for _, p in frames]
    last_header = max(i for i, p in enumerate(recs) if p[4] & 0x3F == EV.EV_HEADER)
    k = next(i for i in range(last_header, len(recs)) if recs[i][4] & 0x3F == 1)
    dt, end = LR.get_varint(recs[k], 5)
    buf = bytearray(16)
    n = L.put_varint(buf, 0, dt + 1000)
    recs[k] = recs[k][:5] + bytes(buf[:n]) + recs[k][end:]
    chain = frames_of(data)[last_header - 1][1][-L.CHAIN:] if last_header else L.ZERO_CHAIN
    out = b"".join(F.frame(p) for p in recs[:last_header])
    for p in recs[last_header:]:
        body = bytes(p[:-L.CHAIN])
        ch = L.chain_of(chain, body)
        out += F.frame(body + ch)
        chain = ch
    res = verify(out + data[head_at:], key=KEY)
    assert [x for x in res.problems if "chain" in x] == []      # the chain holds
    assert any("holds changed" in x for x in res.auth_problems), res.auth_problems
    # records added after the head are not covered
    extra = F.frame(recs[-1])
    assert verify(data + extra, key=KEY).status() != "AUTHENTIC"
    # a head signed by a clock without the key proves nothing
    board2, app2 = flagged_game(key=None)
    r2, data2 = pulled(tmp_path / "nokey", app2, key=None)
    res2 = verify(data2, key=KEY)
    assert res2.problems == [] and any("no arbiter key" in p for p in res2.auth_problems)


def test_log_verify_command_refuses_what_is_not_proven(tmp_path, capsys):
    from chessclock import cli

    board, app = flagged_game()
    r, data = pulled(tmp_path, app)
    keyfile = tmp_path / "arbiter.key"
    keyfile.write_text(KEY.hex() + "\n")
    assert cli.main(["log", "verify", r["file"], "--key", str(keyfile)]) == 0
    out = capsys.readouterr().out
    assert "verification: AUTHENTIC" in out and "1 game played" in out
    cut = tmp_path / "cut.log"
    cut.write_bytes(data[:frames_of(data)[-2][0]])
    assert cli.main(["log", "verify", str(cut), "--key", str(keyfile)]) == 1
    assert "NOT AUTHENTICATED" in capsys.readouterr().out
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    assert cli.main(["log", "verify", str(empty), "--intact-only"]) == 1
    raw = board.root + "log.bin"   # the flash image: intact, its authenticity not checked
    assert cli.main(["log", "verify", raw, "--intact-only"]) == 0
    assert os.path.exists(raw)


def test_ruling_reads_the_clocks_log_and_verifies_it_first(tmp_path, capsys):
    import json

    from chessclock import cli

    board, app = flagged_game()
    r, data = pulled(tmp_path, app)
    keyfile = tmp_path / "arbiter.key"
    keyfile.write_text(KEY.hex() + "\n")
    k = ["--key", str(keyfile)]
    html = tmp_path / "r.html"
    inc = tmp_path / "i.txt"
    assert cli.main(["ruling", r["file"], "--html", str(html), "--incident", str(inc)]
                    + k) == 0
    out = capsys.readouterr().out
    assert out.startswith("VERIFICATION") and "verification: AUTHENTIC" in out
    assert "RESULT: 0-1" in out and "UNVERIFIED" not in out
    for report in (html.read_text(), inc.read_text()):
        assert "verification: AUTHENTIC" in report and r["file"] in report
    assert app.board.clock_id() in html.read_text()
    assert cli.main(["ruling", r["file"], "--json"] + k) == 0
    j = json.loads(capsys.readouterr().out)
    assert j["verification"]["verified"] and j["result"] == "0-1"
    # cut before the flag (head kept): refused, or ruled in large letters
    frames = frames_of(data)
    flag_at = [off for off, p in frames if p[4] & 0x3F == 4][0]
    cut = tmp_path / "cut.log"
    cut.write_bytes(data[:flag_at] + data[find_heads(data)[-1][0]:])
    assert cli.main(["ruling", str(cut)] + k) == 2
    assert "did not verify" in capsys.readouterr().err
    assert cli.main(["ruling", str(cut), "--unverified"] + k) == 0
    out = capsys.readouterr().out
    assert "UNVERIFIED: THESE EVENTS ARE NOT PROVEN" in out and "(UNVERIFIED)" in out
    # the flash image (no signed head) and an export: not evidence
    assert cli.main(["ruling", board.root + "log.bin"] + k) == 2
    capsys.readouterr()
    assert cli.main(["log", "export", r["file"], "--format", "jsonl"]) == 0
    export = tmp_path / "g.jsonl"
    export.write_text(capsys.readouterr().out)
    assert cli.main(["ruling", str(export)]) == 0
    assert "UNVERIFIED" in capsys.readouterr().out


def test_ruling_refuses_what_is_not_a_scoresheet_or_not_text(tmp_path, capsys):
    from chessclock import cli

    board, app = flagged_game()
    r, data = pulled(tmp_path, app)
    keyfile = tmp_path / "arbiter.key"
    keyfile.write_text(KEY.hex() + "\n")
    k = ["--key", str(keyfile)]
    for name, content in (("notes.pgn", b"the game was fine\n"), ("empty.pgn", b""),
                          ("bin.pgn", b"\xff\xfe\x00garbage")):
        f = tmp_path / name
        f.write_bytes(content)
        assert cli.main(["ruling", r["file"], "--pgn", str(f)] + k) == 2, name
        err = capsys.readouterr().err
        assert err.startswith("chessclock ruling: ") and err.count("\n") == 1, err
    binary = tmp_path / "x.jsonl"
    binary.write_bytes(b"\xff\xfe\x00\x01")
    assert cli.main(["ruling", str(binary)]) == 2
    assert "neither a clock's log nor JSON Lines" in capsys.readouterr().err
    assert cli.main(["ruling", r["file"], "--game", "999"] + k) == 2
    assert "the log has" in capsys.readouterr().err
    assert cli.main(["ruling", r["file"], "--plot", str(tmp_path / "no" / "p.png")] + k) == 2
    assert "cannot write" in capsys.readouterr().err


def test_pgn_has_dates_result_and_termination_and_refusals_are_shown(tmp_path, capsys):
    import io

    import chess.pgn

    from chessclock import cli

    board, app = flagged_game()
    for _ in range(2):                                  # two refusals in one second
        try:
            InProcess(app).request("pause", change=True)
        except HL.ClockError:
            pass
    app.step()
    r, data = pulled(tmp_path, app)
    assert cli.main(["log", "export", r["file"], "--format", "pgn"]) == 0
    text = capsys.readouterr().out
    g = chess.pgn.read_game(io.StringIO(text))
    assert g.headers["Date"] == "2026.11.30" and g.headers["UTCDate"] == "2026.11.30"
    assert g.headers["Result"] == "0-1" and g.headers["Termination"] == "time forfeit"
    assert g.errors == [] and list(g.mainline_moves()) == []
    assert cli.main(["log", "show", r["file"]]) in (0, 1)
    shown = capsys.readouterr().out
    assert shown.count("refused=a change without the arbiter's key") == 2
