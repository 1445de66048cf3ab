"""Shared dice helpers: exact distributions and their JSON form."""
