"""The reference Vision engine, driven through the Engine protocol only.

Every expected value below is read from the seed (000_fb81adb92f735097.txt,
indexed in cases/vision/rules.yaml), quoted in the scenario's docstring,
never copied from the engine's output.  A scenario returns a small value; the
reference must produce the seed's value, and every mutant must produce a
different one on at least one scenario (no mutant is equivalent).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance import Engine, Unsupported
from conformance._catalogue import load_catalogue
from conformance._loading import load_engine
from conformance._runner import Runner
from conformance._settings import get_profile
from reference_engine import MUTANTS, RULESETS, create_engine, list_mutants

# The rule ids agreed with the catalogue writer; every one must be broken by a mutant.
RULE_IDS = {
    "vision/IR-12/p1", "vision/IR-12/p2", "vision/IR-12/p3", "vision/IR-12/p4",
    "vision/IR-12.3", "vision/IR-12.3.1", "vision/ex-12.3.1", "vision/IR-12.3.2",
    "vision/QA-2014-11-27", "vision/QA-269", "vision/QA-356",
    "vision/IR-6.1.10", "vision/IR-6.1.10.a", "vision/IR-6.1.10.b", "vision/IR-6.1.10.c",
    "vision/IR-6.1.10.d", "vision/QA-298", "vision/QA-363",
    "vision/IR-9.2.2", "vision/IR-9.2.2.a", "vision/IR-9.2.2.b", "vision/IR-9.2.2.c",
    "vision/IR-1.10.12.f", "vision/QA-2013-11-13", "vision/IR-2.12.3",
    "vision/IR-12.4", "vision/IR-12.4/p1", "vision/IR-12.4/p2", "vision/IR-12.4/supplement",
    "vision/QA-020", "vision/QA-102",
    "vision/IR-3.2.5", "vision/IR-3.2.5.a", "vision/IR-3.2.5.b",
}


# -- helpers ---------------------------------------------------------------------------

def char(cid: str, power: str = "1/1", **kw: Any) -> dict[str, Any]:
    return {"id": cid, "type": "character", "power": power, **kw}


def spell(cid: str, **kw: Any) -> dict[str, Any]:
    return {"id": cid, "type": "spell", **kw}


def cards(*ids: str) -> list[dict[str, Any]]:
    return [{"id": i, "type": "spell"} for i in ids]


def start(setup: dict[str, Any], mutant: str | None = None) -> Engine:
    engine = create_engine(mutant)
    engine.start("vision", setup)
    return engine


def do(engine: Engine, action: dict[str, Any]) -> list[dict[str, Any]]:
    reply = engine.act(action)
    assert reply["accepted"], reply
    return reply["events"]


def resolve(engine: Engine, effect: list[dict[str, Any]], *, by: str = "p1",
            source: str | None = None, targets: list[str] | None = None) -> list[dict]:
    spec: dict[str, Any] = {"by": by, "effect": effect}
    if source:
        spec["source"] = source
    if targets:
        spec["targets"] = targets
    return do(engine, {"resolve": spec})


def seen(engine: Engine, cid: str) -> dict[str, Any]:
    return engine.observe()["cards"][cid]


def holds(observed: dict[str, Any], **expected: Any) -> bool:
    """Partial match, as cases use it: every expected key is present and equal."""
    return all(observed.get(k) == v for k, v in expected.items())


def power(engine: Engine, cid: str) -> tuple[int, int]:
    card = seen(engine, cid)
    return card["attack"], card["durability"]


def kinds(events: list[dict[str, Any]], wanted: tuple[str, ...] = ()) -> list[str]:
    return [e["type"] for e in events if not wanted or e["type"] in wanted]


def completed(events: list[dict[str, Any]]) -> bool:
    return [e for e in events if e["type"] == "resolved"][-1]["completed"]


def mod(kind: str, target: Any = "chosen", **values: Any) -> dict[str, Any]:
    return {"power": {"target": target, "kind": kind, **values}}


DRAW1 = {"draw": {"player": "self", "count": 1}}

# -- chapter 12: resolution --------------------------------------------------------------

def s_head_first(m: str | None) -> Any:
    """IR-12/p1 「効果は解決の際、文章の頭から順に適用していく。」

    Draw, then discard the card just drawn."""
    e = start({"p1": {"deck": cards("a", "b")}}, m)
    events = resolve(e, [DRAW1, {"discard": {"player": "self", "count": 1}}])
    return seen(e, "a")["zone"], completed(events)


def s_whole_text_order(m: str | None) -> Any:
    """IR-12/p1: one effect, parts in text order: the damage events come t1 then t2."""
    e = start({"p2": {"field": [char("t1", "1/5"), char("t2", "1/5")]}}, m)
    events = resolve(e, [{"damage": {"target": {"card": "t1"}, "amount": 1}},
                         {"damage": {"target": {"card": "t2"}, "amount": 1}}])
    return [ev["card"] for ev in events if ev["type"] == "damage"]


def s_failed_part_stops(m: str | None) -> Any:
    """IR-12/p2 「正しく適用されない場合、その部分以降の文章は適用されない。」"""
    e = start({"p1": {"deck": cards("d")},
               "p2": {"field": [char("im", "1/5", immune=["destroy"])]}}, m)
    events = resolve(e, [{"destroy": {"target": {"card": "im"}}}, DRAW1])
    return seen(e, "d")["zone"], completed(events)


def s_all_partial(m: str | None) -> Any:
    """IR-12/p3 「全て」の一部に正しく適用されない場合でも、効果の解決に成功したものとして扱う。"""
    e = start({"p1": {"deck": cards("d")},
               "p2": {"field": [char("im", "1/5", immune=["destroy"]), char("v")]}}, m)
    events = resolve(e, [{"destroy": {"target": {"all": {"controller": "opponent"}}}}, DRAW1])
    return seen(e, "v")["zone"], seen(e, "im")["zone"], seen(e, "d")["zone"], completed(events)


def s_all_zero(m: str | None) -> Any:
    """IR-12/p4 対象が０枚である場合でも、対象として適切である。"""
    e = start({"p1": {"deck": cards("d")}, "p2": {"field": [char("v", name="v")]}}, m)
    events = resolve(e, [{"destroy": {"target": {"all": {"name_ref": "存在しない"}}}}, DRAW1])
    return seen(e, "d")["zone"], completed(events)


# -- 12.3: names -------------------------------------------------------------------------

def s_example_12_3_1(m: str | None) -> Any:
    """ex-12.3.1: 「博麗 霊夢」 refers to No.178 「符ノ壱“博麗 霊夢”」,
    not to No.143 「博麗神社」 (一部しか含んでいない)."""
    e = start({"p2": {"field": [char("r178", "1/5", number=178, name="符ノ壱“博麗 霊夢”"),
                                spell("j143", number=143, name="博麗神社")]}}, m)
    resolve(e, [{"destroy": {"target": {"all": {"name_ref": "博麗 霊夢"}}}}])
    return seen(e, "r178")["zone"], seen(e, "j143")["zone"]


def s_reference_sees_link_names(m: str | None) -> Any:
    """IR-12.3 / QA-2014-11-27: a linked character is treated as also named X and Y."""
    e = start({"p2": {"field": [char("L", "1/5", name="A", link_names=["X", "Y"])]}}, m)
    resolve(e, [{"destroy": {"target": {"all": {"name_ref": "X"}}}}])
    return seen(e, "L")["zone"]


def s_same_name(m: str | None) -> Any:
    """IR-12.3.2 同じ名称 = 名称が過不足無く一致する: 霊夢 is not the same name as 博麗 霊夢."""
    e = start({"p2": {"field": [char("c1", name="霊夢"), char("c2", name="霊夢"),
                                char("c3", name="博麗 霊夢")]}}, m)
    resolve(e, [{"destroy": {"target": {"all": {"same_name_as": "c1", "not": "c1"}}}}])
    return seen(e, "c2")["zone"], seen(e, "c3")["zone"]


def s_disguise(m: str | None) -> Any:
    """QA-2014-11-27: after 変装 to B the character has names B, X and Y."""
    e = start({"p1": {"field": [char("c", name="A", link_names=["X", "Y"])]}}, m)
    resolve(e, [{"change_name": {"target": "chosen", "name": "B"}}], targets=["c"])
    return seen(e, "c")["names"]


# -- QA-269: X --------------------------------------------------------------------------

def s_x_is_nodes_paid(m: str | None) -> Any:
    """QA-269 コストを－１する効果が発生しているときに…ノードから４支払った場合、
    Ｘは４となります。"""
    e = start({"p1": {"nodes": 6,
                      "hand": [spell("s1", cost="X", texts=[{"kind": "play", "effect": [
                          {"damage": {"target": "chosen", "amount": "X"}}]}])],
                      "field": [spell("c1", texts=[{"kind": "continuous",
                                                    "modifier": {"cost": -1}}])]},
               "p2": {"field": [char("t1", "1/9")]}}, m)
    do(e, {"play": "s1", "by": "p1", "pay_nodes": 4, "targets": ["t1"]})
    return seen(e, "t1")["damage"], e.observe()["players"]["p1"]["nodes"]


# -- 6.1.10: combat power ------------------------------------------------------------------

def _modded(m: str | None, printed: str, *mods: dict[str, Any]) -> tuple[int, int]:
    e = start({"p1": {"field": [char("c", printed)]}}, m)
    for instruction in mods:
        resolve(e, [instruction], targets=["c"])
    return power(e, "c")


def s_change_before_add(m: str | None) -> Any:
    """6.1.10.a then .c: +1/+1 arrives first, change to 4/4 later: change, then add → 5/5."""
    return _modded(m, "2/2", mod("add", attack=1, durability=1),
                   mod("change", attack=4, durability=4))


def s_change_before_swap(m: str | None) -> Any:
    """6.1.10.a then .b: 1/3 swapped first, attack changed to 5 later: 5/3 swapped → 3/5."""
    return _modded(m, "1/3", mod("swap"), mod("change", attack=5))


def s_swap_before_add(m: str | None) -> Any:
    """6.1.10.b then .c: 1/3, +2/+0 arrives first, swap later: swap 3/1, then add → 5/1."""
    return _modded(m, "1/3", mod("add", attack=2, durability=0), mod("swap"))


def s_always_last(m: str | None) -> Any:
    """6.1.10.d 常に、と指定された変動 comes last: always 1/1 beats a later +2/+2."""
    return _modded(m, "2/2", mod("always", attack=1, durability=1),
                   mod("add", attack=2, durability=2))


def s_last_change_wins(m: str | None) -> Any:
    """QA-298 一番最後に適用される変更の内容に変更されます: change 5/5 then 1/1 → 1/1."""
    return _modded(m, "2/2", mod("change", attack=5, durability=5),
                   mod("change", attack=1, durability=1))


def _variable_board(m: str | None) -> Engine:
    # No.770's change (X/X, X = the character's cost) and a No.774-like variable
    # power; the variable's count is reconstructed (the seed prints neither text).
    return start({"p1": {
        "hand": [char("v774", "X/X", x={"count": "hand", "player": "self"}, cost=4),
                 *cards("h1", "h2", "h3")],
        "field": [spell("k", texts=[{"kind": "continuous",
                                     "modifier": {"kind": "change", "attack": 1,
                                                  "durability": 1},
                                     "applies_to": {"all": {"type": "character"}}}])]}}, m)


def s_variable_then_change(m: str | None) -> Any:
    """QA-356: the variable is fixed first, the change always wins, even if the change was
    in force before the variable-power character entered."""
    e = _variable_board(m)
    do(e, {"put_onto_field": "v774", "by": "p1"})
    return power(e, "v774")


def s_change_after_variable(m: str | None) -> Any:
    """QA-356 with No.770's own modifier: X/X with X = this character's cost (4)."""
    e = start({"p1": {"field": [char("v774", "X/X", cost=4,
                                     x={"count": "hand", "player": "self"})],
                      "hand": cards("h1")}}, m)
    resolve(e, [mod("change", attack="X", durability="X", x="cost")], targets=["v774"])
    return power(e, "v774")


def s_recomputed_when_source_leaves(m: str | None) -> Any:
    """6.1.10 この処理は戦闘力への修正に何らかの変更がある度に行う: +1/+1 ends with its source."""
    e = start({"p1": {"field": [char("c", "2/2"), spell("s", texts=[
        {"kind": "continuous", "modifier": {"kind": "add", "attack": 1, "durability": 1},
         "applies_to": {"all": {"type": "character", "controller": "self"}}}])]}}, m)
    before = power(e, "c")
    resolve(e, [{"destroy": {"target": {"card": "s"}}}])
    return before, power(e, "c")


def s_variable_recomputed(m: str | None) -> Any:
    """6.1.10: 変数の値を確定 each time: X/X counting the hand grows as the hand grows."""
    e = start({"p1": {"field": [char("v", "X/X", x={"count": "hand", "player": "self"})],
                      "hand": cards("h1"), "deck": cards("d1")}}, m)
    before = power(e, "v")
    do(e, {"draw": {"player": "p1", "count": 1}})
    return before, power(e, "v")


# -- 9.2.2, 1.10.12.f, QA-363, QA 2013-11-13: deathblow ------------------------------------

def s_damage_equals_durability(m: str | None) -> Any:
    """9.2.2.a 耐久力以上のダメージが蓄積される: 3 battle damage on 1/3 → deathblow; 2 does not."""
    e = start({"p1": {"field": [char("a", "3/3")]},
               "p2": {"field": [char("t", "1/3"), char("u", "1/3")]}}, m)
    do(e, {"battle_damage": {"target": "u", "amount": 2, "source": "a"}})
    do(e, {"battle_damage": {"target": "t", "amount": 3, "source": "a"}})
    return seen(e, "t")["deathblow"], seen(e, "u")["deathblow"]


def _yuyuko_board(m: str | None, extra_field: list[dict] | None = None) -> Engine:
    # QA 2013-11-13: No.1280 (opponent, reconstructed) lowers durability by 3; No.1211
    # on our side returns a character put into deathblow by an effect of the opponent's
    # card (its printed text).
    shizaru = spell("s1211", number=1211, name="四猿ちゃん", texts=[
        {"kind": "auto", "when": {"event": "deathblow_by_opponent_effect",
                                  "filter": {"controller": "self"}},
         "effect": [{"return_to_hand": {"target": "chosen"}}]}])
    return start({
        "p1": {"hand": [char("c", "1/3"), char("im", "1/3", immune=["deathblow"])],
               "field": [shizaru, *(extra_field or [])]},
        "p2": {"field": [spell("y1280", number=1280, name="西行寺 幽々子", texts=[
            {"kind": "continuous", "modifier": {"kind": "add", "durability": -3},
             "applies_to": {"all": {"controller": "opponent", "type": "character"}}}])]}}, m)


def s_durability_zero(m: str | None) -> Any:
    """9.2.2.b 耐久力が０以下になる: a 1/3 under -3 durability is put into deathblow."""
    e = start({"p1": {"hand": [char("c", "1/3")]},
               "p2": {"field": [spell("y", texts=[
                   {"kind": "continuous", "modifier": {"kind": "add", "durability": -3},
                    "applies_to": {"all": {"controller": "opponent"}}}])]}}, m)
    do(e, {"play": "c", "by": "p1", "pay_nodes": 0})
    return seen(e, "c")["deathblow"], seen(e, "c")["zone"]


def s_durability_beats_effects(m: str | None) -> Any:
    """QA 2013-11-13 出来ません / 9.2.2.b このルールはカードの効果に優先する: the character is
    not returned to hand, and a "cannot be put into deathblow" card is not spared."""
    e = _yuyuko_board(m)
    do(e, {"play": "c", "by": "p1", "pay_nodes": 0})
    do(e, {"play": "im", "by": "p1", "pay_nodes": 0})
    return seen(e, "c")["zone"], seen(e, "c")["deathblow"], seen(e, "im")["deathblow"]


def s_damage_deathblow_can_be_replaced(m: str | None) -> Any:
    """Control for QA 2013-11-13: a deathblow from the opponent's effect damage (.a) is
    "by an effect of the opponent's card", so No.1211 returns it after it is in
    決死状態; the battle damage one is not (reading deathblow-by-card-effect)."""
    e = _yuyuko_board(m, [char("c2", "1/5"), char("c3", "1/5")])
    resolve(e, [{"damage": {"target": {"card": "c2"}, "amount": 2}}], by="p2",
            source="y1280")
    do(e, {"battle_damage": {"target": "c3", "amount": 2}})
    return (seen(e, "c2")["zone"], seen(e, "c2")["deathblow"], seen(e, "c3")["zone"])


def s_shisaru_by_effect_only(m: str | None) -> Any:
    """QA 2013-11-13 出来ません: under No.1280's -3 the entering c is not returned (a 9.2.2.b
    deathblow is not "by an effect"); the opponent's battle damage is not an effect
    either (c3 stays dead); the opponent's effect damage is (c2 returns)."""
    e = _yuyuko_board(m, [char("c2", "1/5"), char("c3", "1/5")])
    do(e, {"play": "c", "by": "p1", "pay_nodes": 0})
    do(e, {"battle_damage": {"target": "c3", "amount": 2, "source": "y1280"}})
    resolve(e, [{"damage": {"target": {"card": "c2"}, "amount": 2}}], by="p2",
            source="y1280")
    return seen(e, "c")["zone"], seen(e, "c3")["zone"], seen(e, "c2")["zone"]


def s_deathblow_instruction(m: str | None) -> Any:
    """9.2.2.c 決死状態にする、という効果が適用される: a 5/5 with no damage."""
    e = start({"p1": {"field": [char("s", "1/1")]}, "p2": {"field": [char("t", "5/5")]}}, m)
    resolve(e, [{"deathblow": {"target": "chosen"}}], source="s", targets=["t"])
    card = seen(e, "t")
    return card["deathblow"], card["deathblow_cause"], card["zone"]


def s_deathblow_cause(m: str | None) -> Any:
    """1.10.12.f 決死状態にしたのは、この処理を直接発生させたダメージの発生源であるものとする:
    the card whose damage completed it (battle: a, effect: its source s)."""
    e = start({"p1": {"field": [char("a", "3/3"), char("s", "1/1")]},
               "p2": {"field": [char("t", "1/3"), char("u", "1/3")]}}, m)
    do(e, {"battle_damage": {"target": "t", "amount": 1, "source": "s"}})
    do(e, {"battle_damage": {"target": "t", "amount": 2, "source": "a"}})
    resolve(e, [{"damage": {"target": {"card": "u"}, "amount": 3}}], source="s")
    return seen(e, "t")["deathblow_cause"], seen(e, "u")["deathblow_cause"]


def s_by_battle(m: str | None) -> Any:
    """QA-363 戦闘ダメージによって決死状態になった場合のみ条件を満たします。"""
    e = start({"p1": {"deck": cards("d1", "d2"),
                      "field": [char("a", "3/3"), spell("w", texts=[
                          {"kind": "auto", "when": {"event": "deathblow_by_battle",
                                                    "filter": {"controller": "opponent"}},
                           "effect": [DRAW1]}])]},
               "p2": {"field": [char("t", "1/3"), char("u", "1/3")]}}, m)
    do(e, {"battle_damage": {"target": "t", "amount": 3, "source": "a"}})
    resolve(e, [{"damage": {"target": {"card": "u"}, "amount": 3}}], source="a")
    return (seen(e, "t")["deathblow_by_battle"], seen(e, "u")["deathblow_by_battle"],
            len(e.observe()["players"]["p1"]["hand"]))


# -- 2.12.3, 12.4: negation ------------------------------------------------------------

def _self_buff(unnegatable: bool) -> dict[str, Any]:
    return {"kind": "continuous", "unnegatable": unnegatable,
            "modifier": {"kind": "add", "attack": 1, "durability": 1}, "applies_to": "this"}


def s_negated_text(m: str | None) -> Any:
    """2.12.3 テキストが無効になった場合…全ての効果は発生せず:
    its +1/+1 stops and its auto effect no longer fires."""
    watcher = {"kind": "auto", "when": {"event": "enters_field", "filter": {}},
               "effect": [DRAW1]}
    e = start({"p1": {"deck": cards("d"), "hand": [char("n", "1/1")],
                      "field": [char("k", "2/2", texts=[_self_buff(False), watcher])]}}, m)
    resolve(e, [{"negate_text": {"target": "chosen"}}], targets=["k"])
    do(e, {"put_onto_field": "n", "by": "p1"})
    return power(e, "k"), seen(e, "k")["negated"], seen(e, "d")["zone"]


def s_brackets_survive(m: str | None) -> Any:
    """12.4/p1 テキスト全体を無効にする場合でも、無効に出来ない記述は無効にならない。"""
    e = start({"p1": {"field": [char("k", "2/2", texts=[_self_buff(True)])]}}, m)
    resolve(e, [{"negate_text": {"target": "chosen"}}], targets=["k"])
    return power(e, "k"), seen(e, "k")["negated"]


def s_brackets_included(m: str | None) -> Any:
    """12.4 但し、【 】に囲まれた記述も含み無効にする、という旨が記述される場合は無効になる。"""
    e = start({"p1": {"field": [char("k", "2/2", texts=[_self_buff(True)])]}}, m)
    resolve(e, [{"negate_text": {"target": "chosen", "include_unnegatable": True}}],
            targets=["k"])
    return power(e, "k")


def s_negate_auto(m: str | None) -> Any:
    """QA-020: 「自動効果を無効にする」 cannot negate a 【】 auto effect (k1 still draws d1);
    the plain auto effect of k2 is negated (it would have drawn d2)."""
    def watcher(unnegatable: bool) -> dict[str, Any]:
        return {"kind": "auto", "unnegatable": unnegatable,
                "when": {"event": "enters_field", "filter": {}}, "effect": [DRAW1]}
    e = start({"p1": {"deck": cards("d1", "d2"), "hand": [char("n", "1/1")],
                      "field": [char("k1", texts=[watcher(True)]),
                                char("k2", texts=[watcher(False)])]}}, m)
    resolve(e, [{"negate_auto": {"target": {"all": {"type": "character"}}}}])
    do(e, {"put_onto_field": "n", "by": "p1"})
    return e.observe()["players"]["p1"]["hand"]


def _no445_board(m: str | None) -> Engine:
    # 12.4 supplement: No.345 gives characters a 【】 clause; No.445 negates an effect of
    # the opponent's card that targets you/your hand.  The texts are reconstructed
    # (README for No.445; No.345's gained clause is the smallest one that targets a hand).
    no445 = spell("k445", number=445, name="禁弾「カタディオプトリック」", texts=[
        {"kind": "auto", "when": {"event": "targeted", "filter": {"controller": "self"}},
         "effect": [{"destroy": {"target": "this"}}, {"negate_effect": {}}]}])
    gained = {"kind": "auto", "unnegatable": True,
              "when": {"event": "enters_field", "filter": {"controller": "self"}},
              "effect": [{"discard": {"player": "opponent", "count": 1}}]}
    no345 = spell("s345", number=345, name="開海「海が割れる日」", texts=[
        {"kind": "play", "gain": [gained],
         "applies_to": {"all": {"controller": "self", "type": "character"}}}])
    return start({"p1": {"hand": cards("h1"), "field": [no445]},
                  "p2": {"hand": [no345, char("d", "1/1")], "field": [char("c", "2/2")]}}, m)


def s_produced_effect_negated(m: str | None) -> Any:
    """12.4/p2, QA-102, 補足: the effect produced by the 【】 clause No.345 gave can be
    negated by No.445 (the discard does not happen, No.445 is destroyed)."""
    e = _no445_board(m)
    do(e, {"play": "s345", "by": "p2", "pay_nodes": 0})
    events = do(e, {"put_onto_field": "d", "by": "p2"})
    negated = [ev for ev in events if ev["type"] == "negated"]
    return seen(e, "h1")["zone"], seen(e, "k445")["zone"], [(n["card"], n["what"])
                                                            for n in negated]


def s_gained_brackets_survive_negate_text(m: str | None) -> Any:
    """12.4/p1 + 補足: negating the character's text leaves the gained 【】 clause working,
    so it still fires (and No.445 still negates what it produced)."""
    e = _no445_board(m)
    do(e, {"play": "s345", "by": "p2", "pay_nodes": 0})
    resolve(e, [{"negate_text": {"target": "chosen"}}], by="p1", targets=["c"])
    do(e, {"put_onto_field": "d", "by": "p2"})
    return seen(e, "h1")["zone"], seen(e, "k445")["zone"]


# -- 3.2.5: shuffle -------------------------------------------------------------------

DECK_ABC = {"p1": {"deck": [spell("a", name="A"), spell("b", name="B"), spell("c", name="C")]}}
SHUFFLY = ("look", "reveal", "shuffle", "draw", "resolved")


def _deck_events(m: str | None, effect: list[dict[str, Any]]) -> list[str]:
    return kinds(resolve(start(DECK_ABC, m), effect), SHUFFLY)


def s_look_all(m: str | None) -> Any:
    """3.2.5 全て見た時…効果の解決終了時…デッキをシャッフルする: look, then shuffle at the end."""
    return _deck_events(m, [{"look": {"player": "self", "all": True}}])


def s_look_all_then_draw(m: str | None) -> Any:
    """3.2.5: the shuffle comes at the end of the resolution; the same effect's own draw
    is not "another effect", so it draws first."""
    return _deck_events(m, [{"look": {"player": "self", "all": True}}, DRAW1])


def s_other_effect_mid_resolution(m: str | None) -> Any:
    """3.2.5 他の効果でデッキのカードをドローする等、操作する場合、その直前に: a trigger's draw
    during the resolution is preceded by the shuffle."""
    e = start({"p1": {"deck": cards("a", "b", "c"),
                      "field": [spell("w", texts=[
                          {"kind": "auto", "when": {"event": "would_deathblow",
                                                    "filter": {"controller": "opponent"}},
                           "effect": [DRAW1]}])]},
               "p2": {"field": [char("t", "1/1")]}}, m)
    events = resolve(e, [{"look": {"player": "self", "all": True}},
                         {"damage": {"target": {"card": "t"}, "amount": 1}}])
    return kinds(events, ("look", "shuffle", "draw"))


def s_effect_says_shuffle(m: str | None) -> Any:
    """3.2.5 効果でシャッフルを指示されなかった場合: when it did, only its own shuffle happens."""
    return _deck_events(m, [{"look": {"player": "self", "all": True}},
                            {"shuffle": {"player": "self"}}])


def s_partial_look(m: str | None) -> Any:
    """3.2.5.a 一部である場合、デッキのシャッフルは行わない (count 2 of 3; until stops at B)."""
    return (_deck_events(m, [{"look": {"player": "self", "count": 2}}]),
            _deck_events(m, [{"reveal": {"player": "self", "until": {"name_ref": "B"}}}]))


def s_counted_whole(m: str | None) -> Any:
    """3.2.5.b 枚数を指定する効果によって結果的にデッキの全てを…見た場合はシャッフルしない。"""
    return (_deck_events(m, [{"look": {"player": "self", "count": 3}}]),
            _deck_events(m, [{"reveal": {"player": "self", "count": 5}}]))


def s_until_whole(m: str | None) -> Any:
    """3.2.5.b 枚数を指定しない効果によって結果的にデッキの全てを公開…もシャッフルする
    (no match at all; a match on the last card)."""
    return (_deck_events(m, [{"reveal": {"player": "self", "until": {"name_ref": "Z"}}}]),
            _deck_events(m, [{"reveal": {"player": "self", "until": {"name_ref": "C"}}}]))


# -- the table: scenario -> (expected from the seed, rules it checks) -------------------

NO_SHUFFLE = ["look", "resolved"]
Scenario = Callable[[str | None], Any]
SCENARIOS: dict[str, tuple[Scenario, Any, set[str]]] = {
    "head-first": (s_head_first, ("graveyard", True), {"vision/IR-12/p1"}),
    "whole-text-order": (s_whole_text_order, ["t1", "t2"], {"vision/IR-12/p1"}),
    "failed-part-stops": (s_failed_part_stops, ("deck", False), {"vision/IR-12/p2"}),
    "all-partial": (s_all_partial, ("graveyard", "field", "hand", True), {"vision/IR-12/p3"}),
    "all-zero": (s_all_zero, ("hand", True), {"vision/IR-12/p4"}),
    "example-12.3.1": (s_example_12_3_1, ("graveyard", "field"),
                       {"vision/IR-12.3", "vision/IR-12.3.1", "vision/ex-12.3.1"}),
    "link-names": (s_reference_sees_link_names, "graveyard",
                   {"vision/IR-12.3", "vision/QA-2014-11-27"}),
    "same-name": (s_same_name, ("graveyard", "field"), {"vision/IR-12.3.2"}),
    "disguise": (s_disguise, ["B", "X", "Y"], {"vision/QA-2014-11-27"}),
    "x-paid": (s_x_is_nodes_paid, (4, 2), {"vision/QA-269"}),
    "change-before-add": (s_change_before_add, (5, 5),
                          {"vision/IR-6.1.10", "vision/IR-6.1.10.a", "vision/IR-6.1.10.c"}),
    "change-before-swap": (s_change_before_swap, (3, 5),
                           {"vision/IR-6.1.10", "vision/IR-6.1.10.a", "vision/IR-6.1.10.b"}),
    "swap-before-add": (s_swap_before_add, (5, 1),
                        {"vision/IR-6.1.10", "vision/IR-6.1.10.b", "vision/IR-6.1.10.c"}),
    "always-last": (s_always_last, (1, 1), {"vision/IR-6.1.10", "vision/IR-6.1.10.d"}),
    "last-change-wins": (s_last_change_wins, (1, 1), {"vision/QA-298"}),
    "variable-then-change": (s_variable_then_change, (1, 1),
                             {"vision/QA-356", "vision/IR-6.1.10"}),
    "change-after-variable": (s_change_after_variable, (4, 4), {"vision/QA-356"}),
    "recomputed-source-leaves": (s_recomputed_when_source_leaves, ((3, 3), (2, 2)),
                                 {"vision/IR-6.1.10"}),
    "variable-recomputed": (s_variable_recomputed, ((1, 1), (2, 2)), {"vision/IR-6.1.10"}),
    "damage-equals-durability": (s_damage_equals_durability, (True, False),
                                 {"vision/IR-9.2.2", "vision/IR-9.2.2.a"}),
    "durability-zero": (s_durability_zero, (True, "graveyard"), {"vision/IR-9.2.2.b"}),
    "durability-beats-effects": (s_durability_beats_effects, ("graveyard", True, True),
                                 {"vision/IR-9.2.2.b", "vision/QA-2013-11-13"}),
    "damage-deathblow-replaced": (s_damage_deathblow_can_be_replaced,
                                  ("hand", True, "graveyard"), {"vision/IR-9.2.2.b"}),
    "shisaru-by-effect-only": (s_shisaru_by_effect_only, ("graveyard", "graveyard", "hand"),
                               {"vision/QA-2013-11-13"}),
    "deathblow-instruction": (s_deathblow_instruction, (True, "s", "graveyard"),
                              {"vision/IR-9.2.2.c", "vision/IR-1.10.12.f"}),
    "deathblow-cause": (s_deathblow_cause, ("a", "s"), {"vision/IR-1.10.12.f"}),
    "by-battle": (s_by_battle, (True, False, 1), {"vision/QA-363"}),
    "negated-text": (s_negated_text, ((2, 2), True, "deck"), {"vision/IR-2.12.3"}),
    "brackets-survive": (s_brackets_survive, ((3, 3), True),
                         {"vision/IR-12.4", "vision/IR-12.4/p1", "vision/IR-2.12.3"}),
    "brackets-included": (s_brackets_included, (2, 2), {"vision/IR-12.4"}),
    "negate-auto": (s_negate_auto, ["d1"], {"vision/QA-020", "vision/IR-12.4"}),
    "produced-effect-negated": (s_produced_effect_negated,
                                ("hand", "graveyard", [("c", "effect")]),
                                {"vision/IR-12.4/p2", "vision/IR-12.4/supplement",
                                 "vision/QA-102"}),
    "gained-brackets-survive": (s_gained_brackets_survive_negate_text, ("hand", "graveyard"),
                                {"vision/IR-12.4/p1", "vision/IR-12.4/supplement",
                                 "vision/IR-2.12.3", "vision/IR-12.4"}),
    "look-all": (s_look_all, ["look", "shuffle", "resolved"], {"vision/IR-3.2.5"}),
    "look-all-then-draw": (s_look_all_then_draw, ["look", "draw", "shuffle", "resolved"],
                           {"vision/IR-3.2.5"}),
    "other-effect-mid-resolution": (s_other_effect_mid_resolution, ["look", "shuffle", "draw"],
                                    {"vision/IR-3.2.5"}),
    "effect-says-shuffle": (s_effect_says_shuffle, ["look", "shuffle", "resolved"],
                            {"vision/IR-3.2.5"}),
    "partial-look": (s_partial_look, (NO_SHUFFLE, ["reveal", "resolved"]),
                     {"vision/IR-3.2.5.a"}),
    "counted-whole": (s_counted_whole, (NO_SHUFFLE, ["reveal", "resolved"]),
                      {"vision/IR-3.2.5.b"}),
    "until-whole": (s_until_whole, (["reveal", "shuffle", "resolved"],
                                    ["reveal", "shuffle", "resolved"]), {"vision/IR-3.2.5.b"}),
}

#: mutant -> the scenario that tells it apart from the reference.
KILLS: dict[str, str] = {
    "parts-applied-tail-first": "head-first",
    "failed-part-continues": "failed-part-stops",
    "all-fails-on-partial": "all-partial",
    "all-zero-targets-fails": "all-zero",
    "name-ref-printed-only": "link-names",
    "name-ref-exact": "example-12.3.1",
    "name-ref-any-word": "example-12.3.1",
    "same-name-substring": "same-name",
    "disguise-replaces-link-names": "disguise",
    "x-includes-modifier": "x-paid",
    "modifiers-in-arrival-order": "change-before-add",
    "power-not-recomputed": "recomputed-source-leaves",
    "variable-as-late-change": "variable-then-change",
    "change-after-swap": "change-before-swap",
    "swap-after-add": "swap-before-add",
    "add-first": "change-before-add",
    "always-first": "always-last",
    "change-first-wins": "last-change-wins",
    "deathblow-needs-excess-damage": "damage-equals-durability",
    "deathblow-only-below-zero": "durability-zero",
    "durability-zero-yields-to-effects": "durability-beats-effects",
    "durability-deathblow-by-modifier-card": "shisaru-by-effect-only",
    "battle-damage-is-an-effect": "shisaru-by-effect-only",
    "deathblow-instruction-ignored": "deathblow-instruction",
    "deathblow-cause-is-controller": "deathblow-cause",
    "battle-flag-on-effect-damage": "by-battle",
    "negation-spares-continuous": "negated-text",
    "brackets-negated-with-text": "brackets-survive",
    "include-unnegatable-ignored": "brackets-included",
    "brackets-negated-by-negate-auto": "negate-auto",
    "produced-effects-unnegatable": "produced-effect-negated",
    "no-auto-shuffle": "look-all",
    "shuffle-at-start": "look-all",
    "shuffle-immediately": "look-all-then-draw",
    "no-shuffle-before-other-effect": "other-effect-mid-resolution",
    "shuffle-despite-instruction": "effect-says-shuffle",
    "shuffle-after-partial-reveal": "partial-look",
    "shuffle-after-counted-reveal": "counted-whole",
    "no-shuffle-after-until": "until-whole",
    # Mutants told apart by a catalogue case (its expectations quote the seed): the
    # reference passes it and the mutant fails it.
    "first-part-applied-last": "case:vision/ir-12-p1/damage-then-return",
    "moves-applied-last": "case:vision/ir-12-p1/return-then-damage",
    "text-split-into-effects": "case:vision/ir-12-p2/failed-discard-stops-draw",
    "short-draw-draws-what-is-there": "case:vision/ir-12-p2/short-draw-stops-rest",
    "chosen-partial-succeeds": "case:vision/ir-12-p2/several-chosen-one-unaffected",
    "all-stops-at-first-unaffected": "case:vision/ir-12-p3/all-partially-immune-succeeds",
    "all-verdict-from-last-card": "case:vision/ir-12-p3/all-every-card-unaffected",
    "all-sees-active-player-only": "case:vision/ir-12-p3/damage-all-one-immune",
    "all-fails-when-no-card-affected": "case:vision/ir-12-p3/all-every-card-unaffected",
    "always-adds": "case:vision/ir-6-1-10-d/always-sets-after-add",
    "variable-counted-once": "case:vision/ir-6-1-10/variable-follows-hand",
    "power-floored-at-zero": "case:vision/ir-6-1-10/negative-attack",
    "continuous-before-instructions":
        "case:vision/qa-298/continuous-change-entering-after-instruction",
    "play-without-target-accepted": "case:vision/ir-12-p4/play-all-with-no-match-vs-no-target",
    "damage-kept-off-field": "case:vision/ir-9-2-2-a/damage-gone-after-leaving-field",
    "damage-to-non-character-applies": "case:vision/ir-12-p2/damage-to-a-spell-stops-rest",
    "off-field-part-does-nothing": "case:vision/ir-9-2-2/lethal-damage-then-same-card",
    "chosen-stops-at-first-unaffected":
        "case:vision/ir-12-p2/chosen-list-immune-first-still-reaches-the-other",
    "lethal-damage-beats-effects": "case:vision/ir-9-2-2-b/not-deathblow-text-stops-damage",
    "negated-effect-refunds-cost": "case:vision/ir-12-4-p2/negated-effect-keeps-costs",
    "battle-damage-from-printed-attack":
        "case:vision/ir-6-1-10/battle-damage-from-modified-attack",
    "destroyed-before-has-put":
        "case:vision/qa-2013-11-13/shisaru-returns-on-opponent-effect-damage",
    "negate-auto-silences-continuous": "case:vision/qa-020/negate-auto-leaves-continuous",
    "targeted-by-own-effect": "case:vision/ir-12-4-supplement/own-effect-does-not-set-off-445",
    "short-counted-reveal-fails": "case:vision/ir-3-2-5-b/counted-reveal-shows-what-is-there",
    "empty-all-fizzles-effect": "case:vision/ir-12-p4/all-with-no-match",
    "play-rejected-on-empty-all": "case:vision/ir-12-p4/play-all-with-no-match",
    "name-ref-prefix": "case:vision/ex-12-3-1/reimu-card-vs-shrine",
    "name-ref-either-way": "case:vision/ir-12-3-1/partial-name-reference-on-field",
    "same-name-ignores-spaces": "case:vision/ir-12-3-2/space-is-part-of-name",
    "same-name-without-title": "case:vision/ir-12-3-2/title-is-part-of-name",
    "same-name-printed-only": "case:vision/ir-12-3-2/same-name-through-link",
    "disguise-adds-name": "case:vision/qa-2014-11-27/disguise-keeps-link-names",
    "disguise-ignored-on-linked-card": "case:vision/qa-2014-11-27/disguise-keeps-link-names",
    "x-is-declared-cost": "case:vision/qa-269/x-equals-nodes-paid",
    "cost-modifier-ignored": "case:vision/qa-269/fixed-cost-under-modifier",
    "variable-applied-last": "case:vision/ir-6-1-10/variable-fixed-before-modifiers",
    "change-skips-variable-power": "case:vision/qa-356/change-overrides-variable-power",
    "change-after-add": "case:vision/ir-6-1-10/all-four-kinds-in-reverse-arrival",
    "sets-share-last-layer": "case:vision/ir-6-1-10/all-four-kinds-in-reverse-arrival",
    "swap-last": "case:vision/ir-6-1-10/all-four-kinds-in-reverse-arrival",
    "swaps-do-not-toggle": "case:vision/ir-6-1-10-b/two-swaps-swap-back",
    "add-last": "case:vision/ir-6-1-10/always-after-add",
    "adds-do-not-stack": "case:vision/ir-6-1-10-c/two-adds-add-up",
    "last-change-replaces-whole": "case:vision/qa-298/changes-overlap-per-item",
    "largest-change-wins": "case:vision/qa-298/changes-overlap-per-item",
    "damage-not-accumulated": "case:vision/ir-9-2-2-a/accumulated-damage-reaches-durability",
    "lethal-against-printed-durability":
        "case:vision/ir-6-1-10/modified-durability-decides-deathblow",
    "deathblow-checked-at-end-of-action": "case:vision/ir-9-2-2/lethal-damage-then-return",
    "durability-one-is-lethal": "case:vision/ir-9-2-2-b/durability-one-survives",
    "durability-checked-only-with-damage": "case:vision/ir-9-2-2-b/durability-zero-by-modifier",
    "durability-modifier-is-cause":
        "case:vision/qa-2013-11-13/durability-deathblow-not-by-the-card",
    "deathblow-instruction-destroys": "case:vision/ir-9-2-2-c/deathblow-instruction",
    "deathblow-instruction-ignores-immunity": "case:vision/ir-9-2-2-c/immune-to-deathblow-effect",
    "cause-is-first-damage-source": "case:vision/ir-1-10-12-f/cause-between-two-effect-sources",
    "cause-only-for-battle-damage": "case:vision/ir-1-10-12-f/cause-between-two-effect-sources",
    "battle-flag-if-battle-damaged": "case:vision/ir-1-10-12-f/no-damage-cause-without-damage",
    "battle-flag-never": "case:vision/ir-1-10-12-f/cause-is-finishing-battle-source",
    "damage-cause-not-spent": "case:vision/ir-1-10-12-f/no-damage-cause-without-damage",
    "negation-spares-auto": "case:vision/ir-12-4/negation-including-bracketed-auto",
    "negated-cost-modifier-stays": "case:vision/ir-2-12-3/negated-cost-modifier",
    "bracketed-continuous-negated-with-text": "case:vision/ir-2-12-3/negated-text-continuous",
    "bracketed-auto-negated-with-text": "case:vision/ir-2-12-3/negated-text-auto-clauses",
    "latest-negation-decides": "case:vision/ir-12-4/plain-negation-after-total",
    "gained-brackets-negated-by-negate-auto":
        "case:vision/ir-12-4-supplement/kaikai-gained-clause-not-negatable",
    "bracket-protection-per-card": "case:vision/qa-020/bracketed-auto-beside-a-plain-one",
    "negating-effect-negates-its-text":
        "case:vision/ir-12-4-supplement/kaikai-negated-effect-leaves-the-clause",
    "negation-stops-only-targeting-parts":
        "case:vision/ir-12-4-supplement/kaikai-gained-effect-negated",
    "until-reveal-always-shuffles": "case:vision/ir-3-2-5-a/reveal-until-stops-midway",
    "whole-deck-off-by-one": "case:vision/ir-3-2-5-a/reveal-until-stops-midway",
    "empty-deck-reveal-shuffles": "case:vision/ir-3-2-5/empty-deck-reveal-no-shuffle",
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_reference_follows_the_seed(name: str) -> None:
    scenario, expected, _ = SCENARIOS[name]
    assert scenario(None) == expected


def case_status(case_id: str, mutant: str | None) -> tuple[str, set[str]]:
    """Run one catalogue case on the reference (or a mutant): its status and rules."""
    case = next(c for c in CATALOGUE.cases if c.id == case_id)
    spec = f"reference:{mutant}" if mutant else "reference"
    run = Runner(CATALOGUE, load_engine(spec), spec, get_profile("quick"))
    run.handshake()
    try:
        return run.run_case(case).status, set(case.rules)
    finally:
        run.engine.close()


CATALOGUE = load_catalogue(Path(__file__).resolve().parents[2] / "cases", ["vision"])


@pytest.mark.parametrize("mutant", list(KILLS))
def test_mutant_differs_from_reference(mutant: str) -> None:
    if KILLS[mutant].startswith("case:"):
        case_id = KILLS[mutant].removeprefix("case:")
        assert case_status(case_id, None)[0] == "pass"
        status, checked = case_status(case_id, mutant)
        assert checked & set(MUTANTS[mutant].rules), "the killing case checks another rule"
        assert status == "fail"
        return
    scenario, expected, checked = SCENARIOS[KILLS[mutant]]
    assert checked & set(MUTANTS[mutant].rules), "the killing scenario checks another rule"
    assert scenario(mutant) != expected


@pytest.mark.parametrize("mutant", list(KILLS))
def test_mutants_play_every_scenario_without_crashing(mutant: str) -> None:
    """A mutant must be *killed* (wrong answer), never merely errored."""
    for scenario, _, _ in SCENARIOS.values():
        scenario(mutant)


def test_every_mutant_has_a_killing_scenario() -> None:
    assert set(KILLS) == {m.name for m in list_mutants("vision")}


def test_every_rule_id_is_broken_by_some_mutant() -> None:
    broken = {rule for m in list_mutants("vision") for rule in m.rules
              if "/reading/" not in rule and "/context/" not in rule}
    assert broken == RULE_IDS


def test_every_rule_id_is_exercised_by_a_scenario() -> None:
    assert set().union(*(rules for _, _, rules in SCENARIOS.values())) == RULE_IDS


@pytest.mark.parametrize("rule", sorted(RULE_IDS))
def test_every_mutant_of_a_rule_is_killed_by_a_scenario_of_that_rule(rule: str) -> None:
    for mutant in (m for m in list_mutants("vision") if rule in m.rules):
        kill = KILLS[mutant.name]
        if kill.startswith("case:"):
            checked = set(next(c for c in CATALOGUE.cases
                                if c.id == kill.removeprefix("case:")).rules)
        else:
            checked = SCENARIOS[kill][2]
        assert checked & set(mutant.rules)


LAYER_MODS = {
    "change": mod("change", attack=4),
    "swap": mod("swap"),
    "add": mod("add", attack=1, durability=1),
    "always": mod("always", durability=6),
}


@settings(max_examples=25, derandomize=True, deadline=None)
@given(st.permutations(list(LAYER_MODS)))
def test_power_does_not_depend_on_arrival_order_across_layers(order: list[str]) -> None:
    """6.1.10: 1/3 → change attack 4 (4/3) → swap (3/4) → add +1/+1 (4/5) → always dur 6.

    No intermediate state reaches durability 0 (which would put it into deathblow)."""
    assert _modded(None, "1/3", *(LAYER_MODS[k] for k in order)) == (4, 6)


# -- more rule detail through the protocol --------------------------------------------

def test_resolved_event_reports_a_stopped_text() -> None:
    e = start({"p2": {"field": [char("im", "1/5", immune=["damage"])]}, "p1": {"deck": cards("d")}})
    events = resolve(e, [{"damage": {"target": {"card": "im"}, "amount": 1}}, DRAW1])
    assert {"type": "resolved", "source": None, "completed": False} in events
    assert "draw" not in kinds(events)


def test_effect_damage_event_names_its_source_and_is_not_battle() -> None:
    e = start({"p1": {"field": [char("s", "1/1")]}, "p2": {"field": [char("t", "1/5")]}})
    events = resolve(e, [{"damage": {"target": "chosen", "amount": 2}}], source="s",
                     targets=["t"])
    assert {"type": "damage", "card": "t", "amount": 2, "battle": False, "source": "s"} in events


def test_battle_deathblow_event_and_destruction() -> None:
    """9.2.2.a then (9.2.3, context) the card is destroyed; the observation keeps the record."""
    e = start({"p1": {"field": [char("a", "3/3")]}, "p2": {"field": [char("t", "1/3")]}})
    events = do(e, {"battle_damage": {"target": "t", "amount": 3, "source": "a"}})
    assert kinds(events, ("damage", "deathblow", "destroyed")) == ["damage", "deathblow",
                                                                   "destroyed"]
    assert {"type": "deathblow", "card": "t", "cause": "a", "battle": True} in events
    assert holds(seen(e, "t"), deathblow=True, deathblow_cause="a", deathblow_by_battle=True,
                 zone="graveyard")


def test_lowered_durability_meets_existing_damage() -> None:
    """9.2.2.a holds whenever damage is at or above durability, also after durability drops."""
    e = start({"p1": {"field": [char("s", "1/1")]}, "p2": {"field": [char("t", "1/4", damage=2)]}})
    resolve(e, [mod("add", target={"card": "t"}, durability=-2)], source="s")
    assert seen(e, "t")["deathblow"] is True


def test_no_deathblow_below_durability() -> None:
    e = start({"p2": {"field": [char("t", "1/3")]}})
    do(e, {"battle_damage": {"target": "t", "amount": 2}})
    assert holds(seen(e, "t"), damage=2, deathblow=False, zone="field")


def test_same_name_matches_a_link_name_exactly() -> None:
    """12.3.2 compares names whole; a link name is one of the card's names (2014-11-27)."""
    e = start({"p2": {"field": [char("L", name="A", link_names=["霊夢"]), char("r", name="霊夢"),
                                char("q", name="博麗 霊夢")]}})
    resolve(e, [{"destroy": {"target": {"all": {"same_name_as": "r", "not": "r"}}}}])
    assert (seen(e, "L")["zone"], seen(e, "q")["zone"]) == ("graveyard", "field")


def test_disguised_card_is_referred_to_by_new_and_link_names_not_old() -> None:
    e = start({"p2": {"field": [char("c", name="A", link_names=["X"]), char("o", name="Other")]}})
    resolve(e, [{"change_name": {"target": {"card": "c"}, "name": "B"}}])
    resolve(e, [{"destroy": {"target": {"all": {"name_ref": "A"}}}}])
    assert seen(e, "c")["zone"] == "field"
    resolve(e, [{"destroy": {"target": {"all": {"name_ref": "X"}}}}])
    assert seen(e, "c")["zone"] == "graveyard"


def test_x_without_cost_modifier_and_fixed_cost_payment() -> None:
    e = start({"p1": {"nodes": 5, "hand": [spell("s", cost=3), spell("x", cost="X", texts=[
        {"kind": "play", "effect": [{"damage": {"target": "chosen", "amount": "X"}}]}])]},
        "p2": {"field": [char("t", "1/9")]}})
    do(e, {"play": "s", "by": "p1", "pay_nodes": 3})
    do(e, {"play": "x", "by": "p1", "pay_nodes": 2, "targets": ["t"]})
    assert seen(e, "t")["damage"] == 2
    assert holds(e.observe()["players"]["p1"], nodes=0, graveyard=["s", "x"])


def test_cost_modifier_lowers_the_cost_due() -> None:
    e = start({"p1": {"nodes": 3, "hand": [spell("s", cost=3)], "field": [spell("c1", texts=[
        {"kind": "continuous", "modifier": {"cost": -1}}])]}})
    assert e.act({"play": "s", "by": "p1", "pay_nodes": 3})["accepted"] is False
    do(e, {"play": "s", "by": "p1", "pay_nodes": 2})
    assert e.observe()["players"]["p1"]["nodes"] == 1


def test_negated_play_effect_keeps_paid_cost() -> None:
    """A negated effect does nothing, but the cost paid for it stays paid."""
    e = start({"p1": {"hand": cards("h1"), "field": [spell("k445", texts=[
        {"kind": "auto", "when": {"event": "targeted", "filter": {"controller": "self"}},
         "effect": [{"negate_effect": {}}]}])]},
        "p2": {"nodes": 2, "hand": [spell("s", cost=2, texts=[
            {"kind": "play", "effect": [{"discard": {"player": "opponent", "count": 1}}]}])]}})
    events = do(e, {"play": "s", "by": "p2", "pay_nodes": 2})
    assert {"type": "negated", "card": "s", "what": "effect"} in events
    assert seen(e, "h1")["zone"] == "hand"
    assert holds(e.observe()["players"]["p2"], nodes=0, graveyard=["s"])


def test_targeted_trigger_ignores_own_effects() -> None:
    e = start({"p1": {"hand": cards("h1"), "deck": cards("d"), "field": [spell("k445", texts=[
        {"kind": "auto", "when": {"event": "targeted", "filter": {"controller": "self"}},
         "effect": [{"negate_effect": {}}]}])]}})
    events = resolve(e, [DRAW1])
    assert "negated" not in kinds(events)
    assert seen(e, "d")["zone"] == "hand"


def test_failed_no445_destroy_keeps_the_effect() -> None:
    """IR-12/p2 on No.445: if it cannot destroy itself, the negation part is not applied."""
    e = start({"p1": {"hand": cards("h1"), "field": [spell("k445", immune=["destroy"], texts=[
        {"kind": "auto", "when": {"event": "targeted", "filter": {"controller": "self"}},
         "effect": [{"destroy": {"target": "this"}}, {"negate_effect": {}}]}])]},
        "p2": {"field": [char("s")]}})
    resolve(e, [{"discard": {"player": "opponent", "count": 1}}], by="p2", source="s")
    assert seen(e, "h1")["zone"] == "graveyard"


def test_targeted_triggers_answering_each_other_terminate() -> None:
    """Two cards that answer every targeting with a targeting: the chain is bounded."""
    def pong(cid: str) -> dict[str, Any]:
        return spell(cid, texts=[{"kind": "auto", "when": {"event": "targeted", "filter": {}},
                                  "effect": [{"look": {"player": "opponent", "count": 1}}]}])
    e = start({"p1": {"field": [pong("a")], "deck": cards("d1")},
               "p2": {"field": [pong("b")], "deck": cards("d2")}})
    events = resolve(e, [{"look": {"player": "opponent", "count": 1}}])
    assert events[-1] == {"type": "resolved", "source": None, "completed": True}


def test_shuffle_happens_before_the_next_effect_and_is_reproducible() -> None:
    """3.2.5 plus determinism: the same setup shuffles the same way every run."""
    setup = {"p1": {"deck": cards(*"abcdefgh")}}
    orders = []
    for _ in range(2):
        e = start(setup)
        resolve(e, [{"look": {"player": "self", "all": True}}])
        events = do(e, {"draw": {"player": "p1", "count": 8}})
        orders.append([ev["card"] for ev in events if ev["type"] == "draw"])
    assert orders[0] == orders[1]
    assert sorted(orders[0]) == list("abcdefgh")


def test_empty_deck_look_all_does_not_shuffle() -> None:
    events = resolve(start({}), [{"look": {"player": "self", "all": True}}])
    assert "shuffle" not in kinds(events)


def test_opponent_deck_reveal_shuffles_that_deck() -> None:
    e = start({"p2": {"deck": cards("a", "b")}})
    events = resolve(e, [{"reveal": {"player": "opponent", "all": True}}])
    assert {"type": "shuffle", "player": "p2"} in events
    assert {"type": "reveal", "player": "p2", "cards": ["a", "b"]} in events


def test_enters_field_trigger_chosen_is_the_entering_card() -> None:
    e = start({"p1": {"hand": [char("n", "1/5")], "field": [spell("w", texts=[
        {"kind": "auto", "when": {"event": "enters_field", "filter": {"type": "character"}},
         "effect": [{"damage": {"target": "chosen", "amount": 1}}]}])]}})
    do(e, {"put_onto_field": "n", "by": "p1"})
    assert seen(e, "n")["damage"] == 1


# -- the protocol ------------------------------------------------------------------------

def test_engine_protocol_and_hello() -> None:
    engine = create_engine()
    assert isinstance(engine, Engine)
    info = engine.hello()
    assert info["name"] == "reference"
    assert info["version"] == "0.1.0"
    assert info["rulesets"] == list(RULESETS) and "vision" in info["rulesets"]
    # the `mutants` capability (docs/protocol.md): every mutant, with what it breaks
    assert [m["name"] for m in info["capabilities"]["mutants"]] == list(MUTANTS)
    assert info["capabilities"]["mutants"][0] == {
        "name": (first := next(iter(MUTANTS.values()))).name, "ruleset": first.ruleset,
        "rules": list(first.rules), "description": first.description}
    engine.close()


def test_unknown_mutant_is_a_value_error_listing_valid_names() -> None:
    with pytest.raises(ValueError, match="name-ref-exact"):
        create_engine("no-such-mutant")


def test_list_mutants_by_ruleset() -> None:
    assert list_mutants("vision") == [m for m in list_mutants() if m.ruleset == "vision"]
    for mutant in list_mutants("vision"):
        assert mutant.ruleset == "vision" and mutant.description and mutant.rules


@pytest.mark.parametrize("ruleset, setup", [
    ("no-such-game", {}),   # a ruleset the reference engine does not model
    ("vision", {"p3": {}}),
    ("vision", {"p1": {"library": []}}),
    ("vision", {"p1": {"hand": [{"id": "a", "colour": "red"}]}}),
    ("vision", {"p1": {"hand": [{"id": "a", "texts": [{"kind": "play",
                                                         "effect": [{"mill": {}}]}]}]}}),
    ("vision", {"p1": {"hand": [{"id": "a"}, {"id": "a"}]}}),
])
def test_start_refuses_what_it_does_not_model(ruleset: str, setup: dict) -> None:
    with pytest.raises(Unsupported):
        create_engine().start(ruleset, setup)


@pytest.mark.parametrize("action", [
    {"attack": {"target": "t"}},
    {"resolve": {"effect": [{"mill": {"count": 1}}]}},
    {"play": "t", "by": "p1", "speed": "fast"},
    {},
])
def test_act_refuses_unknown_actions(action: dict) -> None:
    e = start({"p1": {"hand": [char("t")]}})
    with pytest.raises(Unsupported):
        e.act(action)


@pytest.mark.parametrize("action", [
    {"play": "s", "by": "p1", "pay_nodes": 1},             # wrong amount
    {"play": "s", "by": "p2", "pay_nodes": 2},             # not in p2's hand
    {"play": "big", "by": "p1", "pay_nodes": 5},           # cannot pay
    {"play": "f", "by": "p1", "pay_nodes": 0},             # on the field, not in hand
    {"play": "nope", "by": "p1", "pay_nodes": 0},          # no such card
    {"play": "s", "by": "p1", "pay_nodes": 2, "targets": ["ghost"]},
    {"battle_damage": {"target": "s", "amount": 1}},       # not on the field
    {"draw": {"player": "p1", "count": 2}},                # deck too small
    {"put_onto_field": "f", "by": "p1"},                   # already there
])
def test_rejected_actions_change_nothing(action: dict) -> None:
    e = start({"p1": {"nodes": 2, "deck": cards("d"),
                      "hand": [spell("s", cost=2), spell("big", cost=5)],
                      "field": [char("f", "1/1")]}})
    before = e.observe()
    reply = e.act(action)
    assert reply["accepted"] is False and reply["reason"]
    assert e.observe() == before


def test_act_before_start_is_an_error() -> None:
    with pytest.raises(RuntimeError):
        create_engine().act({"draw": {"player": "p1", "count": 1}})


def test_observation_shape_and_order() -> None:
    e = start({"p1": {"deck": cards("d"), "hand": [char("h")], "field": [char("f", "2/3")]},
               "p2": {"graveyard": [spell("g", name="G")]}})
    state = e.observe()
    assert list(state["cards"]) == ["d", "h", "f", "g"]
    assert state["cards"]["f"] == {
        "zone": "field", "owner": "p1", "names": [], "attack": 2, "durability": 3,
        "damage": 0, "deathblow": False, "deathblow_cause": None,
        "deathblow_by_battle": False, "negated": False}
    assert state["players"]["p2"] == {"nodes": 0, "hand": [], "field": [], "graveyard": ["g"],
                                      "deck_size": 0}


# -- vocabulary added for issue 9 (values read from the seed, or the named reading) ----

def test_already_triggered_effect_of_a_negated_text_is_not_resolved() -> None:
    """2.12.3 テキストが持つ全ての効果は発生せず、解決されない: two cards triggered by the
    same entry negate each other's text; the second effect, already triggered, is not
    resolved, so exactly one negation happens."""
    def jammer(cid: str, other: str) -> dict[str, Any]:
        return char(cid, texts=[{"kind": "auto", "when": {"event": "enters_field",
                                                          "filter": {"controller": "self"}},
                                 "effect": [{"negate_text": {"target": {"card": other}}}]}])
    e = start({"p1": {"hand": [char("n")], "field": [jammer("k1", "k2"), jammer("k2", "k1")]}})
    events = do(e, {"put_onto_field": "n", "by": "p1"})
    assert kinds(events, ("negated",)) == ["negated"]


def test_instant_death_after_battle_damage_is_not_by_battle() -> None:
    """QA-363 戦闘によって発生した効果、例えば「即死」…満たされません: 1 battle damage, then the
    attacker's 即死-style trigger puts the defender into deathblow, not by battle."""
    sokushi = {"kind": "auto", "when": {"event": "battle_damage_dealt", "filter": {}},
               "effect": [{"deathblow": {"target": "chosen"}}]}
    e = start({"p1": {"field": [char("a", "1/3", texts=[sokushi])]},
               "p2": {"field": [char("t", "1/3")]}})
    do(e, {"battle_damage": {"target": "t", "amount": 1, "source": "a"}})
    assert holds(seen(e, "t"), damage=1, deathblow=True, deathblow_by_battle=False,
                 deathblow_cause="a")


def test_not_deathblow_text_yields_only_to_the_durability_rule() -> None:
    """9.2.2.b このルールはカードの効果に優先する (and, read, only .b does): a character whose
    text says it is not put into 決死状態 survives lethal damage, not durability 0."""
    e = start({"p2": {"field": [char("v", "1/3", immune=["deathblow_state"])]}})
    resolve(e, [{"damage": {"target": {"card": "v"}, "amount": 3}}])
    assert holds(seen(e, "v"), zone="field", deathblow=False)
    resolve(e, [mod("add", {"card": "v"}, attack=0, durability=-3)])
    assert holds(seen(e, "v"), deathblow=True)


def test_battle_damage_without_amount_is_the_modified_attack() -> None:
    """6.1.10 単に…攻撃力という場合、この処理を適用した後の値を指す: 1/4, +1/+0 then swap → 5/1."""
    e = start({"p1": {"field": [char("a", "1/4")]}, "p2": {"field": [char("t", "1/9")]}})
    resolve(e, [mod("add", {"card": "a"}, attack=1, durability=0), mod("swap", {"card": "a"})])
    do(e, {"battle_damage": {"target": "t", "source": "a"}})
    assert seen(e, "t")["damage"] == 5


def test_a_play_targeting_a_chosen_card_needs_a_target() -> None:
    """12/p4 (reading play-needs-a-proper-target): "all" with nothing matching is a proper
    target; a chosen target with none given is not, and nothing is paid."""
    snipe = spell("s2", cost=1, texts=[{"kind": "play", "effect": [{"destroy": {"target":
                                                                              "chosen"}}]}])
    sweep = spell("s1", cost=1, texts=[{"kind": "play", "effect": [{"destroy": {"target": {
        "all": {"controller": "opponent"}}}}]}])
    e = start({"p1": {"nodes": 2, "hand": [sweep, snipe]}})
    reply = e.act({"play": "s2", "by": "p1", "pay_nodes": 1})
    assert not reply["accepted"] and e.observe()["players"]["p1"]["nodes"] == 2
    assert completed(do(e, {"play": "s1", "by": "p1", "pay_nodes": 1}))
