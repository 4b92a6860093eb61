"""Checks by domain: the data's meaning (validate), translations, and press files read back (preflight)."""
