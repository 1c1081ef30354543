# Worked examples for clockapp/timefmt.py: what a display reads at a given time left.
# Runs under pytest and under the MicroPython unix port (tests/mp_run.py).

from clockapp import timefmt as T


def fmt(ms, tenths_below_ms=T.TENTHS_BELOW_MS, seconds_always=False):
    buf = bytearray(8)
    assert T.format_time(buf, ms, tenths_below_ms, seconds_always) is None
    return bytes(buf)


def up(ms):
    buf = bytearray(8)
    T.format_up(buf, ms)
    return bytes(buf)


def delay(ds, n=8):
    buf = bytearray(n)
    T.format_delay(buf, ds)
    return bytes(buf)


def test_hours_minutes_seconds_boundaries():
    assert fmt(7 * 3600000) == b" 7:00:00"
    assert fmt(5399000) == b" 1:29:59"
    assert fmt(3600001) == b" 1:00:01"
    assert fmt(3600000) == b" 1:00:00"
    assert fmt(3599999) == b" 1:00:00"  # rounds up to a whole hour: h:mm:ss, not 60:00
    assert fmt(3599001) == b" 1:00:00"
    assert fmt(3599000) == b"   59:59"
    assert fmt(36000000) == b"10:00:00"
    assert fmt(100 * 3600000) == b"99:59:59"  # cap: 8 characters


def test_minutes_seconds_boundaries():
    assert fmt(600000) == b"   10:00"
    assert fmt(599999) == b"   10:00"
    assert fmt(299000) == b"    4:59"
    assert fmt(60000) == b"    1:00"
    assert fmt(59999) == b"    1:00"
    assert fmt(59000) == b"    0:59"
    assert fmt(20000) == b"    0:20"


def test_tenths_start_when_the_value_shown_is_below_20_s():
    assert fmt(19999) == b"    0:20"  # 19.999 s shows as 20 s: not below 20 s yet
    assert fmt(19901) == b"    0:20"
    assert fmt(19900) == b"    19.9"
    assert fmt(19801) == b"    19.9"
    assert fmt(10000) == b"    10.0"
    assert fmt(9999) == b"    10.0"
    assert fmt(9900) == b"     9.9"
    assert fmt(999) == b"     1.0"
    assert fmt(901) == b"     1.0"
    assert fmt(900) == b"     0.9"
    assert fmt(1) == b"     0.1"
    assert fmt(0) == b"     0.0"


def test_seconds_always_and_other_thresholds():
    assert fmt(19999, seconds_always=True) == b"    0:20"
    assert fmt(19900, seconds_always=True) == b"    0:20"
    assert fmt(999, seconds_always=True) == b"    0:01"
    assert fmt(1, seconds_always=True) == b"    0:01"
    assert fmt(0, seconds_always=True) == b"    0:00"
    assert fmt(9000, 0) == b"    0:09"        # 0: never tenths
    assert fmt(9901, 10000) == b"    0:10"
    assert fmt(9900, 10000) == b"     9.9"
    assert fmt(59900, 120000) == b"    59.9"  # tenths stop at a minute whatever is asked
    assert fmt(60000, 120000) == b"    1:00"
    assert fmt(59901, 120000) == b"    1:00"


def test_zero_is_shown_exactly_at_the_flag_and_never_earlier():
    # The engine flags when 0 ms are left. Every other time shows something above zero.
    for sa in (False, True):
        assert fmt(0, seconds_always=sa) in (b"     0.0", b"    0:00")
        ms = 1
        while ms < 25000:
            s = fmt(ms, seconds_always=sa)
            assert s not in (b"     0.0", b"    0:00"), (ms, s)
            ms += 7


def test_never_shows_less_than_is_left():
    # the value shown, in ms, is at least the time left (and less than one unit above)
    ms = 0
    while ms < 4000000:
        s = fmt(ms)
        if s[6] == 46:  # ss.t
            shown = (int(s[:6]) * 10 + s[7] - 48) * 100
            unit = 100
        else:
            parts = s.strip().split(b":")
            shown = 0
            for p in parts:
                shown = shown * 60 + int(p)
            shown *= 1000
            unit = 1000
        assert ms <= shown < ms + unit, (ms, s)
        ms += 997 if ms > 25000 else 13


def test_format_only_touches_the_buffer_and_pads_it():
    buf = bytearray(b"xxxxxxxx")
    T.format_time(buf, 299000)
    assert buf == bytearray(b"    4:59")
    T.format_time(buf, 5399000)
    assert buf == bytearray(b" 1:29:59")
    T.format_time(buf, 500)
    assert buf == bytearray(b"     0.5")
    T.format_time(buf, -5)  # never happens (the engine clamps); treated as 0
    assert buf == bytearray(b"     0.0")
    short = bytearray(5)  # right-aligned in any length that fits
    T.format_time(short, 299000)
    assert short == bytearray(b" 4:59")


def test_upcount_rounds_down():
    assert up(0) == b"    0:00"
    assert up(999) == b"    0:00"
    assert up(1000) == b"    0:01"
    assert up(59999) == b"    0:59"
    assert up(3599999) == b"   59:59"
    assert up(3600000) == b" 1:00:00"
    assert up(5399999) == b" 1:29:59"


def test_delay():
    assert delay(50) == b"     5.0"
    assert delay(45, 4) == b" 4.5"
    assert delay(1) == b"     0.1"
    assert delay(0) == b"     0.0"
    assert delay(120) == b"    12.0"
    assert delay(599) == b"    59.9"
    assert delay(600) == b"    1:00"
    assert delay(651) == b"    1:06"  # whole seconds round up too
    assert T.delay_ds(5000) == 50
    assert T.delay_ds(4901) == 50
    assert T.delay_ds(4900) == 49
    assert T.delay_ds(1) == 1
    assert T.delay_ds(0) == 0


def test_next_change_examples():
    assert T.next_change_ms(299000) == 1000
    assert T.next_change_ms(299001) == 1
    assert T.next_change_ms(298500) == 500
    assert T.next_change_ms(20500) == 500   # 0:21 -> 0:20
    assert T.next_change_ms(20010) == 10    # 0:21 -> 0:20
    assert T.next_change_ms(20000) == 100   # 0:20 -> 19.9 at 19900: tenths begin
    assert T.next_change_ms(19999) == 99
    assert T.next_change_ms(19900) == 100
    assert T.next_change_ms(150) == 50
    assert T.next_change_ms(1) == 1
    assert T.next_change_ms(0) == -1       # flagged: nothing changes any more
    assert T.next_change_ms(20000, seconds_always=True) == 1000
    assert T.next_change_ms(1000, seconds_always=True) == 1000
    assert T.next_change_ms(0, rising=True) == 1
    assert T.next_change_ms(19900, rising=True) == 1  # 19.9 -> 0:20
    assert T.next_change_ms(19850, rising=True) == 51
    assert T.next_change_ms(20000, rising=True) == 1
    assert T.next_change_ms(20001, rising=True) == 1000
    assert T.next_change_up_ms(0) == 1000
    assert T.next_change_up_ms(999) == 1
    assert T.next_change_up_ms(1000) == 1000
    assert T.next_change_delay_ms(5000) == 100
    assert T.next_change_delay_ms(4901) == 1
    assert T.next_change_delay_ms(0) == -1


def _check_next_change(lo, hi, step, tb, sa, rising):
    buf = bytearray(8)
    nxt = bytearray(8)
    ms = lo
    while ms < hi:
        T.format_time(buf, ms, tb, sa)
        k = T.next_change_ms(ms, tb, sa, rising)
        d = 1 if rising else -1
        if k < 0:
            assert not rising and ms == 0
        else:
            j = 1
            while j < k:  # nothing changes before k ...
                T.format_time(nxt, ms + d * j, tb, sa)
                assert nxt == buf, (ms, j, k)
                j += 1 if k < 50 else k // 7 + 1
            T.format_time(nxt, ms + d * (k - 1), tb, sa)
            assert nxt == buf, (ms, k)
            T.format_time(nxt, ms + d * k, tb, sa)  # ... and it changes at k
            assert nxt != buf, (ms, k)
        ms += step


def test_next_change_agrees_with_the_text_running_down():
    _check_next_change(0, 25000, 37, T.TENTHS_BELOW_MS, False, False)
    _check_next_change(0, 25000, 211, T.TENTHS_BELOW_MS, True, False)
    _check_next_change(0, 12000, 53, 10050, False, False)  # threshold not a multiple of 100
    _check_next_change(3590000, 3610000, 333, T.TENTHS_BELOW_MS, False, False)
    _check_next_change(359990000, 360010000, 3331, T.TENTHS_BELOW_MS, False, False)


def test_next_change_agrees_with_the_text_running_up():
    _check_next_change(0, 25000, 37, T.TENTHS_BELOW_MS, False, True)
    _check_next_change(3590000, 3610000, 333, T.TENTHS_BELOW_MS, False, True)
    buf = bytearray(8)
    nxt = bytearray(8)
    ms = 0
    while ms < 70000:
        T.format_up(buf, ms)
        k = T.next_change_up_ms(ms)
        T.format_up(nxt, ms + k - 1)
        assert nxt == buf
        T.format_up(nxt, ms + k)
        assert nxt != buf
        ms += 89
