"""The items of `shared/seed-requirements.md` (its numbered rules), each with what the
clock does for it: the rows of docs/SEEDS.md before the tests marked for them are added
(`gen_seeds.py`). Status: done, partly (what is left follows a colon), missing. A row's
status is checked against the tests: an item marked in a test is not "missing", and a "done"
or "partly" item names a test."""

ITEMS = [
    ('1.1', 'two linked clocks, one runs; log every change',
     'done',
     '`clockcore/engine.py` (`running()`, flag per side); log '
     '`start`/`press`/`pause`/`resume`; tests/core/test_engine.py'),
    ('1.2',
     'periods {time, moves or SD, increment, delay}, locked at start; log the control and its '
     'hash',
     'done',
     '`clockcore/control.py`, `notation.py`, `presets.py`; log header with the control, hash '
     'chain (docs/EVENT-LOG.md); `chessclock set`, `presets`, `control`; '
     'tests/core/test_notation.py, test_presets.py'),
    ('1.3',
     'carry-over, Fischer, simple delay with its countdown; per press: time used, delay, '
     'increment',
     'done',
     'engine modes (docs/ENGINE.md); the delay shown (`clockapp/view.py`); `press` credit and '
     '`emt` in `log export`; tests/core/test_engine.py, tests/host/test_engine_properties.py'),
    ('1.4',
     'flag latched with the stage; next stage at move N or at flag (option); ruling "moves '
     'made?"',
     'done',
     'engine `stage_on_flag`; `flag` event with stage and moves; `chessclock ruling` moves '
     'check from `--pgn`; tests/host/test_rulings.py'),
    ('1.5', '40 moves in 120 min (P7)',
     'done',
     'preset `wc-2008-first`; tests/core/test_presets.py'),
    ('1.6', 'equal sudden death by default',
     'done',
     '`Control` symmetric by default; presets'),
    ('1.7', 'organiser-set duration; custom presets, round-length estimate',
     'done',
     'any control typed (`chessclock control`, docs/NOTATION.md); `chessclock rounds '
     'estimate --control SPEC --moves N` (2 x base + the moves\' increments)'),
    ('1.8', 'FCE six-hour session (P4)',
     'done',
     'preset `fce-six-hour`; tests/core/test_presets.py'),
    ('1.9', 'extra 10 s a move, per side (P3)',
     'done',
     'preset `fide-active-1987-inc`; per-side stages in `Control`; tests/core/test_presets.py'),
    ('2.1', "White's clock started at the scheduled start; White side setting",
     'done',
     "`chessclock schedule HH:MM` (link `schedule`): White's clock starts at the time of day, "
     'charged from the exact instant; docs/SESSION.md; tests/core/test_session.py, '
     'tests/host/test_session_cli.py'),
    ('2.2', 'the arbiter places the clock; White left or right, W/B shown',
     'done',
     'setting `white_left` (menu), W/B on the displays (`clockapp/view.py`); log header '
     '`white_left`'
     '; tests/core/test_app_sim.py'),
    ('2.3', 'White loses the time until he arrives; arrival marks',
     'done',
     "arrival marks: a side's first press after a schedule or `chessclock arrive SIDE` (log "
     '`arrival`, ms after the scheduled start); tests/core/test_session.py, '
     'tests/host/test_session_cli.py'),
    ('2.4',
     'default (forfeit) time from the scheduled start, arbiter alert; forfeit ruling',
     'done',
     '`schedule --default 60m` (0 allowed): default time passed logged per absent side '
     '(`default-time`), shown to the arbiter only (`status`, hall page), never on the clock; '
     '`ruling late`; the flag ruling rules a logged `default-time` first and the incident '
     'report lists it; tests/core/test_session.py, tests/host/test_session_cli.py'),
    ('2.5', 'visitor delay split 60/40; a player counts as from his club\'s town',
     'done',
     '`chessclock ruling late --rules fce-rgc1990 [--home-town T --visitor-town T]` (the '
     'split only under the FCE rule set; the other rule sets say it is outside them), '
     '`chessclock split`, engine `split()`; tests/host/test_rulings.py, '
     'tests/core/test_engine.py'),
    ('2.6', 'all clocks run against a short team; it loses at the end of the waiting time; '
     'two no-shows eliminate',
     'done',
     '`chessclock start SIDE --all` (engine `start(now, side)`); `chessclock team short '
     '--size N --present P --elapsed T`, `chessclock team no-shows --count N [--round R --of '
     'T]`'),
    ('2.7', 'substitutions 20-60 min after the start',
     'done',
     '`chessclock team substitute --at T --size N [--made K]`: two for teams of eight or '
     'more, else one'),
    ('2.8', 'no setting complaint after the first moves (ACT 4, RAP 3)',
     'done',
     'before the start each display shows its side\'s control for the players to check '
     '(docs/SESSION.md, "The control before the start"); '
     '`chessclock ruling complaint LOG --at T [--by SIDE]` (`ruling/claims.py`), first presses '
     'from the log; S3: referred; tests/host/test_knockout_rulings.py, '
     'tests/core/test_session_displays.py'),
    ('2.9', 'the delegate checks the clock works: self-test',
     'done',
     'self-test (`clockapp/selftest.py`): every segment/pixel, both levers, buzzer, battery; '
     'menu `tESt`, PLUS held at power-on, `chessclock selftest`, `sim --selftest`; log '
     '`self-test`; tests/core/test_session.py, tests/host/test_session_cli.py, '
     'tests/core/test_session_displays.py'),
    ('2.10', 'White on the home team\'s odd boards',
     'done',
     '`chessclock team colours --boards N`; the hall\'s pairings give White per board '
     '(`hall/pairings.py`)'),
    ('3.1', "only the running side's lever switches; every lever transition logged",
     'done',
     'engine `press` (`ignored` otherwise); `clockapp/levers.py` interrupt stamps; '
     'tests/core/test_levers.py, test_app_sim.py'),
    ('3.2', 'hand on the clock: log long holds and bounce',
     'done',
     '`lever-held`, `lever-both`, `lever-dropped` events; tests/core/test_levers.py'),
    ('3.3', 'no forceful pressing: debounce, glitches; penalty command',
     'done',
     'lever filter; `boot` events after a cut; `chessclock adjust SIDE +2m`, arbiter menu '
     '+2:00 (reason penalty)'
     '; tests/core/test_levers.py, test_engine.py'),
    ('3.4', 'an assistant; the arbiter cuts the time',
     'done',
     '`chessclock adjust SIDE -T` (logged `adjust` with a reason)'
     '; tests/core/test_engine.py'),
    ('3.5',
     'a move is made when the hand releases the piece (ACT 20, RAP 17): say so where a ruling '
     'rests on a press time',
     'done',
     '`claims.press_time_note`: printed in the moves check of `ruling`, `ruling complaint`, '
     '`ruling illegal-move` (king taken before/after the press); '
     'tests/host/test_knockout_rulings.py'),
    ('3.6', 'the arbiter edits the move counter; no claim rests on it nor on a demonstration '
     'board',
     'done',
     '`chessclock moves`, menu; `set-moves` logged; rulings call the counter advisory; '
     '`ruling ... --cites demo-board|screen|move-counter` says no claim rests on them; '
     'tests/host/test_rulings.py'),
    ('3.7', 'mark the last press as not a move',
     'done',
     '`chessclock undo`, menu; engine `undo_press` (the turn goes back to the side that '
     'pressed); a press that only restarts the offender\'s clock stands as a switch, its '
     'counter corrected with `chessclock moves`; tests/core/test_engine.py'),
    ('4.1', 'flag latched with its instant; the clock never declares a result',
     'done',
     'engine `flag_at`, `flag_order`; wall clock in the header; tests/core/test_engine.py'),
    ('4.2', 'missing the control loses unless the opponent cannot mate',
     'done',
     '`ruling` with `ruling/deadpos.py` (helpmate search); tests/host/test_rulings.py'),
    ('4.3', 'the old lists of dead endings',
     'done',
     "`ruling/rules.py` (`act1987`, `rap1990`, `br-knockout`: S3's K v K, K+B or K+N v K)"),
    ('4.4', "one side cannot mate and the other's flag falls (ACT 11d, RAP 10f)",
     'done',
     '`ruling` (`MATE_MATERIAL_LIST`, `MATE_LIST_UNLESS_SHOWN`)'),
    ('4.5', 'both flags: order recorded; ruling per rule set',
     'done',
     'engine `flag_order`, freeze option; `ruling` (Guidelines III.3.1); S3: referred unless '
     'the clocks were stopped between'),
    ('4.6', 'RAP 9: both flags down = draw',
     'done',
     '`rap1990`; preset `fide-5min-1990` (no freeze)'),
    ('4.7', "ACT: claim with one's own flag up; later flag after an unclaimed one = draw",
     'done',
     '`act1987`; preset `fide-active-1987` (no freeze)'),
    ('4.8', 'no signal of a flag in competition',
     'done',
     'presets `audible_flag=False`; tests/core/test_presets.py'),
    ('5.1', 'stopping the clocks; who resumed; resume by the arbiter',
     'done',
     'who resumed is logged (`resumed-by`: player, arbiter, host, refused); presets whose '
     "rules reserve it to the arbiter refuse a player's START (`clockapp/session.py`); "
     'tests/core/test_session.py, tests/host/test_session_cli.py'),
    ('5.2', 'dispute: clocks stopped; ACT appealable, RAP final; whether a ruling was '
     'appealed, and to which body',
     'done',
     'stops in every ruling; `appeal` per rule set in the incident report; `ruling ... '
     '--appealed-on DATE` records an appeal, its body and whether in time; `chessclock '
     'deadline appeal --rules R --from DATE [--filed DATE]` (the body, the deadline, in '
     'time or not; `--rules cxeb --decided-by ...`: S0 Art. 42-43)'),
    ('5.3', 'the arbiter touches the clock only in a dispute: arbiter mode, logged',
     'done',
     'opening and closing the arbiter menu logged (`arbiter`); tests/core/test_session.py, '
     'tests/host/test_session_cli.py'),
    ('5.4', 'White reports a draw: result entry',
     'done',
     'result entry: arbiter menu `End` (1-0, 0-1, 1/2, none) or `chessclock result`; log '
     '`result`, PGN `Result`; tests/core/test_session.py, tests/host/test_session_cli.py'),
    ('5.5', 'play under protest: incident mark with both times and the time of day',
     'done',
     'incident mark without pausing: PLUS held 2 s or `chessclock incident`; both clocks, '
     'counters, time of day in `log export`; tests/core/test_session.py, '
     'tests/host/test_session_cli.py'),
    ('5.6', 'unsettled incident: suspend with a sealed move',
     'done',
     'the same seal mode as §8 (docs/ADJOURNMENT.md); tests/core/test_seal.py, '
     'tests/host/test_adjourn.py'),
    ('6.1', '+2 min to the opponent, reasons, catalogue',
     'done',
     '`chessclock adjust SIDE +2m`, menu +2:00; reason codes (docs/EVENT-LOG.md)'
     '; tests/core/test_engine.py, test_app_sim.py'),
    ('6.2', 'ACT 14 draw claims with one\'s flag up; false claim +2 min (and RAP 10d: '
     'perpetual check or a forced repetition is a draw)',
     'done',
     '`chessclock ruling draw-claim --rules act1987 --ground perpetual|no-chances --own-flag '
     'up|fallen [--found ...]`: the ACT 14b list of material pairs, only the side with the '
     'advantage; `--rules rap1990 --ground perpetual|repetition --pgn` (python-chess '
     'repetitions, checks in the cycle)'),
    ('6.3',
     'readings conclusive; faulty clock replaced; state saved, low battery, watchdog',
     'done',
     '`clockapp/gamestate.py`, watchdog, battery and fuel gauge (docs/FIRMWARE.md); '
     '`chessclock ruling replace`, `settime`; tests/core/test_app_sim.py (power cuts)'),
    ('6.4', 'after an irregularity the arbiter sets the times: rewind proposal',
     'done',
     '`chessclock ruling replace LOG --at-seq N`'),
    ('6.5', 'illegal move: loss (S3), claim-win (RAP), +2 min (ACT, FIDE)',
     'done',
     '`chessclock ruling illegal-move --move e1f2` (`ruling/illegal.py`; rule set field '
     '`illegal_kind`); tests/host/test_knockout_rulings.py'),
    ('6.6',
     'RAP 8c: win if claimed before touching a piece; king taken before the press = draw',
     'done',
     '`ruling illegal-move --rules rap1990 --claim ... --king-captured ...`'),
    ('6.7', 'unnoticed illegal moves stand; ACT: both kings in check, retract or draw',
     'done',
     '`ruling illegal-move --noticed later`, `ruling both-kings [--retracted FEN]`'),
    ('7.1', 'score until one has under 5 min: silent low-time mark',
     'done',
     'low-time mark (5:00) logged (`low-time`), silent in competition presets; '
     'tests/core/test_session.py, tests/host/test_session_cli.py'),
    ('7.2', 'RAP 10g: 30 s draw-claim threshold; tenths under 20 s',
     'done',
     'RAP 10g 30 s threshold checked at each stop (`status` while paused, each pause in `log '
     'export`) for `fide-5min-1990`; tenths under 20 s; tests/core/test_session.py, '
     'tests/host/test_session_cli.py'),
    ('7.3', 'rules posted 30 min before; at most 6 Active rounds a day',
     'done',
     '`chessclock rounds check --rules act1987|rap1990 --posted WHEN --start WHEN ...`'),
    ('8.1', 'sealing within 15 min, alert, snapshot',
     'done',
     'seal mode: hold MENU 2 s while a clock runs, or `chessclock seal start`; `SEAL` shown, '
     '15-minute alert `SL15` (logged at the 15:00 mark); docs/ADJOURNMENT.md; '
     'tests/core/test_seal.py, tests/host/test_adjourn.py'),
    ('8.2', 'the sealed move unchangeable: hashed snapshot',
     'done',
     '`chessclock seal done --move M [--pieces W/B]`: a salted hash on the clock, the '
     "snapshot's SHA-256 in the log (`sealed`), `adjourn show --move --salt` checks the "
     'envelope (piece counts given by the arbiter); tests/core/test_seal.py, '
     'tests/host/test_adjourn.py'),
    ('8.3', 'resume an adjourned game, possibly on another clock; the default time at the '
     'resumption',
     'done',
     '`chessclock adjourn export FILE` / `adjourn resume FILE [--start|--at HH:MM [--default '
     '60m]]` on the same or another clock, times, counters and stage kept, hash checked; the '
     'clock starts the side to move at --at and logs who is absent after the default time; '
     '`simulate --export-adjourned/--adjourned`; tests/core/test_seal.py, '
     'tests/host/test_adjourn.py'),
    ('8.4', 'finish with 15 min each; append a stage',
     'done',
     '`chessclock addstage both 15m`, `add-increment`, preset `fce-finish-15`, on a resumed '
     'adjourned game; tests/core/test_seal.py, tests/host/test_adjourn.py'),
    ('8.5', 'games over several sessions',
     'done',
     "session counter; the same snapshot hash in both clocks' logs; the log and PGN continue "
     'across sessions; tests/core/test_seal.py, tests/host/test_adjourn.py'),
    ('9.1', 'incident annex from the log',
     'done',
     '`chessclock ruling ... --incident out.md` (`ruling/report.py`)'),
    ('9.2', 'tamper-evident log, verify',
     'done',
     'hash chain, HMAC (`chessclock log verify`); tests/host/test_log_authentic.py'),
    ('9.3', 'the report lists every stop, claim, penalty, adjustment',
     'done',
     '`ruling` facts (`Facts.lines`)'),
    ('9.4', 'keep records 60 days',
     'done',
     '`chessclock retention ARCHIVE --published DATE [--days N] [--hold FILE]`: what may be '
     'discarded, what must be kept (nothing is deleted); `corr` keeps its own'),
    ('9.5', 'PGN export with TimeControl and [%clk]; CSV/JSON',
     'done',
     '`chessclock log export --format pgn\\|csv\\|jsonl`; tests/host/test_log_tools.py'),
    ('9.6', 'DISC/RGC deadlines calculator',
     'done',
     '`chessclock deadline KIND --from DATE [--holiday D] [--holidays FILE] [--saturdays]`: '
     'DISC 12.5, 16c, 22-26 and RGC 5.5.1; working days Monday to Friday less the holidays '
     'given'),
    ('10.1', 'single elimination: bracket, colours by lot, the winner of the last game wins',
     'done',
     '`chessclock knockout draw PLAYERS.txt --out BRACKET.json [--lot N]`, `knockout result '
     'BRACKET.json --game N --winner white|black`, `knockout show`'),
    ('10.2', 'the "last 5 moves" draw claim, N a parameter (FIDE 50/75)',
     'done',
     '`chessclock ruling draw-claim --pgn SHEET.pgn --rules br-knockout [--moves N]` '
     '(python-chess halfmove clock); agreement with a walk of the scoresheet and with '
     "python-chess's 50-move rule (hypothesis); tests/host/test_knockout_rulings.py"),
    ('10.3', 'play-off of at most 10 moves each; king or material points',
     'done',
     'preset `br-playoff` (engine `move_limit`, event `limit` 17, on MicroPython: '
     'tests/core/test_playoff.py, tests/mp_only/test_alloc.py); `chessclock simulate '
     '--move-limit N`; `chessclock ruling playoff --pgn\\|--fen`; log replay: '
     'tests/host/test_knockout_rulings.py'),
    ('10.4',
     'touch-move, castling, en passant, promotion; omitted cases to the Organising Committee: '
     '"referred"',
     'done',
     '`br-knockout` rulings record `RESULT: referred` with the reason (JSON `referred`); '
     'tests/host/test_knockout_rulings.py'),
    ('11.1', 'per-move ledger and e-mail text',
     'done',
     '`chessclock corr ledger` (every move with its days), `corr email` (the Art. 3 text: '
     'dates, this move\'s days, both totals); `corr/exchange.py`; docs/CORRESPONDENCE.md'),
    ('11.2', '40 days per 10 moves, transit',
     'done',
     'series from the preset `cxeb-correspondence` (`corr/model.py` `budget`); transit '
     'counts for neither side, over 1 day it is marked and `corr due` says to report it'),
    ('11.3', 'official start, thematic openings',
     'done',
     '`corr event --start`, `--theme` (checked with python-chess); days up to the start are '
     '`before_start`; a first move sent before the start is an early start'),
    ('11.4', 'carry-over, cumulative excess',
     'done',
     '40, 80, 120... days checked after every move and on the move in progress '
     '(`corr/ledger.py`)'),
    ('11.5', '12-day notice, double counting',
     'done',
     '`corr notice`; counted days from the 13th count twice without it'),
    ('11.6', 'fines for illegal moves',
     'partly: Art. 7 §4 is not checked (an incomplete move completed, not replaced by '
     'another move)',
     'moves read with python-chess, refused with their article and the fine named '
     '(`corr/notation.py`); `corr fine` (`--conditional`, `--late`, `--both`), '
     '`corr correct --from`'),
    ('11.7', 'conditional moves, average transit',
     'done',
     '`corr move --propose`, `--accept`; a missing receipt date set from the mean transit '
     '(marked `*`)'),
    ('11.8', 'reminders, abandonment',
     'done',
     '`corr due`, `remind`, `ack` (`corr/reminders.py`); `corr leave --kind outage`'),
    ('11.9', 'excess claims',
     'done',
     '`corr claim`, `contest`, `decide`, `claim-file`: a state machine per claim '
     '(`corr/ledger.py`, `corr/package.py`)'),
    ('11.10', 'leave',
     'done',
     '`corr leave` (normal days split, one special leave, `--retroactive`, `--notified`)'),
    ('11.11', 'yearly recess',
     'done',
     '`corr/dates.py` (working days Monday to Friday, 1 January off); `corr event '
     '--holiday`, `corr holiday`'),
    ('11.12', 'director deadlines, outages, end of event',
     'partly: Art. 24 (a series of moves ordered with a copy to the director) and Art. 26 '
     '(the grounds for an elimination) are not done',
     '`corr ask`, `answer` (Art. 23); `corr leave --kind outage` (Art. 25); `corr withdraw` '
     '(Art. 27); `corr package` (Art. 31-42); the append-only store (comment on Art. 6)'),
]
