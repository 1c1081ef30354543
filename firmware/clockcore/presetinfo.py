"""The shipped presets' titles and the rules they follow, by key (clockcore/presets.py):
for the host's lists (`chessclock presets`); a clock never loads this module."""

TEXTS = {
    "fide-classical": ("FIDE classical: 90 min/40 moves + 30 min, +30 s from move 1",
                       "FIDE Laws 2023 Art. 6; Handbook C.02"),
    "fide-rapid": ("FIDE rapid: 15 min + 10 s", "FIDE Laws 2023 Appendix A (Rapid)"),
    "fide-blitz": ("FIDE blitz: 3 min + 2 s", "FIDE Laws 2023 Appendix B (Blitz)"),
    "armageddon": ("Armageddon: White 5 min, Black 4 min, +2 s from move 61",
                   "FIDE World Blitz Championship 2018 regulations, Armageddon tie-break"),
    "us-g90-d5": ("US: G/90 with 5 s delay",
                  "US Chess Official Rules (7th ed.), sudden death with delay"),
    "fide-5min-1990": ("FIDE 5-minute chess (1990): 5 min sudden death",
                       "FCE Butlletí 54 (1990), RAP 1, 9"),
    "fide-active-1987": ("FIDE active chess (1987): 30 min sudden death", "ACT 1-2, 9c"),
    "fide-active-1987-inc": ("FIDE active chess (1987), Fischer clock: 30 min + 10 s",
                             "ACT 22"),
    "fce-six-hour": ("FCE: 40 moves in 2 h, then 20 moves per hour", "RGC 5.3.1.1"),
    "wc-2008-first": ("World Championship 2008, first control: 40 moves in 120 min",
                      "S1 commentary 6.2b"),
    "cxeb-correspondence": ("Correspondence: 10 moves in 40 days, repeating", "CXEB Art. 12"),
    "fce-finish-15": ("FCE finish: 15 min sudden death", "RGC 10.1"),
    "br-playoff": ("Knockout play-off: at most 10 moves each, 5 min each",
                   "S3 4.1 (Brazilian knockout rules)"),
}
