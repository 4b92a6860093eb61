"""Checks by domain: the data's meaning (validate), translations, and press files read back
(preflight).

validate.py runs every check of the loaded data in a fixed order, which is the diagnostics' order;
each domain is a module: references, look (the shared print data), languages, faces, images (art
files), zones (safe zones), papers (papers and cutters), press (print shops), composition (decks),
rules (game-rule arithmetic), texts and translations. translation_checks.py holds the
language-aware checks of one text. preflight/ reads press files back and checks them against a
print shop's profile.
"""
