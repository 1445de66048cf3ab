"""2d6 combat phases with offense and defence action dice."""
