"""The soak run, ``python -m soak.soak`` from the repository's root (see ``soak.soak``)."""
