"""Features computed from the core for learners and agents (a layer between
``hotspot.core`` and ``hotspot.agents``): the observation encoding of the
environments and the learned agent (``encoding``)."""
