"""Features computed from the core for learners and agents (a layer between
``hotspot.core`` and ``hotspot.agents``): the observation encoding of the
environments and the learned agent (``encoding``), each entry's range and
the normalised flat and image forms (``bounds``), the potential of the
environments' optional reward shaping (``shaping``), and the position
features of the search's value network (``position``)."""
