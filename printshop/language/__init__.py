"""Languages: text catalogues, one game resolved in one language, where a translation stands, the
translators' workflow."""
