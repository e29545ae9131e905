"""Bridges to outside training engines and servers (TRL, verl, OpenEnv)."""
