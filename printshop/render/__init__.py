"""Stage 5, render: draw laid-out games into PDF bytes (nothing here writes files)."""
