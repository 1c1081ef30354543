"""Rulings from a clock's log and the board: what happened and what the Laws say about it.

The modules import one way only, each from those above it:

- events: the input (a clock's log or JSON Lines of its events, verified; the control;
  durations), the one error of bad input (RulingError);
- facts: what the log shows, walked once (Facts), a correction in words, the clock's state
  at a point (state_at);
- rules: the rule sets as data (RuleSet), each topic with its article;
- position: the board side of the input (a scoresheet, a FEN, a move as played);
- deadpos: can a side still checkmate (a helpmate search);
- verdict: the Ruling a ruling builds, and the steps every ruling shares;
- flag, late, replace, illegal, claims, playoff: the rulings;
- report: the picture, the HTML page and the incident report of a ruling.

The `chessclock ruling` command over them is chessclock.commands.ruling.
"""
