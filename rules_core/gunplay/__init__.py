"""d10 ranged combat: size, range, movement, stance, bursts."""
