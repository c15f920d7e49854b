"""Stand-in for a planning package acpbench's acp_utils.py imports (see ../README.md)."""
