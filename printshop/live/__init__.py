"""The live preview: a session that keeps a build in memory between edits, `watch` and `serve`."""
