"""The pipeline: a build planned as jobs, laid out, rendered and committed, with its progress."""
