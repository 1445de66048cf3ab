"""GURPS Heroic Combat: an abstract mass-combat layer."""
