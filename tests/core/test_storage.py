# Flash storage (clockapp/storage.py): checked files, the double-slot game state, the event
# log, storage full, and a power cut at every byte and every operation (tests/core/fakefs.py).
# Runs under pytest and under the MicroPython unix port (tests/mp_run.py).

import os
import struct

from check import raises
from fakefs import FakeFS, PowerCut

from clockapp import storage as S
from clockapp.storage import Store
from clockcore import framing as F

ROOT = "/flash/data/"
MODELS = ("partial", "garbage", "zeros", "commit")


def store(fs=None):
    return Store(ROOT, fs if fs is not None else FakeFS())


def variants():
    """Every power-cut model, with rename replacing (littlefs, POSIX) or not (FAT)."""
    out = []
    for model in MODELS:
        for replace in (True, False):
            out.append((model, replace))
    return out


# ---- CRC ------------------------------------------------------------------------------

def test_crc32_matches_the_standard_check_value_and_binascii():
    assert F.crc32_py(b"123456789") == 0xCBF43926
    assert F.crc32(b"123456789") == 0xCBF43926
    assert F.crc32_py(b"") == 0
    data = bytes(range(256)) * 3
    assert F.crc32_py(data) == F.crc32(data)
    assert F.crc32_py(data[100:], F.crc32_py(data[:100])) == F.crc32(data)


# ---- checked files --------------------------------------------------------------------

def test_save_load_round_trip():
    st = store()
    assert st.load("settings") is None
    assert st.save("settings", b"hello")
    assert st.load("settings") == b"hello"
    assert st.save("settings", b"")
    assert st.load("settings") == b""
    big = bytes(range(256)) * 20
    assert st.save("fav", big)
    assert st.load("fav") == big
    assert st.load("settings") == b""
    assert st.names() == ["fav", "settings"]
    # nothing left over: only the two files
    assert st.fs.listdir(ROOT) == ["fav", "settings"]
    # a new Store over the same flash reads the same
    assert Store(ROOT, st.fs.reboot()).load("fav") == big


def test_on_flash_format_of_a_checked_file():
    st = store()
    st.save("x", b"abc")
    raw = st.fs.get(ROOT + "x")
    assert raw[:2] == b"CK"
    assert raw[2] == 1
    assert raw[3:7] == b"\x03\x00\x00\x00"
    assert raw[7:11] == F.crc32(b"CK\x01\x03\x00\x00\x00abc").to_bytes(4, "little")
    assert raw[11:] == b"abc"
    assert len(raw) == S.HEADER_SIZE + 3


def test_root_without_trailing_slash_and_delete():
    fs = FakeFS()
    st = Store("/flash/data", fs)
    assert st.root == ROOT
    st.save("a", b"1")
    fs.put(ROOT + "a.new", b"junk")
    assert st.delete("a")
    assert fs.listdir(ROOT) == []
    assert st.load("a") is None


def test_every_single_flipped_byte_is_caught():
    payload = b"settings: {brightness: 3}"
    st = store()
    st.save("cfg", payload)
    good = st.fs.get(ROOT + "cfg")
    for i in range(len(good)):
        for mask in (0x01, 0x80, 0xFF):
            bad = bytearray(good)
            bad[i] ^= mask
            st.fs.put(ROOT + "cfg", bad)
            assert Store(ROOT, st.fs.reboot()).load("cfg") is None, (i, mask)


def test_truncated_extended_and_foreign_files_are_not_data():
    st = store()
    st.save("cfg", b"0123456789")
    good = st.fs.get(ROOT + "cfg")
    for n in range(len(good)):
        st.fs.put(ROOT + "cfg", good[:n])
        assert st.load("cfg") is None, n
    st.fs.put(ROOT + "cfg", good + b"\x00")
    assert st.load("cfg") is None
    st.fs.put(ROOT + "cfg", b"{\"json\": 1}")
    assert st.load("cfg") is None
    other = bytearray(good)
    other[2] = 2  # another format version
    st.fs.put(ROOT + "cfg", other)
    assert st.load("cfg") is None


def test_complete_new_file_stands_in_for_a_missing_or_bad_file_and_the_rename_is_finished():
    for replace in (True, False):
        fs = FakeFS(replace=replace)
        st = Store(ROOT, fs)
        fs.put(ROOT + "cfg.new", S.frame(b"new"))
        assert st.load("cfg") == b"new"
        assert fs.listdir(ROOT) == ["cfg"]
        # a bad file and a complete .new: the .new wins, replacing it
        fs.put(ROOT + "cfg", b"CK\x01garbage")
        fs.put(ROOT + "cfg.new", S.frame(b"newer"))
        assert st.load("cfg") == b"newer"
        assert fs.listdir(ROOT) == ["cfg"]
        assert st.load("cfg") == b"newer"
        # a good file and a torn .new: the good file; recover() drops the torn one
        fs.put(ROOT + "cfg.new", S.frame(b"torn")[:-1])
        assert st.load("cfg") == b"newer"
        st.recover()
        assert fs.listdir(ROOT) == ["cfg"]
        # recover() finishes an interrupted rename
        fs.put(ROOT + "other.new", S.frame(b"o"))
        st.recover()
        assert fs.listdir(ROOT) == ["cfg", "other"]
        assert st.load("other") == b"o"


def _run_saves(fs, payloads, name="cfg"):
    """Save each payload in turn; the payloads whose save returned True."""
    st = Store(ROOT, fs)
    done = []
    try:
        for p in payloads:
            assert st.save(name, p)
            done.append(p)
    except PowerCut:
        pass
    return done


def _allowed(payloads, done, before=None):
    """What a load may give after a cut: the last saved payload or the one being saved."""
    last = done[-1] if done else before
    if len(done) < len(payloads):
        return (last, payloads[len(done)])
    return (last,)


def test_power_cut_at_every_byte_and_operation_of_a_sequence_of_saves():
    payloads = [b"first", b"the second, longer payload", b"", b"4th"]
    for model, replace in variants():
        probe = FakeFS(model=model, replace=replace)
        Store(ROOT, probe).save("cfg", b"old")
        base = probe.files
        total = FakeFS(base, model=model, replace=replace)
        assert len(_run_saves(total, payloads)) == len(payloads)
        n_units = total.units
        assert n_units > 4 * 11
        seen = set()
        for n in range(n_units + 1):
            fs = FakeFS(base, cut_after=n, model=model, replace=replace)
            done = _run_saves(fs, payloads)
            allowed = _allowed(payloads, done, b"old")
            after = fs.reboot()
            got = Store(ROOT, after).load("cfg")
            assert got in allowed, (model, replace, n, got, allowed)
            seen.add(got)
            # it stays what it was: no flip back to an older copy
            assert Store(ROOT, after).load("cfg") == got
            assert Store(ROOT, after.reboot()).load("cfg") == got
            # and the store works on: a save after the reboot loads back
            st = Store(ROOT, after)
            assert st.save("cfg", b"after")
            assert Store(ROOT, after.reboot()).load("cfg") == b"after"
        for p in [b"old"] + payloads:
            assert p in seen, (model, replace, p)


def test_power_cut_during_the_recovery_itself():
    # First cut anywhere in a save; then a second cut anywhere in the load that repairs it.
    for model, replace in variants():
        probe = FakeFS(model=model, replace=replace)
        Store(ROOT, probe).save("cfg", b"old")
        base = probe.files
        total = FakeFS(base, model=model, replace=replace)
        Store(ROOT, total).save("cfg", b"new")
        for n in range(total.units + 1):
            fs = FakeFS(base, cut_after=n, model=model, replace=replace)
            done = _run_saves(fs, [b"new"])
            allowed = _allowed([b"new"], done, b"old")
            flash = fs.reboot()
            probe2 = flash.reboot()
            first = Store(ROOT, probe2).load("cfg")
            for m in range(probe2.units + 1):
                fs2 = flash.reboot(cut_after=m)
                try:
                    Store(ROOT, fs2).load("cfg")
                except PowerCut:
                    pass
                got = Store(ROOT, fs2.reboot()).load("cfg")
                assert got == first and got in allowed, (model, replace, n, m, got)


def test_storage_full_save_returns_false_and_keeps_the_previous_copy():
    for model in MODELS:
        for replace in (True, False):
            fs = FakeFS(model=model, replace=replace, capacity=100)
            st = Store(ROOT, fs)
            assert st.save("cfg", b"x" * 30)
            assert not st.full
            assert not st.save("cfg", b"y" * 80)  # 30+11 on flash, 80+11 more does not fit
            assert st.full
            assert st.error == S.ENOSPC
            assert st.load("cfg") == b"x" * 30
            assert Store(ROOT, fs.reboot()).load("cfg") == b"x" * 30
            assert fs.listdir(ROOT) == ["cfg"]  # the torn .new was removed
            assert st.save("cfg", b"z" * 20)  # a smaller one fits
            assert not st.full
            assert st.load("cfg") == b"z" * 20


def test_storage_full_when_the_rename_fails():
    class FullRename(FakeFS):
        def rename(self, a, b):
            raise OSError(S.ENOSPC, "no space")

    fs = FullRename()
    fs.put(ROOT + "cfg", S.frame(b"old"))
    st = Store(ROOT, fs)
    assert not st.save("cfg", b"new")
    assert st.full
    assert st.load("cfg") == b"old"


def test_json_settings_and_favourites():
    st = store()
    assert st.load_json("settings", {"volume": 2}) == {"volume": 2}
    assert st.save_json("settings", {"volume": 3, "name": "Caf\u00e9", "levers": [0, 1]})
    assert st.load_json("settings", None) == {"volume": 3, "name": "Caf\u00e9",
                                               "levers": [0, 1]}
    assert st.save_json("favourites", ["90m/40+30m+30s", "3+2"])
    assert Store(ROOT, st.fs.reboot()).load_json("favourites", []) == ["90m/40+30m+30s", "3+2"]
    # valid frame, bad JSON or bad UTF-8: the default
    st.save("settings", b"{not json")
    assert st.load_json("settings", "dflt") == "dflt"
    st.save("settings", b"\xff\xfe\"")
    assert st.load_json("settings", "dflt") == "dflt"


# ---- double-slot game state -----------------------------------------------------------

def test_state_slots_alternate_and_the_newest_wins():
    fs = FakeFS()
    st = Store(ROOT, fs)
    assert st.load_state() is None
    assert st.save_state(b"s1")
    assert fs.listdir(ROOT) == ["state.a"]
    assert st.save_state(b"s2")
    assert fs.listdir(ROOT) == ["state.a", "state.b"]
    assert st.save_state(b"s3")
    assert S.unframe(fs.get(ROOT + "state.a")) == b"\x02\x00\x00\x00s3"  # seq 2
    assert S.unframe(fs.get(ROOT + "state.b")) == b"\x01\x00\x00\x00s2"
    st2 = Store(ROOT, fs.reboot())
    assert st2.load_state() == b"s3"
    assert st2.save_state(b"s4")  # goes over the older slot
    assert S.unframe(st2.fs.get(ROOT + "state.b")) == b"\x03\x00\x00\x00s4"
    assert Store(ROOT, st2.fs.reboot()).load_state() == b"s4"
    # a Store that saves without loading first still continues the sequence
    st3 = Store(ROOT, st2.fs)
    assert st3.save_state(b"s5")
    assert Store(ROOT, st2.fs).load_state() == b"s5"
    assert S.unframe(st2.fs.get(ROOT + "state.a")) == b"\x04\x00\x00\x00s5"


def test_state_sequence_number_wraps():
    fs = FakeFS()
    fs.put(ROOT + "state.a", S.frame(struct.pack("<I", 0xFFFFFFFF) + b"older"))
    fs.put(ROOT + "state.b", S.frame(struct.pack("<I", 0) + b"newer"))
    st = Store(ROOT, fs)
    assert st.load_state() == b"newer"
    assert st.save_state(b"newest")
    assert S.unframe(fs.get(ROOT + "state.a")) == b"\x01\x00\x00\x00newest"
    assert Store(ROOT, fs).load_state() == b"newest"


def test_state_a_corrupt_newest_slot_gives_the_previous_state():
    fs = FakeFS()
    st = Store(ROOT, fs)
    st.save_state(b"old state")
    st.save_state(b"new state")
    good = fs.get(ROOT + "state.b")
    for i in range(len(good)):
        bad = bytearray(good)
        bad[i] ^= 0x10
        fs.put(ROOT + "state.b", bad)
        assert Store(ROOT, fs).load_state() == b"old state", i
    fs.put(ROOT + "state.b", good)
    assert Store(ROOT, fs).load_state() == b"new state"


def test_state_clear_removes_both_and_a_cut_in_between_keeps_the_newest():
    fs = FakeFS()
    st = Store(ROOT, fs)
    st.save_state(b"older")
    st.save_state(b"newest")
    base = fs.files
    for n in range(3):
        f = FakeFS(base, cut_after=n)
        try:
            assert Store(ROOT, f).clear_state()
        except PowerCut:
            pass
        got = Store(ROOT, f.reboot()).load_state()
        assert got == (b"newest" if n < 2 else None), (n, got)
    assert st.clear_state()
    assert st.load_state() is None
    assert st.save_state(b"again")
    assert Store(ROOT, fs).load_state() == b"again"


def _run_states(fs, payloads):
    st = Store(ROOT, fs)
    done = []
    try:
        st.load_state()
        for p in payloads:
            assert st.save_state(p)
            done.append(p)
    except PowerCut:
        pass
    return done


def test_power_cut_at_every_byte_and_operation_of_state_saves():
    payloads = [b"move 1", b"move 2 with more", b"move 3", b"", b"move 5"]
    for model in MODELS:
        total = FakeFS(model=model)
        assert len(_run_states(total, payloads)) == len(payloads)
        seen = set()
        for n in range(total.units + 1):
            fs = FakeFS(cut_after=n, model=model)
            done = _run_states(fs, payloads)
            allowed = _allowed(payloads, done)
            after = fs.reboot()
            got = Store(ROOT, after).load_state()
            assert got in allowed, (model, n, got, allowed)
            seen.add(got)
            st = Store(ROOT, after)
            assert st.load_state() == got
            assert st.save_state(b"resumed")
            assert Store(ROOT, after.reboot()).load_state() == b"resumed"
            assert st.save_state(b"resumed 2")
            assert Store(ROOT, after.reboot()).load_state() == b"resumed 2"
        for p in [None] + payloads:
            assert p in seen, (model, p)


def test_storage_full_state_save_keeps_the_previous_state():
    for model in MODELS:
        fs = FakeFS(model=model, capacity=120)
        st = Store(ROOT, fs)
        assert st.save_state(b"a" * 20)
        assert st.save_state(b"b" * 20)
        assert not st.save_state(b"c" * 100)
        assert st.full
        assert Store(ROOT, fs.reboot()).load_state() == b"b" * 20
        assert st.save_state(b"d" * 10)
        assert not st.full
        assert Store(ROOT, fs.reboot()).load_state() == b"d" * 10


# ---- event log ------------------------------------------------------------------------

RECORDS = [b"\x01start", b"\x02press white 10000", b"", b"\x02press black 25000" * 3,
           b"\x04flag"]


def test_log_append_and_read_in_order():
    st = store()
    assert list(st.read_log()) == []
    assert st.log_size() == 0
    for r in RECORDS:
        assert st.append_log(r)
    assert list(st.read_log()) == RECORDS
    assert st.log_dropped == 0
    assert st.log_size() == sum(len(r) + S.LOG_HEADER_SIZE for r in RECORDS)
    assert list(Store(ROOT, st.fs.reboot()).read_log()) == RECORDS
    assert st.clear_log()
    assert st.log_size() == 0
    assert list(st.read_log()) == []
    assert st.clear_log()


def test_log_record_format_and_limit():
    raw = S.log_record(b"ab")
    assert raw[:2] == b"LG"
    assert raw[2:4] == b"\x02\x00"
    assert raw[4:8] == F.crc32(b"LG\x02\x00ab").to_bytes(4, "little")
    assert raw[8:] == b"ab"
    st = store()
    assert st.append_log(b"x" * S.LOG_MAX_RECORD)
    assert list(st.read_log()) == [b"x" * S.LOG_MAX_RECORD]
    raises(ValueError, st.append_log, b"x" * (S.LOG_MAX_RECORD + 1))


def test_log_many_records_across_read_chunks():
    st = store()
    recs = []
    for i in range(300):
        r = ("record %d " % i).encode() * (1 + i % 37)
        recs.append(r)
        st.append_log(r)
    assert st.log_size() > 3 * S.LOG_MAX_RECORD
    assert list(st.read_log()) == recs
    assert st.log_dropped == 0


def test_log_every_flipped_byte_loses_only_its_record():
    st = store()
    for r in RECORDS:
        st.append_log(r)
    good = st.fs.get(ROOT + S.LOG_NAME)
    starts = []
    at = 0
    for r in RECORDS:
        starts.append(at)
        at += S.LOG_HEADER_SIZE + len(r)
    for i in range(len(good)):
        k = 0
        while k + 1 < len(starts) and starts[k + 1] <= i:
            k += 1
        bad = bytearray(good)
        bad[i] ^= 0x04
        st.fs.put(ROOT + S.LOG_NAME, bad)
        got = list(st.read_log())
        assert got == RECORDS[:k] + RECORDS[k + 1:], (i, k)
        assert st.log_dropped == S.LOG_HEADER_SIZE + len(RECORDS[k]), i


def test_log_garbage_between_records_is_skipped():
    st = store()
    st.append_log(b"one")
    st.fs.files[ROOT + S.LOG_NAME].extend(b"LGLG\x00L" + b"\xff" * 5000 + b"L")
    st.append_log(b"two")
    assert list(st.read_log()) == [b"one", b"two"]
    assert st.log_dropped == 5007


class _ReadSizes(FakeFS):
    """A FakeFS that notes the size of every read of the log file."""

    def __init__(self, *a, **k):
        FakeFS.__init__(self, *a, **k)
        self.reads = []

    def open(self, path, mode):
        f = FakeFS.open(self, path, mode)
        if path.endswith(S.LOG_NAME) and "r" in mode:
            read, reads = f.read, self.reads

            def noted(n=-1):
                out = read(n)
                reads.append(len(out))
                return out
            f.read = noted
        return f


def _log_of(recs):
    return b"".join(S.log_record(r) for r in recs)


def test_log_tail_is_the_last_whole_record_before_any_torn_end():
    # Records of 1 to 700 bytes, a torn append cut at every byte of its last two frames, and
    # erased or stray bytes after: the tail is what a full read from the start finds last.
    recs = [(b"LG%d." % i) * (1 + (i * 37) % 170) for i in range(40)]
    data = _log_of(recs)
    assert len(data) > S.TAIL_BYTES   # the search stops TAIL_BYTES bytes back
    ends = (b"", b"\xff" * 700, b"LG", b"LG\x05\x00\x00", b"L")
    last2 = len(_log_of(recs[-2:]))
    for cut in range(len(data) - last2, len(data) + 1):
        for end in ends:
            fs = FakeFS()
            fs.put(ROOT + S.LOG_NAME, data[:cut] + end)
            want = F.unframe(data[:cut][-S.TAIL_BYTES:])[0]
            got = store(fs).log_tail()
            assert got == (want[-1][1], cut + len(end)), (cut, end)


def test_log_tail_finds_a_record_longer_than_a_read_and_nothing_in_garbage():
    big = bytes(range(256)) * 9     # 2,304 bytes: over several of the tail's reads
    fs = _ReadSizes()
    fs.put(ROOT + S.LOG_NAME, _log_of([b"first", big]) + b"\xff" * 300)
    assert store(fs).log_tail()[0] == big
    assert S.TAIL_STEP < max(fs.reads) <= S.LOG_HEADER_SIZE + len(big)   # its own frame
    fs = _ReadSizes()
    fs.put(ROOT + S.LOG_NAME, b"\xff" * 5000 + b"LG" * 3000)
    assert store(fs).log_tail() == (None, 11000)
    fs.put(ROOT + S.LOG_NAME, b"")
    assert store(fs).log_tail() == (None, 0)


def test_log_tail_reads_small_pieces_at_boot():
    # After power cuts the Pico's heap at boot had no block for an 8 KB read of the tail:
    # the clock failed to start. Records of today's sizes need no read over TAIL_STEP.
    recs = [(b"move %d " % i) * 9 for i in range(200)]
    fs = _ReadSizes()
    fs.put(ROOT + S.LOG_NAME, _log_of(recs) + S.log_record(b"torn record")[:-3])
    assert store(fs).log_tail()[0] == recs[-1]
    assert fs.reads and max(fs.reads) <= S.TAIL_STEP


def test_log_read_asks_the_file_for_little_at_a_time():
    # A pull after power cuts was refused: the Pico's heap had no block for 4 KB reads.
    # Records of today's sizes are read READ_CHUNK bytes at a time; the longest as a whole.
    from clockapp import storelog
    recs = [(b"move %d " % i) * (1 + i % 30) for i in range(150)]
    recs.insert(70, b"z" * S.LOG_MAX_RECORD)
    fs = _ReadSizes()
    fs.put(ROOT + S.LOG_NAME, _log_of(recs[:100]) + b"\xffLG" * 700 + _log_of(recs[100:]))
    st = store(fs)
    assert list(st.read_log()) == recs and st.log_dropped == 2100
    assert max(fs.reads) <= S.LOG_HEADER_SIZE + S.LOG_MAX_RECORD
    assert len([n for n in fs.reads if n > storelog.READ_CHUNK]) == 1


def _run_appends(fs, records):
    st = Store(ROOT, fs)
    done = []
    try:
        for r in records:
            assert st.append_log(r)
            done.append(r)
    except PowerCut:
        pass
    return done


def test_power_cut_at_every_byte_and_operation_of_log_appends():
    more = [b"after the reboot", b"and one more"]
    for model in MODELS:
        total = FakeFS(model=model)
        assert _run_appends(total, RECORDS) == RECORDS
        for n in range(total.units + 1):
            fs = FakeFS(cut_after=n, model=model)
            done = _run_appends(fs, RECORDS)
            after = fs.reboot()
            st = Store(ROOT, after)
            got = list(st.read_log())
            whole = done
            if len(done) < len(RECORDS) and got == done + [RECORDS[len(done)]]:
                whole = got  # the last record was complete when the power went
            assert got == whole, (model, n, got, done)
            valid = sum(S.LOG_HEADER_SIZE + len(r) for r in got)
            assert st.log_dropped == st.log_size() - valid, (model, n)
            # appending after a torn record: every record written since is read
            for r in more:
                assert st.append_log(r)
            assert list(st.read_log()) == whole + more, (model, n)
            assert st.log_dropped == st.log_size() - valid - sum(
                S.LOG_HEADER_SIZE + len(r) for r in more)


def test_storage_full_log_append_returns_false_and_keeps_earlier_records():
    for model in MODELS:
        fs = FakeFS(model=model, capacity=60)
        st = Store(ROOT, fs)
        assert st.append_log(b"a" * 20)
        assert not st.append_log(b"b" * 40)
        assert st.full
        assert st.append_log(b"c" * 5) == (model == "commit")  # torn bytes take the room
        assert list(Store(ROOT, fs.reboot()).read_log()) == (
            [b"a" * 20, b"c" * 5] if model == "commit" else [b"a" * 20])
        assert st.clear_log()
        assert not st.full
        assert st.append_log(b"d" * 40)


# ---- the real file system -------------------------------------------------------------

def _rmtree(path):
    for n in os.listdir(path):
        os.remove(path + "/" + n)
    os.rmdir(path)


def test_real_file_system_round_trip():
    base = "/tmp/chessclock-storage-test-%s" % "".join(
        "%02x" % b for b in os.urandom(6))
    st = Store(base + "/")  # created on first use
    try:
        assert st.load("cfg") is None
        assert st.save("cfg", b"one")
        assert st.save("cfg", b"two")  # rename over an existing file
        assert Store(base + "/").load("cfg") == b"two"
        assert st.save_state(b"s1") and st.save_state(b"s2")
        assert Store(base + "/").load_state() == b"s2"
        assert st.append_log(b"r1") and st.append_log(b"r2")
        assert list(Store(base + "/").read_log()) == [b"r1", b"r2"]
        assert st.log_size() == 2 * (S.LOG_HEADER_SIZE + 2)
        assert sorted(os.listdir(base)) == ["cfg", "log.bin", "state.a", "state.b"]
        with open(base + "/cfg.new", "wb") as f:
            f.write(S.frame(b"three"))
        os.remove(base + "/cfg")
        assert Store(base + "/").load("cfg") == b"three"
        assert sorted(os.listdir(base)) == ["cfg", "log.bin", "state.a", "state.b"]
    finally:
        _rmtree(base)


def test_erased_or_zeroed_flash_after_a_header_is_never_valid():
    # CRC-32 of b"\xff" * 4 is 0xFFFFFFFF and of b"" is 0: a CRC over the payload alone
    # would take these torn writes for data. The CRC covers the header too.
    assert F.crc32(b"\xff" * 4) == 0xFFFFFFFF
    st = store()
    for raw in (b"CK\x01\x04\x00\x00\x00" + b"\xff" * 8, b"CK\x01" + b"\x00" * 8):
        st.fs.put(ROOT + "cfg", raw)
        assert st.load("cfg") is None
    for raw in (b"LG\x04\x00" + b"\xff" * 8, b"LG\x00\x00" + b"\x00" * 4):
        st.fs.put(ROOT + S.LOG_NAME, raw)
        assert list(st.read_log()) == []
        assert st.log_dropped == len(raw)
