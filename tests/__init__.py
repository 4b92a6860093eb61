"""printshop tests; a package so test modules can share helpers (tests.conftest, tests.pdfinspect)."""
