"""Stage 6, write: files put in place at once, and what the cache and fit store keep between runs."""
