"""Stage 4, lay out: faces' blocks fitted into their frames, design rules across a deck, cards on
sheets."""
