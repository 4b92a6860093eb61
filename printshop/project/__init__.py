"""Project data in: reading YAML with places, the models, layered print data, units, paths and
scaffolds."""
