"""The training recipes: ``python training/train_policy.py``, ``python training/train_ppo.py``
and ``python -m training.train_expert`` (from the repository's root)."""
