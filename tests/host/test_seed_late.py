"""Worked examples of a late arrival per rule set (`chessclock ruling late`): each rule set
answers with its own rules. The FCE regulations (RGC 12.1-12.2) have the 90-minute wait and
the 60/40 split for a visitor from another town, counted by the club's town; the FIDE Laws
have only the default time (6.7.1) and say the split is outside them."""

import json

import pytest
from cliutil import run_cli


def late(*argv):
    code, out, err = run_cli(["ruling", "late", "--json", *argv])
    assert code == 0, err
    d = json.loads(out)
    d["text"] = " ".join(x["text"] for x in d["ruling"])
    d["articles"] = [x["article"] for x in d["ruling"]]
    return d


@pytest.mark.seed("RGC 12.1", item="2.5")
def test_rgc_12_1_the_fce_rules_split_75_minutes_60_40():
    d = late("--elapsed", "75m", "--visitor", "white", "--rules", "fce-rgc1990",
             "--control", "90m")
    assert d["split"] == {"white": 45 * 60000, "black": 30 * 60000}
    assert d["times"] == {"white": 45 * 60000, "black": 60 * 60000}
    assert "RGC 12.1" in d["articles"] and d["result"] == "*"


@pytest.mark.seed("FIDE 6.7.1", item="2.4")
def test_fide_2023_answers_with_its_default_time_and_says_the_split_is_outside_it():
    d = late("--elapsed", "75m", "--visitor", "white")       # the default rule set
    assert d["rules"] == "fide2023"
    assert d.get("split") is None and "times" not in d
    assert "not part of FIDE Laws of Chess (2023)" in d["text"]
    assert "RGC 12.1" not in d["articles"]
    assert d["result"] == "0-1"                              # default time 0 (6.7.1)
    d = late("--elapsed", "20m", "--visitor", "black", "--default-time", "30m")
    assert d["result"] == "*" and "within the default time" in d["text"]
    d = late("--elapsed", "31m", "--visitor", "black", "--default-time", "30m")
    assert d["result"] == "1-0"


@pytest.mark.seed("S1 6.7", item="2.4")
def test_the_1990_rules_default_after_an_hour_without_the_split():
    d = late("--elapsed", "59m", "--visitor", "white", "--rules", "act1987")
    assert d["result"] == "*" and d.get("split") is None
    d = late("--elapsed", "61m", "--visitor", "white", "--rules", "rap1990")
    assert d["result"] == "0-1"


@pytest.mark.seed("RGC 12.2", item="2.5")
def test_rgc_12_2_a_player_counts_as_from_his_clubs_town():
    # the visitor lives elsewhere, but his club is in the home club's town: no 90-minute
    # wait, no split; after the hour he loses
    d = late("--elapsed", "75m", "--visitor", "black", "--rules", "fce-rgc1990",
             "--home-town", "Sabadell", "--visitor-town", "sabadell")
    assert d["result"] == "1-0" and d.get("split") is None
    assert "RGC 12.2" in d["articles"]
    d = late("--elapsed", "50m", "--visitor", "black", "--rules", "fce-rgc1990",
             "--home-town", "Sabadell", "--visitor-town", "Sabadell")
    assert d["result"] == "*" and d.get("split") is None
    # clubs in different towns: the split
    d = late("--elapsed", "75m", "--visitor", "black", "--rules", "fce-rgc1990",
             "--home-town", "Sabadell", "--visitor-town", "Reus")
    assert d["split"] == {"black": 45 * 60000, "white": 30 * 60000}
    assert "RGC 12.2" in d["articles"]
    d = late("--elapsed", "91m", "--visitor", "black", "--rules", "fce-rgc1990",
             "--home-town", "Sabadell", "--visitor-town", "Reus")
    assert d["result"] == "1-0"


@pytest.mark.parametrize("argv,message", [
    (["--elapsed", "75m", "--visitor", "black", "--home-town", "Reus"], "both --home-town"),
    (["--elapsed", "75m", "--visitor", "black", "--home-town", " ", "--visitor-town", "x"],
     "name a town"),
    (["--elapsed", "75m"], "--visitor"),
    (["--elapsed", "soon", "--visitor", "white"], "soon"),
])
def test_late_bad_input(argv, message):
    code, out, err = run_cli(["ruling", "late", *argv])
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.seed("S3", item="2.4")
def test_s3_sets_no_default_time_so_a_late_arrival_is_referred():
    d = late("--elapsed", "10m", "--visitor", "white", "--rules", "br-knockout")
    assert d["result"] == "referred" and "no default time" in d["referred"]
    # the organisers may set one: then it decides
    d = late("--elapsed", "10m", "--visitor", "white", "--rules", "br-knockout",
             "--default-time", "15m")
    assert d["result"] == "*"
