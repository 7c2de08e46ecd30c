"""How the vocabulary's words map to phase.rs's (zones, colours, mana, steps, seats), and
the few constants the adapter's modules share."""

SEATS = {"p1": 0, "p2": 1}
PLAYERS = ("p1", "p2")
ZONE_OF = {"Battlefield": "battlefield", "Hand": "hand", "Library": "library",
           "Graveyard": "graveyard", "Exile": "exile", "Stack": "stack", "Command": "command"}
PHASE_ZONE = {v: k for k, v in ZONE_OF.items()}
COLOR = {"White": "white", "Blue": "blue", "Black": "black", "Red": "red", "Green": "green"}
MANA_COLOR = {"W": "White", "U": "Blue", "B": "Black", "R": "Red", "G": "Green",
              "C": "Colorless"}
SHARD = {"White": "W", "Blue": "U", "Black": "B", "Red": "R", "Green": "G",
         "Colorless": "C"}
#: The vocabulary's timing: "main" is p1's precombat main phase, "combat" a step of combat
#: in which p1 has priority (beginning of combat: no attackers, only instant timing).
STEPS = {"main": "PreCombatMain", "combat": "BeginCombat"}
SETUP_KEYS = {"phase", "active", "p1", "p2"}
PLAYER_KEYS = {"life", "mana", "library", "hand", "battlefield", "graveyard", "exile",
               "command"}
#: Priority passes before giving up on reaching a prompt (a loop would be an engine bug).
MAX_PASSES = 20


PASS = {"type": "PassPriority", "data": None}
#: Zones a card's own ability can be activated from, as Oracle text says so.
ZONE_WORDS = {"Graveyard": "in your graveyard", "Exile": "in exile", "Hand": "in your hand",
              "Command": "in the command zone"}
#: What an `apply` reports: what its text did, not the adapter's ability that carried it.
EFFECT_EVENTS = frozenset({"damage", "prevented", "discard", "moved"})
